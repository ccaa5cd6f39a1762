/**
 * What the bot keeps for the community features (issue 28), beside records.ts and in the same
 * versioned envelopes, and the codecs that store them:
 *
 *     versus::<channel>.<a>.<b>    VersusGame: a game between members a and b (ids in order) in
 *                                  a channel, while it is played and, once over, until the pair's
 *                                  next game there (so /board can still show how it ended)
 *     versusRecords::<game id>     VersusGame with `finished`: the last RECORDS_KEPT ended games between members
 *     ratings::<member id>|bot     RatingRecord: a member's Glicko-2 rating in this server, or the bot's
 *     settings::memory             MemorySettings: whether the bot learns from watched games and
 *                                  whether this server shares its library with the pool
 *     tombstones::<channel>.<a>.<b> (records.ts) a members' game that expired idle
 *
 * and, outside every server, the shared pool (pool.ts): `PoolEntry` under its own prefix.
 *
 * Decisions:
 * - A game between members has its two players in colour order (`black`, `white`) and no
 *   level or seed: nobody in it is the bot. Its key names the pair, not the colours, so one
 *   game per pair per channel holds whoever plays black.
 * - A finished game between members is kept under its id in `versusRecords` with the same codec
 *   as a game being played: one shape, checked the same way.
 * - Expiry is a loss on time for the side to move once both sides have moved, as in
 *   correspondence play; before that the game is abandoned and unrated (ratings.ts).
 */
import type { Colour, Point } from '../rules/types.ts';
import { Bad, boardSize, decoding, field, isCount, isObject, isString, isStrings, isTime, legalMoves, notation, points, type Json } from './decode.ts';
import type { BoardSize, Ending } from './gameTerms.ts';

/** How a game between members ended; `abandoned`: it expired before both sides had moved. */
export type VersusResult = 'black-won' | 'white-won' | 'draw' | 'abandoned';
const RESULTS: readonly string[] = ['black-won', 'white-won', 'draw', 'abandoned'];
const VERSUS_ENDINGS: readonly string[] = ['five', 'resigned', 'full-board', 'expired'];

export interface VersusFinish {
  readonly result: VersusResult;
  readonly ending: Ending;
  readonly at: number;
  /** Canonical texts of the subgoals the bot first learned from this game. */
  readonly learned: readonly string[];
  /** The member who resigned, or whose move it was when the game expired. */
  readonly by?: string;
}

export interface VersusGame {
  /** Unique in the server (the same scheme as games against the bot); a learned subgoal's provenance names it. */
  readonly id: string;
  readonly channelId: string;
  readonly size: BoardSize;
  /** Member ids. */
  readonly black: string;
  readonly white: string;
  readonly moves: readonly Point[];
  readonly startedAt: number;
  /** Last move (or the acceptance): idle expiry counts from here. */
  readonly updatedAt: number;
  readonly finished?: VersusFinish;
}

/** One point of the bot's rating over time. */
export interface RatingPoint {
  readonly at: number;
  readonly rating: number;
  readonly rd: number;
}

/** A Glicko-2 rating (glicko2 package units: rating and deviation on the 1500 scale). */
export interface RatingRecord {
  /** A member id, or `bot`. */
  readonly player: string;
  readonly rating: number;
  readonly rd: number;
  readonly vol: number;
  readonly won: number;
  readonly lost: number;
  readonly drawn: number;
  /** Ids of the last games counted, so that a finish retried after a storage failure is not counted twice. */
  readonly lastGames: readonly string[];
  readonly updatedAt: number;
  /** The bot's record only: its rating after each game, oldest first, the last `HISTORY_POINTS`. */
  readonly history: readonly RatingPoint[];
}

export interface MemorySettings {
  /** Learn from games between members that end in a five (on unless an admin turns it off). */
  readonly watch: boolean;
  /** This server's learned subgoals are published to the shared pool. */
  readonly share: boolean;
}

