// Replies that tell the truth about storage (issue 26), on real slow and failing stores:
// - a Redis behind a proxy that holds writes back: a write slower than the limit that lands
//   is a move played, not "Nothing changed"; one that cannot be confirmed says so;
// - the file store with writes of some collections failing: a resignation whose game could
//   not be saved leaves no record behind to be counted while the game goes on, and what the
//   retry queue holds is told as "Saved for later", then lands.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { gameKey, type BotSchema } from '../../src/bot/records.ts';
import { GameService } from '../../src/bot/service.ts';
import type { Seat } from '../../src/bot/store.ts';
import { movedView, problemReply, resignedView } from '../../src/bot/views.ts';
import { discordFrontend } from '../../src/bot/words.ts';
import { parseGame } from '../../src/rules/gameRecord.ts';
import { makePoint } from '../../src/rules/point.ts';
import { expectOk } from '../../src/rules/result.ts';
import { Memory, openFileBackend, RetryingWriter, type Storage } from '../../src/storage/index.ts';
import { fixture } from '../support/fixtures.ts';
import { startRedisProxy } from '../support/redisProxy.ts';
import { collectingLog, faultyBackend, oneMoveFromTheEnd, REDIS_URL, tempDir, uniqueNamespace } from './support.ts';

const GUILD = 'guild-truth';
const ALICE: Seat = { guildId: GUILD, channelId: 'chan-1', userId: 'alice' };
const f = discordFrontend;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds; a check that fails (storage still slow) counts as not yet. */
async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

describe('a write slower than the limit, on Redis behind a proxy that holds writes back', () => {
  // Writes give up at 300 + 300 ms; the read back has 300 ms of its own.
  const LIMIT_MS = 300;
  const SETTLE_MS = 300;

  async function setup() {
    const target = new URL(REDIS_URL);
    const proxy = await startRedisProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const { dir, remove } = await tempDir('truth-slow');
    const { log } = collectingLog();
    const env = { REDIS_URL: proxy.url, STORAGE_NAMESPACE: uniqueNamespace('truth'), DATA_DIR: dir };
    const storage = await openBotStorage(env, log, { opTimeoutMs: LIMIT_MS, writeSettleMs: SETTLE_MS });
    const service = new GameService({ store: storage, seed: 1, log });
    cleanups.push(async () => {
      proxy.setDelayMs(0);
      await service.idle();
      await storage.backend.clearAll();
      await storage.close();
      await proxy.close();
      await remove();
    });
    expect((await service.challenge(ALICE, { size: 15, level: 1 })).ok).toBe(true);
    const movesNow = async () => (await storage.guild(GUILD).games.get(gameKey('chan-1', 'alice')))?.moves.length;
    return { proxy, service, storage, movesNow };
  }

  it('is waited out: the move lands and the reply is the move', async () => {
    const { proxy, service, movesNow } = await setup();
    proxy.setDelayMs(LIMIT_MS + 150);
    const started = Date.now();
    const moved = await service.move(ALICE, 'h8');
    expect(Date.now() - started).toBeGreaterThan(LIMIT_MS);
    expect(moved.ok).toBe(true);
    expect(await movesNow()).toBe(2);
  });

  it('past the wait too, is read back: it landed, so the reply is the move', async () => {
    const { proxy, service, movesNow } = await setup();
    proxy.setDelayMs(LIMIT_MS + SETTLE_MS + 150);
    const moved = await service.move(ALICE, 'h8');
    expect(moved.ok).toBe(true);
    expect(await movesNow()).toBe(2);
  });

  it('that cannot be confirmed even by reading back is told as uncertain — never "Nothing changed" — and the game then shows what happened', async () => {
    const { proxy, service, movesNow } = await setup();
    proxy.setDelayMs(LIMIT_MS + SETTLE_MS + LIMIT_MS + 600);
    const moved = await service.move(ALICE, 'h8');
    expect(moved).toEqual({ ok: false, problem: { code: 'storage-uncertain' } });
    if (!moved.ok) {
      const text = problemReply(moved.problem, f).text;
      expect(text).not.toContain('Nothing changed');
      expect(text).toContain('I cannot tell whether it was saved. Look at /board');
    }
    // The write was on its way: it lands, and /board shows the move the reply did not deny.
    await until(async () => (await movesNow()) === 2);
    proxy.setDelayMs(0);
    const board = await service.board(ALICE);
    expect(board.ok && board.value.game.moves.length).toBe(2);
  });

  it("a game's end that cannot be confirmed is told as uncertain; once it is seen to have landed, its record and lessons follow", async () => {
    const { proxy, service, storage } = await setup();
    const game = expectOk(parseGame(fixture('games/learning/four-then-double-four.txt')));
    const { stored, last } = oneMoveFromTheEnd(game, ALICE, 'g-uncertain');
    await storage.guild(GUILD).games.put(gameKey(ALICE.channelId, ALICE.userId), stored);
    proxy.setDelayMs(LIMIT_MS + SETTLE_MS + LIMIT_MS + 600);
    expect(await service.move(ALICE, last)).toEqual({ ok: false, problem: { code: 'storage-uncertain' } });
    proxy.setDelayMs(0);
    // Nothing was written after the uncommitted end...
    expect(await storage.guild(GUILD).records.list()).toEqual([]);
    // ...until it is read back as landed (a second later): then the record and lessons follow it.
    await until(async () => (await storage.guild(GUILD).records.list()).length === 1, 8000);
    expect((await storage.guild(GUILD).records.get('g-uncertain'))?.outcome).toBe('bot-lost');
    const learned = (await storage.guild(GUILD).records.get('g-uncertain'))?.learned ?? [];
    expect(learned.length).toBeGreaterThan(0);
    await until(async () => (await storage.guild(GUILD).library.list()).length === learned.length);
    const stats = await service.stats(GUILD);
    expect(stats.ok && stats.value.botLost).toBe(1);
  });

  it('fails surely when the store is not connected: the write never left', async () => {
    const target = new URL(REDIS_URL);
    const proxy = await startRedisProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const { dir, remove } = await tempDir('truth-gone');
    const storage = await openBotStorage({ REDIS_URL: proxy.url, STORAGE_NAMESPACE: uniqueNamespace('truth-gone'), DATA_DIR: dir }, collectingLog().log, { opTimeoutMs: LIMIT_MS, writeSettleMs: SETTLE_MS, maxReconnectDelayMs: 5000 });
    cleanups.push(async () => {
      await storage.close();
      await remove();
    });
    await proxy.close();
    // Until the client has seen the connection go.
    await until(() => storage.ping().then(() => false, () => true));
    const tally = { text: '(1) 1:5', recognised: 1, played: 0, won: 0 };
    await expect(storage.guild(GUILD).stats.put('x', tally)).rejects.toMatchObject({ name: 'StorageUnavailable', uncertain: false });
  });
});

