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
 */
import { errorText, type BotLog } from './log.ts';
import type { Ending, Outcome } from './gameTerms.ts';
import { OUTCOME_LETTERS, outcomeOfLetter, RESIGNED_LETTER, type BotSchema, type FinishedGame, type RecordSummary } from './records.ts';
import type { GuildMemory } from '../storage/index.ts';

/** The key, in `summaries`, of the finished games' summary. */
export const RECORDS_SUMMARY_KEY = 'records';
export const DEFAULT_RECORDS_KEPT = 1000;

function letterOf(r: Pick<FinishedGame, 'outcome' | 'ending'>): string {
  return r.outcome === 'bot-won' && r.ending === 'resigned' ? RESIGNED_LETTER : OUTCOME_LETTERS[r.outcome];
}

/** Oldest first: by end time, then id. */
export function byEnd(a: Pick<FinishedGame, 'endedAt' | 'id'>, b: Pick<FinishedGame, 'endedAt' | 'id'>): number {
  return a.endedAt - b.endedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The records the summary does not already count, oldest first. */
export function pastSummary(summary: RecordSummary | undefined, records: readonly FinishedGame[]): FinishedGame[] {
  const sorted = records.slice().sort(byEnd);
  return summary === undefined ? sorted : sorted.filter((r) => byEnd(r, summary.until) > 0);
}

/** Every finished game's outcome, oldest first: the summary's, then the records past it. */
export function historyOf(summary: RecordSummary | undefined, records: readonly FinishedGame[]): { endedAt: number; outcome: Outcome; ending?: Ending }[] {
  // A folded game keeps only its outcome, and whether it was resigned.
  const folded = summary === undefined ? [] : [...summary.outcomes].map((letter) => ({ endedAt: summary.until.endedAt, outcome: outcomeOfLetter(letter) ?? 'abandoned', ...(letter === RESIGNED_LETTER ? { ending: 'resigned' as const } : {}) }));
  return [...folded, ...pastSummary(summary, records).map((r) => ({ endedAt: r.endedAt, outcome: r.outcome, ending: r.ending }))];
}

/** Whether a fold is due: records past the summary over the bound by a tenth, or records it already holds. */
export function foldDue(summary: RecordSummary | undefined, records: readonly FinishedGame[], keep: number): boolean {
  const live = pastSummary(summary, records).length;
  return live > keep + Math.floor(keep / 10) || live < records.length;
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
  return { counts, outcomes, until: last !== undefined ? { endedAt: last.endedAt, id: last.id } : (summary?.until ?? { endedAt: 0, id: '' }) };
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
