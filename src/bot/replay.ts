/**
 * Past games: the list /games shows and the replay /replay draws. A finished game's record
 * (records.ts `FinishedGame`) has its moves and the texts of the subgoals first learned from
 * it; each of those subgoals is in the library with the move it was learned at and, usually, an
 * example of its realisation in the game's own coordinates (example.ts).
 *
 * Decisions:
 * - /games lists the server's most recent finished games, newest first, expired ones too (a
 *   member may want to see where they left one), at most `GAMES_SHOWN`.
 * - A learned subgoal is drawn on the frame of the position it was recognised in: the one just
 *   before the winner's move it was learned at (provenance move m: frame m − 1), where that
 *   move's point is one of its nodes. Its realisation is the stored example's nodes and
 *   implicit nodes; a record without an example (storage kept none) is recognised again on
 *   that position. A subgoal learned elsewhere and only met again in this game is not drawn:
 *   the game taught nothing new there.
 * - Game ids are the service's (`<time base 36>-<4 base-36 chars>`); anything else typed is
 *   answered as a game the server does not have, without asking storage for a strange key.
 */
import { Board } from '../rules/board.ts';
import type { Game } from '../rules/game.ts';
import { recognise } from '../recognition/recognise.ts';
import type { ReplaySnapshot } from '../render/index.ts';
import type { RealisationOverlay } from '../rules/snapshot.ts';
import { colourOf, type Stone } from '../rules/types.ts';
import { done, refuse, type BotResult } from './problems.ts';
import { gameOf, type FinishedGame, type LearnedRecord } from './records.ts';
import type { VersusFinish, VersusGame, VersusResult } from './communityRecords.ts';
import type { BoardSize, Ending } from './gameTerms.ts';
import type { Point } from '../rules/types.ts';
import type { BotStore } from './store.ts';
import { gamesAllTold, membersPastSummary, pastSummary, RECORDS_SUMMARY_KEY } from './recordSummary.ts';
import { shownInput } from '../rules/result.ts';

/** Games /games lists; also the most /replay's autocomplete offers (Discord's limit is 25). */
export const GAMES_SHOWN = 10;
const SUGGESTED = 25;
const GAME_ID = /^[0-9a-z]{1,16}-[0-9a-z]{1,8}$/;

/**
 * A finished game between two members, as /games and /replay show it (versus.ts keeps the last
 * `RECORDS_KEPT` ended ones under their ids in `versusRecords`; recordSummary.ts). A subgoal
 * learned by watching one names its id, so /library points at it and /replay finds it while kept.
 */
export interface MembersRecord {
  readonly kind: 'members';
  readonly id: string;
  readonly size: BoardSize;
  readonly black: string;
  readonly white: string;
  readonly moves: readonly Point[];
  readonly endedAt: number;
  readonly ending: Ending;
  readonly result: VersusResult;
  /** Who resigned. */
  readonly by?: string;
  readonly learned: readonly string[];
}

/** A game against the bot (its record) or between members. */
export type PastRecord = ({ readonly kind: 'bot' } & FinishedGame) | MembersRecord;

export interface PastGame {
  readonly record: PastRecord;
  /** The learned subgoals, with the winner's move each was learned at, in the order learned. */
  readonly learned: readonly { readonly text: string; readonly move?: number }[];
}

export interface PastGames {
  /** Finished games in the server, all told. */
  readonly total: number;
  readonly games: readonly PastGame[];
}

/** A game to replay: its record, the game played out, and what the GIF draws. */
export interface Replay extends PastGame {
  readonly game: Game;
  readonly snapshot: ReplaySnapshot;
}

/**
 * The server's finished games kept, against the bot and between members, newest first
 * (those a fold cut off after writing the summary left are not: the summary counts them),
 * and how many it has had all told.
 */
async function finishedGames(store: BotStore, guildId: string): Promise<{ readonly kept: PastRecord[]; readonly total: number }> {
  const memory = store.guild(guildId);
  const [entries, versusEntries, summary] = await Promise.all([memory.records.list(), memory.versusRecords.list(), memory.summaries.get(RECORDS_SUMMARY_KEY)]);
  const records = entries.map((e) => e.value);
  const versus = versusEntries.map((e) => e.value);
  const bot = pastSummary(summary, records).map((r): PastRecord => ({ kind: 'bot', ...r }));
  const members = membersPastSummary(summary, versus).flatMap((g) => (g.finished === undefined ? [] : [membersRecord(g, g.finished)]));
  const kept = [...bot, ...members].sort((a, b) => b.endedAt - a.endedAt || (a.id < b.id ? -1 : 1));
  return { kept, total: gamesAllTold(summary, records, versus) };
}

function membersRecord(g: VersusGame, fin: VersusFinish): MembersRecord {
  return { kind: 'members', id: g.id, size: g.size, black: g.black, white: g.white, moves: g.moves, endedAt: fin.at, ending: fin.ending, result: fin.result, ...(fin.by !== undefined ? { by: fin.by } : {}), learned: fin.learned };
}

