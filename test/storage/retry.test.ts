// The retrying writer over a file back end we can switch off: queueing, backoff replay,
// newest-wins per key, the pending file across restarts, and its bounds.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Memory,
  openFileBackend,
  RetryingWriter,
  StorageUnavailable,
  type Backend,
  type RetryingWriterOptions,
} from '../../src/storage/index.ts';
import { collectingLog, eventually, tempDir, testCodecs, type LogLine, type TestSchema } from './support.ts';

/** A back end that fails like an unreachable store while `down`, or with `broken` when set. */
class Switchable implements Backend {
  down = false;
  broken: Error | undefined;
  writes = 0;

  constructor(readonly inner: Backend) {}

  get kind() {
    return this.inner.kind;
  }
  get namespace() {
    return this.inner.namespace;
  }
  get adapter() {
    return this.inner.adapter;
  }
  #check(operation: string): void {
    if (this.broken) throw this.broken;
    if (this.down) throw new StorageUnavailable(operation, 'switched off by the test');
  }
  async get(key: string) {
    this.#check('get');
    return this.inner.get(key);
  }
  async set(key: string, value: unknown) {
    this.#check('put');
    this.writes += 1;
    return this.inner.set(key, value);
  }
  async delete(key: string) {
    this.#check('delete');
    return this.inner.delete(key);
  }
  async deleteMany(keys: readonly string[]) {
    this.#check('delete');
    return this.inner.deleteMany(keys);
  }
  async entries(prefix: string) {
    this.#check('list');
    return this.inner.entries(prefix);
  }
  async keys() {
    this.#check('list');
    return this.inner.keys();
  }
  async rename(from: string, to: string) {
    this.#check('rename');
    return this.inner.rename(from, to);
  }
  async clearAll() {
    this.#check('clear');
    return this.inner.clearAll();
  }
  async ping() {
    this.#check('ping');
    return this.inner.ping();
  }
  close() {
    return this.inner.close();
  }
}

interface Rig {
  dir: string;
  backend: Switchable;
  memory: Memory<TestSchema>;
  lines: LogLine[];
  openWriter(options?: Partial<RetryingWriterOptions>): Promise<RetryingWriter<TestSchema>>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rig(): Promise<Rig> {
  const { dir, remove } = await tempDir('retry');
  cleanups.push(remove);
  const backend = new Switchable(await openFileBackend({ dir, namespace: 'gomoku' }));
  cleanups.push(() => backend.close());
  const { log, lines } = collectingLog();
  const memory = new Memory(backend, testCodecs, log);
  return {
    dir,
    backend,
    memory,
    lines,
    openWriter: async (options = {}) => {
      const writer = await RetryingWriter.open(memory, {
        pendingFile: join(dir, 'pending.json'),
        log,
        baseDelayMs: 20,
        maxDelayMs: 80,
        ...options,
      });
      cleanups.push(() => writer.close());
      return writer;
    },
  };
}

const subgoal = (moves: number) => ({ description: `d${moves}`, moves });

describe('RetryingWriter', () => {
  it('saves at once while storage answers', async () => {
    const { memory, openWriter } = await rig();
    const writer = await openWriter();
    expect(await writer.put('1', 'library', 's', subgoal(1))).toBe('saved');
    expect(await memory.guild('1').library.get('s')).toEqual(subgoal(1));
    expect(writer.pending).toEqual([]);
  });

  it('queues while storage is down and lands the writes by itself once it is back', async () => {
    const { backend, memory, openWriter, lines } = await rig();
    const writer = await openWriter();
    backend.down = true;
    expect(await Promise.all([writer.put('1', 'library', 'a', subgoal(1)), writer.put('1', 'library', 'b', subgoal(2))])).toEqual([
      'queued',
      'queued',
    ]);
    // Retries go on failing, with growing delays, for as long as it is down.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(writer.pending.map((w) => w.key)).toEqual(['a', 'b']);

    backend.down = false;
    // The queue empties before the round has rewritten the pending file and said so: wait
    // for the round's last word, not for the queue, or a slow disk loses the race.
    await eventually(() => expect(lines.some((l) => /every pending write is saved/.test(l.message))).toBe(true));
    expect(writer.pending).toEqual([]);
    expect(await memory.guild('1').library.list()).toEqual([
      { key: 'a', value: subgoal(1) },
      { key: 'b', value: subgoal(2) },
    ]);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.detail.key)).toEqual(['a', 'b']);
  });

