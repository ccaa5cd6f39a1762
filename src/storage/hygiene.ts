/**
 * What opening storage checks in the data folder, so that a problem is said once, at start,
 * in the log an operator reads, rather than found later one command at a time:
 *
 * - Temporary files (`.tmp-<pid>-…`, files.ts) left by a process killed in the middle of a
 *   write are removed: readers skip them, but nothing else ever would, and a crash loop fills
 *   the disk. A file is left alone while the process that made it is alive (the CLI beside
 *   the bot) unless it is an hour old; the pid is in its name.
 * - A data folder that cannot be written is an error in the log at start: the file store
 *   could not save anything, and with Redis the queue of writes waiting for it could not be
 *   kept on disk. Opening goes on: reading still works, and every write's failure is told.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { messageOf, type StorageLog } from './errors.ts';
import { TEMP_PREFIX } from './files.ts';

/** A temporary file this old is left over whatever its pid says (pids are reused). */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** Removes the temporary files under `dir` that no live write will rename; returns how many. */
export async function removeLeftoverTemps(dir: string, log: StorageLog, now = Date.now()): Promise<number> {
  let removed = 0;
  const visit = async (folder: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return; // missing or unreadable: nothing of ours to remove here
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (entry.isFile() && entry.name.startsWith(TEMP_PREFIX) && (await isLeftOver(entry.name, path, now))) {
        await rm(path, { force: true }).then(
          () => void removed++,
          (e: unknown) => log.warn('could not remove a leftover temporary file', { path, error: messageOf(e) }),
        );
      }
    }
  };
  await visit(dir);
  if (removed > 0) log.info('removed temporary files left by a process that stopped in the middle of a write', { dir, removed });
  return removed;
}

async function isLeftOver(name: string, path: string, now: number): Promise<boolean> {
  const pid = Number(/^\.tmp-(\d+)-/.exec(name)?.[1]);
  if (pid === process.pid) return false;
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    const stat = await lstat(path).catch(() => undefined);
    return stat !== undefined && now - stat.mtimeMs > STALE_TEMP_MS;
  }
  return true;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, and belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a file can be made in `dir` (made first if missing), tried for real: permission
 * bits say nothing to root, and a read-only mount only shows on writing. Logs an error if not.
 */
export async function checkWritable(dir: string, log: StorageLog, what: string): Promise<boolean> {
  const probe = join(dir, `${TEMP_PREFIX}${process.pid}-probe-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '');
    await rm(probe, { force: true });
    return true;
  } catch (e) {
    log.error(`DATA_DIR is not writable: ${what}`, { dir, error: messageOf(e) });
    return false;
  }
}
