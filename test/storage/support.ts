// Shared pieces of the storage tests: codecs for stand-in record types, a logger that keeps
// what it was told, temporary folders, unique namespaces, a redis-server of our own, and
// waiting for something that happens in the background.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { err, ok, problem, type Result } from '../../src/rules/result.ts';
import type { Codec, Codecs, LogDetail, StorageLog } from '../../src/storage/index.ts';

const run = promisify(execFile);

/** The Redis the suite runs against; it must be up (see the message in `requireRedis`). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

// Stand-ins for the record types other modules will define.
export interface Subgoal {
  readonly description: string;
  readonly moves: number;
}
export interface Game {
  readonly moves: readonly number[];
  readonly toPlay: 'black' | 'white';
}
export interface GameRecord {
  readonly winner: 'black' | 'white' | null;
  readonly moves: readonly number[];
}
export interface Stats {
  readonly played: number;
  readonly won: number;
}
export interface TestSchema {
  readonly library: Subgoal;
  readonly games: Game;
  readonly records: GameRecord;
  readonly stats: Stats;
  readonly tombstones: Tombstone;
  // The bot's community collections (issue 28); the storage layer treats every collection alike.
  readonly versus: Tombstone;
  readonly versusRecords: Tombstone;
  readonly ratings: Tombstone;
  readonly settings: Tombstone;
  readonly versions: Version;
  readonly summaries: Version;
}

export interface Tombstone {
  readonly at: number;
}

export interface Version {
  readonly n: number;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isMoves(x: unknown): x is number[] {
  return Array.isArray(x) && x.every((m) => Number.isInteger(m));
}

function codec<T>(version: number, check: (raw: Record<string, unknown>) => boolean, make: (raw: Record<string, unknown>) => T): Codec<T> {
  return {
    version,
    encode: (value) => value,
    decode: (raw): Result<T> =>
      isObject(raw) && check(raw) ? ok(make(raw)) : err(problem('decode-failed', 'not the expected shape')),
  };
}

const atCodec = codec<Tombstone>(
  1,
  (r) => typeof r.at === 'number',
  (r) => ({ at: r.at as number }),
);

export const testCodecs: Codecs<TestSchema> = {
  library: codec(
    1,
    (r) => typeof r.description === 'string' && typeof r.moves === 'number',
    (r) => ({ description: r.description as string, moves: r.moves as number }),
  ),
  games: codec(
    2,
    (r) => isMoves(r.moves) && (r.toPlay === 'black' || r.toPlay === 'white'),
    (r) => ({ moves: r.moves as number[], toPlay: r.toPlay as 'black' | 'white' }),
  ),
  records: codec(
    1,
    (r) => isMoves(r.moves) && (r.winner === 'black' || r.winner === 'white' || r.winner === null),
    (r) => ({ winner: r.winner as GameRecord['winner'], moves: r.moves as number[] }),
  ),
  stats: codec(
    1,
    (r) => typeof r.played === 'number' && typeof r.won === 'number',
    (r) => ({ played: r.played as number, won: r.won as number }),
  ),
  tombstones: atCodec,
  versus: atCodec,
  versusRecords: atCodec,
  ratings: atCodec,
  settings: atCodec,
  versions: codec(
    1,
    (r) => typeof r.n === 'number',
    (r) => ({ n: r.n as number }),
  ),
  summaries: codec(
    1,
    (r) => typeof r.n === 'number',
    (r) => ({ n: r.n as number }),
  ),
};

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
  readonly detail: LogDetail;
}

export function collectingLog(): { log: StorageLog; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const keep = (level: LogLine['level']) => (message: string, detail: LogDetail = {}) => void lines.push({ level, message, detail });
  return { log: { info: keep('info'), warn: keep('warn'), error: keep('error') }, lines };
}

/** A namespace no other test run shares. */
export function uniqueNamespace(tag: string): string {
  return `gomoku-test-${tag}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

export async function tempDir(tag: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `gomoku-storage-${tag}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Starts a throwaway redis-server on `port` (no persistence) and waits until it answers. */
export async function startRedisServer(port: number, dir: string): Promise<void> {
  await run('redis-server', [
    '--port', String(port),
    '--bind', '127.0.0.1',
    '--save', '',
    '--appendonly', 'no',
    '--daemonize', 'yes',
    '--dir', dir,
    '--pidfile', join(dir, `redis-${port}.pid`),
    '--logfile', join(dir, `redis-${port}.log`),
  ]);
  for (let i = 0; i < 100; i++) {
    const answer = await run('redis-cli', ['-p', String(port), 'ping']).then(
      (r) => r.stdout.trim(),
      () => '',
    );
    if (answer === 'PONG') return;
    await sleep(20);
  }
  throw new Error(`redis-server on port ${port} did not start`);
}

/** Stops the server started by `startRedisServer`, dropping its data; quiet if it is not running. */
export async function stopRedisServer(port: number): Promise<void> {
  await run('redis-cli', ['-p', String(port), 'shutdown', 'nosave']).catch(() => undefined);
  for (let i = 0; i < 100; i++) {
    const up = await run('redis-cli', ['-p', String(port), 'ping']).then(
      (r) => r.stdout.trim() === 'PONG',
      () => false,
    );
    if (!up) return;
    await sleep(20);
  }
  throw new Error(`redis-server on port ${port} did not stop`);
}

/** Waits until `check` passes (it throws until then), for at most `ms`; then throws its last failure. */
export async function eventually(check: () => void | Promise<void>, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
