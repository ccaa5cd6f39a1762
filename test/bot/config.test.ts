// The bot's settings: .env.example names every variable the bot reads and, copied as it is,
// starts the bot with the defaults; bad values are refused with the variable's name; and the
// entry point's own answers (usage, deploy without an application id).
import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { botConfig } from '../../src/bot/config.ts';
import { parseLogLevel } from '../../src/bot/log.ts';
import { DEFAULT_IDLE_MS } from '../../src/bot/service.ts';
import type { CliIO } from '../../src/cli/command.ts';
import { discordApiBase } from '../../src/discord/client.ts';
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
      ['ANALYSIS_LIMIT_SECONDS', 'ANALYSIS_WORKERS', 'DATA_DIR', 'DISCORD_API_URL', 'DISCORD_CLIENT_ID', 'DISCORD_GUILD_ID', 'DISCORD_TOKEN', 'EVENT_LOOP_REPORT_MS', 'GAME_IDLE_HOURS', 'GOMOKU_SEED', 'LOG_LEVEL', 'PLAY_WORKERS', 'RECORDS_KEPT', 'REDIS_URL', 'SHARD_COUNT', 'SHARD_SPAWN_DELAY_MS', 'STORAGE_NAMESPACE'].sort(),
    );
    expect(runsShards(example)).toBe(false);
    expect(loopReportMs(example)).toBeUndefined();
    expect(() => botConfig({ PLAY_WORKERS: 'many' })).toThrow(/PLAY_WORKERS must be a whole number from 1, not "many"/);
    expect(botConfig({ PLAY_WORKERS: '3' })).toEqual({ idleMs: DEFAULT_IDLE_MS, playWorkers: 3 });
    expect(() => shardSettings({ SHARD_COUNT: '2', REDIS_URL: 'redis://x', SHARD_SPAWN_DELAY_MS: 'soon' })).toThrow(/SHARD_SPAWN_DELAY_MS must be a whole number/);
    expect(() => shardSettings({ SHARD_COUNT: 'two', REDIS_URL: 'redis://x' })).toThrow(/SHARD_COUNT must be a whole number from 1, or auto, not "two"/);
    expect(shardSettings({ SHARD_COUNT: 'auto', REDIS_URL: 'redis://x' })).toEqual({ count: 'auto', delayMs: 5500 });
    expect(botConfig(example)).toEqual({ idleMs: DEFAULT_IDLE_MS });
    expect(storageConfig(example)).toMatchObject({ kind: 'file', namespace: 'gomoku' });
    expect(discordApiBase(example)).toBeUndefined();
    expect(parseLogLevel(example.LOG_LEVEL)).toBe('info');
  });

  it('reads the idle time and the seed, and names the variable of a bad value', () => {
    expect(botConfig({ GAME_IDLE_HOURS: '0.5', GOMOKU_SEED: '42' })).toEqual({ idleMs: 1_800_000, seed: 42 });
    expect(() => botConfig({ GAME_IDLE_HOURS: 'soon' })).toThrow(/GAME_IDLE_HOURS must be a positive number of hours, not "soon"/);
    expect(() => botConfig({ GAME_IDLE_HOURS: '-1' })).toThrow(/GAME_IDLE_HOURS/);
    expect(() => botConfig({ GOMOKU_SEED: '1.5' })).toThrow(/GOMOKU_SEED must be a whole number/);
    expect(parseLogLevel('DEBUG')).toBe('debug');
    expect(parseLogLevel('loud')).toBe('info');
  });

  it('reads the analysis time limit and number of workers, and names the variable of a bad value', () => {
    expect(botConfig({ ANALYSIS_LIMIT_SECONDS: '2.5', ANALYSIS_WORKERS: '3' })).toEqual({ idleMs: DEFAULT_IDLE_MS, analysisLimitMs: 2500, analysisWorkers: 3 });
    expect(() => botConfig({ ANALYSIS_LIMIT_SECONDS: '0' })).toThrow(/ANALYSIS_LIMIT_SECONDS must be a positive number of seconds, not "0"/);
    expect(() => botConfig({ ANALYSIS_LIMIT_SECONDS: 'long' })).toThrow(/ANALYSIS_LIMIT_SECONDS/);
    expect(() => botConfig({ ANALYSIS_WORKERS: '0' })).toThrow(/ANALYSIS_WORKERS must be a whole number from 1, not "0"/);
    expect(() => botConfig({ ANALYSIS_WORKERS: '1.5' })).toThrow(/ANALYSIS_WORKERS/);
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
