// Sharding end to end: `npm start` with SHARD_COUNT=auto against a fake Discord that recommends
// two shards runs discord.js's ShardingManager, one process per shard on the same Redis; each
// guild's events reach its shard's session ((guild_id >> 22) % 2), and a game is played to its
// end in a guild of each shard. Without REDIS_URL, shards are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { silentLog } from '../../src/bot/log.ts';
import { gameKey, type BotSchema } from '../../src/bot/records.ts';
import type { Storage } from '../../src/storage/index.ts';
import { shardOf, startFakeDiscord, type FakeDiscord, type InteractOptions } from '../support/fakeDiscord/index.ts';
import { answerOf } from './answer.ts';
import { spawnStart, type BotProcess } from './botProcess.ts';
import { REDIS_URL, tempDir, uniqueNamespace } from './support.ts';

// Snowflakes whose shard of 2 is 0 and 1.
const GUILDS = [String((1_000_000n << 22n) | 7n), String((1_000_001n << 22n) | 7n)];
const CHANNELS = ['620000000000000001', '620000000000000002'];
const MEMBERS = [
  { id: '630000000000000001', username: 'ada' },
  { id: '630000000000000002', username: 'ben' },
];
const BOT = { id: '640000000000000001', username: 'Go-Moku' };

describe('npm start with SHARD_COUNT: two shards on one Redis', () => {
  let fake: FakeDiscord;
  let bot: BotProcess | undefined;
  let storage: Storage<BotSchema>;
  let env: Record<string, string>;
  let cwd: string;
  const removals: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    expect(GUILDS.map((g) => shardOf(g, 2))).toEqual([0, 1]);
    fake = await startFakeDiscord({
      shards: 2,
      botUser: BOT,
      guilds: GUILDS.map((id, i) => ({ id, name: `Club ${i}`, ownerId: MEMBERS[i].id, members: [MEMBERS[i]], channels: [{ id: CHANNELS[i], name: 'gomoku' }] })),
    });
    const work = await tempDir('shards');
    removals.push(work.remove);
    cwd = work.dir;
    const namespace = uniqueNamespace('shards');
    env = {
      DISCORD_TOKEN: fake.token,
      DISCORD_CLIENT_ID: fake.applicationId,
      DISCORD_API_URL: fake.url,
      REDIS_URL,
      STORAGE_NAMESPACE: namespace,
      DATA_DIR: `${work.dir}/data`,
      LOG_LEVEL: 'info',
      GOMOKU_SEED: '11',
      SHARD_COUNT: 'auto',
      SHARD_SPAWN_DELAY_MS: '300',
    };
    storage = await openBotStorage({ REDIS_URL, STORAGE_NAMESPACE: namespace, DATA_DIR: `${work.dir}/test-side` }, silentLog);
  });

  afterAll(async () => {
    await bot?.stop('SIGKILL');
    await fake?.close();
    if (storage !== undefined) {
      await storage.backend.clearAll();
      await storage.close();
    }
    for (const remove of removals) await remove();
  });

  it('refuses to start shards without REDIS_URL: the file store is for one process', async () => {
    const withoutRedis = Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'REDIS_URL'));
    const refused = spawnStart([], withoutRedis, cwd);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toMatch(/SHARD_COUNT needs REDIS_URL: .*file store \(DATA_DIR\) is for one process only/);
    expect(fake.gatewayEvents().filter((e) => e.kind === 'identify')).toEqual([]);
  });

  it('asks Discord for the count, identifies shard 0/2 and 1/2, and plays a game to its end in a guild of each', { timeout: 180_000 }, async () => {
    bot = spawnStart([], env, cwd);
    await bot.waitFor(/all 2 shards started/, 90_000);
    expect(fake.requests().some((r) => r.method === 'GET' && r.url.endsWith('/gateway/bot'))).toBe(true);
    const identified = fake.gatewayEvents().filter((e) => e.kind === 'identify');
    expect(identified.map((e) => e.detail).sort()).toEqual(['shard 0/2', 'shard 1/2']);
    expect(new Set(identified.map((e) => e.sessionId)).size).toBe(2);

    const play = async (i: number): Promise<string> => {
      const send = (name: string, options: Record<string, string | number> = {}) =>
        answerOf(fake.interact({ type: 'command', name, guildId: GUILDS[i], channelId: CHANNELS[i], user: MEMBERS[i], options } as InteractOptions), 20_000);
      const challenged = await send('challenge', { size: 15, level: 1 });
      expect(challenged.content).toMatch(/challenged me to Go-Moku: 15×15/);
      for (let turn = 0; turn < 60; turn++) {
        const hint = await send('hint');
        const point = /Try \*\*([a-o]\d{1,2})\*\*/.exec(hint.content)?.[1];
        expect(point, hint.content).toBeDefined();
        const moved = await send('move', { point: point! });
        expect(moved.content).toMatch(new RegExp(`played \\*\\*${point}\\*\\*`));
        if (/\*\*(You win|I win)\*\*/.test(moved.content)) return moved.content;
      }
      throw new Error(`the game in guild ${i} did not end in 60 moves`);
    };
    const endings = await Promise.all([play(0), play(1)]);
    for (const ending of endings) expect(ending).toMatch(/\*\*(You win|I win)\*\* with five/);

    // Each guild's interactions went to its own shard's session, and both games are in the one Redis.
    for (const [i, guild] of GUILDS.entries()) {
      const stored = await storage.guild(guild).games.get(gameKey(CHANNELS[i], MEMBERS[i].id));
      expect(stored?.finished?.ending).toBe('five');
      expect((await storage.guild(guild).records.list()).length).toBe(1);
    }
    const shardOfSession = new Map(identified.map((e) => [e.sessionId, e.detail]));
    const interactionSessions = fake
      .gatewayEvents()
      .filter((e) => e.kind === 'dispatch' && e.detail === 'INTERACTION_CREATE')
      .map((e) => shardOfSession.get(e.sessionId));
    expect(new Set(interactionSessions)).toEqual(new Set(['shard 0/2', 'shard 1/2']));

    expect(await bot.stop('SIGTERM')).toBe(0);
    expect(bot.output()).toMatch(/stopping 2 shards/);
    expect(bot.output().match(/INFO stopped$/gm)?.length).toBe(2);
  });
});