export const DEFAULT_SETTINGS: MemorySettings = { watch: true, share: false };
/** The key of the one settings record. */
export const SETTINGS_KEY = 'memory';
/** The key of the bot's rating. Member ids are Discord snowflakes (digits) or the terminal's `you`. */
export const BOT_PLAYER = 'bot';

/**
 * Where a learned subgoal came from, when it was not the bot's own loss: a game between two
 * members it watched, or the shared pool (with how many servers had learned it then).
 */
export type LearnedOrigin =
  | { readonly kind: 'watched'; readonly black: string; readonly white: string }
  | { readonly kind: 'pool'; readonly servers: number }
  /** The bot's own win: its winning line remembered (docs/DESIGN.md, "Learning from wins"). */
  | { readonly kind: 'win' }
  /** From a library file, by `gomoku memory import`: whose loss or win it was, the file does not say. */
  | { readonly kind: 'imported' };

/**
 * How `gomoku memory import` names the game of an entry the file gave no provenance line:
 * `paper.txt (imported)`, its line as the move. Imports before 2026-12-03 stored no origin, and
 * are known by this alone.
 */
export const IMPORTED_SUFFIX = ' (imported)';

/** The file an imported entry without a provenance line came from, or undefined. */
export function importedFile(game: string): string | undefined {
  return game.endsWith(IMPORTED_SUFFIX) ? game.slice(0, -IMPORTED_SUFFIX.length) : undefined;
}

/** A subgoal in the shared pool: its canonical text and the servers that learned it, as tokens (pool.ts). */
export interface PoolEntry {
  readonly text: string;
  readonly contributors: readonly string[];
}

/** The storage key of the game between two members in a channel: one per pair, whoever asked. */
export function versusKey(channelId: string, a: string, b: string): string {
  const [first, second] = a < b ? [a, b] : [b, a];
  return `${channelId}.${first}.${second}`;
}

/** The member who plays `colour`. */
export function playerOf(g: Pick<VersusGame, 'black' | 'white'>, colour: Colour): string {
  return colour === 'black' ? g.black : g.white;
}

/** The other member of the game. */
export function opponentOf(g: Pick<VersusGame, 'black' | 'white'>, member: string): string {
  return g.black === member ? g.white : g.black;
}

// ---------------------------------------------------------------------------------------------
// Codecs

export const versusCodec = {
  version: 1,
  encode: (g: VersusGame): unknown => ({
    id: g.id,
    channelId: g.channelId,
    size: g.size,
    black: g.black,
    white: g.white,
    moves: notation(g.size, g.moves),
    startedAt: g.startedAt,
    updatedAt: g.updatedAt,
    ...(g.finished !== undefined ? { finished: { ...g.finished, learned: g.finished.learned.slice() } } : {}),
  }),
  decode: (raw: unknown) =>
    decoding(raw, (o): VersusGame => {
      const size = boardSize(o);
      const black = field(o, 'black', isString, 'a member id') as string;
      const white = field(o, 'white', isString, 'a member id') as string;
      if (black === white) throw new Bad('black and white are the same member');
      const finished = o.finished === undefined ? undefined : decodeFinish(o.finished);
      return {
        id: field(o, 'id', isString, 'a game id') as string,
        channelId: field(o, 'channelId', isString, 'a channel id') as string,
        size,
        black,
        white,
        moves: legalMoves(size, points(o, 'moves', size)),
        startedAt: field(o, 'startedAt', isTime, 'a time') as number,
        updatedAt: field(o, 'updatedAt', isTime, 'a time') as number,
        ...(finished !== undefined ? { finished } : {}),
      };
    }),
};

