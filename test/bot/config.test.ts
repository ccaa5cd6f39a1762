// The bot's settings: .env.example names every variable the bot reads and, copied as it is,
// starts the bot with the defaults; bad values are refused with the variable's name; and the
// entry point's own answers (usage, deploy without an application id).
import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { botConfig, logFor, logFormat, logLevel } from '../../src/bot/config.ts';
import { WORKER_NICE, workerNice } from '../../src/bot/threadPriority.ts';
import { parseLogLevel } from '../../src/bot/log.ts';
import { DEFAULT_IDLE_MS } from '../../src/bot/service.ts';
import type { CliIO } from '../../src/bot/io.ts';
import { discordApiBase } from '../../src/discord/client.ts';
import { metricsAddress } from '../../src/discord/health.ts';
import { DEFAULT_SHUTDOWN_GRACE_MS, shutdownGraceMs } from '../../src/discord/shutdown.ts';
import { main } from '../../src/discord/main.ts';
import { runsShards, shardSettings } from '../../src/discord/shards.ts';
import { loopReportMs } from '../../src/bot/loopDelay.ts';
import { storageConfig } from '../../src/storage/index.ts';

const example = parse(readFileSync(new URL('../../.env.example', import.meta.url)));

function capture(): { io: CliIO; text: () => string } {
  let out = '';
  return { io: { out: (t) => void (out += `${t}\n`), err: (t) => void (out += `${t}\n`), readFile: () => '' }, text: () => out };
}