/** The file store with writes of the named collections failing while `down` holds them. */
async function failingStorage(tag: string) {
  const { log } = collectingLog();
  const { dir, remove } = await tempDir(tag);
  const inner = await openFileBackend({ dir, namespace: 'truth', durable: false });
  const down = new Set<string>();
  const failing = (key: string) => [...down].some((c) => key.includes(`::${c}::`));
  // The file store refusing the write, as a full or read-only disk does: nothing is written.
  const backend = faultyBackend(inner, failing);
  const memory = new Memory<BotSchema>(backend, (await import('../../src/bot/records.ts')).botCodecs, log);
  const writer = await RetryingWriter.open(memory, { pendingFile: join(dir, 'pending.json'), log, baseDelayMs: 20, maxDelayMs: 40, durable: false });
  const store: Pick<Storage<BotSchema>, 'guild' | 'writer'> = { guild: (id) => memory.guild(id), writer };
  const service = new GameService({ store, seed: 1, log });
  cleanups.push(async () => {
    await service.idle();
    await writer.close();
    await inner.close();
    await remove();
  });
  return { service, memory, writer, down };
}

describe('writes the store refuses', () => {
  it('a resignation whose game could not be saved leaves no record to be counted while the game goes on', async () => {
    const { service, memory, writer, down } = await failingStorage('truth-resign');
    expect((await service.challenge(ALICE, { size: 15, level: 1 })).ok).toBe(true);
    expect((await service.move(ALICE, 'h8')).ok).toBe(true);

    down.add('games');
    const resigned = await service.resign(ALICE);
    expect(resigned).toEqual({ ok: false, problem: { code: 'storage-unavailable' } });
    expect(problemReply({ code: 'storage-unavailable' }, f).text).toContain('Nothing changed');
    // Nothing waits to land later.
    expect(writer.pending).toEqual([]);

    down.delete('games');
    await sleep(200); // longer than the writer's retry delays
    expect(await memory.guild(GUILD).records.list()).toEqual([]);
    const stats = await service.stats(GUILD);
    expect(stats.ok && stats.value.games).toBe(0);
    // And the game goes on.
    const board = await service.board(ALICE);
    expect(board.ok && board.value.stored.finished).toBeUndefined();
    expect((await service.move(ALICE, 'h9')).ok).toBe(true);
  });

  it('a resignation whose record is queued says "Saved for later", and the record lands', async () => {
    const { service, memory, writer, down } = await failingStorage('truth-resign-later');
    expect((await service.challenge(ALICE, { size: 15, level: 1 })).ok).toBe(true);
    down.add('records');
    const resigned = await service.resign(ALICE);
    if (!resigned.ok) throw new Error(resigned.problem.code);
    expect(resigned.value.savedLater).toEqual({ record: true, subgoals: [] });
    expect(resignedView(resigned.value, f).text).toContain("Saved for later: this game's record, which counts in the stats. Storage did not take it just now; I keep it and save it as soon as it answers.");
    expect(writer.pending.map((w) => w.collection)).toEqual(['records']);
    down.delete('records');
    await until(async () => (await memory.guild(GUILD).records.list()).length === 1);
    const stats = await service.stats(GUILD);
    expect(stats.ok && stats.value.resigned).toBe(1);
    expect(stats.ok && stats.value.botWon).toBe(0);
  });

  it('a loss whose lessons and record are queued says what will be learned and that it is saved later; then they land', async () => {
    const { service, memory, writer, down } = await failingStorage('truth-loss');
    const game = expectOk(parseGame(fixture('games/learning/four-then-double-four.txt')));
    const { stored, last } = oneMoveFromTheEnd(game, ALICE, 'g-loss');
    await memory.guild(GUILD).games.put(gameKey(ALICE.channelId, ALICE.userId), stored);

    down.add('records');
    down.add('library');
    const moved = await service.move(ALICE, last);
    if (!moved.ok) throw new Error(moved.problem.code);
    const fresh = moved.value.learned.filter((l) => l.isNew).map((l) => l.text);
    expect(fresh.length).toBeGreaterThan(0);
    expect(moved.value.savedLater).toEqual({ record: true, subgoals: fresh });
    const text = movedView(moved.value, f).text;
    expect(text).toContain('**You win**');
    expect(text).toContain(`Saved for later: the ${fresh.length === 1 ? 'subgoal' : `${fresh.length} subgoals`} I learned (${fresh.map((t) => `\`${t}\``).join(', ')}) and this game's record`);
    expect(writer.pending.map((w) => w.collection).sort()).toEqual([...fresh.map(() => 'library'), 'records'].sort());
    // The game itself ended: that write was the commit.
    expect((await memory.guild(GUILD).games.get(gameKey('chan-1', 'alice')))?.finished?.outcome).toBe('bot-lost');

    down.clear();
    await until(async () => writer.pending.length === 0);
    const page = await service.library(GUILD);
    expect(page.ok && page.value.entries.map((e) => e.subgoal.text)).toEqual(expect.arrayContaining(fresh));
    const stats = await service.stats(GUILD);
    expect(stats.ok && stats.value.botLost).toBe(1);
  });

  it('a winning move whose game cannot be saved is "Nothing changed", and nothing is queued to land later', async () => {
    const { service, memory, writer, down } = await failingStorage('truth-loss-down');
    const game = expectOk(parseGame(fixture('games/learning/four-then-double-four.txt')));
    const { stored, last } = oneMoveFromTheEnd(game, ALICE, 'g-down');
    await memory.guild(GUILD).games.put(gameKey(ALICE.channelId, ALICE.userId), stored);
    down.add('games');
    expect(await service.move(ALICE, last)).toEqual({ ok: false, problem: { code: 'storage-unavailable' } });
    expect(writer.pending).toEqual([]);
    expect(await memory.guild(GUILD).library.list()).toEqual([]);
    expect(await memory.guild(GUILD).records.list()).toEqual([]);
    // Played again once storage takes it, the move wins and teaches.
    down.clear();
    const again = await service.move(ALICE, last);
    expect(again.ok && again.value.stored.finished?.outcome).toBe('bot-lost');
    expect(again.ok && makePoint(game.size, again.value.point)).toBe(last);
  });
});
