/**
 * What the bot keeps for each server (guild), one record type per storage collection, and the
 * codecs that store them (versioned envelopes: see src/storage/index.ts).
 *
 *     games::<channel>.<user>     StoredGame: a member's game in a channel, while it is played
 *                                 and, once over, until the next challenge (so /board can
 *                                 still show how it ended)
 *     records::<game id>          FinishedGame: every ended game, with its game record text
 *     library::sg-<hash>          LearnedRecord: one learned subgoal with where it was learned
 *     stats::sg-<hash>            Tally: how a subgoal has fared (recognised / played / won)
 *     tombstones::<channel>.<user> Tombstone: a game that expired idle, so the member's next
 *                                 command can say so and when (the game itself is gone)
 *     summaries::records          RecordSummary: the finished games older than the last
 *                                 RECORDS_KEPT, counted and folded, and how many games
 *                                 between members were folded (recordSummary.ts)
 *     versions::library           Version: changed on every change of the library (a subgoal
 *                                 learned, a reset, an import), so a process holding the
 *                                 compiled library knows with one read whether it is current
 *
 * Decisions:
 * - Points are stored in point notation (`h8`) and games as game record text, the project's
 *   own notations, so a record can be read in `redis-cli` and replayed with `gomoku show`.
 * - A subgoal's key is a hash of its canonical text: the text can be long and full of
 *   characters a file name cannot hold, and two analyses learning the same subgoal at once
 *   write the same key with the same meaning, so neither loses anything.
 * - Learned subgoals and their counters are apart: a learned subgoal is written once, through
 *   the retrying writer (it must not be lost); counters change on every game, by
 *   read-modify-write, and a count missed during an outage is tolerable.
 * - Decoding checks everything it will rely on (point notation, a legal move order, a
 *   description that parses and compiles); a record that fails is logged and skipped by
 *   storage, never a crash.
 * - Times are milliseconds since the epoch; provenance dates are ISO date-times, as library
 *   files write them.
 */
import { createHash } from 'node:crypto';
import { parseDescription } from '../notation/descriptionNotation.ts';
import { Game } from '../rules/game.ts';
import { makeGameRecord, parseGameRecord } from '../rules/gameRecord.ts';
import { compileCached, type Provenance } from '../learning/library.ts';
import type { Level } from '../play/player.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import type { Result } from '../rules/result.ts';
import type { Codec, Codecs } from '../storage/index.ts';
import type { Colour, Point } from '../rules/types.ts';
import {
  decodeOrigin,
  encodeOrigin,
  ratingCodec,
  settingsCodec,
  versusCodec,
  type LearnedOrigin,
  type MemorySettings,
  type RatingRecord,
  type VersusGame,
} from './communityRecords.ts';
import { Bad, boardSize, decoding, field, isColour, isCount, isObject, isString, isStrings, isTime, legalMoves, notation, points, type Json } from './decode.ts';
import type { BoardSize, Ending, Outcome } from './gameTerms.ts';

export interface Finish {
  readonly outcome: Outcome;
  readonly ending: Ending;
  readonly at: number;
  /** Canonical texts of the subgoals first learned from this game. */
  readonly learned: readonly string[];
}

/** What a game is, whether it is being played or finished: who, where, on what board, at what level. */
export interface GameSeatRecord {
  /** Unique in the server; the `game` of a learned subgoal's provenance. */
  readonly id: string;
  readonly channelId: string;
  readonly userId: string;
  readonly size: BoardSize;
  readonly human: Colour;
  readonly level: Level;
}

export interface StoredGame extends GameSeatRecord {
  /** The bot's move n is chosen with a generator seeded by (seed, n): a restart changes nothing. */
  readonly seed: number;
  readonly moves: readonly Point[];
  readonly startedAt: number;
  /** Last move (or the challenge): idle expiry counts from here. */
  readonly updatedAt: number;
  /** Subgoals already counted as recognised in this game (each counts once a game). */
  readonly recognised: readonly string[];
  /** Subgoals the bot has played a node of in this game (for `won` when the game ends). */
  readonly played: readonly string[];
  readonly finished?: Finish;
}

