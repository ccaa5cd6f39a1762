/**
 * Finished games summed up, so that /stats costs the same after 20 000 games as after 200.
 *
 * A server keeps the records of its last `recordsKept` finished games (1000 by default,
 * `RECORDS_KEPT`); older ones are folded into one summary (`summaries::records`): how many
 * games ended each way, and their outcomes in order, one letter a game, for the /stats
 * chart. The counters stay exact; what goes is each old game's moves and who played it.
 *
 * - The summary says how far it reaches (`until`: the end time and id of the last game
 *   folded in). It is written before the records it holds are deleted, and /stats counts only
 *   records past `until`: a fold cut off between the two counts nothing twice, and the next
 *   fold deletes what is left.
 * - Folding is done by /stats when the records are over the bound by a tenth (so not at every
 *   game), under the server's counters lock; a fold that fails is logged and tried next time.
 * - Finished games between members (`versusRecords`) are bounded the same way, at the same
 *   number, when a game between members ends (the only time one is added). Nothing counts them
 *   game by game — the standings are the ratings, kept as games end — so only how many were
 *   folded, and the last, stays (`members` in the same summary): /games can still say how many
 *   games the server has had, and /games, /replay's autocomplete and a reflection pass read a
 *   bounded list.
 */
import { errorText, type BotLog } from './log.ts';
import type { Ending, Outcome } from './gameTerms.ts';
import { OUTCOME_LETTERS, outcomeOfLetter, RESIGNED_LETTER, type BotSchema, type FinishedGame, type RecordSummary } from './records.ts';
import type { VersusGame } from './communityRecords.ts';
import type { GuildMemory } from '../storage/index.ts';

/** The key, in `summaries`, of the finished games' summary. */
export const RECORDS_SUMMARY_KEY = 'records';
export const DEFAULT_RECORDS_KEPT = 1000;

function letterOf(r: Pick<FinishedGame, 'outcome' | 'ending'>): string {
  return r.outcome === 'bot-won' && r.ending === 'resigned' ? RESIGNED_LETTER : OUTCOME_LETTERS[r.outcome];
}

type Ended = Pick<FinishedGame, 'endedAt' | 'id'>;