describe('settings', () => {
  it('.env.example lists every variable and works as it is', () => {
    expect(Object.keys(example).sort()).toEqual(
      ['ANALYSIS_LIMIT_SECONDS', 'ANALYSIS_WORKERS', 'DATA_DIR', 'DISCORD_API_URL', 'DISCORD_CLIENT_ID', 'DISCORD_GUILD_ID', 'DISCORD_TOKEN', 'EVENT_LOOP_REPORT_MS', 'GAME_IDLE_HOURS', 'GOMOKU_SEED', 'LOG_FORMAT', 'LOG_LEVEL', 'METRICS_HOST', 'METRICS_PORT', 'PLAY_WORKERS', 'RECORDS_KEPT', 'REDIS_URL', 'REFLECT_EVERY', 'SHARD_COUNT', 'SHARD_SPAWN_DELAY_MS', 'SHUTDOWN_GRACE_MS', 'STARTER_LIBRARY', 'STORAGE_NAMESPACE', 'WORKER_NICE'].sort(),
    );
    expect(shutdownGraceMs(example)).toBe(DEFAULT_SHUTDOWN_GRACE_MS);
    expect(metricsAddress(example)).toBeUndefined();
    expect(logFormat(example)).toBe('text');
    expect(runsShards(example)).toBe(false);
    expect(loopReportMs(example)).toBeUndefined();
    expect(workerNice(example)).toBe(WORKER_NICE);
    expect(() => botConfig({ PLAY_WORKERS: 'many' })).toThrow(/PLAY_WORKERS must be a whole number from 1, not "many"/);
    expect(botConfig({ PLAY_WORKERS: '3' })).toEqual({ idleMs: DEFAULT_IDLE_MS, playWorkers: 3 });
    expect(() => shardSettings({ SHARD_COUNT: '2', REDIS_URL: 'redis://x', SHARD_SPAWN_DELAY_MS: 'soon' })).toThrow(/SHARD_SPAWN_DELAY_MS must be a whole number/);
    expect(() => shardSettings({ SHARD_COUNT: 'two', REDIS_URL: 'redis://x' })).toThrow(/SHARD_COUNT must be a whole number from 1, or auto, not "two"/);
    expect(shardSettings({ SHARD_COUNT: 'auto', REDIS_URL: 'redis://x' })).toEqual({ count: 'auto', delayMs: 5500 });
    expect(botConfig(example)).toEqual({ idleMs: DEFAULT_IDLE_MS });
    expect(storageConfig(example)).toMatchObject({ kind: 'file', namespace: 'gomoku' });
    expect(discordApiBase(example)).toBeUndefined();
    expect(logLevel(example)).toBe('info');
  });

  it('reads the idle time and the seed, and names the variable of a bad value', () => {
    expect(botConfig({ GAME_IDLE_HOURS: '0.5', GOMOKU_SEED: '42' })).toEqual({ idleMs: 1_800_000, seed: 42 });
    expect(() => botConfig({ GAME_IDLE_HOURS: 'soon' })).toThrow(/GAME_IDLE_HOURS must be a positive number of hours, not "soon"/);
    expect(() => botConfig({ GAME_IDLE_HOURS: '-1' })).toThrow(/GAME_IDLE_HOURS/);
    expect(() => botConfig({ GOMOKU_SEED: '1.5' })).toThrow(/GOMOKU_SEED must be a whole number/);
    expect(() => botConfig({ WORKER_NICE: '20' })).toThrow(/WORKER_NICE must be a whole number from 0 to 19, not "20"/);
    expect(() => botConfig({ WORKER_NICE: '-1' })).toThrow(/WORKER_NICE/);
    expect(() => botConfig({ WORKER_NICE: 'low' })).toThrow(/WORKER_NICE/);
    expect(() => botConfig({ WORKER_NICE: '0' })).not.toThrow();
    expect(parseLogLevel('DEBUG')).toBe('debug');
    expect(parseLogLevel('loud')).toBe('info');
    // A setting that is not a level is named, as every other bad setting is, not read as info.
    expect(logLevel({ LOG_LEVEL: 'Debug' })).toBe('debug');
    expect(() => logLevel({ LOG_LEVEL: 'verbose' })).toThrow(/^LOG_LEVEL must be error, warn, info, debug, not "verbose"$/);
    expect(() => logFor({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL/);
  });

  it('reads the grace of a stop, the health listener and the log format, and names the variable of a bad value', () => {
    expect(DEFAULT_SHUTDOWN_GRACE_MS).toBeLessThan(10_000);
    expect(shutdownGraceMs({ SHUTDOWN_GRACE_MS: '2500' })).toBe(2500);
    expect(() => shutdownGraceMs({ SHUTDOWN_GRACE_MS: '8s' })).toThrow(/SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 100, not "8s"/);
    expect(() => shutdownGraceMs({ SHUTDOWN_GRACE_MS: '50' })).toThrow(/SHUTDOWN_GRACE_MS/);
    expect(metricsAddress({ METRICS_PORT: '9464' })).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(metricsAddress({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' })).toEqual({ port: 0, host: '0.0.0.0' });
    expect(() => metricsAddress({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT must be a port number \(0 to 65535\), not "70000"/);
    expect(logFormat({ LOG_FORMAT: 'JSON' })).toBe('json');
    expect(() => logFormat({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be text or json, not "xml"/);
  });

  it('reads the analysis time limit and number of workers, and names the variable of a bad value', () => {
    expect(botConfig({ ANALYSIS_LIMIT_SECONDS: '2.5', ANALYSIS_WORKERS: '3' })).toEqual({ idleMs: DEFAULT_IDLE_MS, analysisLimitMs: 2500, analysisWorkers: 3 });
    expect(() => botConfig({ ANALYSIS_LIMIT_SECONDS: '0' })).toThrow(/ANALYSIS_LIMIT_SECONDS must be a positive number of seconds, not "0"/);
    expect(() => botConfig({ ANALYSIS_LIMIT_SECONDS: 'long' })).toThrow(/ANALYSIS_LIMIT_SECONDS/);
    expect(() => botConfig({ ANALYSIS_WORKERS: '0' })).toThrow(/ANALYSIS_WORKERS must be a whole number from 1, not "0"/);
    expect(() => botConfig({ ANALYSIS_WORKERS: '1.5' })).toThrow(/ANALYSIS_WORKERS/);
    // Reflection: 0 turns it off; anything but a whole number is refused by name.
    expect(botConfig({ REFLECT_EVERY: '0' })).toEqual({ idleMs: DEFAULT_IDLE_MS, reflectEvery: 0 });
    expect(botConfig({ REFLECT_EVERY: '50' })).toEqual({ idleMs: DEFAULT_IDLE_MS, reflectEvery: 50 });
    expect(() => botConfig({ REFLECT_EVERY: '-1' })).toThrow(/REFLECT_EVERY must be a whole number of games \(0: never\), not "-1"/);
    expect(() => botConfig({ REFLECT_EVERY: 'often' })).toThrow(/REFLECT_EVERY/);
  });

  it('the entry point explains its usage and what deploy needs', async () => {
    const usage = capture();
    expect(await main(['dance'], {}, usage.io)).toBe(2);
    expect(usage.text()).toContain('npm run deploy');
    const deploy = capture();
    expect(await main(['deploy'], { DISCORD_TOKEN: 'x' }, deploy.io)).toBe(1);
    expect(deploy.text()).toContain('Could not register the commands: DISCORD_CLIENT_ID is not set');
  });
});