export interface FinishedGame extends GameSeatRecord {
  readonly outcome: Outcome;
  readonly ending: Ending;
  readonly startedAt: number;
  readonly endedAt: number;
  /** The moves as a game record (src/rules/gameRecord.ts). */
  readonly moves: readonly Point[];
  readonly learned: readonly string[];
}

/** A small realisation of a subgoal, for its graphic mnemonic (the paper's Fig. 11). */
export interface Example {
  readonly size: number;
  readonly black: readonly Point[];
  readonly white: readonly Point[];
  readonly colour: Colour;
  readonly nodes: readonly Point[];
  readonly implicit: readonly Point[];
}

export interface LearnedRecord {
  readonly subgoal: Subgoal;
  readonly provenance: Provenance;
  readonly example?: Example;
  /** Absent for the bot's own losses: a watched game between members, or the shared pool. */
  readonly origin?: LearnedOrigin;
  /** Learned when the bot walked back again through its game later, with a larger library (reflection.ts). */
  readonly reflected?: true;
}

export interface Tally {
  readonly text: string;
  readonly recognised: number;
  readonly played: number;
  readonly won: number;
}

/**
 * What is left of a member's game in a channel after it expired idle. Kept for a week
 * (`TOMBSTONE_MS`), or until the member's next challenge, whichever comes first.
 */
export interface Tombstone {
  /** The id of the game that expired (its record is in `records`). */
  readonly game: string;
  /** When it was put away. */
  readonly at: number;
  /** How long it had gone without a move, by the rule then in force. */
  readonly idleMs: number;
}

/** How long a tombstone is kept: after a week the member is told only that there is no game. */
export const TOMBSTONE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The version of what a `versions` key names (the library). `n` counts changes, for people
 * reading it; `stamp` is drawn at random by the writer, so two processes that bump the same
 * `n` at once (read-modify-write, not atomic) still write two different versions.
 */
export interface Version {
  readonly n: number;
  readonly stamp: string;
}

/** The key, in `versions`, of the library's version. */
export const LIBRARY_VERSION_KEY = 'library';

/** The finished games older than the last `recordsKept`, folded into one (recordSummary.ts). */
export interface RecordSummary {
  /** Games folded in, by how they ended. */
  readonly counts: Readonly<Record<Outcome, number>>;
  /** Their outcomes, oldest first, one letter a game (`OUTCOME_LETTERS`). */
  readonly outcomes: string;
  /** The last game folded in: its end time and id (games are ordered by both). */
  readonly until: { readonly endedAt: number; readonly id: string };
  /** Finished games between members folded (deleted from `versusRecords`): how many, and the last. */
  readonly members?: { readonly count: number; readonly until: { readonly endedAt: number; readonly id: string } };
}

/** The summary's outcomes, one letter a game. */
export const OUTCOME_LETTERS: Readonly<Record<Outcome, string>> = { 'bot-won': 'W', 'bot-lost': 'L', draw: 'D', abandoned: 'A' };
const OUTCOME_OF = new Map(Object.entries(OUTCOME_LETTERS).map(([o, l]) => [l, o as Outcome]));
/** A game the member resigned: the bot's win, kept apart in /stats (memberStats.ts), so folded apart too. */
export const RESIGNED_LETTER = 'R';
OUTCOME_OF.set(RESIGNED_LETTER, 'bot-won');

export function outcomeOfLetter(letter: string): Outcome | undefined {
  return OUTCOME_OF.get(letter);
}

export interface BotSchema {
  readonly library: LearnedRecord;
  readonly games: StoredGame;
  readonly records: FinishedGame;
  readonly stats: Tally;
  readonly tombstones: Tombstone;
  readonly versus: VersusGame;
  readonly versusRecords: VersusGame;
  readonly ratings: RatingRecord;
  readonly settings: MemorySettings;
  readonly versions: Version;
  readonly summaries: RecordSummary;
}

