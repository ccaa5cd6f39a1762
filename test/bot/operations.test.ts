// Operating the bot (issue 30): `npm start`'s entry point against the fake Discord, on a Redis
// server of this test's own (so it can be stopped and started again without touching the
// Redis other tests share), with METRICS_PORT=0 and LOG_FORMAT=json.
//
// - /metrics after a short game: the counters moved by exactly what was done — interactions
//   by command and outcome, a resignation and a loss by outcome, one analysis, the subgoals
//   the reply said were learned, games in progress up to 2 and back to 0, the library
//   histogram, latency histograms, event-loop lag.
// - /healthz: 200 while Redis answers, 503 naming storage while it is stopped, 200 once it
//   is back.
// - Logs: every line is one JSON object; every interaction line has the guild, channel,
//   interaction id and duration; no token appears anywhere.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { silentLog } from '../../src/bot/log.ts';
import { gameKey } from '../../src/bot/records.ts';
import { parseGame } from '../../src/rules/gameRecord.ts';
import { expectOk } from '../../src/rules/result.ts';
import { isCallback, startFakeDiscord, type FakeDiscord, type FakeInteraction, type InteractOptions } from '../support/fakeDiscord/index.ts';
import { spawnStart, type BotProcess } from './botProcess.ts';
import { oneMoveFromTheEnd, tempDir } from './support.ts';

