// A stop that always completes (issue 30): `npm start` against the fake Discord, with Redis,
// stopped as a process manager stops it — SIGTERM to its whole process group — and timed.
//
// - The fake Discord goes away first (the gateway's server is gone when the bot closes it),
//   then one SIGTERM to the group: the process exits within SHUTDOWN_GRACE_MS, 20 times in a row.
// - SIGTERM during a burst of moves: every move the bot said it played is stored; every other
//   move interaction was answered "restarting" (and is not stored) or not at all — none is
//   answered as played and then missing.
// - Storage that never answers (a TCP server that accepts and stays silent, as REDIS_URL): the
//   stop cannot finish, so after the grace the process logs what was pending and exits 1; a
//   second signal ends it at once.
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { silentLog } from '../../src/bot/log.ts';
import { gameKey, type BotSchema } from '../../src/bot/records.ts';
import { RESTARTING_TEXT } from '../../src/discord/shutdown.ts';
import { makePoint } from '../../src/rules/point.ts';
import type { Storage } from '../../src/storage/index.ts';
import { isCallback, startFakeDiscord, type FakeDiscord, type FakeInteraction } from '../support/fakeDiscord/index.ts';
import { spawnNpmStart, spawnStart } from './botProcess.ts';
import { REDIS_URL, tempDir, uniqueNamespace } from './support.ts';

const GUILD = '510000000000000001';
const CHANNEL = '520000000000000001';
const OWNER = { id: '530000000000000001', username: 'owner' };
const BOT = { id: '540000000000000001', username: 'Go-Moku' };
const MEMBERS = Array.from({ length: 8 }, (_, i) => ({ id: `5300000000000001${String(i).padStart(2, '0')}`, username: `member${i}` }));
const READY = /connected to Discord as Go-Moku/;
const GRACE_MS = 8000;
const EPHEMERAL = 64;

function fakeWithMembers(): Promise<FakeDiscord> {
  return startFakeDiscord({
    guilds: [{ id: GUILD, name: 'Go-Moku club', ownerId: OWNER.id, members: [OWNER, ...MEMBERS], channels: [{ id: CHANNEL, name: 'gomoku' }] }],
    botUser: BOT,
  });
}

/** The final text of an interaction's answer: the reply, or the edit after a deferral. */
async function finalText(i: FakeInteraction, timeoutMs = 8000): Promise<{ text: string; ephemeral: boolean }> {
  const first = await i.waitForResponse(isCallback(), timeoutMs);
  if (first.type !== 5) return { text: first.message?.content ?? '', ephemeral: ((first.message?.flags ?? 0) & EPHEMERAL) !== 0 };
  const last = await i.waitForResponse((r) => r.kind === 'edit' || r.kind === 'followup', timeoutMs);
  const message = 'message' in last ? last.message : undefined;
  return { text: message?.content ?? '', ephemeral: ((message?.flags ?? 0) & EPHEMERAL) !== 0 };
}