/** The storage key of a subgoal's record and counters. */
export function subgoalKey(text: string): string {
  return `sg-${createHash('sha256').update(text).digest('hex').slice(0, 20)}`;
}

/** The storage key of a member's game in a channel. */
export function gameKey(channelId: string, userId: string): string {
  return `${channelId}.${userId}`;
}

// ---------------------------------------------------------------------------------------------
// Reading plain JSON back, checking as we go

const OUTCOMES: readonly string[] = ['bot-won', 'bot-lost', 'draw', 'abandoned'];
const ENDINGS: readonly string[] = ['five', 'resigned', 'full-board', 'expired'];

function level(o: Json): Level {
  return field(o, 'level', (x) => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= 5, 'a level 1 to 5') as Level;
}

// ---------------------------------------------------------------------------------------------
// The codecs

export const gameCodec: Codec<StoredGame> = {
  version: 1,
  encode: (g) => ({
    id: g.id,
    channelId: g.channelId,
    userId: g.userId,
    size: g.size,
    human: g.human,
    level: g.level,
    seed: g.seed,
    moves: notation(g.size, g.moves),
    startedAt: g.startedAt,
    updatedAt: g.updatedAt,
    recognised: g.recognised.slice(),
    played: g.played.slice(),
    ...(g.finished !== undefined ? { finished: { ...g.finished, learned: g.finished.learned.slice() } } : {}),
  }),
  decode: (raw) =>
    decoding(raw, (o) => {
      const size = boardSize(o);
      const finished = o.finished === undefined ? undefined : decodeFinish(o.finished);
      return {
        ...whoAndWhere(o),
        size,
        seed: field(o, 'seed', (x) => Number.isInteger(x), 'a whole number') as number,
        moves: legalMoves(size, points(o, 'moves', size)),
        startedAt: field(o, 'startedAt', isTime, 'a time') as number,
        updatedAt: field(o, 'updatedAt', isTime, 'a time') as number,
        recognised: field(o, 'recognised', isStrings, 'a list of subgoals') as string[],
        played: field(o, 'played', isStrings, 'a list of subgoals') as string[],
        ...(finished !== undefined ? { finished } : {}),
      };
    }),
};

/** The fields a game in progress and a finished game share: whose game, where, and how it is played. */
function whoAndWhere(o: Json): { id: string; channelId: string; userId: string; human: Colour; level: Level } {
  return {
    id: field(o, 'id', isString, 'a game id') as string,
    channelId: field(o, 'channelId', isString, 'a channel id') as string,
    userId: field(o, 'userId', isString, 'a user id') as string,
    human: field(o, 'human', isColour, 'a colour') as Colour,
    level: level(o),
  };
}

function decodeFinish(raw: unknown): Finish {
  if (!isObject(raw)) throw new Bad('finished is not an object');
  return {
    outcome: field(raw, 'outcome', (x) => OUTCOMES.includes(x as string), 'an outcome') as Outcome,
    ending: field(raw, 'ending', (x) => ENDINGS.includes(x as string), 'an ending') as Ending,
    at: field(raw, 'at', isTime, 'a time') as number,
    learned: field(raw, 'learned', isStrings, 'a list of subgoals') as string[],
  };
}

