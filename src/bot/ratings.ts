/**
 * Ratings: one Glicko-2 rating per member per server and one for the bot per server, updated
 * by every finished game, against the bot or between members.
 *
 * Decisions:
 * - Glicko-2 through the glicko2 package (mmai/glicko2js): a maintained implementation of
 *   Glickman's published algorithm, volatility step included, rather than our own arithmetic.
 *   A new player starts at 1500 ± 350 with volatility 0.06, τ = 0.5 (the package's and the
 *   paper's usual values).
 * - Each game is its own rating period, with only its two players in it, as online servers
 *   rate (lichess updates after every game): a Discord server plays in bursts and members want
 *   to see their rating move when a game ends. A player who does not play is not touched, so
 *   a deviation does not grow with idleness.
 * - Scores as Glicko-2 takes them: 1 a win, 0 a loss, 0.5 a draw. A resignation is a game
 *   decided: a loss for the member who resigned. An expiry is a loss on time for the side to
 *   move, as in correspondence play — against the bot that is always the member, since the bot
 *   answers at once — but only once both sides had moved; a game that never began is not a
 *   result at all and is not rated (the system rates games played).
 * - A rating's deviation above `PROVISIONAL_RD` (110, the threshold lichess uses) is shown as
 *   provisional: `1532?`.
 * - Each record keeps the ids of its last games, so that a game's end retried after a storage
 *   failure (the member sends the move again) is counted once.
 * - The bot's record keeps its rating after each game, the last `HISTORY_POINTS`, for the chart
 *   of /stats: the clearest picture of the bot learning.
 * - /reset-memory makes the bot a new player again (it forgot everything it learned here, so
 *   its old rating no longer describes it); members' ratings stay: they forgot nothing.
 * - Updates are read-modify-write under a per-server lock. A rating missed during a storage
 *   outage is logged and lost, as the subgoal counters are; the game's record is not.
 */
import glicko2 from 'glicko2';
import type { Provenance } from '../learning/library.ts';
import { BOT_PLAYER, importedFile, type LearnedOrigin, type RatingRecord, type VersusGame } from './communityRecords.ts';
import type { ServiceKit } from './kit.ts';
import { errorText } from './log.ts';
import { done, type BotResult } from './problems.ts';
import { starterOf } from './starter.ts';
import type { FinishedGame } from './records.ts';

export const GLICKO_SETTINGS = { tau: 0.5, rating: 1500, rd: 350, vol: 0.06 } as const;
export const PROVISIONAL_RD = 110;
export const HISTORY_POINTS = 1000;
/** Game ids each rating remembers to count a game once. */
const LAST_GAMES = 32;

/** One player's rating before and after a game. */
export interface RatingChange {
  /** A member id, or `bot`. */
  readonly player: string;
  readonly before: number;
  readonly after: number;
  /** The deviation after. */
  readonly rd: number;
}

/** What a finished game did to its players' ratings. */
export interface Rated {
  readonly changes: readonly [RatingChange, RatingChange];
}

/** Where each learned subgoal came from, in the order they were learned. */
export type LibrarySource = 'loss' | 'win' | 'watched' | 'pool' | 'imported' | 'starter';

/**
 * Where a learned subgoal came from: the starter library (by its provenance), its stored origin
 * if it has one, an import from before imports were marked (by its provenance), else the bot's loss.
 */
export function sourceOf(provenance: Provenance | undefined, origin: LearnedOrigin | undefined): LibrarySource {
  if (starterOf(provenance) !== undefined) return 'starter';
  if (origin !== undefined) return origin.kind;
  return provenance !== undefined && importedFile(provenance.game) !== undefined ? 'imported' : 'loss';
}

export interface Standings {
  /** Members, highest rating first. */
  readonly members: readonly RatingRecord[];
  /** The bot's rating, once it has played a rated game here. */
  readonly bot?: RatingRecord;
  /** For /stats beside the ratings: the library's growth from each source. */
  readonly library: readonly LibrarySource[];
}

export function newRating(player: string, now: number): RatingRecord {
  return { player, rating: GLICKO_SETTINGS.rating, rd: GLICKO_SETTINGS.rd, vol: GLICKO_SETTINGS.vol, won: 0, lost: 0, drawn: 0, lastGames: [], updatedAt: now, history: [] };
}

/**
 * Two ratings after one game between them, `score` being the first player's: one Glicko-2
 * rating period with only these two players.
 */
export function rateGame(a: RatingRecord, b: RatingRecord, score: 0 | 0.5 | 1): { a: Pick<RatingRecord, 'rating' | 'rd' | 'vol'>; b: Pick<RatingRecord, 'rating' | 'rd' | 'vol'> } {
  const system = new glicko2.Glicko2(GLICKO_SETTINGS);
  const pa = system.makePlayer(a.rating, a.rd, a.vol);
  const pb = system.makePlayer(b.rating, b.rd, b.vol);
  system.updateRatings([[pa, pb, score]]);
  return { a: { rating: pa.getRating(), rd: pa.getRd(), vol: pa.getVol() }, b: { rating: pb.getRating(), rd: pb.getRd(), vol: pb.getVol() } };
}

