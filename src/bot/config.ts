/**
 * The settings the bot reads from its environment (process.env, filled from `.env` by
 * dotenv in bin/start.mjs), besides Discord's (src/discord/client.ts) and storage's
 * (src/storage/index.ts). Empty values count as unset, as everywhere in this project.
 *
 * - `GAME_IDLE_HOURS`: how long a game may wait for a move before it expires (24; decimals
 *   allowed, e.g. 0.5).
 * - `GOMOKU_SEED`: fixes the service's generator (game seeds, random colours, game ids), for
 *   tests and reproducible games; random when unset.
 * - `LOG_LEVEL`: error, warn, info (default; warn in the terminal game) or debug.
 * - `LOG_FORMAT`: `text` (default: a line a person reads) or `json` (one JSON object a line,
 *   for a log pipeline; jsonLog.ts).
 * - `ANALYSIS_LIMIT_SECONDS`: how long the analysis of a lost game may run in its worker
 *   before it is given up and the game teaches nothing (20; decimals allowed).
 * - `ANALYSIS_WORKERS`: worker threads for those analyses at most (2).
 * - `REFLECT_EVERY`: every this many analysed games of a server, the bot walks back again
 *   through its finished games with what it has learned since (10; 0 turns it off;
 *   reflection.ts).
 * - `PLAY_WORKERS`: worker threads for the bot's moves, hints, recognition and pictures (2), so
 *   the thread that answers Discord never waits on them (thinker.ts). The terminal game thinks
 *   in its own thread.
 * - `WORKER_NICE`: the nice value those worker threads run at on Linux (10), so the thread that
 *   answers Discord wins a busy core (threadPriority.ts); 0 leaves them at its priority.
 * - `RECORDS_KEPT`: finished games kept as records per server (1000), and as many games between
 *   members; older ones are folded into counters (recordSummary.ts), so /stats, /games and
 *   /replay cost the same however long a server plays.
 * - `STARTER_LIBRARY`: subgoals a new server starts with, a file of assets/libraries/
 *   (`paper`: the paper's six); none by default (starter.ts).
 */
import { openStorage, type OpenStorageOptions, type Storage, type StorageEnv } from '../storage/index.ts';
import { createJsonLog } from './jsonLog.ts';
import { createLog, LOG_LEVELS, parseLogLevel, type BotLog, type LogLevel } from './log.ts';
import { botCodecs, type BotSchema } from './records.ts';
import { DEFAULT_IDLE_MS, GameService, type ServiceOptions } from './service.ts';
import type { BotStore } from './store.ts';
import { loadStarterLibrary, type StarterLibrary } from './starter.ts';
import { DEFAULT_PLAY_WORKERS } from './playPool.ts';
import { workerNice, type NiceEnv } from './threadPriority.ts';

export interface BotEnv extends StorageEnv, NiceEnv {
  readonly GAME_IDLE_HOURS?: string;
  readonly GOMOKU_SEED?: string;
  readonly LOG_LEVEL?: string;
  readonly LOG_FORMAT?: string;
  readonly ANALYSIS_LIMIT_SECONDS?: string;
  readonly ANALYSIS_WORKERS?: string;
  readonly REFLECT_EVERY?: string;
  readonly RECORDS_KEPT?: string;
  readonly STARTER_LIBRARY?: string;
  readonly PLAY_WORKERS?: string;
  /** Set by discord.js's ShardingManager in a shard's process: the shard ids it runs. */
  readonly SHARDS?: string;
}

export interface BotConfig {
  readonly idleMs: number;
  readonly seed?: number;
  /** Set when the environment sets it; the service's default otherwise. */
  readonly analysisLimitMs?: number;
  readonly analysisWorkers?: number;
  readonly reflectEvery?: number;
  readonly recordsKept?: number;
  readonly starter?: StarterLibrary;
  readonly playWorkers?: number;
}

