// A server's compiled library stays in memory between commands and is brought up to date by
// its version: two services on one real Redis (as two shards or two processes would be) see
// each other's changes at their next command, and a warm command reads no library — counted
// by the Redis server itself (INFO commandstats on a redis-server of the test's own).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { bumpLibraryVersion, LibraryCache } from '../../src/bot/libraryCache.ts';
import { LIBRARY_VERSION_KEY, subgoalKey, type BotSchema } from '../../src/bot/records.ts';
import { GameService } from '../../src/bot/service.ts';
import type { Seat } from '../../src/bot/store.ts';
import { parseDescription } from '../../src/notation/descriptionNotation.ts';
import { compileCached, Library } from '../../src/learning/library.ts';
import { expectOk } from '../../src/rules/result.ts';
import type { Storage } from '../../src/storage/index.ts';
import { FIXTURES } from '../support/fixtures.ts';
import { freePort, startRedisServer, stopRedisServer } from '../storage/support.ts';
import { collectingLog, loseAGame, REDIS_URL, storeLibrary, tempDir, uniqueNamespace } from './support.ts';

const run = promisify(execFile);
const GUILD = 'guild-lc';
const ALICE: Seat = { guildId: GUILD, channelId: 'chan-1', userId: 'alice' };
const PAPER = expectOk(Library.fromFile(readFileSync(join(FIXTURES, 'libraries', 'paper.txt'), 'utf8')));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A service over its own connection to Redis (and its own pending file), as another process would have. */
async function instance(url: string, namespace: string, seed = 3): Promise<{ service: GameService; storage: Storage<BotSchema> }> {
  const { log } = collectingLog();
  const { dir, remove } = await tempDir('lc');
  const storage = await openBotStorage({ REDIS_URL: url, STORAGE_NAMESPACE: namespace, DATA_DIR: dir }, log);
  const service = new GameService({ store: storage, seed, log });
  cleanups.push(async () => {
    await service.idle();
    await storage.close();
    await remove();
  });
  return { service, storage };
}

async function learnedCount(service: GameService): Promise<number> {
  const page = await service.library(GUILD);
  if (!page.ok) throw new Error(page.problem.code);
  return page.value.learned;
}

describe('two services on one Redis', () => {
  it('see each other learn and reset at their next command', async () => {
    const ns = uniqueNamespace('lc-two');
    const a = await instance(REDIS_URL, ns, 3);
    const b = await instance(REDIS_URL, ns, 4);
    cleanups.push(async () => void (await a.storage.backend.clearAll()));
    expect(await learnedCount(b.service)).toBe(0);

    const last = await loseAGame(a.service, ALICE);
    const fresh = last.learned.filter((l) => l.isNew).map((l) => l.text);
    expect(fresh.length).toBeGreaterThan(0);
    // B held the empty library; A's version tells it that it is old.
    const page = await b.service.library(GUILD);
    if (!page.ok) throw new Error(page.problem.code);
    expect(page.value.learned).toBe(fresh.length);
    expect(page.value.entries.map((e) => e.subgoal.text)).toEqual(expect.arrayContaining(fresh));

    expect(await a.service.resetMemory(GUILD, true)).toMatchObject({ ok: true });
    expect(await learnedCount(b.service)).toBe(0);
  });

  it('holds the library it read until the version changes, then reads it again', async () => {
    const ns = uniqueNamespace('lc-hold');
    const a = await instance(REDIS_URL, ns);
    const b = await instance(REDIS_URL, ns);
    cleanups.push(async () => void (await a.storage.backend.clearAll()));
    await storeLibrary(a.storage, GUILD, PAPER);
    expect(await learnedCount(b.service)).toBe(PAPER.size - 1);

    // A subgoal written without a new version is not seen: B is using what it holds.
    const extra = expectOk(compileCached(expectOk(parseDescription("(1, 1) 3:4, 3'"))));
    expect(PAPER.has(extra.text)).toBe(false);
    await a.storage.guild(GUILD).library.put(subgoalKey(extra.text), { subgoal: extra, provenance: { game: 'g', move: 1, date: '2026-01-01T00:00:00.000Z' } });
    expect(await learnedCount(b.service)).toBe(PAPER.size - 1);
    // With one, it is.
    const version = await bumpLibraryVersion(a.storage.guild(GUILD));
    expect(await learnedCount(b.service)).toBe(PAPER.size);
    expect(await b.storage.guild(GUILD).versions.get(LIBRARY_VERSION_KEY)).toEqual(version);
  });
});

describe('a warm command', () => {
  const dir = { path: '', remove: async () => {} };
  let port = 0;
  beforeAll(async () => {
    const made = await tempDir('lc-redis');
    dir.path = made.dir;
    dir.remove = made.remove;
    port = await freePort();
    await startRedisServer(port, dir.path);
  });
  afterAll(async () => {
    await stopRedisServer(port);
    await dir.remove();
  });

  /** How many times the server ran each command since the last reset of its stats. */
  async function commandCounts(): Promise<Map<string, number>> {
    const { stdout } = await run('redis-cli', ['-p', String(port), 'info', 'commandstats']);
    const counts = new Map<string, number>();
    for (const m of stdout.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) counts.set(m[1], Number(m[2]));
    return counts;
  }
  const resetCounts = () => run('redis-cli', ['-p', String(port), 'config', 'resetstat']);

  it('reads the version and the game, never the library', async () => {
    const { service, storage } = await instance(`redis://127.0.0.1:${port}`, uniqueNamespace('lc-warm'));
    await storeLibrary(storage, GUILD, PAPER);
    expect((await service.challenge(ALICE, { size: 15 })).ok).toBe(true);

    await resetCounts();
    const cold = await service.threats(ALICE);
    expect(cold.ok).toBe(true);
    const coldCounts = await commandCounts();
    // The library is listed (SCAN, then MGET of each page) the first time.
    expect(coldCounts.get('scan')).toBeGreaterThan(0);
    expect(coldCounts.get('mget')).toBeGreaterThan(0);

    await resetCounts();
    for (const command of [() => service.threats(ALICE), () => service.hint(ALICE), () => service.move(ALICE, 'h8')]) {
      expect((await command()).ok).toBe(true);
    }
    const warm = await commandCounts();
    expect(warm.get('scan')).toBeUndefined();
    expect(warm.get('mget')).toBeUndefined();
    // Per command: the game and the library's version (a move also writes the game and counters).
    expect(warm.get('get')).toBeGreaterThanOrEqual(6);
  });
});

describe('the cache itself', () => {
  it('keeps at most maxGuilds libraries, the least recently used going first', async () => {
    const { log } = collectingLog();
    const { dir, remove } = await tempDir('lc-lru');
    const storage = await openBotStorage({ DATA_DIR: dir }, log, { durable: false });
    cleanups.push(async () => {
      await storage.close();
      await remove();
    });
    const cache = new LibraryCache(storage, { maxGuilds: 2 });
    const first = await cache.get('g1');
    await cache.get('g2');
    expect(await cache.get('g1')).toBe(first);
    await cache.get('g3');
    expect(cache.size).toBe(2);
    // g2 was the least recently used: g1 is still the same object, g2 is read anew.
    expect(await cache.get('g1')).toBe(first);
    cache.close();
  });
});
