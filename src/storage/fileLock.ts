/**
 * An exclusive lock on a file that several processes write: `gomoku brain --learn` runs, two
 * at once under a Gomocup manager or one started before the last has finished, sharing one
 * library file. The lock is the file `<target>.lock`, made with O_CREAT | O_EXCL (`'wx'`), which
 * the file system grants to one caller only — in this process or any other on the machine.
 *
 * - **Waiting.** While someone else holds it, `withFileLock` tries again after 2 ms, doubling
 *   to at most 100 ms, until `timeoutMs` (default 30 s) has passed; then it gives up with a
 *   `lock-timeout` problem and runs nothing.
 * - **Owner.** The lock file holds one JSON line: host, pid, when, and a token unique to this
 *   taking. Release removes the file only while it still holds our token, so a holder whose
 *   lock was taken over (below) cannot remove its successor's.
 * - **Stale locks.** A process killed while it held the lock (a manager kills brains that
 *   time out) leaves the file behind. It is taken over when its owner's pid no longer runs
 *   on this host, or, whoever made it, when it is older than `staleMs` (default 15 s): what it
 *   guards is one read-merge-write of a small file, milliseconds long. Taking over renames the
 *   file aside and checks that what was moved is the very lock judged stale (same inode, time
 *   and content); if another waiter had meanwhile taken over and made a fresh lock, that one is
 *   linked back. Two waiters and a third arriving within that window of microseconds could
 *   still both hold it; nothing else can.
 *
 * Decision: hand-written rather than an npm package such as proper-lockfile. That package is
 * built for locks held a long time (it keeps refreshing the lock's mtime and calls back when
 * the lock is compromised) and for network file systems (mkdir locks); here a lock is held for
 * milliseconds on a local file, and an O_EXCL file with the owner's pid inside gives a better
 * stale test (the owner is gone) than age alone, with no new dependency.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import { err, ok, problem, type Result } from '../rules/result.ts';
import { errnoCode, fileFailure } from './files.ts';

export interface FileLockOptions {
  /** How long to wait for the lock before giving up (default 30 000 ms). */
  readonly timeoutMs?: number;
  /** A lock older than this is taken over whoever holds it (default 15 000 ms). */
  readonly staleMs?: number;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
export const DEFAULT_LOCK_STALE_MS = 15_000;

/** What a lock file says about its owner. */
interface LockOwner {
  readonly host: string;
  readonly pid: number;
  readonly since: string;
  readonly token: string;
}

let takings = 0;

/** The lock file of a target file. */
export function lockPathOf(target: string): string {
  return `${target}.lock`;
}

/**
 * Runs `task` while holding the lock on `target`, and releases it however the task ends. A
 * lock that cannot be had (timeout, or the folder cannot hold a lock file) is a problem
 * value and the task is not run; the task's own result is passed through.
 */
export async function withFileLock<T>(target: string, task: () => Promise<Result<T>>, options: FileLockOptions = {}): Promise<Result<T>> {
  const held = await takeLock(lockPathOf(target), options);
  if (!held.ok) return held;
  try {
    return await task();
  } finally {
    releaseLock(lockPathOf(target), held.value);
  }
}

async function takeLock(path: string, options: FileLockOptions): Promise<Result<string>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const deadline = Date.now() + timeoutMs;
  // Waiters started together should not wake together: the pid staggers them a little.
  const stagger = process.pid % 5;
  let wait = 2;
  for (;;) {
    takings += 1;
    const owner: LockOwner = { host: hostname(), pid: process.pid, since: new Date().toISOString(), token: `${process.pid}-${takings}-${Date.now()}` };
    const text = `${JSON.stringify(owner)}\n`;
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      return ok(text);
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST') return err(problem('lock-failed', `cannot make the lock file ${path}: ${fileFailure(e)}`));
    }
    const judged = staleLock(path, staleMs);
    if (judged === 'gone') continue;
    if (judged !== undefined) {
      breakLock(path, judged);
      continue;
    }
    if (Date.now() >= deadline) {
      return err(problem('lock-timeout', `${path} was still held by another writer after ${timeoutMs} ms (${describeOwner(path)})`));
    }
    await new Promise((resolve) => setTimeout(resolve, wait + stagger));
    wait = Math.min(wait * 2, 100);
  }
}

/** The lock as found, when it is stale; 'gone' when it vanished while we looked. */
function staleLock(path: string, staleMs: number): { stats: Stats; text: string } | 'gone' | undefined {
  let stats: Stats;
  let text: string;
  try {
    stats = statSync(path);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return 'gone';
    return undefined;
  }
  if (Date.now() - stats.mtimeMs > staleMs) return { stats, text };
  // An empty file is a lock being made (created, not yet written): not stale before staleMs.
  const owner = parseOwner(text);
  if (owner !== undefined && owner.host === hostname() && !isRunning(owner.pid)) return { stats, text };
  return undefined;
}

/** Moves a stale lock out of the way, putting back a fresh one moved by mistake. */
function breakLock(path: string, judged: { stats: Stats; text: string }): void {
  const aside = `${path}.stale-${process.pid}-${++takings}`;
  try {
    renameSync(path, aside);
  } catch {
    // Gone already: another waiter broke it first.
    return;
  }
  try {
    const moved = statSync(aside);
    const same = moved.ino === judged.stats.ino && moved.mtimeMs === judged.stats.mtimeMs && readFileSync(aside, 'utf8') === judged.text;
    if (!same) {
      try {
        linkSync(aside, path);
      } catch {
        // A lock is there again (EEXIST): its owner goes first, and the moved one's owner
        // shares the window the module comment describes.
      }
    }
  } finally {
    try {
      unlinkSync(aside);
    } catch {
      // Already removed: nothing left to tidy.
    }
  }
}

function releaseLock(path: string, ours: string): void {
  try {
    if (readFileSync(path, 'utf8') === ours) unlinkSync(path);
  } catch {
    // Gone, or taken over after we were judged stale: it is not ours to remove.
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.host === 'string' && typeof o.pid === 'number' && Number.isInteger(o.pid) && o.pid > 0) return o as LockOwner;
  } catch {
    // Not (yet) a whole owner line.
  }
  return undefined;
}

/** Whether a process with this pid runs on this host (EPERM: it runs, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) === 'EPERM';
  }
}

function describeOwner(path: string): string {
  try {
    const owner = parseOwner(readFileSync(path, 'utf8'));
    return owner === undefined ? 'owner unknown' : `pid ${owner.pid} on ${owner.host} since ${owner.since}`;
  } catch {
    return 'now released';
  }
}