/** Reads the settings; throws a TypeError naming the variable when one cannot be used. */
export function botConfig(env: BotEnv): BotConfig {
  const hours = nonEmpty(env.GAME_IDLE_HOURS);
  let idleMs = DEFAULT_IDLE_MS;
  if (hours !== undefined) {
    const h = Number(hours);
    if (!Number.isFinite(h) || h <= 0) throw new TypeError(`GAME_IDLE_HOURS must be a positive number of hours, not "${hours}"`);
    idleMs = h * 3_600_000;
  }
  const seedText = nonEmpty(env.GOMOKU_SEED);
  if (seedText !== undefined && !/^\d{1,9}$/.test(seedText)) throw new TypeError(`GOMOKU_SEED must be a whole number, not "${seedText}"`);
  const limitText = nonEmpty(env.ANALYSIS_LIMIT_SECONDS);
  let analysisLimitMs: number | undefined;
  if (limitText !== undefined) {
    const s = Number(limitText);
    if (!Number.isFinite(s) || s <= 0) throw new TypeError(`ANALYSIS_LIMIT_SECONDS must be a positive number of seconds, not "${limitText}"`);
    analysisLimitMs = Math.round(s * 1000);
  }
  const workersText = nonEmpty(env.ANALYSIS_WORKERS);
  if (workersText !== undefined && !/^[1-9]\d{0,2}$/.test(workersText)) throw new TypeError(`ANALYSIS_WORKERS must be a whole number from 1, not "${workersText}"`);
  const reflectText = nonEmpty(env.REFLECT_EVERY);
  if (reflectText !== undefined && !/^\d{1,6}$/.test(reflectText)) throw new TypeError(`REFLECT_EVERY must be a whole number of games (0: never), not "${reflectText}"`);
  const playText = nonEmpty(env.PLAY_WORKERS);
  if (playText !== undefined && !/^[1-9]\d{0,2}$/.test(playText)) throw new TypeError(`PLAY_WORKERS must be a whole number from 1, not "${playText}"`);
  workerNice(env);
  const keptText = nonEmpty(env.RECORDS_KEPT);
  if (keptText !== undefined && !/^[1-9]\d{0,6}$/.test(keptText)) throw new TypeError(`RECORDS_KEPT must be a whole number from 1, not "${keptText}"`);
  const starterName = nonEmpty(env.STARTER_LIBRARY);
  const starter = starterName === undefined ? undefined : loadStarterLibrary(starterName);
  return {
    idleMs,
    ...(keptText !== undefined ? { recordsKept: Number(keptText) } : {}),
    ...(starter !== undefined ? { starter } : {}),
    ...(playText !== undefined ? { playWorkers: Number(playText) } : {}),
    ...(seedText !== undefined ? { seed: Number(seedText) } : {}),
    ...(analysisLimitMs !== undefined ? { analysisLimitMs } : {}),
    ...(workersText !== undefined ? { analysisWorkers: Number(workersText) } : {}),
    ...(reflectText !== undefined ? { reflectEvery: Number(reflectText) } : {}),
  };
}

/** `LOG_FORMAT`; throws a TypeError naming the variable when it is neither text nor json. */
export function logFormat(env: BotEnv): 'text' | 'json' {
  const format = nonEmpty(env.LOG_FORMAT)?.toLowerCase() ?? 'text';
  if (format !== 'text' && format !== 'json') throw new TypeError(`LOG_FORMAT must be text or json, not "${env.LOG_FORMAT}"`);
  return format;
}

/** `LOG_LEVEL` (info when unset); throws a TypeError naming the variable when it is not a level. */
export function logLevel(env: BotEnv): LogLevel {
  const text = nonEmpty(env.LOG_LEVEL);
  if (text !== undefined && !(LOG_LEVELS as readonly string[]).includes(text.toLowerCase())) {
    throw new TypeError(`LOG_LEVEL must be ${LOG_LEVELS.join(', ')}, not "${text}"`);
  }
  return parseLogLevel(text);
}

/** The logger the settings ask for; throws a TypeError naming LOG_FORMAT or LOG_LEVEL when one cannot be used. */
export function logFor(env: BotEnv): BotLog {
  const level = logLevel(env);
  return logFormat(env) === 'json' ? createJsonLog(level) : createLog(level);
}

/** Storage with the bot's record types: Redis when `REDIS_URL` is set, else files under `DATA_DIR`. */
export function openBotStorage(env: BotEnv, log: BotLog, options: OpenStorageOptions = {}): Promise<Storage<BotSchema>> {
  // Shards share DATA_DIR, where writes waiting for Redis are kept: each keeps its own file.
  const shards = env.SHARDS?.trim();
  return openStorage(env, botCodecs, { ...(shards ? { pendingTag: `shard-${shards}` } : {}), ...options, log });
}

/** The service over that storage, with the environment's settings; `offThread`: the bot's thinking in play workers (the Discord bot); `onAnalysed`: told of each analysis (metrics). */
export function serviceFor(env: BotEnv, storage: BotStore, log: BotLog, options: { readonly offThread?: boolean; readonly onAnalysed?: ServiceOptions['onAnalysed'] } = {}): GameService {
  const config = botConfig(env);
  return new GameService({
    store: storage,
    idleMs: config.idleMs,
    log,
    ...(options.offThread === true ? { playWorkers: config.playWorkers ?? DEFAULT_PLAY_WORKERS } : {}),
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
    ...(config.analysisLimitMs !== undefined ? { analysisLimitMs: config.analysisLimitMs } : {}),
    ...(config.analysisWorkers !== undefined ? { analysisWorkers: config.analysisWorkers } : {}),
    ...(config.reflectEvery !== undefined ? { reflectEvery: config.reflectEvery } : {}),
    ...(config.recordsKept !== undefined ? { recordsKept: config.recordsKept } : {}),
    ...(options.onAnalysed !== undefined ? { onAnalysed: options.onAnalysed } : {}),
    ...(config.starter !== undefined ? { starter: config.starter } : {}),
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  const t = value?.trim();
  return t === undefined || t === '' ? undefined : t;
}
