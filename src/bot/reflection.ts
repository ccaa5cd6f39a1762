/**
 * Reflection: now and then the bot walks back again through the games it has already learned
 * from, with the library as it stands now.
 *
 * Why: a walk back (src/learning/analysis.ts) reaches as far back as the library recognises
 * the winner's earlier threats. A game analysed when the library was small stopped early;
 * walked again once later games have taught more, it reaches further and teaches what it could
 * not teach then. The learning series measured it: walking back again through every game every
 * 20 games, the 300-game series learns 178 subgoals instead of 162, and the frozen library
 * scores 73.1 % against tss over 320 games instead of 65.3 %, though 96.6 % against gomokuai
 * instead of 98.1 %. Reflecting right after every 10 analysed games, as this file does, rather
 * than every 20, gained 2 points against tss on average over three series (+3.0, +2.7, +0.3)
 * and 0.3 against gomokuai (docs/BENCHMARKS.md, 2026-11-28 19:40 to 2026-11-29 08:30;
 * docs/DESIGN.md, "Reflection").
 *
 * Decisions:
 * - Every `every` analysed games of a server (10 by default, as the series), counted in this
 *   process: a restart starts counting again, so a process that restarts before 10 games never
 *   reflects — the price of keeping no counter in storage. 0 turns reflection off.
 * - A pass reads the server's finished games won with a five — the bot's losses and wins
 *   (`records`), and the games between members when the server lets the bot watch
 *   (`versusRecords`) — and walks back through each, oldest first, with the library as it is
 *   then, so a lesson from one game helps the next. What is new is saved as a game's lessons
 *   are (provenance naming that game, through the retrying writer), marked `reflected`.
 * - Off everyone's path: a pass runs after the reply, one game at a time, in a worker of its
 *   own at the lowest priority (analyser.ts `background`, nice 19 on Linux), so a fresh loss's
 *   analysis never waits behind it and the play workers take a contended core first
 *   (bench/reflectionLoad.ts measures replies while every server reflects). One pass at a time
 *   in the process, whatever the server; a server asking for a pass while its last one waits is
 *   not queued twice.
 * - Bounded: a pass stops when it has run `budgetMs` (2 minutes by default; each game's walk is
 *   also under the analysis time limit), and the server's next pass begins where it stopped,
 *   going round to the oldest games after the newest, so a long history is walked in turns.
 * - A memory reset during a pass ends it: lessons from games the reset forgot are not saved
 *   (the check and the save are under the same lock the reset takes).
 * - The bot stopping ends a pass at once (`close`, from GameService.idle): no walk starts, the
 *   one under way fails with its worker, and what it found is not saved.
 */
import type { Game } from '../rules/game.ts';
import { passOrder } from '../learning/reflection.ts';
import type { Library } from '../learning/library.ts';
import type { LearnedOrigin } from './communityRecords.ts';
import type { KeyedLock } from './lock.ts';
import type { BotLog } from './log.ts';
import { errorText } from './log.ts';
import { gameOf, type LearnedRecord } from './records.ts';
import type { BotStore } from './store.ts';

export const DEFAULT_REFLECT_EVERY = 10;
export const DEFAULT_REFLECTION_BUDGET_MS = 120_000;

/** What the service lends reflection: its storage, lock and log, and its own walk back and saving. */
export interface ReflectionDeps {
  readonly store: BotStore;
  readonly lock: KeyedLock;
  readonly log: BotLog;
  readonly now: () => number;
  /** The server's library as it is now. */
  library(guildId: string): Promise<Library>;
  /** Whether the server lets the bot learn from games between members. */
  watching(guildId: string): Promise<boolean>;
  /** The walk back through one game with `library`: the lessons new to it (none when the walk timed out or failed). */
  walk(guildId: string, gameId: string, game: Game, library: Library, now: number, origin: LearnedOrigin | undefined): Promise<readonly LearnedRecord[]>;
  /** Saves a game's lessons as a finished game's are. */
  save(guildId: string, gameId: string, lessons: readonly LearnedRecord[]): Promise<void>;
}

export interface ReflectionOptions {
  /** A pass every this many analysed games of a server (default 20); 0: never. */
  readonly every?: number;
  /** A pass stops after this long (default 2 minutes). */
  readonly budgetMs?: number;
}

/** What one pass did. */
export interface ReflectionPass {
  readonly guildId: string;
  /** Games walked back through, and how many there were. */
  readonly walked: number;
  readonly games: number;
  /** Canonical texts of the subgoals it learned. */
  readonly learned: readonly string[];
  readonly ms: number;
  /** Why it stopped before the last game, if it did. */
  readonly stopped?: 'time' | 'reset' | 'closing' | 'storage';
}

/** A finished game to walk back through. */
interface Walkable {
  readonly id: string;
  readonly endedAt: number;
  readonly game: Game;
  readonly origin: LearnedOrigin | undefined;
}

export class Reflection {
  readonly every: number;
  readonly budgetMs: number;
  readonly #deps: ReflectionDeps;
  /** Analysed games per server since its last pass was asked for. */
  readonly #counts = new Map<string, number>();
  /** Servers with a pass waiting to start, and that pass. */
  readonly #waiting = new Map<string, Promise<ReflectionPass>>();
  /** Every pass asked for and not yet ended. */
  readonly #pending = new Set<Promise<ReflectionPass>>();
  /** Where a server's last pass ran out of time: the first game its next pass walks. */
  readonly #resume = new Map<string, string>();
  /** Bumped by a reset: a pass that sees it change stops. */
  readonly #generations = new Map<string, number>();
  #tail: Promise<unknown> = Promise.resolve();
  #closing = false;

