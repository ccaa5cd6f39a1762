// Storage hygiene (issue 26): temporary files left by a killed process are removed at start;
// an unreadable game is moved aside, not written over by the next challenge, on both back
// ends; a folder where a record should be is said once and skipped, then moved aside; a data
// folder that cannot be written is an error at start; Redis coming back empty is said loudly.
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { gameKey, type BotSchema } from '../../src/bot/records.ts';
import { GameService } from '../../src/bot/service.ts';
import type { Seat } from '../../src/bot/store.ts';
import { KeyvFileStore, openStorage, type Storage, type StorageEnv } from '../../src/storage/index.ts';
import { collectingLog as botLog, REDIS_URL, uniqueNamespace as botNamespace } from '../bot/support.ts';
import { collectingLog, eventually, freePort, startRedisServer, stopRedisServer, tempDir, testCodecs } from './support.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
async function folder(tag: string): Promise<string> {
  const { dir, remove } = await tempDir(tag);
  cleanups.push(remove);
  return dir;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

describe('temporary files left by a killed process', () => {
  it('are removed at start; those of a live process are kept unless an hour old', async () => {
    const dir = await folder('temps');
    const games = join(dir, 'gomoku', '1', 'games');
    await mkdir(games, { recursive: true });
    const live = spawn('sleep', ['30']);
    cleanups.push(async () => void live.kill());
    const dead = join(games, `.tmp-${await deadPid()}-3-0badf00d`);
    const alive = join(games, `.tmp-${live.pid}-1-00c0ffee`);
    const stale = join(games, `.tmp-${live.pid}-2-0000beef`);
    const pending = join(dir, `.tmp-${await deadPid()}-1-12345678`);
    for (const f of [dead, alive, stale, pending]) await writeFile(f, '{"half":');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);

    const { log, lines } = collectingLog();
    const storage = await openStorage({ DATA_DIR: dir }, testCodecs, { log, durable: false });
    cleanups.push(() => storage.close());
    expect((await readdir(games)).sort()).toEqual([`.tmp-${live.pid}-1-00c0ffee`]);
    expect(await readdir(dir)).not.toContain(`.tmp-${(/\.tmp-(\d+)/.exec(pending) ?? [])[1]}-1-12345678`);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'info', detail: expect.objectContaining({ removed: 3 }) }));
  });
});

describe('a data folder that cannot be written', () => {
  it('is an error in the log at start, and storage still opens', async () => {
    const dir = await folder('unwritable');
    await writeFile(join(dir, 'a-file'), 'not a folder');
    const { log, lines } = collectingLog();
    const storage = await openStorage({ DATA_DIR: join(dir, 'a-file', 'data') }, testCodecs, { log, durable: false });
    cleanups.push(() => storage.close());
    // First, and before anything tries to write (the pending file's folder is no folder either).
    expect(lines.find((l) => l.level === 'error')?.message).toBe('DATA_DIR is not writable: nothing can be saved');

    const redis = collectingLog();
    const withRedis = await openStorage({ REDIS_URL, STORAGE_NAMESPACE: botNamespace('unwritable'), DATA_DIR: join(dir, 'a-file', 'data') }, testCodecs, { log: redis.log });
    cleanups.push(() => withRedis.close());
    expect(redis.lines.find((l) => l.level === 'error')?.message).toBe('DATA_DIR is not writable: writes waiting for Redis cannot be kept on disk');
  });
});

const ALICE: Seat = { guildId: 'guild-h', channelId: 'chan-1', userId: 'alice' };
const GAME_KEY = `guild-h::games::${gameKey('chan-1', 'alice')}`;

