/**
 * What the game service lends the community modules (versus.ts, ratings.ts, pool.ts) so they
 * share its machinery rather than copy it: the same storage and retrying writer, clock, log and
 * game ids; the same per-key lock, so a game between members is serialised as a game against
 * the bot is and `GameService.idle()` waits for both; the same handling of storage outages; and
 * the same walk back through a game, in the same worker pool, for a game the bot watched.
 */
import type { Game } from '../rules/game.ts';
import type { Library } from '../learning/library.ts';
import type { LearnedOrigin } from './communityRecords.ts';
import type { CompiledLibrary } from './libraryCache.ts';
import type { KeyedLock } from './lock.ts';
import type { BotLog } from './log.ts';
import type { BotResult } from './problems.ts';
import type { AnalysisEnd, LearnedReport } from './analyser.ts';
import type { BotStore } from './store.ts';

export interface ServiceKit {
  readonly store: BotStore;
  /** The clock, in ms since the epoch. */
  readonly now: () => number;
  readonly log: BotLog;
  readonly lock: KeyedLock;
  /** How long a game may go without a move before it expires. */
  readonly idleMs: number;
  /** Finished games kept per server, of each kind (`RECORDS_KEPT`; recordSummary.ts). */
  readonly recordsKept: number;
  /** The service's seeded generator, in [0, 1). */
  random(): number;
  /** A new game id, unique in the server. */
  newId(now: number): string;
  /** Storage being unavailable becomes the `storage-unavailable` problem. */
  guarded<T>(work: () => Promise<BotResult<T>>): Promise<BotResult<T>>;
  /** The server's library with its counters, the rule of the game first. */
  library(guildId: string): Promise<Library>;
  /** The server's library as held between commands (libraryCache.ts): no counters, but no read beyond its version once held. */
  heldLibrary(guildId: string): Promise<CompiledLibrary>;
  /**
   * The walk back through a game just won with a five (in a worker, under the time limit); new
   * subgoals are saved with their provenance and `origin`, and published to the pool when the
   * server shares.
   */
  learn(guildId: string, gameId: string, game: Game, library: Library, now: number, origin?: LearnedOrigin): Promise<{ learned: LearnedReport[]; analysis: AnalysisEnd }>;
  /** A finished game has been analysed (or not: `analysis` undefined) and recorded: it counts towards the next reflection (reflection.ts). */
  recorded(guildId: string, analysis: AnalysisEnd | undefined): void;
  /** After writing to the server's library directly: every process holding it reads it again (libraryCache.ts). */
  libraryChanged(guildId: string): Promise<void>;
}