  it('keeps one queued write per key, the newest, so an old retry cannot overwrite a new value', async () => {
    const { backend, memory, openWriter } = await rig();
    const writer = await openWriter({ baseDelayMs: 10_000 }); // no timer retry during this test
    backend.down = true;
    await writer.put('1', 'stats', 'summary', { played: 1, won: 0 });
    await writer.put('1', 'stats', 'summary', { played: 2, won: 0 });
    expect(writer.pending).toHaveLength(1);
    expect(writer.pending[0]?.envelope).toEqual({ v: 1, data: { played: 2, won: 0 } });

    backend.down = false;
    expect(await writer.put('1', 'stats', 'summary', { played: 3, won: 1 })).toBe('saved');
    expect(writer.pending).toEqual([]);
    expect(await writer.flush()).toBe(0);
    expect(await memory.guild('1').stats.get('summary')).toEqual({ played: 3, won: 1 });
  });

  it('replays after a restart what was pending when the process stopped', async () => {
    const { dir, backend, memory, openWriter, lines } = await rig();
    const first = await openWriter({ baseDelayMs: 10_000 });
    backend.down = true;
    await first.put('4', 'library', 'x', subgoal(7));
    await first.close();
    expect(await readdir(dir)).toContain('pending.json');

    backend.down = false;
    const second = await openWriter();
    expect(second.pending.map((w) => w.key)).toEqual(['x']);
    // As above: the file is removed after the queue empties, before the round says so.
    await eventually(() => expect(lines.some((l) => /every pending write is saved/.test(l.message))).toBe(true));
    expect(second.pending).toEqual([]);
    expect(await memory.guild('4').library.get('x')).toEqual(subgoal(7));
    expect(await readdir(dir)).not.toContain('pending.json');
  });

  it('moves an unreadable pending file aside and says so', async () => {
    const { dir, openWriter, lines } = await rig();
    await writeFile(join(dir, 'pending.json'), '{"v":1,"writes":[');
    const writer = await openWriter();
    expect(writer.pending).toEqual([]);
    const names = await readdir(dir);
    expect(names.some((n) => n.startsWith('pending.json.unreadable-'))).toBe(true);
    expect(lines.some((l) => l.level === 'error' && /unreadable/.test(l.message))).toBe(true);
  });

  it('skips unreadable entries of a pending file and keeps the good ones', async () => {
    const { dir, openWriter, lines } = await rig();
    const good = { guildId: '1', collection: 'library', key: 'k', envelope: { v: 1, data: subgoal(1) }, since: 0 };
    const bad = { guildId: '1', collection: 'nonsense', key: 'k', envelope: { v: 1, data: {} }, since: 0 };
    await writeFile(join(dir, 'pending.json'), JSON.stringify({ v: 1, writes: [good, bad] }));
    const writer = await openWriter({ baseDelayMs: 10_000 });
    expect(writer.pending).toEqual([good]);
    expect(lines.filter((l) => /unreadable entry/.test(l.message))).toHaveLength(1);
  });

  it('drops the oldest write past its bound, and logs it as an error', async () => {
    const { dir, backend, openWriter, lines } = await rig();
    const writer = await openWriter({ maxPending: 3, baseDelayMs: 10_000 });
    backend.down = true;
    for (let i = 0; i < 5; i++) await writer.put('1', 'library', `s${i}`, subgoal(i));
    expect(writer.pending.map((w) => w.key)).toEqual(['s2', 's3', 's4']);
    expect(lines.filter((l) => l.level === 'error').map((l) => l.detail.key)).toEqual(['s0', 's1']);
    const spilled = JSON.parse(await readFile(join(dir, 'pending.json'), 'utf8'));
    expect(spilled.writes.map((w: { key: string }) => w.key)).toEqual(['s2', 's3', 's4']);
  });

  it('stops a retry round at the first write that still fails', async () => {
    const { backend, openWriter } = await rig();
    const writer = await openWriter({ baseDelayMs: 10_000 });
    backend.down = true;
    for (let i = 0; i < 4; i++) await writer.put('1', 'library', `s${i}`, subgoal(i));
    const before = backend.writes;
    expect(await writer.flush()).toBe(4);
    expect(backend.writes).toBe(before);
  });

  it('rejects programming errors instead of queueing them', async () => {
    const { backend, openWriter } = await rig();
    const writer = await openWriter();
    await expect(writer.put('', 'library', 'k', subgoal(1))).rejects.toThrow(TypeError);
    await expect(writer.put('1', 'library', '', subgoal(1))).rejects.toThrow(TypeError);
    await expect(writer.put('1', 'stats', 'k', { played: Infinity, won: 0 })).rejects.toThrow(/JSON/);
    backend.broken = new RangeError('a bug, not an outage');
    await expect(writer.put('1', 'library', 'k', subgoal(1))).rejects.toThrow(RangeError);
    expect(writer.pending).toEqual([]);
  });

  it('refuses new writes after close', async () => {
    const { openWriter } = await rig();
    const writer = await openWriter();
    await writer.close();
    await expect(writer.put('1', 'library', 'k', subgoal(1))).rejects.toBeInstanceOf(StorageUnavailable);
  });
});
