// Redis out of reach: a port where nothing listens, and a redis-server of our own that we
// shut down in the middle of a test and start again. Nothing may crash or hang; operations
// fail with StorageUnavailable; writes made meanwhile through the writer land afterwards.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, StorageUnavailable, type OpenStorageOptions, type Storage } from '../../src/storage/index.ts';
import { collectingLog, eventually, freePort, startRedisServer, stopRedisServer, tempDir, testCodecs, type TestSchema } from './support.ts';

/** Short limits, so the tests are quick; the behaviour is the same with the defaults. */
const quick: OpenStorageOptions = {
  connectWaitMs: 300,
  connectTimeoutMs: 300,
  maxReconnectDelayMs: 100,
  opTimeoutMs: 1000,
  retry: { baseDelayMs: 50, maxDelayMs: 200 },
};

const opened: Storage<TestSchema>[] = [];
const folders: Array<() => Promise<void>> = [];

async function open(env: { REDIS_URL: string; DATA_DIR: string; STORAGE_NAMESPACE?: string }, options: OpenStorageOptions = {}) {
  const logged = collectingLog();
  const storage = await openStorage(env, testCodecs, { ...quick, ...options, log: logged.log });
  opened.push(storage);
  return { storage, lines: logged.lines };
}

async function folder(tag: string): Promise<string> {
  const { dir, remove } = await tempDir(tag);
  folders.push(remove);
  return dir;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(folders.splice(0).map((remove) => remove()));
});

describe('redis on a port where nothing listens', () => {
  it('opens within a bounded time and fails every operation fast with StorageUnavailable', async () => {
    const started = Date.now();
    const { storage, lines } = await open({ REDIS_URL: 'redis://127.0.0.1:1', DATA_DIR: await folder('dead') });
    expect(storage.kind).toBe('redis');
    expect(Date.now() - started).toBeLessThan(1500);

    const g = storage.guild('1');
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['get', () => g.library.get('x')],
      ['put', () => g.library.put('x', { description: 'x', moves: 1 })],
      ['delete', () => g.library.delete('x')],
      ['list', () => g.library.list()],
      ['list', () => g.clear()],
      ['ping', () => storage.ping()],
    ];
    for (const [operation, attempt] of attempts) {
      const t0 = Date.now();
      const failure = await attempt().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(StorageUnavailable);
      expect(failure).toMatchObject({ operation, code: 'storage-unavailable' });
      expect(Date.now() - t0).toBeLessThan(200);
    }
    expect(lines.some((l) => l.level === 'warn' && /unreachable/.test(l.message))).toBe(true);
    // Not one line per reconnection attempt.
    expect(lines.filter((l) => /unreachable/.test(l.message))).toHaveLength(1);
  });

  it('queues a write through the writer and spills it to the pending file', async () => {
    const dir = await folder('dead-writer');
    const { storage } = await open({ REDIS_URL: 'redis://127.0.0.1:1', DATA_DIR: dir });
    expect(await storage.writer.put('1', 'library', 's', { description: 's', moves: 3 })).toBe('queued');
    const spilled = JSON.parse(await readFile(join(dir, 'pending-gomoku.json'), 'utf8'));
    expect(spilled).toMatchObject({
      v: 1,
      writes: [{ guildId: '1', collection: 'library', key: 's', envelope: { v: 1, data: { description: 's', moves: 3 } } }],
    });
  });
});

describe('a redis-server that goes away and comes back', () => {
  let port: number;
  let serverDir: string;
  let removeServerDir: () => Promise<void>;

  beforeAll(async () => {
    port = await freePort();
    ({ dir: serverDir, remove: removeServerDir } = await tempDir('redis-server'));
  });

  afterAll(async () => {
    await stopRedisServer(port);
    await removeServerDir();
  });

  it('fails while it is down, and the writes made meanwhile land once it is back', async () => {
    await startRedisServer(port, serverDir);
    const { storage, lines } = await open({ REDIS_URL: `redis://127.0.0.1:${port}`, DATA_DIR: await folder('bounce') });
    const g = storage.guild('31');
    await g.games.put('c', { moves: [1], toPlay: 'white' });
    expect(await g.games.get('c')).toEqual({ moves: [1], toPlay: 'white' });

    await stopRedisServer(port);
    await eventually(async () => {
      await expect(g.games.get('c')).rejects.toBeInstanceOf(StorageUnavailable);
    }, 4000);

    // Two analyses (and more) finishing while Redis is down.
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => storage.writer.put('31', 'library', `s${i}`, { description: `d${i}`, moves: i })),
    );
    expect(outcomes).toEqual(Array(6).fill('queued'));
    expect(storage.writer.pending).toHaveLength(6);

    await startRedisServer(port, serverDir);
    await eventually(async () => {
      expect(storage.writer.pending).toHaveLength(0);
    }, 4000);
    const listed = await g.library.list();
    expect(listed.map((e) => e.value.moves)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(lines.some((l) => l.level === 'info' && /back/.test(l.message))).toBe(true);
  });

  it('replays writes queued before a restart of the bot', async () => {
    const dir = await folder('restart');
    const env = { REDIS_URL: `redis://127.0.0.1:${port}`, DATA_DIR: dir };
    await stopRedisServer(port);

    const before = await open(env);
    expect(await before.storage.writer.put('8', 'records', 'r1', { winner: 'black', moves: [4, 5] })).toBe('queued');
    await before.storage.close();

    await startRedisServer(port, serverDir);
    const after = await open(env);
    await eventually(async () => {
      expect(after.storage.writer.pending).toHaveLength(0);
    }, 4000);
    expect(await after.storage.guild('8').records.get('r1')).toEqual({ winner: 'black', moves: [4, 5] });
    expect(after.lines.some((l) => /replaying/.test(l.message))).toBe(true);
  });

  it('starts without redis and works once it appears', async () => {
    await stopRedisServer(port);
    const { storage } = await open({ REDIS_URL: `redis://127.0.0.1:${port}`, DATA_DIR: await folder('late') });
    await expect(storage.ping()).rejects.toBeInstanceOf(StorageUnavailable);
    await startRedisServer(port, serverDir);
    await eventually(() => storage.ping(), 4000);
    await storage.guild('5').stats.put('summary', { played: 1, won: 1 });
    expect(await storage.guild('5').stats.get('summary')).toEqual({ played: 1, won: 1 });
  });
});
