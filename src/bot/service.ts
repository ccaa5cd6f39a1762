/**
 * The bot's service layer: games against the members of a server, and the server's memory of
 * what the bot learned from losing them. It knows nothing of Discord: the slash commands
 * (commands/*.ts) and the terminal game (src/bot/terminal.ts) both call it, then render what it
 * returns (views.ts). Every call returns a `BotResult`: a value, or a `BotProblem` with a
 * stable code, which means that nothing changed.
 *
 * ## Games
 *
 * - One game per member per channel (key `<channel>.<user>` in the server's `games`). A
 *   challenge while one is being played is refused; a game that has ended stays, so /board
 *   can show how it ended, until the member's next challenge replaces it.
 * - The bot is the `Player` of src/play/player.ts with this server's library. Its move n in a game
 *   is chosen with a generator seeded by (the game's seed, n): one game seed always plays the
 *   same game, and a restart in the middle changes nothing.
 * - A game is saved after the member's move and the bot's answer, in one write, before the
 *   reply: if storage fails, the member is told to try again and the game is as it was.
 * - Moves of one game are applied one at a time (lock.ts). A move that arrives while another
 *   of the same game is being played is refused with `game-moved-on` rather than queued: it
 *   was chosen on a position that no longer exists. Other calls on a game queue.
 * - A game nobody has moved in for `idleMs` (24 h by default) expires: it is recorded as
 *   abandoned (neither a win nor a loss) and put away, either when its member next uses it
 *   or by `expireIdle`, which the bot runs on a timer. Either way a tombstone is left in its
 *   place (records.ts `Tombstone`), so the member's next /move, /board, /resign, /hint or
 *   /threats says that the game expired and when, rather than that there is none. It goes
 *   with the member's next challenge, or after a week (`TOMBSTONE_MS`; the sweep removes it).
 *
 * ## Learning
 *
 * - Every game the bot loses to a five is analysed (src/learning/analysis.ts) with the server's
 *   library as it stood, in a worker thread (analyser.ts) so the event loop stays free for
 *   everyone else, under a time limit (20 s by default): an analysis that runs over, or
 *   fails, teaches nothing, the loss is recorded all the same and the reply says why nothing
 *   was learned. Each new subgoal is stored under its own key with its provenance
 *   (game id, the 1-based number of the winner's move it was learned at, the date) and a
 *   small example for its mnemonic. These writes, and the finished game's record, go through
 *   storage's retrying writer after the ended game itself is saved (the commit: savedLater.ts):
 *   during an outage they are queued, spilled to disk and retried, never lost, and the reply
 *   says so. A game won by resignation has no five to walk back from: nothing is learned.
 * - Every `reflectEvery` (10) analysed games of a server, the server's finished games won
 *   with a five are walked back again with the library as it stands (reflection.ts), in a
 *   worker of their own at the lowest priority, after the reply; what they teach now is saved
 *   the same way, marked `reflected`.
 * - Counters per subgoal (src/learning/library.ts `SubgoalStats`): `recognised` once per game in which
 *   one of its realisations appears on the board, for either colour; `played` each time the
 *   bot plays the node of one of its own realisations (an attack, or completing a five with
 *   the rule `(1) 1:5`); `won` once per game the bot then wins, for each subgoal it played in
 *   that game. Counters are read-modify-write under a per-server lock; a count missed during
 *   an outage is logged and dropped.
 *
 * ## Memory reset
 *
 * `resetMemory` forgets this server's library, counters and finished games (the stats are
 * made from them). Games being played are kept: the members playing them keep their games.
 * A learned subgoal still queued for retry when memory is reset lands afterwards; reset is
 * not a transaction (storage's own decision).
 */
import { randomInt } from 'node:crypto';
import type { Game } from '../rules/game.ts';
import { Library } from '../learning/library.ts';
import { type Level, type MoveChoice, type Player, type PlayerConfig } from '../play/player.ts';
import { makePoint, parsePoint } from '../rules/point.ts';
import { shownInput } from '../rules/result.ts';
import { seededRandom, type Random } from '../rules/random.ts';
import { isStorageUnavailable, StorageUnavailable } from '../storage/index.ts';
import type { Colour } from '../rules/types.ts';
import { AnalysisPool, type AnalysisEnd, type LearnedReport, type LossAnalysis } from './analyser.ts';
import { Reflection } from './reflection.ts';
import type { LearnedOrigin } from './communityRecords.ts';
import type { ServiceKit } from './kit.ts';
import { SharedPool } from './pool.ts';
import { Ratings, type Rated } from './ratings.ts';
import { VersusService } from './versus.ts';
import { exampleOf } from './example.ts';
import { LibraryCache } from './libraryCache.ts';
import { afterUncertainCommit, certainly, type SavedLater } from './savedLater.ts';
import { DEFAULT_RECORDS_KEPT, foldDue, foldQuietly, historyOf, RECORDS_SUMMARY_KEY, withMembers } from './recordSummary.ts';
import { KeyedLock } from './lock.ts';
import { Thinker } from './thinker.ts';
import { listingTexts } from './thinking.ts';
import { errorText, silentLog, type BotLog } from './log.ts';
import { done, refuse, type BotResult } from './problems.ts';
import { memberResults, resignations } from './memberStats.ts';
import { pastGames, replayOf, suggestGames, type PastGames, type Replay } from './replay.ts';
import { starterOf, withStarter, type StarterLibrary } from './starter.ts';
import { noGame } from './elsewhere.ts';
import type { ChallengeOptions, Challenged, GameView, Hinted, LibraryPage, Moved, ServerStats, ThreatsView } from './gameViews.ts';
import { overlineThrough, suggestions } from './movePoints.ts';
import type { BotStore, Seat } from './store.ts';
import type { Ending, Outcome } from './gameTerms.ts';
import {
  gameCodec,
  gameKey,
  gameOf,
  subgoalKey,
  type Example,
  type Finish,
  type FinishedGame,
  type LearnedRecord,
  type StoredGame,
  type Tally,
  type Tombstone,
  TOMBSTONE_MS,
} from './records.ts';