describe.each<[string, (dir: string) => StorageEnv]>([
  ['the file store', (dir) => ({ DATA_DIR: dir })],
  ['Redis', (dir) => ({ REDIS_URL, STORAGE_NAMESPACE: botNamespace('hygiene'), DATA_DIR: dir })],
])('an unreadable game on %s', (_name, envOf) => {
  it('is moved aside, bytes as they were, before the next challenge writes its key', async () => {
    const { log, lines } = botLog();
    const storage: Storage<BotSchema> = await openBotStorage(envOf(await folder('corrupt')), log, { durable: false });
    cleanups.push(async () => {
      await storage.backend.clearAll();
      await storage.close();
    });
    const garbage = '{"value": {"v": 1, "data": {"id": "x", "moves": ["h8", "h8"';
    await storage.backend.adapter.set(GAME_KEY, garbage);
    const service = new GameService({ store: storage, seed: 1, log });
    expect(await service.board(ALICE)).toEqual({ ok: false, problem: { code: 'no-game' } });
    expect((await service.challenge(ALICE, { size: 15 })).ok).toBe(true);

    const moved = lines.find((l) => l.message === 'moved an unreadable record aside');
    expect(moved?.detail).toMatchObject({ guildId: 'guild-h', collection: 'games', key: gameKey('chan-1', 'alice') });
    const movedTo = (moved?.detail as { movedTo: string }).movedTo;
    expect(movedTo).toMatch(new RegExp(`^${storage.backend.namespace}::guild-h::quarantine::games\\.chan-1\\.alice\\.\\d+$`));
    const kept =
      storage.kind === 'file'
        ? (JSON.parse(await readFile((storage.backend.adapter as unknown as KeyvFileStore).pathOf(movedTo), 'utf8')) as { value: string }).value
        : await storage.backend.adapter.get(movedTo.slice(storage.backend.namespace.length + 2));
    expect(kept).toBe(garbage);
    // The new game is where the old one was, and the quarantine is no collection.
    expect((await storage.guild('guild-h').games.get(gameKey('chan-1', 'alice')))?.moves).toEqual([]);
    expect((await storage.memory.census()).get('guild-h')).toMatchObject({ games: 1 });
  });
});

describe('a folder where a record should be', () => {
  it('is said once and skipped, not "storage unavailable" for ever, and moved aside by the next challenge', async () => {
    const dir = await folder('folder');
    const { log, lines } = botLog();
    const storage = await openBotStorage({ DATA_DIR: dir }, log, { durable: false });
    cleanups.push(() => storage.close());
    const path = (storage.backend.adapter as unknown as KeyvFileStore).pathOf(`gomoku::${GAME_KEY}`);
    await mkdir(path, { recursive: true });
    await writeFile(join(path, 'stray.txt'), 'someone restored a backup here');

    const service = new GameService({ store: storage, seed: 1, log });
    for (let i = 0; i < 3; i++) expect(await service.board(ALICE)).toEqual({ ok: false, problem: { code: 'no-game' } });
    const said = lines.filter((l) => l.message === 'skipped an unreadable record');
    expect(said.map((l) => (l.detail as { code: string }).code)).toEqual(['folder-in-place']);

    expect((await service.challenge(ALICE, { size: 15 })).ok).toBe(true);
    const movedTo = (lines.find((l) => l.message === 'moved an unreadable record aside')?.detail as { movedTo: string }).movedTo;
    const movedPath = (storage.backend.adapter as unknown as KeyvFileStore).pathOf(movedTo);
    expect(await readFile(join(movedPath, 'stray.txt'), 'utf8')).toBe('someone restored a backup here');
    expect(dirname(movedPath)).toMatch(/quarantine$/);
    expect((await service.board(ALICE)).ok).toBe(true);
  });
});

describe('Redis that comes back empty', () => {
  let port: number;
  let serverDir: string;
  let removeServerDir: () => Promise<void>;
  beforeAll(async () => {
    port = await freePort();
    ({ dir: serverDir, remove: removeServerDir } = await tempDir('redis-empty'));
  });
  afterAll(async () => {
    await stopRedisServer(port);
    await removeServerDir();
  });

  it('is an error in the log, once, when it held this bot\'s data before', async () => {
    await startRedisServer(port, serverDir);
    const { log, lines } = collectingLog();
    const storage = await openStorage({ REDIS_URL: `redis://127.0.0.1:${port}`, DATA_DIR: await folder('empty') }, testCodecs, {
      log,
      connectWaitMs: 300,
      connectTimeoutMs: 300,
      maxReconnectDelayMs: 100,
      opTimeoutMs: 1000,
    });
    cleanups.push(() => storage.close());
    await storage.guild('9').library.put('s', { description: 'd', moves: 1 });

    await stopRedisServer(port);
    await eventually(() => expect(lines.some((l) => /unreachable/.test(l.message))).toBe(true), 4000);
    await startRedisServer(port, serverDir); // no persistence: it starts empty
    await eventually(() => expect(lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([expect.stringMatching(/^REDIS CAME BACK EMPTY/)]), 4000);
  });
});