export async function pastGames(store: BotStore, guildId: string, limit = GAMES_SHOWN): Promise<BotResult<PastGames>> {
  const memory = store.guild(guildId);
  const [{ kept, total }, library] = await Promise.all([finishedGames(store, guildId), memory.library.list()]);
  const learned = learnedByGame(library.map((e) => e.value));
  return done({ total, games: kept.slice(0, limit).map((record) => pastGame(record, learned.get(record.id) ?? [])) });
}

/** One game's replay. */
export async function replayOf(store: BotStore, guildId: string, id: string): Promise<BotResult<Replay>> {
  const typed = id.trim();
  // Ids are lower-case; autocomplete matches what is typed in any case, and so does this.
  const wanted = typed.toLowerCase();
  if (!GAME_ID.test(wanted)) return refuse({ code: 'no-such-game', id: shownInput(typed, 40) });
  const memory = store.guild(guildId);
  const own = await memory.records.get(wanted);
  const theirs = own === undefined ? await memory.versusRecords.get(wanted) : undefined;
  const record: PastRecord | undefined = own !== undefined ? { kind: 'bot', ...own } : theirs?.finished !== undefined ? membersRecord(theirs, theirs.finished) : undefined;
  if (record === undefined) return refuse({ code: 'no-such-game', id: typed });
  const learned = learnedByGame((await memory.library.list()).map((e) => e.value)).get(record.id) ?? [];
  const game = gameOf(record);
  const status = game.status;
  const marks = learned.flatMap((l) => {
    const overlay = overlayOf(record, l);
    return overlay === undefined ? [] : [{ frame: l.provenance.move - 1, overlays: [overlay] }];
  });
  const snapshot: ReplaySnapshot = { size: record.size, moves: record.moves, marks, ...(status.kind === 'won' ? { winningLine: status.five } : {}) };
  return done({ ...pastGame(record, learned), game, snapshot });
}

/** Ids for /replay's autocomplete, newest first, with a label a member can pick by. */
export async function suggestGames(store: BotStore, guildId: string, typed: string): Promise<{ name: string; value: string }[]> {
  const want = typed.trim().toLowerCase();
  const { kept } = await finishedGames(store, guildId);
  return kept
    .filter((r) => r.id.startsWith(want) || want === '')
    .slice(0, SUGGESTED)
    .map((r) => ({ name: `${r.id} · ${new Date(r.endedAt).toISOString().slice(0, 10)} · ${resultLabel(r)} · ${r.moves.length} moves`.slice(0, 100), value: r.id }));
}

function resultLabel(r: PastRecord): string {
  switch (r.ending) {
    case 'five':
      if (r.kind === 'members') return `${r.result === 'black-won' ? 'black' : 'white'} won, between members`;
      return r.outcome === 'bot-lost' ? 'member won' : 'bot won';
    case 'resigned':
      return r.kind === 'members' ? 'resigned, between members' : 'member resigned';
    case 'full-board':
      return 'draw';
    case 'expired':
      return 'expired';
  }
}

function pastGame(record: PastRecord, learned: readonly LearnedRecord[]): PastGame {
  const byText = new Map(learned.map((l) => [l.subgoal.text, l.provenance.move]));
  return { record, learned: record.learned.map((text) => ({ text, ...(byText.has(text) ? { move: byText.get(text) } : {}) })) };
}

/** The library's records learned from each game, by game id, the move nearest the win first. */
function learnedByGame(records: readonly LearnedRecord[]): Map<string, LearnedRecord[]> {
  const out = new Map<string, LearnedRecord[]>();
  for (const r of records) out.set(r.provenance.game, [...(out.get(r.provenance.game) ?? []), r]);
  for (const list of out.values()) list.sort((a, b) => b.provenance.move - a.provenance.move);
  return out;
}

/** The realisation a learned subgoal was recognised as, on the game's board before the move. */
function overlayOf(record: Pick<PastRecord, 'size' | 'moves'>, learned: LearnedRecord): RealisationOverlay | undefined {
  const m = learned.provenance.move;
  if (m < 1 || m > record.moves.length) return undefined;
  const e = learned.example;
  if (e !== undefined && e.size === record.size) return { colour: e.colour, nodes: e.nodes, implicit: e.implicit };
  const game = gameOf(record);
  const point = record.moves[m - 1];
  const before = Board.empty(record.size);
  record.moves.slice(0, m - 1).forEach((p) => before.play(p, game.board.get(p) as Stone));
  const winner = colourOf(game.board.get(point) as Stone);
  const found = recognise(before, [learned.subgoal])[winner].find((r) => r.nodes.includes(point));
  return found === undefined ? undefined : { colour: found.colour, nodes: found.nodes, implicit: found.implicit };
}