const GUILD = '610000000000000001';
const CHANNEL = '620000000000000001';
const ALICE = { id: '630000000000000001', username: 'alice' };
const BOB = { id: '630000000000000002', username: 'bob' };
const BOT = { id: '640000000000000001', username: 'Go-Moku' };
const EPHEMERAL = 64;

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves when a Redis on this port answers PING. */
async function redisAnswers(port: number, timeoutMs = 10_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('error', () => resolve(false));
      s.once('connect', () => s.write('PING\r\n'));
      s.once('data', (d) => {
        s.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`no Redis on port ${port}`);
}

function startRedis(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
}

/** The samples of a Prometheus text scrape, by series (`name{labels}` as printed). */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

describe('operating the bot: /metrics, /healthz and JSON logs', () => {
  let fake: FakeDiscord;
  let bot: BotProcess;
  let redis: ChildProcess;
  let redisPort: number;
  let url: string;
  const removals: Array<() => Promise<void>> = [];
  const sent: FakeInteraction[] = [];
  let learnedSaid = 0;
  let bobsLast: string;

  const scrape = async () => {
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return samples(await response.text());
  };
  const healthz = async () => {
    const response = await fetch(`${url}/healthz`);
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };
  const command = async (user: typeof ALICE, name: string, options: Record<string, string | number> = {}) => {
    const i = fake.interact({ type: 'command', name, user, options } as InteractOptions);
    sent.push(i);
    const first = await i.waitForResponse(isCallback(), 8000);
    let message = first.message;
    if (first.type === 5) {
      const last = await i.waitForResponse((r) => r.kind === 'edit' || r.kind === 'followup', 20_000);
      message = 'message' in last ? last.message : undefined;
    }
    return { text: message?.content ?? '', ephemeral: ((message?.flags ?? 0) & EPHEMERAL) !== 0 };
  };

  beforeAll(async () => {
    redisPort = await freePort();
    redis = startRedis(redisPort);
    await redisAnswers(redisPort);
    const { dir, remove } = await tempDir('operations');
    removals.push(remove);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    // Bob's game is one move from the member's win: his next move makes the bot lose.
    const seed = await openBotStorage({ REDIS_URL: redisUrl, DATA_DIR: `${dir}/seed` }, silentLog);
    const bob = oneMoveFromTheEnd(expectOk(parseGame(read('../fixtures/games/learning/double-open-three.txt'))), { guildId: GUILD, channelId: CHANNEL, userId: BOB.id }, 'bob-game');
    await seed.guild(GUILD).games.put(gameKey(CHANNEL, BOB.id), bob.stored);
    await seed.close();
    bobsLast = bob.last;

    fake = await startFakeDiscord({ guilds: [{ id: GUILD, name: 'club', ownerId: ALICE.id, members: [ALICE, BOB], channels: [{ id: CHANNEL, name: 'gomoku' }] }], botUser: BOT });
    bot = spawnStart(
      [],
      {
        DISCORD_TOKEN: fake.token,
        DISCORD_API_URL: fake.url,
        REDIS_URL: redisUrl,
        DATA_DIR: dir,
        METRICS_PORT: '0',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        GOMOKU_SEED: '7',
      },
      dir,
    );
    await bot.waitFor(/"msg":"health and metrics listening"/, 30_000);
    url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(bot.output())![1];
    await bot.waitFor(/"msg":"connected to Discord as Go-Moku"/, 30_000);
  });

  afterAll(async () => {
    await bot?.stop('SIGKILL');
    await fake?.close();
    redis?.kill('SIGKILL');
    for (const remove of removals) await remove();
  });

  it('/healthz is 200 with the gateway connected and storage reachable', async () => {
    expect(await healthz()).toEqual({ status: 200, body: { status: 'ok', gateway: 'connected', storage: 'reachable' } });
  });

  it('/metrics: after a short game the counters moved by what was done', async () => {
    const before = await scrape();
    const at = (m: Map<string, number>, series: string) => m.get(series) ?? 0;
    const delta = (after: Map<string, number>, series: string) => at(after, series) - at(before, series);
    expect(at(before, 'gomoku_games_in_progress')).toBe(1); // Bob's, seeded
    expect(before.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(before.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);

    // Alice: a challenge, two moves, a resignation; a refused challenge (a game exists) and
    // an out-of-choice size, refused before anything is stored.
    expect((await command(ALICE, 'challenge', { size: 15, level: 1 })).text).toContain('challenged me');
    await sleep(5100); // past the census's reuse of its last reading
    const mid = await scrape();
    expect(at(mid, 'gomoku_games_in_progress')).toBe(2);
    expect((await command(ALICE, 'move', { point: 'h8' })).text).toContain('played **h8**');
    expect((await command(ALICE, 'move', { point: 'a1' })).text).toContain('played **a1**');
    expect((await command(ALICE, 'challenge', { size: 19 })).text).toMatch(/^You already have a game here/);
    expect(await command(ALICE, 'challenge', { size: 1000 })).toEqual({ text: 'size must be 15 or 19, not "1000".', ephemeral: true });
    expect((await command(ALICE, 'resign')).text).toMatch(/resign/i);
    // Bob: the winning move; the bot walks back and learns.
    const won = await command(BOB, 'move', { point: bobsLast });
    expect(won.text).toMatch(/\*\*You win\*\*/);
    const said = /learned (\d+) new subgoals?/.exec(won.text);
    learnedSaid = said === null ? 0 : Number(said[1]);
    expect(learnedSaid).toBeGreaterThan(0);
    await sleep(5100);
    const after = await scrape();

    const commands = (command: string, outcome: string) => delta(after, `gomoku_interactions_total{kind="command",command="${command}",outcome="${outcome}"}`);
    expect(commands('challenge', 'ok')).toBe(1);
    expect(commands('challenge', 'refused')).toBe(2);
    expect(commands('move', 'ok')).toBe(3);
    expect(commands('resign', 'ok')).toBe(1);
    expect(delta(after, 'gomoku_interaction_ack_seconds_count{kind="command",command="move"}')).toBe(3);
    expect(delta(after, 'gomoku_interaction_final_seconds_count{kind="command",command="challenge"}')).toBe(3);
    // Discord's 3 s: every acknowledgement in the buckets at or under it.
    expect(delta(after, 'gomoku_interaction_ack_seconds_bucket{le="3",kind="command",command="move"}')).toBe(3);
    expect(delta(after, 'gomoku_games_finished_total{outcome="bot_won"}')).toBe(1);
    expect(delta(after, 'gomoku_games_finished_total{outcome="bot_lost"}')).toBe(1);
    expect(delta(after, 'gomoku_games_analysed_total{result="analysed",from="loss"}')).toBe(1);
    expect(delta(after, 'gomoku_subgoals_learned_total')).toBe(learnedSaid);
    expect(at(after, 'gomoku_games_in_progress')).toBe(0);
    expect(at(after, 'gomoku_library_subgoals_count')).toBe(1);
    expect(at(after, 'gomoku_library_subgoals_sum')).toBe(learnedSaid);
    expect(at(after, 'gomoku_storage_retry_queue_depth')).toBe(0);
    expect(at(after, 'gomoku_gateway_connected')).toBe(1);
    expect(delta(after, 'gomoku_storage_errors_total{operation="get"}')).toBe(0);
  });

  it('/healthz is 503 naming storage while Redis is stopped, and 200 once it is back', async () => {
    redis.kill('SIGTERM');
    await once(redis, 'exit');
    let seen: Awaited<ReturnType<typeof healthz>> | undefined;
    for (let i = 0; i < 100; i++) {
      seen = await healthz();
      if (seen.status === 503) break;
      await sleep(100);
    }
    expect(seen?.status).toBe(503);
    expect(seen?.body).toMatchObject({ status: 'unavailable', gateway: 'connected', storage: expect.stringMatching(/^unreachable: /) });

    // A member meanwhile is told so, and the failure is counted.
    expect(await command(ALICE, 'board')).toEqual({ text: 'Storage unavailable, try again in a moment. Nothing changed.', ephemeral: true });
    const down = await scrape();
    expect(down.get('gomoku_interactions_total{kind="command",command="board",outcome="storage_unavailable"}')).toBe(1);
    expect(down.get('gomoku_storage_errors_total{operation="get"}')).toBeGreaterThanOrEqual(1);

    redis = startRedis(redisPort);
    await redisAnswers(redisPort);
    for (let i = 0; i < 100; i++) {
      seen = await healthz();
      if (seen.status === 200) break;
      await sleep(100);
    }
    expect(seen).toEqual({ status: 200, body: { status: 'ok', gateway: 'connected', storage: 'reachable' } });
  });

  it('logs one JSON object a line, with guild, channel, interaction id and duration on every interaction line, and no token', async () => {
    const lines = bot.output().trim().split('\n');
    const objects = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const o of objects) expect(o).toMatchObject({ level: expect.stringMatching(/^(error|warn|info|debug)$/), time: expect.any(String), msg: expect.any(String) });
    const interactions = objects.filter((o) => o.msg === 'interaction');
    expect(interactions.map((o) => o.interaction).sort()).toEqual(sent.map((i) => i.id).sort());
    for (const o of interactions) {
      expect(o).toMatchObject({ guild: GUILD, channel: CHANNEL, interaction: expect.stringMatching(/^\d+$/), ms: expect.any(Number), kind: 'command', command: expect.any(String), outcome: expect.any(String) });
    }
    // Lines logged while an interaction was handled carry it too (the service's, storage's).
    const gameOver = objects.filter((o) => o.msg === 'game over');
    expect(gameOver.length).toBe(2);
    for (const o of gameOver) expect(o).toMatchObject({ guild: GUILD, channel: CHANNEL, interaction: expect.any(String), interactionMs: expect.any(Number) });
    // A line's own fields are kept: the analysis's time is its own, beside the interaction's.
    const analysed = objects.find((o) => o.msg === 'analysed a finished game');
    expect(analysed).toMatchObject({ ms: expect.any(Number), interactionMs: expect.any(Number), guild: GUILD });
    expect(analysed!.interactionMs as number).toBeGreaterThanOrEqual(analysed!.ms as number);
    const output = bot.output();
    expect(output).not.toContain(fake.token);
    for (const i of sent) expect(output).not.toContain(i.token);
    // No message contents: the point a member typed is not in the interaction lines.
    expect(JSON.stringify(interactions)).not.toContain('h8');
  });
});
