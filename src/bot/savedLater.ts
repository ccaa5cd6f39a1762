/**
 * Replies that tell the truth about what was saved (issue 26).
 *
 * A command changes a game by one write, its commit: the game after the move, or the ended
 * game (or, for an expiry, its tombstone). Until the commit lands nothing has changed; once it
 * has, the game has moved on, whatever happens next. So:
 *
 * - The commit is written first and directly. If it fails, surely (storage refused it, or it
 *   never left), the member is told nothing changed — and nothing was queued before it, so
 *   nothing lands later: a "resigned" record can no longer be counted for a game that goes on.
 * - A commit past every time limit may still land. It is read back (`certainly`): Redis
 *   answers one connection's commands in order, so the read comes after the write; what it
 *   finds is what happened. Only when that read fails too is the reply "I cannot tell".
 * - What follows a commit — the finished game's record, the subgoals learned from it — goes
 *   through the retrying writer. If storage did not take it at once it is queued (spilled to
 *   disk, retried, never dropped while the process lives) and the reply says so: "Saved for
 *   later: …", with what will be learned. It cannot contradict the reply: the game it belongs
 *   to has ended.
 * - A game's end that could not be told either way still has its record and lessons to
 *   write if it did land: `afterUncertainCommit` reads it back a few more times, in the
 *   background, and writes them once it sees the game ended — or drops them once it sees the
 *   game as it was. The member, told to look at /board, sees the one or the other.
 */
import { isStorageUnavailable, StorageUnavailable, type LogDetail } from '../storage/index.ts';
import { errorText, type BotLog } from './log.ts';

/** What a reply must say was queued rather than saved. */
export interface SavedLater {
  /** The finished game's record (what /stats counts). */
  readonly record: boolean;
  /** Canonical texts of the learned subgoals queued. */
  readonly subgoals: readonly string[];
}

/**
 * Runs a commit; when it ends `uncertain`, reads back whether it landed (`landed`). Returns
 * when it did; throws a certain `StorageUnavailable` when it did not, and the uncertain one
 * when even that cannot be told.
 */
export async function certainly(write: () => Promise<unknown>, landed: () => Promise<boolean>): Promise<void> {
  try {
    await write();
  } catch (e) {
    if (!isStorageUnavailable(e) || !e.uncertain) throw e;
    let there: boolean;
    try {
      there = await landed();
    } catch (again) {
      if (isStorageUnavailable(again)) throw e;
      throw again;
    }
    if (!there) throw new StorageUnavailable(e.operation, `${e.reason}; read back, it had not landed`, { cause: e });
  }
}

/** When the background read-backs of `afterUncertainCommit` run, in ms after the reply. */
export const RECHECK_DELAYS_MS = [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000];

/**
 * After a commit left uncertain: reads back (`landed`) at `RECHECK_DELAYS_MS` until it can
 * tell; runs `then` if it landed, nothing if it did not. Timers are unref'd: a process that
 * stops meanwhile leaves the game as storage has it, record or not.
 */
export function afterUncertainCommit(landed: () => Promise<boolean>, then: () => Promise<unknown>, log: BotLog, detail: LogDetail, delays: readonly number[] = RECHECK_DELAYS_MS): void {
  const attempt = (i: number): void => {
    if (i >= delays.length) {
      log.error('could not tell whether a game that ended was saved; its record and lessons are not written', detail);
      return;
    }
    const timer = setTimeout(() => {
      landed().then(
        (there) => {
          if (!there) {
            log.info('a game end that was uncertain had not landed; nothing more is written', detail);
            return;
          }
          log.info('a game end that was uncertain landed; writing its record and lessons', detail);
          then().catch((e: unknown) => log.error('could not write the record and lessons of a game end that landed late', { ...detail, error: errorText(e) }));
        },
        () => attempt(i + 1),
      );
    }, delays[i]);
    timer.unref();
  };
  attempt(0);
}

/** The line of a reply that says what was queued, or undefined when everything was saved. */
export function savedLaterLine(s: SavedLater | undefined): string | undefined {
  if (s === undefined || (!s.record && s.subgoals.length === 0)) return undefined;
  const parts: string[] = [];
  if (s.subgoals.length > 0) parts.push(`the ${s.subgoals.length === 1 ? 'subgoal' : `${s.subgoals.length} subgoals`} I learned (${s.subgoals.map((t) => `\`${t}\``).join(', ')})`);
  if (s.record) parts.push("this game's record, which counts in the stats");
  const it = parts.length === 1 && (s.record || s.subgoals.length === 1) ? 'it' : 'them';
  return `Saved for later: ${parts.join(' and ')}. Storage did not take ${it} just now; I keep ${it} and save ${it} as soon as it answers.`;
}
