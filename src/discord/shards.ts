/**
 * `npm start` with `SHARD_COUNT` set: discord.js's ShardingManager runs the bot as one process
 * per shard, each this same entry point (bin/start.mjs), all on the same Redis.
 *
 * Discord sends each guild's events to one shard, `(guild_id >> 22) % shard_count`, and a
 * process of one shard answers them. What must be shared is in Redis: games, libraries (with
 * their version key, libraryCache.ts), counters, records, ratings, the pool. What each process
 * keeps in memory is either a cache checked against Redis (the held libraries) or about its own
 * guilds only: the per-game and per-server locks (lock.ts) serialise the commands of one guild,
 * and a guild's commands all reach the one process of its shard (docs/DESIGN.md, "Shards").
 *
 * - `SHARD_COUNT`: a number, or `auto` for the count Discord recommends (`GET /gateway/bot`, asked
 *   here so that DISCORD_API_URL is honoured). Unset or empty: one process, no manager.
 * - Refused without `REDIS_URL`: the embedded file store is for one process.
 * - `SHARD_SPAWN_DELAY_MS` (5500): between starting two shards; Discord allows one IDENTIFY per
 *   5 s per rate-limit bucket (max_concurrency).
 * - Each shard logs its own lines, prefixed by nothing: they carry the same format, interleaved.
 * - A shard process that dies is started again by the manager. SIGINT or SIGTERM to the
 *   manager stops every shard with SIGTERM (each makes its own clean stop) and waits for them;
 *   the exit code is 0 when every shard stopped cleanly.
 */
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Routes, ShardingManager, type Shard } from 'discord.js';
import type { CliIO } from '../bot/io.ts';
import { restFor, type DiscordEnv } from './client.ts';

export interface ShardEnv extends DiscordEnv {
  readonly SHARD_COUNT?: string;
  readonly SHARD_SPAWN_DELAY_MS?: string;
  /** Set by the ShardingManager in each shard's process. */
  readonly SHARDING_MANAGER?: string;
  readonly REDIS_URL?: string;
}

const START = fileURLToPath(new URL('../../bin/start.mjs', import.meta.url));
const DEFAULT_SPAWN_DELAY_MS = 5500;

/** Whether this process should run the manager: SHARD_COUNT set, and not already a shard. */
export function runsShards(env: ShardEnv): boolean {
  return nonEmpty(env.SHARD_COUNT) !== undefined && nonEmpty(env.SHARDING_MANAGER) === undefined;
}

/** The settings, checked; throws a TypeError naming what is wrong. */
export function shardSettings(env: ShardEnv): { count: number | 'auto'; delayMs: number } {
  const text = nonEmpty(env.SHARD_COUNT) ?? '';
  if (nonEmpty(env.REDIS_URL) === undefined) {
    throw new TypeError('SHARD_COUNT needs REDIS_URL: every shard is its own process, and the embedded file store (DATA_DIR) is for one process only');
  }
  if (text !== 'auto' && !/^[1-9]\d{0,4}$/.test(text)) throw new TypeError(`SHARD_COUNT must be a whole number from 1, or auto, not "${text}"`);
  const delayText = nonEmpty(env.SHARD_SPAWN_DELAY_MS);
  if (delayText !== undefined && !/^\d{1,6}$/.test(delayText)) throw new TypeError(`SHARD_SPAWN_DELAY_MS must be a whole number of milliseconds, not "${delayText}"`);
  return { count: text === 'auto' ? 'auto' : Number(text), delayMs: delayText === undefined ? DEFAULT_SPAWN_DELAY_MS : Number(delayText) };
}

/** Runs the shards until SIGINT or SIGTERM; returns the exit code. */
export async function runShards(env: ShardEnv, io: CliIO): Promise<number> {
  let settings: ReturnType<typeof shardSettings>;
  try {
    settings = shardSettings(env);
  } catch (e) {
    io.err(`Could not start the shards: ${(e as Error).message}`);
    return 2;
  }
  let count: number;
  try {
    count = settings.count === 'auto' ? ((await restFor(env).get(Routes.gatewayBot())) as { shards: number }).shards : settings.count;
  } catch (e) {
    io.err(`Could not ask Discord how many shards to run: ${(e as Error).message}`);
    return 1;
  }
  const manager = new ShardingManager(START, { totalShards: count, token: env.DISCORD_TOKEN?.trim(), respawn: true, mode: 'process' });
  manager.on('shardCreate', (shard: Shard) => io.out(`${new Date().toISOString()} INFO starting shard ${shard.id} of ${count}`));
  const stopped = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  const spawned = manager.spawn({ amount: count, delay: settings.delayMs, timeout: 120_000 }).then(
    () => 'spawned' as const,
    (e: unknown) => e,
  );
  const first = await Promise.race([stopped, spawned]);
  if (first !== 'spawned' && first !== 'SIGINT' && first !== 'SIGTERM') {
    io.err(`Could not start the shards: ${(first as Error).message ?? String(first)}`);
    await stopAll(manager);
    return 1;
  }
  if (first === 'spawned') io.out(`${new Date().toISOString()} INFO all ${count} shards started`);
  const signal = first === 'spawned' ? await stopped : first;
  io.out(`${new Date().toISOString()} INFO stopping ${count} shards (${signal})`);
  const clean = await stopAll(manager);
  return clean ? 0 : 1;
}

/** SIGTERM to every shard's process, then waits for each to exit; true when all exited 0. */
async function stopAll(manager: ShardingManager): Promise<boolean> {
  manager.respawn = false;
  const exits = [...manager.shards.values()].map(async (shard) => {
    const child = shard.process;
    if (child === null || child.exitCode !== null) return child?.exitCode === 0;
    const exited = once(child, 'exit') as Promise<[number | null]>;
    child.kill('SIGTERM');
    const [code, signal] = (await exited) as unknown as [number | null, string | null];
    if (code !== 0) process.stderr.write(`${new Date().toISOString()} WARN shard ${shard.id} exited with ${code ?? signal}\n`);
    return code === 0;
  });
  return (await Promise.all(exits)).every((ok) => ok);
}

function nonEmpty(value: string | undefined): string | undefined {
  const t = value?.trim();
  return t === undefined || t === '' ? undefined : t;
}
