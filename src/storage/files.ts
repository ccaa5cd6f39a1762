/**
 * Durable file writing for the embedded store and the pending-writes file.
 *
 * A write goes to a fresh temporary file in the target's folder, is flushed to disk, and is
 * then renamed over the target. `rename` within one folder is atomic on POSIX file systems, so
 * a reader (or the process after a crash) sees the old content or the new, never half of
 * either. The folder is synced after the rename so the new name itself survives a power cut.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temporary files start with this; readers skip every name that starts with a dot. */
export const TEMP_PREFIX = '.tmp-';

/**
 * What the file store reads where a folder stands in place of a record's file (a mistake by
 * hand, or a restore gone wrong): an unreadable record, reported and moved aside, rather
 * than an error on every command that touches it.
 */
export const FOLDER_IN_PLACE = '\u0000a folder stands where this record should be';

let tempCounter = 0;

export function errnoCode(e: unknown): string | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string') return e.code;
  return undefined;
}

/**
 * Why a file operation failed, for a message that has already named the file the user gave:
 * Node's `ENOSPC: no space left on device, write` or `ENOENT: …, open '/dir/.tmp-…'` without
 * the operation and the path (a temporary file's, which would only confuse).
 */
export function fileFailure(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return errnoCode(e) === undefined ? message : message.replace(/, \w+(?: '[^']*')*$/, '');
}

/**
 * Replaces `path` with `text` atomically. Fails with the file system's error (ENOENT when the
 * folder does not exist); the temporary file is removed on every failure.
 */
export async function writeFileAtomic(path: string, text: string, durable: boolean): Promise<void> {
  const folder = dirname(path);
  tempCounter += 1;
  const temp = join(folder, `${TEMP_PREFIX}${process.pid}-${tempCounter}-${randomBytes(4).toString('hex')}`);
  let handle;
  try {
    handle = await open(temp, 'wx');
    await handle.writeFile(text, 'utf8');
    if (durable) await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, path);
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
  if (durable) await syncFolder(folder);
}

/**
 * Flushes a folder's entries (new and removed names). Some platforms cannot open a folder
 * for this; there it is a no-op, as the rename is as durable as that platform allows.
 */
export async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // EISDIR / EPERM / EINVAL on platforms that do not support syncing a folder.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Whether a folder entry is one of our temporary files (or any other dot-file we ignore). */
export function isHiddenName(name: string): boolean {
  return basename(name).startsWith('.');
}

/**
 * Runs tasks one after another per id, in the order they were submitted, and tasks with
 * different ids freely in parallel. It is what makes concurrent writers within one process
 * safe: two writes to one key land in call order, whichever's disk work finishes first.
 */
export class SerialById {
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(id) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(id, tail);
    void tail.then(() => {
      if (this.#tails.get(id) === tail) this.#tails.delete(id);
    });
    return result;
  }

  /** Resolves once every task submitted so far has settled. */
  async idle(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all(this.#tails.values());
  }
}