/** How one walk back through a finished game ended, and whose game it was (for metrics). */
export interface AnalysisEvent {
  readonly result: AnalysisEnd['kind'];
  /** The bot's loss (the paper), its own win, a game between members it watched, or an old game walked back again (reflection.ts). */
  readonly from: 'loss' | 'win' | 'watched' | 'reflection';
}

export interface ServiceOptions {
  readonly store: BotStore;
  /** Told of every analysis as it ends: the bot's games and watched ones alike. */
  readonly onAnalysed?: (event: AnalysisEvent) => void;
  /** The clock, in ms since the epoch. */
  readonly now?: () => number;
  /** Seeds the service's generator (game seeds, random colours, game ids); random when absent. */
  readonly seed?: number;
  /** How long a game may go without a move before it expires (default 24 h). */
  readonly idleMs?: number;
  /** The level of a challenge that names none (default 3). */
  readonly defaultLevel?: Level;
  /** Builds the bot's player; `createPlayer` unless a test wants another. */
  readonly newPlayer?: (config: PlayerConfig) => Player;
  /** How long the analysis of a lost game may run before it is given up (default 20 s). */
  readonly analysisLimitMs?: number;
  /** Worker threads for analyses at most (default 2). */
  readonly analysisWorkers?: number;
  /** Walk back again through the server's finished games every this many analysed games (reflection.ts; default 20, 0: never). */
  readonly reflectEvery?: number;
  /** How long one reflection pass may run (default 2 minutes). */
  readonly reflectionBudgetMs?: number;
  /** Worker threads for the player's moves, hints, recognition and pictures (thinker.ts); 0 or unset: this thread. */
  readonly playWorkers?: number;
  /** Finished games kept as records per server; older ones are counted in a summary (recordSummary.ts; default 1000). */
  readonly recordsKept?: number;
  readonly log?: BotLog;
  /** Subgoals a new server starts with (STARTER_LIBRARY; starter.ts). */
  readonly starter?: StarterLibrary;
}

export const DEFAULT_IDLE_MS = 24 * 60 * 60 * 1000;
/** Subgoals per /library page: their text and mnemonics fit one message. */
export const LIBRARY_PAGE_SIZE = 6;

/** Seed of the bot's generator for move n of a game. */
export function moveSeed(gameSeed: number, n: number): number {
  return (Math.imul(gameSeed ^ 0x5bd1e995, 0x27d4eb2d) + Math.imul(n + 1, 0x165667b1)) >>> 0;
}

export class GameService {
  readonly idleMs: number;
  readonly #store: BotStore;
  readonly #now: () => number;
  readonly #rnd: Random;
  readonly #defaultLevel: Level;
  readonly #log: BotLog;
  readonly #lock = new KeyedLock();
  readonly #analyser: AnalysisPool;
  /** One background worker for reflection's walks, so they never hold up a fresh loss's or a move. */
  readonly #reflector: AnalysisPool;
  /** Walks back again through finished games now and then (reflection.ts). */
  readonly reflection: Reflection;
  /** Where moves, hints and recognition are worked out, and pictures drawn (thinker.ts). */
  readonly thinker: Thinker;
  /** Games between members (versus.ts), ratings (ratings.ts), and the watch and share settings with the shared pool (pool.ts). */
  readonly versus: VersusService;
  readonly ratings: Ratings;
  readonly pool: SharedPool;
  readonly #libraries: LibraryCache;
  readonly #recordsKept: number;
  readonly #onAnalysed: (event: AnalysisEvent) => void = () => undefined;
  readonly #starter: StarterLibrary | undefined;
  /** Servers this process has seen seeded with the starter, or holding subgoals of their own. */
  readonly #seeded = new Set<string>();