  constructor(deps: ReflectionDeps, options: ReflectionOptions = {}) {
    const every = options.every ?? DEFAULT_REFLECT_EVERY;
    const budgetMs = options.budgetMs ?? DEFAULT_REFLECTION_BUDGET_MS;
    if (!Number.isInteger(every) || every < 0) throw new RangeError(`reflectEvery must be a whole number ≥ 0, not ${every}`);
    if (!(budgetMs > 0)) throw new RangeError(`the reflection budget must be more than 0 ms, not ${budgetMs}`);
    this.every = every;
    this.budgetMs = budgetMs;
    this.#deps = deps;
  }

  /** A game of this server was analysed: every `every` of them, a pass is started (not awaited). */
  analysed(guildId: string): void {
    if (this.every === 0 || this.#closing) return;
    const count = (this.#counts.get(guildId) ?? 0) + 1;
    if (count < this.every) {
      this.#counts.set(guildId, count);
      return;
    }
    this.#counts.set(guildId, 0);
    void this.reflect(guildId);
  }

  /**
   * A pass over this server's games, after the passes already asked for; one already waiting
   * to start for this server is that pass (one running now has read its games already, so a
   * new one is queued). Never rejects: a storage failure ends the pass, logged.
   */
  reflect(guildId: string): Promise<ReflectionPass> {
    const waiting = this.#waiting.get(guildId);
    if (waiting !== undefined) return waiting;
    const pass = this.#tail.then(() => {
      this.#waiting.delete(guildId);
      return this.#pass(guildId);
    });
    const settled = pass.finally(() => this.#pending.delete(settled));
    this.#waiting.set(guildId, settled);
    this.#pending.add(settled);
    this.#tail = settled;
    return settled;
  }

  /** Whether passes are being stopped (`close`): a walk about to start should not. */
  get closing(): boolean {
    return this.#closing;
  }

  /** The server's memory was reset: a pass over it stops, and counting starts again. */
  forget(guildId: string): void {
    this.#generations.set(guildId, (this.#generations.get(guildId) ?? 0) + 1);
    this.#counts.delete(guildId);
    this.#resume.delete(guildId);
  }

  /** Resolves when every pass asked for so far has ended. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /**
   * Stops passes after the game each is walking and waits for them (the service going idle:
   * it stops the walk under way too, by closing reflection's worker, so this does not wait for
   * a whole walk); passes asked for after that run as before.
   */
  async close(): Promise<void> {
    this.#closing = true;
    try {
      await this.settled();
    } finally {
      this.#closing = false;
    }
  }

  async #pass(guildId: string): Promise<ReflectionPass> {
    const started = performance.now();
    const generation = this.#generations.get(guildId) ?? 0;
    const learned: string[] = [];
    let walked = 0;
    let games: Walkable[] = [];
    const end = (stopped?: ReflectionPass['stopped']): ReflectionPass => {
      const pass: ReflectionPass = { guildId, walked, games: games.length, learned, ms: Math.round(performance.now() - started), ...(stopped !== undefined ? { stopped } : {}) };
      this.#deps.log.info('reflected on finished games', { ...pass, learned: learned.length });
      return pass;
    };
    if (this.#closing) return end('closing');
    try {
      games = await this.#walkable(guildId);
      // After a pass that ran out of time, this one begins where it stopped and goes round.
      const order = passOrder(games, this.#resume.get(guildId));
      this.#resume.delete(guildId);
      for (const g of order) {
        if (this.#closing) return end('closing');
        // Every pass walks at least one game, so even a tight budget makes progress.
        if (walked > 0 && performance.now() - started > this.budgetMs) {
          this.#resume.set(guildId, g.id);
          return end('time');
        }
        if ((this.#generations.get(guildId) ?? 0) !== generation) return end('reset');
        const library = await this.#deps.library(guildId);
        const lessons = await this.#deps.walk(guildId, g.id, g.game, library, this.#deps.now(), g.origin);
        walked++;
        if (this.#closing) return end('closing');
        if (lessons.length === 0) continue;
        const saved = await this.#deps.lock.run(`counters:${guildId}`, async () => {
          if ((this.#generations.get(guildId) ?? 0) !== generation) return false;
          await this.#deps.save(guildId, g.id, lessons);
          return true;
        });
        if (!saved) return end('reset');
        learned.push(...lessons.map((l) => l.subgoal.text));
      }
      return end();
    } catch (e) {
      this.#deps.log.warn('reflection stopped: storage failed', { guildId, error: errorText(e) });
      return end('storage');
    }
  }

  /** The server's finished games won with a five that the bot learns from, oldest first. */
  async #walkable(guildId: string): Promise<Walkable[]> {
    const memory = this.#deps.store.guild(guildId);
    const games: Walkable[] = [];
    for (const { value: r } of await memory.records.list()) {
      if (r.ending !== 'five' || (r.outcome !== 'bot-lost' && r.outcome !== 'bot-won')) continue;
      games.push({ id: r.id, endedAt: r.endedAt, game: gameOf(r), origin: r.outcome === 'bot-won' ? { kind: 'win' } : undefined });
    }
    if (await this.#deps.watching(guildId)) {
      for (const { value: v } of await memory.versusRecords.list()) {
        if (v.finished?.ending !== 'five') continue;
        games.push({ id: v.id, endedAt: v.finished.at, game: gameOf(v), origin: { kind: 'watched', black: v.black, white: v.white } });
      }
    }
    return games.sort((a, b) => a.endedAt - b.endedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