/** Oldest first: by end time, then id. */
export function byEnd(a: Ended, b: Ended): number {
  return a.endedAt - b.endedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The games past `until` (all when undefined), oldest first. */
function pastUntil<T extends Ended>(until: Ended | undefined, games: readonly T[]): T[] {
  const sorted = games.slice().sort(byEnd);
  return until === undefined ? sorted : sorted.filter((r) => byEnd(r, until) > 0);
}

/** The records the summary does not already count, oldest first. */
export function pastSummary(summary: RecordSummary | undefined, records: readonly FinishedGame[]): FinishedGame[] {
  return pastUntil(summary?.until, records);
}

/** A finished game between members, by its end (undefined while it is being played). */
function endOf(g: VersusGame): (Ended & { readonly game: VersusGame }) | undefined {
  return g.finished === undefined ? undefined : { endedAt: g.finished.at, id: g.id, game: g };
}

/** The finished games between members the summary does not already count, oldest first. */
export function membersPastSummary(summary: RecordSummary | undefined, games: readonly VersusGame[]): VersusGame[] {
  return pastUntil(summary?.members?.until, games.flatMap((g) => endOf(g) ?? [])).map((e) => e.game);
}

/** Every finished game the server has had: folded and kept, against the bot and between members. */
export function gamesAllTold(summary: RecordSummary | undefined, records: readonly FinishedGame[], members: readonly VersusGame[]): number {
  const folded = summary === undefined ? 0 : summary.outcomes.length + (summary.members?.count ?? 0);
  return folded + pastSummary(summary, records).length + membersPastSummary(summary, members).length;
}

/** Over the bound by more than a tenth, or some already counted by the summary. */
function overBound(live: number, all: number, keep: number): boolean {
  return live > keep + Math.floor(keep / 10) || live < all;
}

/** Every finished game's outcome, oldest first: the summary's, then the records past it. */
export function historyOf(summary: RecordSummary | undefined, records: readonly FinishedGame[]): { endedAt: number; outcome: Outcome; ending?: Ending }[] {
  // A folded game keeps only its outcome, and whether it was resigned.
  const folded = summary === undefined ? [] : [...summary.outcomes].map((letter) => ({ endedAt: summary.until.endedAt, outcome: outcomeOfLetter(letter) ?? 'abandoned', ...(letter === RESIGNED_LETTER ? { ending: 'resigned' as const } : {}) }));
  return [...folded, ...pastSummary(summary, records).map((r) => ({ endedAt: r.endedAt, outcome: r.outcome, ending: r.ending }))];
}

/** Whether a fold is due: records past the summary over the bound by a tenth, or records it already holds. */
export function foldDue(summary: RecordSummary | undefined, records: readonly FinishedGame[], keep: number): boolean {
  return overBound(pastSummary(summary, records).length, records.length, keep);
}

/** The summary with `older` (oldest first, all past it) folded in. */
export function foldIn(summary: RecordSummary | undefined, older: readonly FinishedGame[]): RecordSummary {
  const counts: Record<Outcome, number> = { 'bot-won': 0, 'bot-lost': 0, draw: 0, abandoned: 0, ...summary?.counts };
  let outcomes = summary?.outcomes ?? '';
  for (const r of older) {
    counts[r.outcome]++;
    outcomes += letterOf(r);
  }
  const last = older[older.length - 1];
  return { counts, outcomes, until: last !== undefined ? { endedAt: last.endedAt, id: last.id } : (summary?.until ?? { endedAt: 0, id: '' }), ...(summary?.members !== undefined ? { members: summary.members } : {}) };
}

/**
 * Folds all but the newest `keep` records into the summary when there are more than a tenth
 * over; writes the summary, then deletes what it holds (and any left by an earlier fold cut
 * off). Returns how many records were deleted.
 */
export async function foldOldRecords(
  memory: GuildMemory<BotSchema>,
  keep: number,
  log: BotLog,
  read?: { readonly summary: RecordSummary | undefined; readonly records: readonly FinishedGame[] },
): Promise<number> {
  const { summary, records } = read ?? { summary: await memory.summaries.get(RECORDS_SUMMARY_KEY), records: (await memory.records.list()).map((e) => e.value) };
  const live = pastSummary(summary, records);
  const stale = records.filter((r) => summary !== undefined && byEnd(r, summary.until) <= 0);
  if (!foldDue(summary, records, keep)) return 0;
  const older = live.length > keep ? live.slice(0, live.length - keep) : [];
  if (older.length > 0) await memory.summaries.put(RECORDS_SUMMARY_KEY, foldIn(summary, older));
  const gone = [...stale, ...older];
  for (const r of gone) await memory.records.delete(r.id);
  log.info('folded old game records into the summary', { guildId: memory.guildId, folded: older.length, deleted: gone.length, kept: live.length - older.length });
  return gone.length;
}

/** `foldOldRecords`, its failure logged rather than thrown: it is housekeeping. */
export async function foldQuietly(memory: GuildMemory<BotSchema>, keep: number, log: BotLog, read?: Parameters<typeof foldOldRecords>[3]): Promise<void> {
  try {
    await foldOldRecords(memory, keep, log, read);
  } catch (e) {
    log.warn('could not fold old game records; trying again next time', { guildId: memory.guildId, error: errorText(e) });
  }
}

/** The summary (an empty one when there is none) with its count of folded games between members set. */
export function withMembers(summary: RecordSummary | undefined, members: NonNullable<RecordSummary['members']>): RecordSummary {
  return { ...foldIn(summary, []), members };
}

/**
 * Folds all but the newest `keep` finished games between members when there are more than a
 * tenth over: the summary's `members` count and last game are written first, then the games
 * deleted (with any an earlier fold cut off left). Returns how many were deleted. Logged,
 * not thrown, on failure: it is housekeeping, and the game that just ended is recorded.
 */
export async function foldOldMemberGames(memory: GuildMemory<BotSchema>, keep: number, log: BotLog): Promise<number> {
  try {
    const [summary, entries] = await Promise.all([memory.summaries.get(RECORDS_SUMMARY_KEY), memory.versusRecords.list()]);
    const ended = entries.flatMap((e) => endOf(e.value) ?? []);
    const live = pastUntil(summary?.members?.until, ended);
    if (!overBound(live.length, ended.length, keep)) return 0;
    const older = live.length > keep ? live.slice(0, live.length - keep) : [];
    const last = older[older.length - 1];
    if (last !== undefined) {
      const members = { count: (summary?.members?.count ?? 0) + older.length, until: { endedAt: last.endedAt, id: last.id } };
      await memory.summaries.put(RECORDS_SUMMARY_KEY, withMembers(summary, members));
    }
    const kept = new Set(live.slice(older.length).map((g) => g.id));
    const gone = ended.filter((g) => !kept.has(g.id));
    for (const g of gone) await memory.versusRecords.delete(g.id);
    log.info('folded old games between members into the summary', { guildId: memory.guildId, folded: older.length, deleted: gone.length, kept: kept.size });
    return gone.length;
  } catch (e) {
    log.warn('could not fold old games between members; trying again after the next', { guildId: memory.guildId, error: errorText(e) });
    return 0;
  }
}