  constructor(options: ServiceOptions) {
    this.#store = options.store;
    this.#now = options.now ?? Date.now;
    this.#rnd = seededRandom(options.seed ?? randomInt(2 ** 31));
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.#defaultLevel = options.defaultLevel ?? 3;
    this.#log = options.log ?? silentLog;
    this.#analyser = new AnalysisPool({ limitMs: options.analysisLimitMs, workers: options.analysisWorkers });
    this.#reflector = new AnalysisPool({ limitMs: options.analysisLimitMs, workers: 1, background: true });
    this.thinker = new Thinker({ newPlayer: options.newPlayer, workers: options.playWorkers, log: this.#log });
    this.#libraries = new LibraryCache(options.store, { log: this.#log });
    this.#recordsKept = options.recordsKept ?? DEFAULT_RECORDS_KEPT;
    if (options.onAnalysed !== undefined) this.#onAnalysed = options.onAnalysed;
    const kit: ServiceKit = {
      store: this.#store,
      now: this.#now,
      log: this.#log,
      lock: this.#lock,
      idleMs: this.idleMs,
      recordsKept: this.#recordsKept,
      random: () => this.#rnd.next(),
      newId: (now) => this.#newId(now),
      guarded: (work) => this.#guarded(work),
      library: (guildId) => this.#library(guildId),
      heldLibrary: (guildId) => this.#held(guildId),
      libraryChanged: async (guildId) => {
        await this.#libraries.changed(guildId);
      },
      learn: async (guildId, gameId, game, library, now, origin) => {
        const taught = await this.#learn(guildId, { id: gameId }, game, library, now, origin);
        await this.#saveLessons(guildId, gameId, taught.lessons);
        return taught;
      },
      recorded: (guildId, analysis) => {
        if (analysis?.kind === 'analysed') this.reflection.analysed(guildId);
      },
    };
    this.reflection = new Reflection(
      {
        store: this.#store,
        lock: this.#lock,
        log: this.#log,
        now: this.#now,
        library: async (guildId) => (await this.#held(guildId)).library,
        watching: async (guildId) => (await this.pool.settings(guildId)).watch,
        walk: async (guildId, gameId, game, library, now, origin) => (await this.#learn(guildId, { id: gameId }, game, library, now, origin, true)).lessons,
        save: async (guildId, gameId, lessons) => {
          await this.#saveLessons(guildId, gameId, lessons);
        },
      },
      { ...(options.reflectEvery !== undefined ? { every: options.reflectEvery } : {}), ...(options.reflectionBudgetMs !== undefined ? { budgetMs: options.reflectionBudgetMs } : {}) },
    );
    this.ratings = new Ratings(kit);
    this.pool = new SharedPool(kit);
    this.versus = new VersusService(kit, this, this.ratings, this.pool);
    this.#starter = options.starter;
  }

  // -------------------------------------------------------------------------------------------
  // Games

  /** Starts a game for the member in this channel; the bot opens when it plays black. */
  challenge(seat: Seat, options: ChallengeOptions = {}): Promise<BotResult<Challenged>> {
    const key = gameKey(seat.channelId, seat.userId);
    return this.#guarded(() =>
      this.#lock.run(key, async () => {
        const games = this.#store.guild(seat.guildId).games;
        const existing = await games.get(key);
        // An unreadable game is moved aside, not written over (storage/memory.ts).
        if (existing === undefined) await games.moveAsideUnreadable(key);
        let replacedExpired = false;
        if (existing !== undefined && existing.finished === undefined) {
          if (!this.#isIdle(existing)) {
            return refuse({ code: 'game-exists', size: existing.size, human: existing.human, moves: existing.moves.length });
          }
          await this.#expire(seat.guildId, existing);
          replacedExpired = true;
        }
        const now = this.#now();
        const colour = options.colour ?? 'black';
        const human: Colour = colour === 'random' ? (this.#rnd.next() < 0.5 ? 'black' : 'white') : colour;
        let stored: StoredGame = {
          id: this.#newId(now),
          channelId: seat.channelId,
          userId: seat.userId,
          size: options.size ?? 19,
          human,
          level: options.level ?? this.#defaultLevel,
          seed: this.#rnd.int(2 ** 31),
          moves: [],
          startedAt: now,
          updatedAt: now,
          recognised: [],
          played: [],
        };
        let game = gameOf(stored);
        let opening: MoveChoice | undefined;
        if (human === 'white') {
          const held = await this.#held(seat.guildId);
          const thought = await this.thinker.turn(seat.guildId, held, { size: stored.size, moves: [], level: stored.level, seed: moveSeed(stored.seed, 0) });
          const turn = this.#botMove(thought.choice!, stored, game);
          opening = turn.choice;
          stored = { ...stored, moves: game.moves.slice(), played: turn.played };
        }
        await games.put(key, stored);
        // A new game here makes any word of the last one's expiry old news.
        await this.#store.guild(seat.guildId).tombstones.delete(key);
        game = gameOf(stored);
        return done({ stored, game, replacedExpired, ...(opening !== undefined ? { opening } : {}) });
      }),
    );
  }

  /**
   * Plays the member's move and the bot's answer. `pointText` is point notation as typed.
   * Refused, changing nothing, when another move of this game is being played.
   */
  move(seat: Seat, pointText: string): Promise<BotResult<Moved>> {
    const key = gameKey(seat.channelId, seat.userId);
    // Checked before anything is awaited: a second move sent at once must find the first.
    if (this.#lock.isBusy(key)) return Promise.resolve(refuse({ code: 'game-moved-on' }));
    return this.#guarded(() =>
      this.#lock.run(key, async () => {
        const found = await this.#current(seat);
        if (!found.ok) return found;
        let stored = found.value;
        if (stored.finished !== undefined) return refuse({ code: 'game-over', outcome: stored.finished.outcome });
        const game = gameOf(stored);
        if (game.turn !== stored.human) return refuse({ code: 'not-your-turn' });
        const point = parsePoint(stored.size, pointText);
        if (!point.ok) {
          const code = point.error.code === 'point-off-board' ? 'point-off-board' : 'bad-point';
          return refuse({ code, text: shownInput(pointText.trim(), 40), size: stored.size });
        }
        if (!game.board.isEmpty(point.value)) return refuse({ code: 'occupied', point: makePoint(stored.size, point.value) });

        const held = await this.#held(seat.guildId);
        const library = held.library;
        game.play(point.value);
        const overline = overlineThrough(game.board, point.value);
        // The bot's turn is worked out off this thread when there are play workers (thinker.ts).
        const thought = await this.thinker.turn(seat.guildId, held, { size: stored.size, moves: game.moves.slice(), level: stored.level, seed: moveSeed(stored.seed, game.moves.length) });
        const seen = new Set([...stored.recognised, ...thought.before]);
        let reply: MoveChoice | undefined;
        let played = stored.played;
        const playedNow: string[] = [];
        if (thought.choice !== undefined) {
          const turn = this.#botMove(thought.choice, stored, game);
          reply = turn.choice;
          played = turn.played;
          if (turn.playedText !== undefined) playedNow.push(turn.playedText);
          for (const t of thought.after) seen.add(t);
        }
        const newlySeen = [...seen].filter((t) => !stored.recognised.includes(t));
        stored = { ...stored, moves: game.moves.slice(), updatedAt: this.#now(), recognised: [...seen], played };

        let learned: LearnedReport[] = [];
        let analysis: AnalysisEnd | undefined;
        let rated: Rated | undefined;
        let savedLater: SavedLater | undefined;
        if (game.isOver) {
          const status = game.status;
          const outcome: Outcome = status.kind === 'draw' ? 'draw' : status.kind === 'won' && status.winner === stored.human ? 'bot-lost' : 'bot-won';
          const ending: Ending = status.kind === 'draw' ? 'full-board' : 'five';
          const finished = await this.#finish(seat.guildId, stored, game, outcome, ending, library);
          stored = finished.stored;
          learned = finished.learned;
          analysis = finished.analysis;
          rated = finished.rated;
          savedLater = finished.savedLater;
        } else {
          // The commit: a write that lands late is read back rather than reported failed (savedLater.ts).
          const games = this.#store.guild(seat.guildId).games;
          const next = stored;
          await certainly(() => games.put(key, next), async () => sameGame(await games.get(key), next));
        }
        await this.#count(seat.guildId, newlySeen, playedNow, stored.finished?.outcome === 'bot-won' ? stored.played : []);
        return done({
          stored,
          game,
          point: point.value,
          learned,
          ...(overline !== undefined ? { overline } : {}),
          ...(reply !== undefined ? { reply } : {}),
          ...(analysis !== undefined ? { analysis } : {}),
          ...(rated !== undefined ? { rated } : {}),
          ...(savedLater !== undefined ? { savedLater } : {}),
        });
      }),
    );
  }

  /** The member gives up their game: the bot wins, and learns nothing (there is no five). */
  resign(seat: Seat): Promise<BotResult<GameView & { readonly rated?: Rated }>> {
    const key = gameKey(seat.channelId, seat.userId);
    return this.#guarded(() =>
      this.#lock.run(key, async () => {
        const found = await this.#current(seat);
        if (!found.ok) return found;
        const stored = found.value;
        if (stored.finished !== undefined) return refuse({ code: 'game-over', outcome: stored.finished.outcome });
        const game = gameOf(stored);
        const finished = await this.#finish(seat.guildId, { ...stored, updatedAt: this.#now() }, game, 'bot-won', 'resigned', undefined);
        await this.#count(seat.guildId, [], [], stored.played);
        return done({ stored: finished.stored, game, ...(finished.rated !== undefined ? { rated: finished.rated } : {}), ...(finished.savedLater !== undefined ? { savedLater: finished.savedLater } : {}) });
      }),
    );
  }

  /** The member's game in this channel, being played or just ended. */
  board(seat: Seat): Promise<BotResult<GameView>> {
    return this.#guarded(async () => {
      const found = await this.#current(seat);
      if (!found.ok) return found;
      return done({ stored: found.value, game: gameOf(found.value) });
    });
  }

  /** A move for the member, chosen as the full-strength bot would (level 5), with its reason. */
  hint(seat: Seat): Promise<BotResult<Hinted>> {
    return this.#guarded(async () => {
      const found = await this.#current(seat);
      if (!found.ok) return found;
      const stored = found.value;
      if (stored.finished !== undefined) return refuse({ code: 'game-over', outcome: stored.finished.outcome });
      const game = gameOf(stored);
      if (game.turn !== stored.human) return refuse({ code: 'not-your-turn' });
      const held = await this.#held(seat.guildId);
      const { choice, considered } = await this.thinker.hint(seat.guildId, held, { size: stored.size, moves: game.moves.slice(), seed: stored.seed });
      return done({ stored, game, choice, considered });
    });
  }

  /** The realisations the bot recognises on the member's board, for both colours. */
  threats(seat: Seat): Promise<BotResult<ThreatsView>> {
    return this.#guarded(async () => {
      const found = await this.#current(seat);
      if (!found.ok) return found;
      const stored = found.value;
      const game = gameOf(stored);
      const held = await this.#held(seat.guildId);
      const seen = await this.thinker.seen(seat.guildId, held, { size: stored.size, moves: game.moves.slice(), level: stored.level, seed: stored.seed, human: stored.human });
      return done({ stored, game, black: [...seen.black], white: [...seen.white] });
    });
  }

  /**
   * Vacant points for the autocomplete of a move: those within two lines of a stone (of the
   * centre on an empty board) whose name starts with what was typed, nearest the last move
   * first. Never fails: no game, a finished game or storage down give no suggestions.
   */
  async suggestPoints(seat: Seat, typed: string): Promise<string[]> {
    try {
      const stored = await this.#store.guild(seat.guildId).games.get(gameKey(seat.channelId, seat.userId));
      if (stored === undefined || stored.finished !== undefined) return [];
      return suggestions(gameOf(stored), typed);
    } catch (e) {
      if (!isStorageUnavailable(e)) this.#log.error('autocomplete failed', { error: errorText(e) });
      return [];
    }
  }

  // -------------------------------------------------------------------------------------------
  // The server's memory

  /** One page of the server's library in the paper's listing order (1-based page). */
  library(guildId: string, page = 1): Promise<BotResult<LibraryPage>> {
    return this.#guarded(async () => {
      const { library, examples, origins, reflected, ordered } = await this.#libraryWithExamples(guildId);
      const pages = Math.max(1, Math.ceil(ordered.length / LIBRARY_PAGE_SIZE));
      if (!Number.isInteger(page) || page < 1 || page > pages) return refuse({ code: 'no-such-page', page, pages });
      const slice = ordered.slice((page - 1) * LIBRARY_PAGE_SIZE, page * LIBRARY_PAGE_SIZE);
      const entries = slice.map(({ entry, groupStart }) => {
        const example = examples.get(entry.subgoal.text);
        const origin = origins.get(entry.subgoal.text);
        return {
          subgoal: entry.subgoal,
          groupStart,
          stats: entry.stats,
          ...(entry.provenance !== undefined ? { provenance: entry.provenance } : {}),
          ...(example !== undefined ? { example } : {}),
          ...(origin !== undefined ? { origin } : {}),
          ...(reflected.has(entry.subgoal.text) ? { reflected: true as const } : {}),
        };
      });
      // A starter library's subgoals were given, not learned: counted apart in the head line.
      const given = library.entries.filter((e) => starterOf(e.provenance) !== undefined).length;
      return done({ page, pages, learned: library.size - 1 - given, ...(given > 0 ? { given } : {}), entries });
    });
  }

  /** Games, results and library size of the server. */
  stats(guildId: string): Promise<BotResult<ServerStats>> {
    return this.#guarded(async () => {
      const memory = this.#store.guild(guildId);
      const [entries, held, summary] = await Promise.all([memory.records.list(), this.#held(guildId), memory.summaries.get(RECORDS_SUMMARY_KEY)]);
      const records = entries.map((e) => e.value);
      const history = historyOf(summary, records);
      const count = (o: Outcome) => history.filter((h) => h.outcome === o && h.ending !== 'resigned').length;
      if (foldDue(summary, records, this.#recordsKept)) await this.#lock.run(`counters:${guildId}`, () => foldQuietly(memory, this.#recordsKept, this.#log, { summary, records }));
      return done({
        games: history.length,
        botWon: count('bot-won'),
        botLost: count('bot-lost'),
        draws: count('draw'),
        abandoned: count('abandoned'),
        learned: held.library.size - 1,
        history,
        resigned: resignations(history),
        members: memberResults(records),
      });
    });
  }

  /** This server's recent finished games (replay.ts). */
  games(guildId: string): Promise<BotResult<PastGames>> {
    return this.#guarded(() => pastGames(this.#store, guildId));
  }

  /** One finished game of this server, to replay (replay.ts). */
  replay(guildId: string, id: string): Promise<BotResult<Replay>> {
    return this.#guarded(() => replayOf(this.#store, guildId, id));
  }

  /** Game ids for /replay's autocomplete; never fails (nothing offered instead). */
  async suggestGames(guildId: string, typed: string): Promise<{ name: string; value: string }[]> {
    try {
      return await suggestGames(this.#store, guildId, typed);
    } catch (e) {
      if (!isStorageUnavailable(e)) this.#log.error('autocomplete failed', { error: errorText(e) });
      return [];
    }
  }

  /**
   * Forgets this server's library, counters and finished games. `canManageServer` is the
   * member's permission as Discord reports it; the terminal game is its own server's admin.
   */
  resetMemory(guildId: string, canManageServer: boolean): Promise<BotResult<{ readonly forgotten: number; readonly starter?: string }>> {
    if (!canManageServer) return Promise.resolve(refuse({ code: 'not-admin' }));
    return this.#guarded(async () => {
      const memory = this.#store.guild(guildId);
      const forgotten = await this.#lock.run(`counters:${guildId}`, async () => {
        // A reflection pass over this server stops before saving anything more (reflection.ts).
        this.reflection.forget(guildId);
        try {
          // The pool first: a server that shared takes back what it had published (pool.ts).
          await this.pool.withdraw(guildId);
          await this.ratings.forgetBot(guildId);
          const learned = await memory.library.clear();
          await forgetting(async () => {
            await memory.stats.clear();
            await memory.records.clear();
            // The games between members are theirs, not the bot's memory: they stay, and so
            // does the count of those folded away (recordSummary.ts).
            const members = (await memory.summaries.get(RECORDS_SUMMARY_KEY))?.members;
            await memory.summaries.clear();
            if (members !== undefined) await memory.summaries.put(RECORDS_SUMMARY_KEY, withMembers(undefined, members));
          });
          return learned;
        } finally {
          // Even a reset that stopped halfway may have forgotten subgoals: every process reads again.
          await this.#libraries.changed(guildId);
        }
      });
      this.#log.info('memory reset', { guildId, learned: forgotten });
      // A reset server is a new one: it gets the starter library again at its next game.
      this.#seeded.delete(guildId);
      return done({ forgotten, ...(this.#starter !== undefined ? { starter: this.#starter.name } : {}) });
    });
  }

  /**
   * Puts away every game of these servers idle for longer than `idleMs`; returns how many.
   * Storage failures are logged (the next sweep tries again).
   */
  async expireIdle(guildIds: Iterable<string>): Promise<number> {
    let expired = 0;
    for (const guildId of guildIds) {
      try {
        const games = this.#store.guild(guildId).games;
        for (const { key, value } of await games.list()) {
          if (!this.#isIdle(value)) continue;
          const gone = await this.#lock.run(key, async () => {
            const now = await games.get(key);
            if (now === undefined || now.id !== value.id || !this.#isIdle(now)) return false;
            if (now.finished !== undefined) await games.delete(key);
            else await this.#expire(guildId, now);
            return now.finished === undefined;
          });
          if (gone) expired++;
        }
        expired += await this.versus.expireIdle(guildId);
        const tombstones = this.#store.guild(guildId).tombstones;
        for (const { key, value } of await tombstones.list()) {
          if (this.#isStale(value)) await tombstones.delete(key);
        }
      } catch (e) {
        this.#log.warn('could not sweep idle games', { guildId, error: errorText(e) });
      }
    }
    return expired;
  }

  /**
   * Reads these servers' libraries, sends them to the play workers and works out their listing
   * order, one server at a time, so the first commands after a start find them held (a cold read of 1000 subgoals costs the
   * answering thread 1.5 s of decoding, in slices; five read at once cost five times that, as
   * none can use what another decoded). Returns how many were read; failures are logged.
   */
  async warm(guildIds: Iterable<string>): Promise<number> {
    let read = 0;
    for (const guildId of guildIds) {
      try {
        this.thinker.warm(guildId, await this.#held(guildId));
        await this.#libraryWithExamples(guildId);
        read++;
      } catch (e) {
        this.#log.warn('could not read a library ahead of its first command', { guildId, error: errorText(e) });
      }
    }
    return read;
  }

  /**
   * Waits for every game operation under way (before closing storage), an analysis included,
   * then stops the analysis workers so nothing keeps the process up; they start again if the
   * service is used after.
   */
  async idle(): Promise<void> {
    // A reflection pass stops at once: the walk under way fails with its worker, and no other starts.
    const reflecting = this.reflection.close();
    await this.#reflector.close();
    await reflecting;
    await this.#lock.idle();
    await this.#analyser.close();
    await this.thinker.close();
  }

  // -------------------------------------------------------------------------------------------
  // Inside

  /** Storage being unavailable becomes a problem for the user; anything else is a bug and is thrown. */
  async #guarded<T>(work: () => Promise<BotResult<T>>): Promise<BotResult<T>> {
    try {
      return await work();
    } catch (e) {
      if (isStorageUnavailable(e)) {
        this.#log.warn('storage unavailable', { operation: e.operation, reason: e.reason, uncertain: e.uncertain });
        return refuse({ code: e.uncertain ? 'storage-uncertain' : 'storage-unavailable' });
      }
      throw e;
    }
  }

  /**
   * The member's stored game; an idle one is expired on the spot and reported so, and so is
   * one the sweep put away (its tombstone) in the last week.
   */
  async #current(seat: Seat): Promise<BotResult<StoredGame>> {
    const memory = this.#store.guild(seat.guildId);
    const key = gameKey(seat.channelId, seat.userId);
    const stored = await memory.games.get(key);
    if (stored === undefined) {
      const tombstone = await memory.tombstones.get(key);
      if (tombstone === undefined) return refuse(await noGame(this.#store, seat));
      if (this.#isStale(tombstone)) {
        await memory.tombstones.delete(key);
        return refuse(await noGame(this.#store, seat));
      }
      return refuse({ code: 'game-expired', idleMs: tombstone.idleMs, at: tombstone.at });
    }
    if (stored.finished === undefined && this.#isIdle(stored)) {
      const tombstone = await this.#expire(seat.guildId, stored);
      return refuse({ code: 'game-expired', idleMs: tombstone.idleMs, at: tombstone.at });
    }
    return done(stored);
  }

  #isIdle(stored: StoredGame): boolean {
    return this.#now() - stored.updatedAt > this.idleMs;
  }

  #isStale(tombstone: Tombstone): boolean {
    return this.#now() - tombstone.at > TOMBSTONE_MS;
  }

  /** Records the game as abandoned and puts it away, leaving its tombstone. */
  async #expire(guildId: string, stored: StoredGame): Promise<Tombstone> {
    const memory = this.#store.guild(guildId);
    const key = gameKey(stored.channelId, stored.userId);
    const tombstone: Tombstone = { game: stored.id, at: this.#now(), idleMs: this.idleMs };
    // The tombstone first: if storage fails between the two, the game is still there to expire again.
    await this.#finish(guildId, stored, gameOf(stored), 'abandoned', 'expired', undefined, async () => {
      await memory.tombstones.put(key, tombstone);
      await memory.games.delete(key);
    });
    this.#log.info('game expired', { guildId, game: stored.id, idleMs: this.idleMs });
    return tombstone;
  }

  /** The server's library, the rule of the game first, without counters: held between commands (libraryCache.ts). */
  async #library(guildId: string): Promise<Library> {
    return (await this.#held(guildId)).library;
  }

  /** The server's held library (libraryCache.ts), seeded with the starter first when it is due. */
  async #held(guildId: string): ReturnType<LibraryCache['get']> {
    await this.#seedStarter(guildId);
    return this.#libraries.get(guildId);
  }

  /**
   * With STARTER_LIBRARY set, a server that has learned nothing of its own gets the starter's
   * subgoals (starter.ts). Checked against the held library, once per server and process while
   * it stays seeded; a reset here checks again.
   */
  async #seedStarter(guildId: string): Promise<void> {
    if (this.#starter === undefined || this.#seeded.has(guildId)) return;
    const held = await this.#libraries.get(guildId);
    const listed = held.library.entries.slice(1).map((e) => ({ key: subgoalKey(e.subgoal.text), value: { subgoal: e.subgoal, ...(e.provenance !== undefined ? { provenance: e.provenance } : {}) } as LearnedRecord }));
    const after = await withStarter(this.#store.guild(guildId).library, this.#starter, listed, this.#now());
    if (after.length > listed.length) await this.#libraries.changed(guildId);
    this.#seeded.add(guildId);
  }

  /** The server's library with its counters, examples and origins, for /library, in listing order (worked out once per library held). */
  async #libraryWithExamples(guildId: string): Promise<{ library: Library; examples: ReadonlyMap<string, Example>; origins: ReadonlyMap<string, LearnedOrigin>; reflected: ReadonlySet<string>; ordered: ReturnType<typeof listingOrder> }> {
    const [held, tallies] = await Promise.all([this.#held(guildId), this.#store.guild(guildId).stats.list()]);
    const library = held.library.clone();
    for (const { value } of tallies) library.note(value.text, value);
    // Worked out once per library held, off this thread when there are play workers: 0.3-0.8 s for 1000 subgoals.
    const order = await this.#libraries.derived(held, 'listing', () => this.thinker.listing(guildId, held));
    return { library, examples: held.examples, origins: held.origins, reflected: held.reflected, ordered: order.map(({ text, groupStart }) => ({ entry: library.get(text)!, groupStart })) };
  }

  /** Plays the bot's chosen move (its seed: the game's seed and the move number); says which subgoal it played from, if any. */
  #botMove(choice: MoveChoice, stored: StoredGame, game: Game): { choice: MoveChoice; played: string[]; playedText?: string } {
    const played = game.play(choice.point);
    if (!played.ok) throw new Error(`the player chose an illegal move: ${played.error.message}`);
    const reason = choice.reason;
    // The subgoal whose node it played: a five, a race attack, or the first move of a forced line.
    const playedText = reason.kind === 'attack' || reason.kind === 'five' ? reason.realisation.subgoal.text : reason.kind === 'force' ? reason.line.line[0].from?.subgoal.text : undefined;
    const list = playedText !== undefined && !stored.played.includes(playedText) ? [...stored.played, playedText] : stored.played.slice();
    return { choice, played: list, ...(playedText !== undefined ? { playedText } : {}) };
  }

  /**
   * Ends a game: learns from it when the bot lost to a five, keeps the ended game for /board
   * (or, for an expiry, `commit` puts it away), and records it. The game is written first, and
   * is the commit (savedLater.ts): failing, it leaves nothing behind. The record and the
   * learned subgoals come after it, through the retrying writer; what it queues is returned.
   */
  async #finish(
    guildId: string,
    stored: StoredGame,
    game: Game,
    outcome: Outcome,
    ending: Ending,
    library: Library | undefined,
    commit?: () => Promise<void>,
  ): Promise<{ stored: StoredGame; learned: LearnedReport[]; analysis?: AnalysisEnd; savedLater?: SavedLater; rated?: Rated }> {
    const now = this.#now();
    // A loss teaches the member's winning line (the paper); a win with a five, the bot's own
    // (docs/DESIGN.md, "Learning from wins"). A resignation or a full board has no five.
    const teaches = library !== undefined && ending === 'five' && (outcome === 'bot-lost' || outcome === 'bot-won');
    const { learned, analysis, lessons } = teaches
      ? await this.#learn(guildId, stored, game, library, now, outcome === 'bot-won' ? { kind: 'win' } : undefined)
      : { learned: [], analysis: undefined, lessons: [] };
    const finish: Finish = { outcome, ending, at: now, learned: learned.filter((l) => l.isNew).map((l) => l.text) };
    const record: FinishedGame = {
      id: stored.id,
      channelId: stored.channelId,
      userId: stored.userId,
      size: stored.size,
      human: stored.human,
      level: stored.level,
      outcome,
      ending,
      startedAt: stored.startedAt,
      endedAt: now,
      moves: game.moves.slice(),
      learned: finish.learned,
    };
    const ended: StoredGame = { ...stored, moves: game.moves.slice(), finished: finish };
    const games = this.#store.guild(guildId).games;
    const key = gameKey(stored.channelId, stored.userId);
    // What follows the commit: the lessons and the record, through the retrying writer.
    const afterCommit = async (): Promise<SavedLater | undefined> => {
      const queued = await this.#saveLessons(guildId, stored.id, lessons);
      const recordSaved = await this.#store.writer.put(guildId, 'records', stored.id, record);
      this.#log.info('game over', { guildId, game: stored.id, outcome, ending, moves: game.moves.length, learned: finish.learned.length, record: recordSaved });
      return recordSaved === 'queued' || queued.length > 0 ? { record: recordSaved === 'queued', subgoals: queued } : undefined;
    };
    const landed = async () => sameGame(await games.get(key), ended);
    try {
      await (commit ?? (() => certainly(() => games.put(key, ended), landed)))();
    } catch (e) {
      // The member is told we cannot tell; if the game did end, its record and lessons follow it.
      if (commit === undefined && isStorageUnavailable(e) && e.uncertain) afterUncertainCommit(landed, afterCommit, this.#log, { guildId, game: stored.id });
      throw e;
    }
    const savedLater = await afterCommit();
    if (analysis?.kind === 'analysed') this.reflection.analysed(guildId);
    const rated = await this.ratings.afterBotGame(guildId, record);
    return { stored: ended, learned, ...(analysis !== undefined ? { analysis } : {}), ...(savedLater !== undefined ? { savedLater } : {}), ...(rated !== undefined ? { rated } : {}) };
  }

  /**
   * Writes what an analysis taught (after its game's commit), tells the held libraries, and
   * offers the new subgoals to the shared pool; the texts whose writes were queued.
   */
  async #saveLessons(guildId: string, gameId: string, lessons: readonly LearnedRecord[]): Promise<string[]> {
    const queued: string[] = [];
    for (const lesson of lessons) {
      const saved = await this.#store.writer.put(guildId, 'library', subgoalKey(lesson.subgoal.text), lesson);
      if (saved === 'queued') queued.push(lesson.subgoal.text);
      this.#log.info('learned a subgoal', { guildId, game: gameId, subgoal: lesson.subgoal.text, move: lesson.provenance.move, saved });
    }
    if (lessons.length > 0) {
      await this.#libraries.changed(guildId);
      await this.pool.learned(guildId, lessons.map((l) => l.subgoal.text));
    }
    return queued;
  }

  /**
   * The analysis of a lost game, in a worker; new subgoals are saved (or queued) with provenance
   * and example. Over the time limit or failed, it teaches nothing and says which.
   */
  async #learn(
    guildId: string,
    stored: Pick<StoredGame, 'id'>,
    game: Game,
    library: Library,
    now: number,
    origin?: LearnedOrigin,
    reflecting = false,
  ): Promise<{ learned: LearnedReport[]; analysis: AnalysisEnd; lessons: LearnedRecord[] }> {
    const started = performance.now();
    this.#log.debug('analysing a finished game', { guildId, game: stored.id, moves: game.moves.length, library: library.size, reflecting });
    // A walk back again does not start once the bot is stopping (idle() closes its worker).
    const analysis: LossAnalysis =
      reflecting && this.reflection.closing ? { kind: 'failed', error: 'the bot is stopping' } : await (reflecting ? this.#reflector : this.#analyser).analyse(game, library.subgoals());
    const ms = Math.round(performance.now() - started);
    this.#onAnalysed({ result: analysis.kind, from: reflecting ? 'reflection' : origin?.kind === 'watched' ? 'watched' : origin?.kind === 'win' ? 'win' : 'loss' });
    if (analysis.kind === 'timed-out') {
      this.#log.warn('the analysis of a finished game took too long and was given up; nothing was learned', { guildId, game: stored.id, limitMs: analysis.limitMs, ms });
      return { learned: [], analysis, lessons: [] };
    }
    if (analysis.kind === 'failed') {
      // A walk back again fails when the bot stops in the middle of it (its worker is closed).
      if (reflecting) this.#log.warn('a walk back again through an old game did not finish; nothing was learned from it', { guildId, game: stored.id, error: analysis.error, ms });
      else this.#log.error('the analysis of a finished game failed; nothing was learned', { guildId, game: stored.id, error: analysis.error, ms });
      return { learned: [], analysis: { kind: 'failed' }, lessons: [] };
    }
    this.#log.info('analysed a finished game', { guildId, game: stored.id, ms, learned: analysis.learned.length });
    const reports: LearnedReport[] = [];
    const lessons: LearnedRecord[] = [];
    for (const l of analysis.learned) {
      reports.push({ text: l.subgoal.text, move: l.moveIndex + 1, isNew: l.isNew });
      if (!l.isNew) continue;
      const example = exampleOf(game, l, analysis.winner);
      const record: LearnedRecord = {
        subgoal: l.subgoal,
        provenance: { game: stored.id, move: l.moveIndex + 1, date: new Date(now).toISOString() },
        ...(example !== undefined ? { example } : {}),
        ...(origin !== undefined ? { origin } : {}),
        ...(reflecting ? { reflected: true as const } : {}),
      };
      lessons.push(record);
    }
    return { learned: reports, analysis: { kind: 'analysed' }, lessons };
  }

  /** Adds to the counters: recognised once, played once per play, won once per subgoal. */
  async #count(guildId: string, recognised: readonly string[], played: readonly string[], won: readonly string[]): Promise<void> {
    const delta = new Map<string, { recognised: number; played: number; won: number }>();
    const add = (text: string, k: 'recognised' | 'played' | 'won') => {
      const d = delta.get(text) ?? { recognised: 0, played: 0, won: 0 };
      d[k]++;
      delta.set(text, d);
    };
    recognised.forEach((t) => add(t, 'recognised'));
    played.forEach((t) => add(t, 'played'));
    new Set(won).forEach((t) => add(t, 'won'));
    if (delta.size === 0) return;
    const stats = this.#store.guild(guildId).stats;
    try {
      await this.#lock.run(`counters:${guildId}`, async () => {
        for (const [text, d] of delta) {
          const key = subgoalKey(text);
          const was: Tally = (await stats.get(key)) ?? { text, recognised: 0, played: 0, won: 0 };
          await stats.put(key, { text, recognised: was.recognised + d.recognised, played: was.played + d.played, won: was.won + d.won });
        }
      });
    } catch (e) {
      this.#log.warn('could not update subgoal counters; these counts are lost', { guildId, error: errorText(e) });
    }
  }

  #newId(now: number): string {
    return `${now.toString(36)}-${this.#rnd.int(36 ** 4).toString(36).padStart(4, '0')}`;
  }
}

/** Runs what follows a first deletion: failing, it leaves the reset half done, which is not "nothing changed". */
async function forgetting(rest: () => Promise<void>): Promise<void> {
  try {
    await rest();
  } catch (e) {
    if (isStorageUnavailable(e) && !e.uncertain) throw new StorageUnavailable(e.operation, `${e.reason}, after the library was forgotten`, { cause: e, uncertain: true });
    throw e;
  }
}

/** Whether the stored game is exactly `expected` (a write read back). */
function sameGame(got: StoredGame | undefined, expected: StoredGame): boolean {
  return got !== undefined && JSON.stringify(gameCodec.encode(got)) === JSON.stringify(gameCodec.encode(expected));
}

/**
 * The library's entries in the order of the paper's listing (src/notation/listing.ts), each marked
 * when it starts a group (thinking.ts `listingTexts`).
 */
export function listingOrder(library: Library): { entry: Library['entries'][number]; groupStart: boolean }[] {
  return listingTexts(library.subgoals()).map(({ text, groupStart }) => ({ entry: library.get(text)!, groupStart }));
}