export const recordCodec: Codec<FinishedGame> = {
  version: 1,
  encode: (r) => ({
    id: r.id,
    channelId: r.channelId,
    userId: r.userId,
    human: r.human,
    level: r.level,
    outcome: r.outcome,
    ending: r.ending,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    record: makeGameRecord({ size: r.size, moves: r.moves, comments: [] }),
    learned: r.learned.slice(),
  }),
  decode: (raw) =>
    decoding(raw, (o) => {
      const parsed = parseGameRecord(field(o, 'record', (x) => typeof x === 'string', 'a game record') as string);
      if (!parsed.ok) throw new Bad(`record: ${parsed.error.message}`);
      const size = parsed.value.size;
      if (size !== 15 && size !== 19) throw new Bad('record: the board is not 15 or 19');
      return {
        ...whoAndWhere(o),
        size,
        outcome: field(o, 'outcome', (x) => OUTCOMES.includes(x as string), 'an outcome') as Outcome,
        ending: field(o, 'ending', (x) => ENDINGS.includes(x as string), 'an ending') as Ending,
        startedAt: field(o, 'startedAt', isTime, 'a time') as number,
        endedAt: field(o, 'endedAt', isTime, 'a time') as number,
        moves: legalMoves(size, parsed.value.moves),
        learned: field(o, 'learned', isStrings, 'a list of subgoals') as string[],
      };
    }),
};

export const learnedCodec: Codec<LearnedRecord> = {
  version: 1,
  encode: (r) => ({
    text: r.subgoal.text,
    provenance: { ...r.provenance },
    ...(r.example !== undefined
      ? {
          example: {
            size: r.example.size,
            colour: r.example.colour,
            black: notation(r.example.size, r.example.black),
            white: notation(r.example.size, r.example.white),
            nodes: notation(r.example.size, r.example.nodes),
            implicit: notation(r.example.size, r.example.implicit),
          },
        }
      : {}),
    ...(r.origin !== undefined ? { origin: encodeOrigin(r.origin) } : {}),
    ...(r.reflected === true ? { reflected: true } : {}),
  }),
  decode: (raw) =>
    decoding(raw, (o) => {
      const text = field(o, 'text', isString, 'a description') as string;
      const compiled = compiledText(text);
      if (!compiled.ok) throw new Bad(`text: ${compiled.error.message}`);
      const prov = o.provenance;
      if (!isObject(prov)) throw new Bad('provenance is not an object');
      const provenance: Provenance = {
        game: field(prov, 'game', isString, 'a game id') as string,
        move: field(prov, 'move', (x) => Number.isInteger(x) && (x as number) >= 1, 'a move number') as number,
        date: field(prov, 'date', (x) => typeof x === 'string' && !Number.isNaN(Date.parse(x)), 'a date') as string,
      };
      const example = o.example === undefined ? undefined : decodeExample(o.example);
      const origin = o.origin === undefined ? undefined : decodeOrigin(o.origin);
      if (o.reflected !== undefined && o.reflected !== true) throw new Bad('reflected is not true');
      return { subgoal: compiled.value, provenance, ...(example !== undefined ? { example } : {}), ...(origin !== undefined ? { origin } : {}), ...(o.reflected === true ? { reflected: true as const } : {}) };
    }),
};

/** Stored texts decoded before, and what they compiled to; past this many the memo starts again. */
const TEXTS_MEMO_SIZE = 20_000;
const compiledTexts = new Map<string, Result<Subgoal>>();

/**
 * A stored description compiled, remembered by its text as stored. `compileCached` keys its
 * cache by the canonical string, which it must canonicalise to find: 1.5 s for a 1000-subgoal
 * library on each read of it (the load benchmark, bench/load.ts, found reads of five servers
 * holding the same subgoals taking 9 s of the answering thread). A text read before now costs a
 * lookup. Parse errors are not remembered: a text that failed is tried again, as before.
 */
function compiledText(text: string): Result<Subgoal> {
  const hit = compiledTexts.get(text);
  if (hit !== undefined) return hit;
  const parsed = parseDescription(text);
  if (!parsed.ok) return parsed;
  const compiled = compileCached(parsed.value);
  if (compiled.ok) {
    if (compiledTexts.size >= TEXTS_MEMO_SIZE) compiledTexts.clear();
    compiledTexts.set(text, compiled);
  }
  return compiled;
}

function decodeExample(raw: unknown): Example {
  if (!isObject(raw)) throw new Bad('example is not an object');
  const size = field(raw, 'size', (x) => Number.isInteger(x) && (x as number) >= 5 && (x as number) <= 19, 'a board size') as number;
  return {
    size,
    colour: field(raw, 'colour', isColour, 'a colour') as Colour,
    black: points(raw, 'black', size),
    white: points(raw, 'white', size),
    nodes: points(raw, 'nodes', size),
    implicit: points(raw, 'implicit', size),
  };
}