/** The member's score in a game against the bot, or undefined when it is not rated. */
export function botGameScore(r: Pick<FinishedGame, 'outcome' | 'moves'>): 0 | 0.5 | 1 | undefined {
  switch (r.outcome) {
    case 'bot-lost':
      return 1;
    case 'bot-won':
      return 0;
    case 'draw':
      return 0.5;
    case 'abandoned':
      // Expired: the member was to move (the bot answers at once); a loss on time once both had moved.
      return r.moves.length >= 2 ? 0 : undefined;
  }
}

/** Black's score in a finished game between members, or undefined when it is not rated. */
export function versusScore(g: VersusGame): 0 | 0.5 | 1 | undefined {
  switch (g.finished?.result) {
    case 'black-won':
      return 1;
    case 'white-won':
      return 0;
    case 'draw':
      return 0.5;
    default:
      return undefined;
  }
}

/** "1532" or, while the deviation is high, "1532?". */
export function ratingText(r: Pick<RatingRecord, 'rating' | 'rd'>): string {
  return `${Math.round(r.rating)}${r.rd > PROVISIONAL_RD ? '?' : ''}`;
}

export class Ratings {
  readonly #kit: ServiceKit;

  constructor(kit: ServiceKit) {
    this.#kit = kit;
  }

  /** Counts a game the bot played (its record); undefined when it is not rated or could not be saved. */
  afterBotGame(guildId: string, record: FinishedGame): Promise<Rated | undefined> {
    const score = botGameScore(record);
    return score === undefined ? Promise.resolve(undefined) : this.#rate(guildId, record.id, record.userId, BOT_PLAYER, score);
  }

  /** Counts a finished game between members. */
  afterVersus(guildId: string, game: VersusGame): Promise<Rated | undefined> {
    const score = versusScore(game);
    return score === undefined ? Promise.resolve(undefined) : this.#rate(guildId, game.id, game.black, game.white, score);
  }

  /** The leaderboard and the bot's rating with its history. */
  standings(guildId: string): Promise<BotResult<Standings>> {
    return this.#kit.guarded(async () => {
      const memory = this.#kit.store.guild(guildId);
      // The sources from the library as held (in the order learned, libraryCache.ts), not from
      // reading every learned record again: with 1000 subgoals that was 1000 records decoded
      // per /stats, and on the file store 1000 files read (bench/load.ts: /stats' answers took
      // up to 7 s there under load).
      const [all, held] = await Promise.all([memory.ratings.list().then((l) => l.map((e) => e.value)), this.#kit.heldLibrary(guildId)]);
      const library = held.library.entries.slice(1).map((e) => sourceOf(e.provenance, held.origins.get(e.subgoal.text)));
      const members = all.filter((r) => r.player !== BOT_PLAYER).sort((a, b) => b.rating - a.rating || (a.player < b.player ? -1 : 1));
      const bot = all.find((r) => r.player === BOT_PLAYER);
      return done({ members, library, ...(bot !== undefined ? { bot } : {}) });
    });
  }

  /** /reset-memory: the bot starts again as a new player (see the module comment). */
  async forgetBot(guildId: string): Promise<void> {
    await this.#kit.lock.run(`ratings:${guildId}`, () => this.#kit.store.guild(guildId).ratings.delete(BOT_PLAYER));
  }

  async #rate(guildId: string, gameId: string, first: string, second: string, score: 0 | 0.5 | 1): Promise<Rated | undefined> {
    const ratings = this.#kit.store.guild(guildId).ratings;
    try {
      return await this.#kit.lock.run(`ratings:${guildId}`, async () => {
        const now = this.#kit.now();
        const [a, b] = await Promise.all([ratings.get(first), ratings.get(second)]);
        const was = { a: a ?? newRating(first, now), b: b ?? newRating(second, now) };
        if (was.a.lastGames.includes(gameId) || was.b.lastGames.includes(gameId)) return undefined;
        const next = rateGame(was.a, was.b, score);
        const after = (r: RatingRecord, n: Pick<RatingRecord, 'rating' | 'rd' | 'vol'>, s: number): RatingRecord => ({
          ...r,
          ...n,
          won: r.won + (s === 1 ? 1 : 0),
          lost: r.lost + (s === 0 ? 1 : 0),
          drawn: r.drawn + (s === 0.5 ? 1 : 0),
          lastGames: [...r.lastGames, gameId].slice(-LAST_GAMES),
          updatedAt: now,
          history: r.player === BOT_PLAYER ? [...r.history, { at: now, rating: n.rating, rd: n.rd }].slice(-HISTORY_POINTS) : [],
        });
        const newA = after(was.a, next.a, score);
        const newB = after(was.b, next.b, 1 - score);
        await ratings.put(first, newA);
        await ratings.put(second, newB);
        const change = (r: RatingRecord, n: RatingRecord): RatingChange => ({ player: r.player, before: r.rating, after: n.rating, rd: n.rd });
        return { changes: [change(was.a, newA), change(was.b, newB)] as const };
      });
    } catch (e) {
      this.#kit.log.warn('could not update ratings; this game is not counted', { guildId, game: gameId, error: errorText(e) });
      return undefined;
    }
  }
}
