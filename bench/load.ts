/**
 * The bot under load (issue 26): `npm run bench -- load`, or `npx tsx bench/load.ts [--store
 * redis|file] [--shards N] [--seed N]`.
 *
 * It starts the real entry point (`node bin/start.mjs`, what `npm start` runs) against the
 * project's fake Discord (test/support/fakeDiscord) with Redis under a namespace of its own
 * (or, with `--store file`, files in a temporary folder), after importing the project's own
 * 1000-subgoal learned library (bench/fixtures/learned-library.txt) into each of 5 servers
 * with `gomoku memory import`'s code. Then 20 members (4 a server) send 200 interactions in
 * 4 s — challenges, moves, hints, /library, /threats, /stats — each at a fixed time, whether
 * the bot has answered that member's last one or not, as members do.
 *
 * Reported, against the issue's targets:
 * - unanswered within 3 s (Discord's deadline; the fake refuses a later acknowledgement): 0
 * - acknowledgement p95 (a reply or a deferral): at most 100 ms
 * - final answer p95 (the reply, or the edit or follow-up after a deferral): at most 1 s
 * - the longest event-loop block in the bot process(es): at most 50 ms, read from the bot's own
 *   `event loop` log lines (EVENT_LOOP_REPORT_MS, src/bot/loopDelay.ts) during the load.
 *
 * Members play as a member would: their move is a vacant point next to the stones, read from
 * the bot's last answer ("played **h8**", "I answer **j9**"); a game over, they challenge again.
 * The schedule and the moves come from a seeded generator, so two runs send the same load.
 *
 * To see where the time goes: LOAD_BOT_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' profiles the
 * bot's processes and their worker threads; LOAD_BOT_LOG_LEVEL=debug adds each kind of
 * play-worker job's count, run and wait times to the report; LOAD_BOT_OUTPUT=FILE keeps
 * everything the bot printed.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { botCodecs } from '../src/bot/records.ts';
import { importLibrary } from '../src/cli/memory.ts';
import { deployCommands } from '../src/discord/deploy.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { seededRandom, type Random } from '../src/rules/random.ts';
import { openMemory } from '../src/storage/index.ts';
import { isCallback, startFakeDiscord, type BotResponse, type FakeDiscord, type FakeInteraction, type InteractOptions } from '../test/support/fakeDiscord/index.ts';
import { spawnStart, type BotProcess } from '../test/bot/botProcess.ts';
import type { Measurement } from './harness.ts';

const LIBRARY = new URL('./fixtures/learned-library.txt', import.meta.url);
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const GUILDS = 5;
const MEMBERS_PER_GUILD = 4;
const INTERACTIONS = 200;
const SPREAD_MS = 4000;
const DEADLINE_MS = 3000;
/** How long after the last interaction its answers may still come before the run is cut off. */
const DRAIN_MS = 30_000;
const BOT_USER = { id: '240000000000000001', username: 'Go-Moku' };
/** What each member does, in turn, from its first interaction: ten each, 200 in all. */
const PLAN = ['challenge', 'move', 'move', 'hint', 'move', 'threats', 'move', 'library', 'move', 'stats'] as const;
type Action = (typeof PLAN)[number];

export interface LoadOptions {
  readonly store: 'redis' | 'file';
  readonly shards?: number;
  readonly seed?: number;
  /** Progress lines (stderr by default). */
  readonly say?: (line: string) => void;
}

export interface LoadResult {
  readonly store: 'redis' | 'file';
  readonly shards: number;
  readonly sent: number;
  readonly byAction: Readonly<Record<string, number>>;
  /** Moves the bot played (the rest were refused: the game had moved on, was over, …). */
  readonly movesPlayed: number;
  readonly deferred: number;
  readonly unanswered: number;
  readonly ackP50: number;
  readonly ackP95: number;
  readonly finalP50: number;
  readonly finalP95: number;
  readonly finalMax: number;
  /** Final-answer p95 by action. */
  readonly finalP95By: Readonly<Record<string, number>>;
  readonly loopMaxMs: number | undefined;
  readonly loopLines: number;
  /** Play-worker jobs by kind, from the bot's debug lines (LOAD_BOT_LOG_LEVEL=debug); empty without them. */
  readonly playJobs?: readonly PlayJobFigures[];
}

