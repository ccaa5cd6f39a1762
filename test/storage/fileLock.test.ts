// The lock file that keeps learners' read-merge-writes of one library file apart
// (src/storage/fileLock.ts): real lock files in a temporary folder, real processes.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../src/rules/result.ts';
import { lockPathOf, withFileLock } from '../../src/storage/fileLock.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function target(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gomoku-lock-'));
  dirs.push(dir);
  return join(dir, 'lib.txt');
}

/** A lock file as another owner would have left it. */
function lockBy(file: string, owner: { host: string; pid: number }): string {
  const text = `${JSON.stringify({ ...owner, since: new Date().toISOString(), token: 'someone-else' })}\n`;
  writeFileSync(lockPathOf(file), text);
  return text;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid of a process that has run and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

describe('the lock on a shared file', () => {
  it('waits while another holds the lock, then runs, and leaves no lock behind', async () => {
    const file = target();
    // Held by a running process (this one, under another token): neither dead nor old.
    lockBy(file, { host: hostname(), pid: process.pid });
    let ran = false;
    const task = withFileLock(file, async () => {
      ran = true;
      return ok(1);
    });
    await sleep(200);
    expect(ran).toBe(false);
    rmSync(lockPathOf(file));
    expect(await task).toEqual(ok(1));
    expect(ran).toBe(true);
    expect(readdirSync(join(file, '..'))).toEqual([]);
  });

  it('takes over at once a lock whose owner on this host has exited', async () => {
    const file = target();
    lockBy(file, { host: hostname(), pid: await deadPid() });
    const started = Date.now();
    expect(await withFileLock(file, async () => ok('mine'), { timeoutMs: 5_000, staleMs: 60_000 })).toEqual(ok('mine'));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(readdirSync(join(file, '..'))).toEqual([]);
  });

  it('takes over a lock older than staleMs, whoever made it', async () => {
    const file = target();
    // Another host's pid cannot be checked: only its age tells.
    lockBy(file, { host: 'another-host', pid: process.pid });
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPathOf(file), old, old);
    expect(await withFileLock(file, async () => ok('mine'), { timeoutMs: 5_000, staleMs: 10_000 })).toEqual(ok('mine'));
    expect(readdirSync(join(file, '..'))).toEqual([]);
  });

  it('gives up after timeoutMs, runs nothing and leaves the other owner\'s lock alone', async () => {
    const file = target();
    const theirs = lockBy(file, { host: 'another-host', pid: 1 });
    let ran = false;
    const r = await withFileLock(
      file,
      async () => {
        ran = true;
        return ok(1);
      },
      { timeoutMs: 300, staleMs: 60_000 },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('lock-timeout');
      expect(r.error.message).toContain('another-host');
    }
    expect(ran).toBe(false);
    expect(readFileSync(lockPathOf(file), 'utf8')).toBe(theirs);
  });

  it('lets one task of this process in at a time', async () => {
    const file = target();
    let inside = 0;
    let most = 0;
    const task = async () => {
      inside++;
      most = Math.max(most, inside);
      await sleep(10);
      inside--;
      return ok(true);
    };
    const results = await Promise.all(Array.from({ length: 6 }, () => withFileLock(file, task)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(most).toBe(1);
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  it('is released when the task throws', async () => {
    const file = target();
    await expect(withFileLock(file, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  it('says why when no lock file can be made', async () => {
    const r = await withFileLock(join(target(), 'no-such-folder', 'lib.txt'), async () => ok(1));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('lock-failed');
  });
});