function decodeFinish(raw: unknown): VersusFinish {
  if (!isObject(raw)) throw new Bad('finished is not an object');
  const by = raw.by === undefined ? undefined : (field(raw, 'by', isString, 'a member id') as string);
  return {
    result: field(raw, 'result', (x) => RESULTS.includes(x as string), 'a result') as VersusResult,
    ending: field(raw, 'ending', (x) => VERSUS_ENDINGS.includes(x as string), 'an ending') as Ending,
    at: field(raw, 'at', isTime, 'a time') as number,
    learned: field(raw, 'learned', isStrings, 'a list of subgoals') as string[],
    ...(by !== undefined ? { by } : {}),
  };
}

const isRating = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x);
const isPositive = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && x > 0;

export const ratingCodec = {
  version: 1,
  encode: (r: RatingRecord): unknown => ({ ...r, lastGames: r.lastGames.slice(), history: r.history.map((h) => ({ ...h })) }),
  decode: (raw: unknown) =>
    decoding(raw, (o): RatingRecord => {
      const history = o.history;
      if (!Array.isArray(history)) throw new Bad('history is not a list');
      return {
        player: field(o, 'player', isString, 'a player') as string,
        rating: field(o, 'rating', isRating, 'a rating') as number,
        rd: field(o, 'rd', isPositive, 'a rating deviation') as number,
        vol: field(o, 'vol', isPositive, 'a volatility') as number,
        won: field(o, 'won', isCount, 'a count') as number,
        lost: field(o, 'lost', isCount, 'a count') as number,
        drawn: field(o, 'drawn', isCount, 'a count') as number,
        lastGames: field(o, 'lastGames', isStrings, 'a list of game ids') as string[],
        updatedAt: field(o, 'updatedAt', isTime, 'a time') as number,
        history: history.map((h: unknown, i) => {
          if (!isObject(h)) throw new Bad(`history[${i}] is not an object`);
          return { at: field(h, 'at', isTime, 'a time') as number, rating: field(h, 'rating', isRating, 'a rating') as number, rd: field(h, 'rd', isPositive, 'a deviation') as number };
        }),
      };
    }),
};

export const settingsCodec = {
  version: 1,
  encode: (s: MemorySettings): unknown => ({ watch: s.watch, share: s.share }),
  decode: (raw: unknown) =>
    decoding(raw, (o): MemorySettings => ({
      watch: field(o, 'watch', (x) => typeof x === 'boolean', 'true or false') as boolean,
      share: field(o, 'share', (x) => typeof x === 'boolean', 'true or false') as boolean,
    })),
};

/** The pool's entries: only a canonical text and contributor tokens — nothing about any member or game. */
export const poolCodec = {
  version: 1,
  encode: (e: PoolEntry): unknown => ({ text: e.text, contributors: e.contributors.slice() }),
  decode: (raw: unknown) =>
    decoding(raw, (o): PoolEntry => {
      const contributors = field(o, 'contributors', isStrings, 'a list of tokens') as string[];
      if (contributors.length === 0) throw new Bad('contributors is empty');
      return { text: field(o, 'text', isString, 'a description') as string, contributors };
    }),
};

/** A learned subgoal's origin as stored in its record (records.ts `learnedCodec`). */
export function encodeOrigin(o: LearnedOrigin): unknown {
  if (o.kind === 'win' || o.kind === 'imported') return { kind: o.kind };
  return o.kind === 'watched' ? { kind: o.kind, black: o.black, white: o.white } : { kind: o.kind, servers: o.servers };
}

export function decodeOrigin(raw: unknown): LearnedOrigin {
  if (!isObject(raw)) throw new Bad('origin is not an object');
  const o: Json = raw;
  if (o.kind === 'watched') return { kind: 'watched', black: field(o, 'black', isString, 'a member id') as string, white: field(o, 'white', isString, 'a member id') as string };
  if (o.kind === 'pool') return { kind: 'pool', servers: field(o, 'servers', (x) => isCount(x) && (x as number) >= 1, 'a number of servers') as number };
  if (o.kind === 'win') return { kind: 'win' };
  if (o.kind === 'imported') return { kind: 'imported' };
  throw new Bad('origin.kind is not watched, pool, win or imported');
}