export interface PlayJobFigures {
  readonly kind: string;
  readonly count: number;
  readonly runTotalMs: number;
  readonly runP50: number;
  readonly runP95: number;
  readonly waitP50: number;
  readonly waitP95: number;
}

interface Member {
  readonly user: { id: string; username: string };
  readonly guildId: string;
  readonly channelId: string;
  /** The bench's idea of the member's board: size and stones, from the bot's answers. */
  size: number;
  stones: Set<string>;
  last: string | undefined;
  over: boolean;
  step: number;
}

interface Sent {
  readonly action: Action;
  readonly member: Member;
  readonly interaction: FakeInteraction;
  ack?: number;
  final?: number;
  deferred: boolean;
  text?: string;
}

/** Guild ids spread over shards as Discord spreads them: shard = (id >> 22) % count. */
export function guildIds(n: number): string[] {
  return Array.from({ length: n }, (_, k) => String(((1_000_000n + BigInt(k)) << 22n) | 1n));
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const say = options.say ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const shards = options.shards ?? 1;
  const rnd = seededRandom(options.seed ?? 26);
  const ids = guildIds(GUILDS);
  const members: Member[] = [];
  const guilds = ids.map((id, g) => {
    const users = Array.from({ length: MEMBERS_PER_GUILD }, (_, m) => ({ id: String(230000000000000000n + BigInt(g * 100 + m + 1)), username: `member-${g + 1}-${m + 1}` }));
    const channelId = String(220000000000000000n + BigInt(g + 1));
    for (const user of users) members.push({ user, guildId: id, channelId, size: 19, stones: new Set(), last: undefined, over: true, step: 0 });
    return { id, name: `Server ${g + 1}`, ownerId: users[0].id, members: users, channels: [{ id: channelId, name: 'gomoku' }] };
  });
  const fake = await startFakeDiscord({ guilds, botUser: BOT_USER, shards });
  const work = await mkdtemp(join(tmpdir(), 'gomoku-bench-load-'));
  const namespace = `gomoku-bench-load-${process.pid}-${randomBytes(4).toString('hex')}`;
  const storageEnv: Record<string, string> = options.store === 'redis' ? { REDIS_URL, STORAGE_NAMESPACE: namespace } : { DATA_DIR: join(work, 'data'), STORAGE_NAMESPACE: namespace };
  const env: Record<string, string> = {
    DISCORD_TOKEN: fake.token,
    DISCORD_CLIENT_ID: fake.applicationId,
    DISCORD_API_URL: fake.url,
    // LOAD_BOT_LOG_LEVEL=debug adds each play-worker job's wait and run time to the report.
    LOG_LEVEL: process.env.LOAD_BOT_LOG_LEVEL ?? 'info',
    GOMOKU_SEED: String(options.seed ?? 26),
    EVENT_LOOP_REPORT_MS: '250',
    ...storageEnv,
    ...(shards > 1 ? { SHARD_COUNT: 'auto', SHARD_SPAWN_DELAY_MS: '500' } : {}),
  };
  let bot: BotProcess | undefined;
  try {
    await deployCommands(env);
    const text = readFileSync(LIBRARY, 'utf8');
    const opened = await openMemory(storageEnv, botCodecs);
    try {
      for (const id of ids) {
        const imported = await importLibrary(opened.memory, id, text, 'learned-library.txt');
        if (!imported.ok) throw new Error(`the learned library did not import: ${imported.problem.message}`);
        say(`imported ${imported.value.added} subgoals into server ${id}`);
      }
    } finally {
      await opened.close();
    }
    // To profile the bot: LOAD_BOT_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' (node refuses
    // --cpu-prof in NODE_OPTIONS, so these go on the command line; workers write profiles too).
    const nodeArgs = (process.env.LOAD_BOT_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
    bot = spawnStart([], env, work, undefined, nodeArgs);
    // Up, and each server's library read (the bot reads them ahead of the first command).
    for (let s = 0; s < shards; s++) await bot.waitFor(new RegExp(`(libraries read ahead[\\s\\S]*){${s + 1}}`), 120_000);
    say(`bot up (${shards} shard${shards === 1 ? '' : 's'}, ${options.store}); sending ${INTERACTIONS} interactions over ${SPREAD_MS / 1000} s`);

    // Each slot goes to a member, round-robin in a shuffled order, so every member acts ten times.
    const order = shuffled(members, rnd);
    const sent: Sent[] = [];
    const startedAt = Date.now();
    for (let i = 0; i < INTERACTIONS; i++) {
      const due = startedAt + (i * SPREAD_MS) / INTERACTIONS;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const member = order[i % order.length];
      const action = PLAN[member.step++ % PLAN.length];
      sent.push(send(fake, member, action, rnd));
    }
    const loadEnd = Date.now();
    await Promise.all(sent.map((s) => settle(s)));
    const drainedAt = Date.now();
    await bot.stop('SIGTERM');
    // LOAD_BOT_OUTPUT=FILE keeps everything the bot printed, to read its debug lines after.
    if (process.env.LOAD_BOT_OUTPUT !== undefined) writeFileSync(process.env.LOAD_BOT_OUTPUT, bot.output());
    const loop = loopFigures(bot.output(), startedAt, drainedAt);
    return { ...figures(options.store, shards, sent, loop, loadEnd - startedAt), playJobs: playJobFigures(bot.output(), startedAt, drainedAt) };
  } finally {
    await bot?.stop('SIGKILL');
    await fake.close();
    if (options.store === 'redis') {
      const opened = await openMemory(storageEnv, botCodecs).catch(() => undefined);
      if (opened !== undefined) {
        await opened.memory.backend.clearAll();
        await opened.close();
      }
    }
    await rm(work, { recursive: true, force: true });
  }
}

function send(fake: FakeDiscord, member: Member, planned: Action, rnd: Random): Sent {
  let action: Action = planned;
  if (member.over) action = 'challenge';
  let options: Record<string, string | number> = {};
  if (action === 'challenge') {
    const size = rnd.next() < 0.5 ? 15 : 19;
    options = { size, colour: rnd.next() < 0.25 ? 'white' : 'black' };
    member.size = size;
    member.stones = new Set();
    member.last = undefined;
    member.over = false;
  } else if (action === 'move') {
    options = { point: nextPoint(member, rnd) };
  }
  const interaction = fake.interact({ type: 'command', name: action, guildId: member.guildId, channelId: member.channelId, user: member.user, options } as InteractOptions);
  return { action, member, interaction, deferred: false };
}

/** Waits for the interaction's final answer (or gives up after DRAIN_MS), and learns the board from it. */
async function settle(s: Sent): Promise<void> {
  let first: BotResponse;
  try {
    first = await s.interaction.waitForResponse(isCallback(), DRAIN_MS);
  } catch {
    return;
  }
  s.ack = first.at;
  let final: BotResponse = first;
  if (first.kind === 'callback' && (first.type === 5 || first.type === 6)) {
    s.deferred = true;
    try {
      final = await s.interaction.waitForResponse((r) => r.kind === 'edit' || r.kind === 'followup', DRAIN_MS);
    } catch {
      return;
    }
  }
  s.final = final.at;
  s.text = 'message' in final ? (final.message?.content ?? '') : '';
  learnBoard(s.member, s.text);
}

/** The stones a reply names: the member's move and the bot's answer or opening. */
function learnBoard(member: Member, text: string): void {
  for (const m of text.matchAll(/(?:played|I answer|I open) \*\*([a-z]\d{1,2})\*\*/g)) {
    member.stones.add(m[1]);
    member.last = m[1];
  }
  if (/\*\*(You win|I win)\*\*|full board|resigned/.test(text) || /That game is over/.test(text)) member.over = true;
}

/** A vacant point next to the last stone (or the centre), as a member would answer. */
function nextPoint(member: Member, rnd: Random): string {
  const size = member.size;
  const centre = makePoint(size, ((size - 1) / 2) * (size + 1));
  const around = member.last ?? centre;
  const at = parsePoint(size, around);
  if (!at.ok) return centre;
  const col = at.value % size;
  const row = Math.floor(at.value / size);
  const free: string[] = [];
  for (let r = 1; r <= 2 && free.length === 0; r++) {
    for (let dr = -r; dr <= r; dr++) {
      for (let dc = -r; dc <= r; dc++) {
        const c = col + dc;
        const w = row + dr;
        if (c < 0 || w < 0 || c >= size || w >= size) continue;
        const name = makePoint(size, w * size + c);
        if (!member.stones.has(name)) free.push(name);
      }
    }
  }
  return free.length === 0 ? centre : free[Math.floor(rnd.next() * free.length)];
}

/** The longest event-loop delay any bot process logged while the load ran. */
function loopFigures(output: string, from: number, to: number): { maxMs: number | undefined; lines: number } {
  let maxMs: number | undefined;
  let lines = 0;
  for (const m of output.matchAll(/^(\S+) INFO event loop (\{.*\})$/gm)) {
    const at = Date.parse(m[1]);
    // A line covers the stretch before it; the first after the load still covers its end.
    if (at < from || at > to + 1000) continue;
    const detail = JSON.parse(m[2]) as { maxMs: number };
    lines++;
    maxMs = Math.max(maxMs ?? 0, detail.maxMs);
  }
  return { maxMs, lines };
}

/** Each kind of play-worker job answered while the load ran: how many, how long they ran and waited (the pool's `play job` debug lines). */
function playJobFigures(output: string, from: number, to: number): PlayJobFigures[] {
  const byKind = new Map<string, { run: number[]; wait: number[] }>();
  for (const m of output.matchAll(/^(\S+) DEBUG play job (\{.*\})$/gm)) {
    const at = Date.parse(m[1]);
    if (at < from || at > to) continue;
    const d = JSON.parse(m[2]) as { kind: string; waitMs: number; runMs: number };
    const k = byKind.get(d.kind) ?? { run: [], wait: [] };
    k.run.push(d.runMs);
    k.wait.push(d.waitMs);
    byKind.set(d.kind, k);
  }
  return [...byKind].map(([kind, k]) => ({
    kind,
    count: k.run.length,
    runTotalMs: k.run.reduce((a, b) => a + b, 0),
    runP50: percentile(k.run, 50),
    runP95: percentile(k.run, 95),
    waitP50: percentile(k.wait, 50),
    waitP95: percentile(k.wait, 95),
  }));
}

function figures(store: 'redis' | 'file', shards: number, sent: readonly Sent[], loop: { maxMs: number | undefined; lines: number }, _spreadMs: number): LoadResult {
  const acks = sent.map((s) => s.ack ?? Infinity);
  const finals = sent.map((s) => s.final ?? Infinity);
  const byAction: Record<string, number> = {};
  const finalBy: Record<string, number[]> = {};
  for (const s of sent) {
    byAction[s.action] = (byAction[s.action] ?? 0) + 1;
    (finalBy[s.action] ??= []).push(s.final ?? Infinity);
  }
  const movesPlayed = sent.filter((s) => s.action === 'move' && s.text !== undefined && /played \*\*/.test(s.text)).length;
  return {
    store,
    shards,
    sent: sent.length,
    byAction,
    movesPlayed,
    deferred: sent.filter((s) => s.deferred).length,
    unanswered: sent.filter((s) => s.ack === undefined || s.ack > DEADLINE_MS || s.interaction.rejected().some((r) => r.path.endsWith('/callback'))).length,
    ackP50: percentile(acks, 50),
    ackP95: percentile(acks, 95),
    finalP50: percentile(finals, 50),
    finalP95: percentile(finals, 95),
    finalMax: percentile(finals, 100),
    finalP95By: Object.fromEntries(Object.entries(finalBy).map(([k, v]) => [k, percentile(v, 95)])),
    loopMaxMs: loop.maxMs,
    loopLines: loop.lines,
  };
}

/** The p-th percentile (nearest rank) of xs; NaN for none. */
export function percentile(xs: readonly number[], p: number): number {
  const s = xs.slice().sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

function shuffled<T>(xs: readonly T[], rnd: Random): T[] {
  const out = xs.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd.next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function formatLoad(r: LoadResult): string {
  const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'never');
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const lines = [
    `load: ${r.sent} interactions in 4 s from ${GUILDS * MEMBERS_PER_GUILD} members in ${GUILDS} servers, 1000-subgoal library each; ${r.store} store, ${r.shards} shard${r.shards === 1 ? '' : 's'}`,
    `  sent: ${Object.entries(r.byAction).map(([k, v]) => `${k} ${v}`).join(', ')}; moves played ${r.movesPlayed}; deferred ${r.deferred}`,
    `  unanswered within 3 s   ${String(r.unanswered).padStart(7)}      target 0        ${mark(r.unanswered === 0)}`,
    `  acknowledgement p95     ${ms(r.ackP95).padStart(7)}      target ≤ 100 ms ${mark(r.ackP95 <= 100)}   (p50 ${ms(r.ackP50)})`,
    `  final answer p95        ${ms(r.finalP95).padStart(7)}      target ≤ 1 s    ${mark(r.finalP95 <= 1000)}   (p50 ${ms(r.finalP50)}, max ${ms(r.finalMax)})`,
    `  longest event-loop block ${r.loopMaxMs === undefined ? '   none' : ms(r.loopMaxMs).padStart(6)}      target ≤ 50 ms  ${mark(r.loopMaxMs !== undefined && r.loopMaxMs <= 50)}   (${r.loopLines} reports)`,
    `  final p95 by command: ${Object.entries(r.finalP95By).map(([k, v]) => `${k} ${ms(v)}`).join(', ')}`,
  ];
  for (const j of r.playJobs ?? []) lines.push(`  play job ${j.kind.padEnd(8)} ${String(j.count).padStart(4)} × run p50 ${ms(j.runP50)} p95 ${ms(j.runP95)} (total ${ms(j.runTotalMs)}), wait p50 ${ms(j.waitP50)} p95 ${ms(j.waitP95)}`);
  return lines.join('\n');
}

/** For `npm run bench -- load`: the Redis run, then the file store, as rows of the bench table. */
export async function benchLoad(): Promise<Measurement[]> {
  const rows: Measurement[] = [];
  for (const store of ['redis', 'file'] as const) {
    const r = await runLoad({ store });
    process.stdout.write(`${formatLoad(r)}\n`);
    rows.push({ name: `load ${store}: final answer p95`, medianUs: r.finalP50 * 1000, worstUs: r.finalP95 * 1000, samples: r.sent, inner: 1, note: `unanswered ${r.unanswered}, ack p95 ${Math.round(r.ackP95)} ms, loop max ${r.loopMaxMs ?? '?'} ms` });
  }
  return rows;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i < 0 ? undefined : args[i + 1];
  };
  const store = value('store') ?? 'redis';
  const shards = Number(value('shards') ?? 1);
  const seed = Number(value('seed') ?? 26);
  if ((store !== 'redis' && store !== 'file') || !Number.isInteger(shards) || shards < 1 || !Number.isInteger(seed)) {
    process.stderr.write('usage: npx tsx bench/load.ts [--store redis|file] [--shards N] [--seed N]\n');
    process.exitCode = 2;
    return;
  }
  const r = await runLoad({ store, shards, seed });
  process.stdout.write(`${formatLoad(r)}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