export const tallyCodec: Codec<Tally> = {
  version: 1,
  encode: (t) => ({ text: t.text, recognised: t.recognised, played: t.played, won: t.won }),
  decode: (raw) =>
    decoding(raw, (o) => ({
      text: field(o, 'text', isString, 'a description') as string,
      recognised: field(o, 'recognised', isCount, 'a count') as number,
      played: field(o, 'played', isCount, 'a count') as number,
      won: field(o, 'won', isCount, 'a count') as number,
    })),
};

export const tombstoneCodec: Codec<Tombstone> = {
  version: 1,
  encode: (t) => ({ game: t.game, at: t.at, idleMs: t.idleMs }),
  decode: (raw) =>
    decoding(raw, (o) => ({
      game: field(o, 'game', isString, 'a game id') as string,
      at: field(o, 'at', isTime, 'a time') as number,
      idleMs: field(o, 'idleMs', isTime, 'a duration') as number,
    })),
};

export const versionCodec: Codec<Version> = {
  version: 1,
  encode: (v) => ({ n: v.n, stamp: v.stamp }),
  decode: (raw) =>
    decoding(raw, (o) => ({
      n: field(o, 'n', isCount, 'a count') as number,
      stamp: field(o, 'stamp', isString, 'a stamp') as string,
    })),
};

export const summaryCodec: Codec<RecordSummary> = {
  version: 1,
  encode: (s) => ({ counts: { ...s.counts }, outcomes: s.outcomes, until: { ...s.until }, ...(s.members !== undefined ? { members: { count: s.members.count, until: { ...s.members.until } } } : {}) }),
  decode: (raw) =>
    decoding(raw, (o) => {
      const counts = o.counts;
      if (!isObject(counts)) throw new Bad('counts is not an object');
      const until = o.until;
      if (!isObject(until)) throw new Bad('until is not an object');
      const outcomes = field(o, 'outcomes', (x) => typeof x === 'string' && [...x].every((l) => outcomeOfLetter(l) !== undefined), 'outcome letters') as string;
      return {
        ...(o.members !== undefined ? { members: foldedMembers(o.members) } : {}),
        counts: {
          'bot-won': field(counts, 'bot-won', isCount, 'a count') as number,
          'bot-lost': field(counts, 'bot-lost', isCount, 'a count') as number,
          draw: field(counts, 'draw', isCount, 'a count') as number,
          abandoned: field(counts, 'abandoned', isCount, 'a count') as number,
        },
        outcomes,
        until: endOfFold(until),
      };
    }),
};

function foldedMembers(x: unknown): NonNullable<RecordSummary['members']> {
  if (!isObject(x) || !isObject(x.until)) throw new Bad('members is not a count with the last game folded');
  return { count: field(x, 'count', isCount, 'a count') as number, until: endOfFold(x.until) };
}

function endOfFold(until: Json): { endedAt: number; id: string } {
  return { endedAt: field(until, 'endedAt', isTime, 'a time') as number, id: field(until, 'id', (x) => typeof x === 'string', 'a game id') as string };
}

export const botCodecs: Codecs<BotSchema> = {
  library: learnedCodec,
  games: gameCodec,
  records: recordCodec,
  stats: tallyCodec,
  tombstones: tombstoneCodec,
  versus: versusCodec,
  versusRecords: versusCodec,
  ratings: ratingCodec,
  settings: settingsCodec,
  versions: versionCodec,
  summaries: summaryCodec,
};

/** A stored game played out on a board. The codec has checked that the moves are legal. */
export function gameOf(stored: Pick<StoredGame, 'size' | 'moves'>): Game {
  const game = Game.create(stored.size);
  for (const p of stored.moves) game.play(p);
  return game;
}