describe('a stop that always completes', () => {
  const removals: Array<() => Promise<void>> = [];
  let dataDir: string;

  beforeAll(async () => {
    const work = await tempDir('shutdown');
    removals.push(work.remove);
    dataDir = work.dir;
  });

  afterAll(async () => {
    for (const remove of removals) await remove();
  });

  const envFor = (fake: FakeDiscord, namespace: string, extra: Record<string, string> = {}) => ({
    DISCORD_TOKEN: fake.token,
    DISCORD_CLIENT_ID: fake.applicationId,
    DISCORD_API_URL: fake.url,
    REDIS_URL,
    STORAGE_NAMESPACE: namespace,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'text',
    METRICS_PORT: '',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
    GOMOKU_SEED: '5',
    ...extra,
  });

  it('exits within the grace after one SIGTERM to its process group, the fake Discord gone first — 20 times in a row', async () => {
    const namespace = uniqueNamespace('stop20');
    const times: number[] = [];
    try {
      for (let run = 0; run < 20; run++) {
        const fake = await fakeWithMembers();
        const bot = spawnNpmStart(envFor(fake, namespace));
        try {
          await bot.waitFor(READY, 30_000);
          // Some real work first, so the stop has storage and a game to close over.
          const answer = await finalText(fake.interact({ type: 'command', name: 'board', user: MEMBERS[run % MEMBERS.length] }));
          expect(answer.text).toMatch(/no game/i);
        } finally {
          await fake.close();
        }
        const sent = performance.now();
        bot.signalGroup('SIGTERM');
        const code = await bot.exited;
        const ms = performance.now() - sent;
        times.push(Math.round(ms));
        expect(ms, `run ${run}: exit ${code} after ${Math.round(ms)} ms\n${bot.output()}`).toBeLessThan(GRACE_MS);
        expect(code, bot.output()).toBe(0);
        expect(bot.output()).toMatch(/INFO stopped/);
        // Nothing of the group is left behind: not the bot, not the shell npm ran it in.
        expect(() => process.kill(-bot.child.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
      }
    } finally {
      const storage = await openBotStorage({ REDIS_URL, STORAGE_NAMESPACE: namespace, DATA_DIR: dataDir }, silentLog);
      await storage.backend.clearAll();
      await storage.close();
    }
    console.info(`stop times (ms), 20 runs: ${times.join(' ')}`);
  }, 600_000);

  it('SIGTERM during a burst of moves: every move answered as played is stored, the rest were told to retry or not answered', async () => {
    const namespace = uniqueNamespace('burst');
    const fake = await fakeWithMembers();
    const storage: Storage<BotSchema> = await openBotStorage({ REDIS_URL, STORAGE_NAMESPACE: namespace, DATA_DIR: `${dataDir}/test-side` }, silentLog);
    try {
      const bot = spawnNpmStart(envFor(fake, namespace));
      await bot.waitFor(READY, 30_000);
      for (const m of MEMBERS) {
        expect((await finalText(fake.interact({ type: 'command', name: 'challenge', user: m, options: { size: 15, level: 1 } }))).text).toContain('challenged me');
      }
      type Sent = { member: (typeof MEMBERS)[number]; point: string; burst: number; interaction: FakeInteraction | undefined };
      const sent: Sent[] = [];
      const burst = (n: number, point: string) => {
        for (const member of MEMBERS) {
          let interaction: FakeInteraction | undefined;
          try {
            interaction = fake.interact({ type: 'command', name: 'move', user: member, options: { point } });
          } catch {
            interaction = undefined; // the bot has already closed the gateway: never delivered
          }
          sent.push({ member, point, burst: n, interaction });
        }
      };
      burst(1, 'h8');
      await new Promise((resolve) => setTimeout(resolve, 15));
      bot.signalGroup('SIGTERM');
      burst(2, 'a1');
      await bot.waitFor(/INFO stopping/);
      burst(3, 'o15');
      const code = await bot.exited;
      expect(code, bot.output()).toBe(0);

      let played = 0;
      let restarting = 0;
      for (const s of sent) {
        const stored = (await storage.guild(GUILD).games.get(gameKey(CHANNEL, s.member.id)))?.moves ?? [];
        const storedPoints = stored.map((p) => makePoint(15, p));
        const responses = s.interaction?.responses() ?? [];
        const last = [...responses].reverse().find((r) => r.kind !== 'delete' && 'message' in r && r.message !== undefined);
        const text = last !== undefined && 'message' in last ? (last.message?.content ?? '') : '';
        const what = `${s.member.username} ${s.point} (burst ${s.burst}): ${JSON.stringify(text)}; stored ${storedPoints.join(' ')}`;
        if (new RegExp(`played \\*\\*${s.point}\\*\\*`).test(text)) {
          played++;
          expect(storedPoints, what).toContain(s.point);
          expect(s.burst, what).not.toBe(3);
        } else {
          if (text === RESTARTING_TEXT) restarting++;
          // Refused ("restarting", "the game moved on"), or never answered: not played.
          expect(storedPoints, what).not.toContain(s.point);
        }
        // Deferred and then dropped would show as a callback of type 5 and nothing after it.
        if (responses.some((r) => r.kind === 'callback' && r.type === 5)) expect(text, what).not.toBe('');
      }
      expect(played).toBeGreaterThan(0);
      console.info(`burst: ${sent.length} moves sent, ${played} played, ${restarting} told to retry, ${sent.filter((s) => s.interaction === undefined).length} not delivered`);
    } finally {
      await fake.close();
      await storage.backend.clearAll();
      await storage.close();
    }
  }, 120_000);

  describe('with storage that stops answering', () => {
    let proxy: Server;
    const sockets = new Set<Socket>();
    let proxyUrl: string;
    // While true, the proxy still accepts and holds every connection but passes nothing on:
    // Redis as seen across a network that has silently gone away.
    let silent = false;

    beforeAll(async () => {
      const upstream = new URL(REDIS_URL);
      proxy = createServer((client) => {
        const server = connect(Number(upstream.port || 6379), upstream.hostname);
        for (const s of [client, server]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.on('data', (chunk) => void (silent || server.write(chunk)));
        server.on('data', (chunk) => void (silent || client.write(chunk)));
        client.on('close', () => server.destroy());
      });
      proxy.listen(0, '127.0.0.1');
      await once(proxy, 'listening');
      const address = proxy.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      proxyUrl = `redis://127.0.0.1:${address.port}`;
    });

    afterAll(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    });

    /** A bot on Redis through the proxy, with a /games under way when storage goes silent. */
    async function stuckBot(fake: FakeDiscord, graceMs: string) {
      silent = false;
      const bot = spawnStart([], envFor(fake, uniqueNamespace('silent'), { REDIS_URL: proxyUrl, SHUTDOWN_GRACE_MS: graceMs }), dataDir);
      await bot.waitFor(READY, 30_000);
      expect((await finalText(fake.interact({ type: 'command', name: 'board', user: MEMBERS[0] }))).text).toMatch(/no game/i);
      silent = true;
      // Listing the finished games may take five times an operation's 2 s limit: longer than the
      // grace. (Not /library: a server's library is held in memory, and a command reads only its
      // version, within one 2 s limit.)
      const library = fake.interact({ type: 'command', name: 'games', user: MEMBERS[1] });
      await library.waitForResponse(isCallback(5), 5000);
      return { bot, library };
    }

    it('past SHUTDOWN_GRACE_MS logs what was pending and exits 1', async () => {
      const fake = await fakeWithMembers();
      try {
        const { bot, library } = await stuckBot(fake, '1500');
        const sent = performance.now();
        bot.child.kill('SIGTERM');
        await bot.waitFor(/INFO stopping/);
        // An interaction arriving during the stop is told to come back, and nothing else.
        const late = fake.interact({ type: 'command', name: 'challenge', user: MEMBERS[2], options: { size: 15 } });
        expect(await finalText(late)).toEqual({ text: RESTARTING_TEXT, ephemeral: true });
        const code = await bot.exited;
        const ms = performance.now() - sent;
        expect(code, bot.output()).toBe(1);
        expect(ms).toBeGreaterThanOrEqual(1500);
        expect(ms).toBeLessThan(1500 + 2000);
        const pending = /ERROR the stop did not finish within SHUTDOWN_GRACE_MS \(1500 ms\); exiting with what is pending (\{.*\})$/m.exec(bot.output());
        expect(pending, bot.output()).not.toBeNull();
        expect(JSON.parse(pending![1])).toMatchObject({
          step: 'finishing the interactions in flight',
          inFlight: [{ id: library.id, what: '/games', guild: GUILD, channel: CHANNEL }],
          pendingWrites: 0,
        });
        expect(bot.output()).not.toMatch(/INFO stopped/);
        // The /games was deferred and never answered: not answered as if it had worked.
        expect(library.responses().filter((r) => r.kind !== 'callback')).toEqual([]);
      } finally {
        silent = false;
        await fake.close();
      }
    });

    it('a second signal exits at once', async () => {
      const fake = await fakeWithMembers();
      try {
        const { bot } = await stuckBot(fake, '8000');
        bot.child.kill('SIGTERM');
        await bot.waitFor(/INFO stopping/);
        // Past the moment in which npm's forwarded copy of the same signal would arrive.
        await new Promise((resolve) => setTimeout(resolve, 1200));
        const sent = performance.now();
        bot.child.kill('SIGTERM');
        const code = await bot.exited;
        expect(performance.now() - sent).toBeLessThan(1000);
        expect(code, bot.output()).toBe(143);
        expect(bot.output()).toMatch(/WARN a second signal: exiting at once, without finishing the stop \{"signal":"SIGTERM"\}/);
      } finally {
        silent = false;
        await fake.close();
      }
    });
  });
});
