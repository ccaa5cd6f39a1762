/**
 * Storage: what each Discord server (guild) remembers — its library of learned subgoals, its
 * games in progress, its finished game records and its stats. An edge module: it may import
 * keyv; the game core (src/rules/ to src/gomocup/) never imports it.
 *
 * ## Back ends
 *
 * `openStorage(env, codecs)` picks one:
 * - `REDIS_URL` set and non-empty: Keyv over @keyv/redis.
 * - otherwise: Keyv over `KeyvFileStore`, files under `DATA_DIR` (default `./data`, resolved
 *   from the working folder; an empty value counts as unset), so the bot runs with no Redis.
 * Both are the same Keyv API under one `Backend` (backend.ts); the same contract tests run
 * against both (test/storage/contract.ts).
 *
 * ## Key layout
 *
 * Parts joined by `::`. `<ns>` is `STORAGE_NAMESPACE` (default `gomoku`; letters, digits,
 * `_ . -`), `<guild>` the guild id and `<key>` the record key, both percent-encoded
 * (`encodeURIComponent`, and `*`), so neither can hold `::` or a glob character.
 *
 *     <ns>::<guild>::library::<key>   one learned subgoal per key (two analyses finishing
 *                                     at once write two keys, so neither is lost)
 *     <ns>::<guild>::games::<key>     a game in progress (e.g. per channel)
 *     <ns>::<guild>::records::<key>   a finished game record
 *     <ns>::<guild>::stats::<key>     stats
 *     <ns>::<guild>::tombstones::<key> what is left of a game that expired (per member per channel)
 *     <ns>::<guild>::versions::<key>  a stamp changed on every change of what it names (`library`),
 *                                     so another process can tell with one read that its copy is old
 *     <ns>::<guild>::summaries::<key> what older records were folded into (`records`)
 *
 * Redis holds these as string keys. The file store holds `<ns>::a::b::c` as the file
 * `DATA_DIR/<ns>/a/b/c.json`, each part made file-name-safe (fileStore.ts). Listing a
 * collection or a guild reads only its keys: `SCAN <cursor> MATCH <ns>::<guild>::library::*
 * COUNT 1000 TYPE string` then `MGET` in Redis (never `KEYS`), one folder in the file store. Clearing a guild deletes the
 * keys matching `<ns>::<guild>::*` — the separator after the encoded id keeps guild `12` from
 * matching guild `123`.
 *
 * ## Record format
 *
 * The stored string is Keyv's wrapper, written with plain JSON:
 *
 *     {"value":{"v":<format version>,"data":<codec.encode(record)>}}
 *
 * `v` is the collection codec's `version`. Reading checks the JSON, the wrapper, the envelope,
 * the version and then `codec.decode`; a record failing any of these is logged through the
 * injected `StorageLog` with a Problem code (`bad-json`, `bad-wrapper`, `bad-envelope`,
 * `wrong-version`, `decode-failed`/the codec's own, `decode-threw`, `bad-key`) and skipped:
 * never a crash, never deleted. A file-store file is `{"key":"<full key>","value":"<that
 * string>"}`.
 *
 * Writes that failed while storage was unavailable wait in `DATA_DIR/pending-<ns>.json`
 * (`{"v":1,"writes":[{guildId,collection,key,envelope,since}]}`), in both modes.
 *
 * ## Failure
 *
 * Any operation that cannot reach the store — Redis down or not yet connected, the disk
 * failing, an operation past its limit (2 s Redis, 5 s file), storage closed — rejects with
 * `StorageUnavailable`. A write past its limit is waited for four times as long again before
 * it is given up, since it may still land; one given up then, or cut off on its way, is
 * `uncertain` (it may have landed), every other failure wrote nothing; the Discord layer turns that into "storage unavailable, try again".
 * The Redis client never crashes the process with an unhandled 'error', opening does not
 * hang on a dead server (it goes on after `connectWaitMs` and keeps reconnecting), and while
 * disconnected operations fail at once instead of queueing (redis.ts). Writes that must not
 * be lost go through `storage.writer` (retry.ts), which queues, spills and retries them.
 *
 * ## Decisions
 *
 * - Failures are a thrown `StorageUnavailable`, not a `Result`: they are not about the
 *   caller's input, every call can meet one, and the Discord layer handles them in one place.
 * - Keyv's TTLs are not used; nothing stored expires.
 * - Clearing a guild lists then deletes; a write racing with it may survive. Fine for a reset
 *   command; it is not a transaction.
 * - The file store is for one process; a second process on the same folder gets atomic
 *   files but no ordering between the two.
 */
import { join, resolve } from 'node:path';
import type { Backend, BackendKind } from './backend.ts';
import { consoleLog, type StorageLog } from './errors.ts';
import { openFileBackend } from './file.ts';
import { checkWritable, removeLeftoverTemps } from './hygiene.ts';
import { shownInput } from '../rules/result.ts';
import { isValidNamespace } from './keys.ts';
import { Memory, type Codecs, type GuildMemory, type Schema } from './memory.ts';
import { openRedisBackend } from './redis.ts';
import { RetryingWriter } from './retry.ts';

export { StorageUnavailable, isStorageUnavailable, consoleLog, type StorageLog, type LogDetail } from './errors.ts';
export { COLLECTIONS, collectionPrefix, type CollectionName } from './keys.ts';
export {
  Memory,
  openEnvelope,
  type Codec,
  type Codecs,
  type Collection,
  type Entry,
  type Envelope,
  type GuildMemory,
  type Schema,
} from './memory.ts';
export { RetryingWriter, type PendingWrite, type PutOutcome, type RetryingWriterOptions } from './retry.ts';
export { Unreadable, type Backend, type BackendKind } from './backend.ts';
export { openFileBackend, type FileBackendOptions } from './file.ts';
export { openRedisBackend, type RedisBackendOptions } from './redis.ts';
export { KeyvFileStore, type KeyvFileStoreOptions } from './fileStore.ts';
export { SharedCollection } from './shared.ts';

/** The environment variables storage reads (process.env fits). */
export interface StorageEnv {
  readonly REDIS_URL?: string;
  readonly DATA_DIR?: string;
  readonly STORAGE_NAMESPACE?: string;
}

export const DEFAULT_DATA_DIR = './data';
export const DEFAULT_NAMESPACE = 'gomoku';

export type StorageConfig =
  | { readonly kind: 'redis'; readonly url: string; readonly dataDir: string; readonly namespace: string }
  | { readonly kind: 'file'; readonly dataDir: string; readonly namespace: string };

/** Reads the environment; throws on a namespace that cannot be used in keys and folder names. */
export function storageConfig(env: StorageEnv): StorageConfig {
  const dataDir = resolve(nonEmpty(env.DATA_DIR) ?? DEFAULT_DATA_DIR);
  const namespace = nonEmpty(env.STORAGE_NAMESPACE) ?? DEFAULT_NAMESPACE;
  if (!isValidNamespace(namespace)) {
    throw new TypeError(`STORAGE_NAMESPACE must be 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit`);
  }
  const url = nonEmpty(env.REDIS_URL);
  if (url !== undefined) checkRedisUrl(url);
  return url === undefined ? { kind: 'file', dataDir, namespace } : { kind: 'redis', url, dataDir, namespace };
}

/** A REDIS_URL that is no Redis URL is named as such, not left to the client's bare "Invalid URL". */
function checkRedisUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new TypeError(`REDIS_URL must be a Redis URL like redis://127.0.0.1:6379, not "${shownInput(url, 60)}"`);
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new TypeError(`REDIS_URL must be a Redis URL (redis:// or rediss://), not one with ${shownInput(protocol, 20)}`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

export interface OpenStorageOptions {
  readonly log?: StorageLog;
  /** Limit for one operation (default 2000 ms Redis, 5000 ms file). */
  readonly opTimeoutMs?: number;
  /** How much longer a write past that limit is waited for before it is uncertain (default 4 × the limit). */
  readonly writeSettleMs?: number;
  /** Redis: how long opening waits for the first connection (default 2000 ms). */
  readonly connectWaitMs?: number;
  /** Redis: limit for one connection attempt (default 1000 ms). */
  readonly connectTimeoutMs?: number;
  /** Redis: longest pause between reconnection attempts (default 1000 ms). */
  readonly maxReconnectDelayMs?: number;
  /** The retrying writer's backoff and bound; see retry.ts. */
  readonly retry?: { readonly baseDelayMs?: number; readonly maxDelayMs?: number; readonly maxPending?: number };
  /** fsync file writes (default true). */
  readonly durable?: boolean;
  /**
   * Names this process's pending file among several processes on one DATA_DIR (a shard:
   * `pending-<ns>-<tag>.json`): a pending file is replayed and rewritten by one process only.
   */
  readonly pendingTag?: string;
}

export interface Storage<S extends Schema> {
  readonly kind: BackendKind;
  readonly config: StorageConfig;
  readonly backend: Backend;
  readonly memory: Memory<S>;
  /** For writes that must survive an outage (analysis results). */
  readonly writer: RetryingWriter<S>;
  /** Shorthand for `memory.guild(guildId)`. */
  guild(guildId: string): GuildMemory<S>;
  /** Resolves when the store answers; else `StorageUnavailable`. */
  ping(): Promise<void>;
  /** Stops retrying (pending writes stay on disk), then closes the store. Idempotent. */
  close(): Promise<void>;
}

export async function openStorage<S extends Schema>(
  env: StorageEnv,
  codecs: Codecs<S>,
  options: OpenStorageOptions = {},
): Promise<Storage<S>> {
  const config = storageConfig(env);
  const log = options.log ?? consoleLog;
  const backend = await openBackend(config, log, options);
  await removeLeftoverTemps(config.dataDir, log);
  await checkWritable(config.dataDir, log, config.kind === 'file' ? 'nothing can be saved' : 'writes waiting for Redis cannot be kept on disk');
  const memory = new Memory(backend, codecs, log);
  let writer: RetryingWriter<S>;
  try {
    writer = await RetryingWriter.open(memory, {
      pendingFile: join(config.dataDir, `pending-${config.namespace}${options.pendingTag === undefined ? '' : `-${options.pendingTag.replace(/[^a-zA-Z0-9-]/g, '_')}`}.json`),
      log,
      durable: options.durable,
      ...options.retry,
    });
  } catch (e) {
    await backend.close();
    throw e;
  }
  let closing: Promise<void> | undefined;
  return {
    kind: backend.kind,
    config,
    backend,
    memory,
    writer,
    guild: (guildId) => memory.guild(guildId),
    ping: () => backend.ping(),
    close: () => {
      closing ??= writer.close().then(() => backend.close());
      return closing;
    },
  };
}

/**
 * Storage without the retrying writer, for a tool run beside the bot (`gomoku memory`): its
 * writes either land or fail, and it never touches the bot's pending file (which is for one
 * process: a second one would replay, and rewrite, the bot's queued writes).
 */
export async function openMemory<S extends Schema>(
  env: StorageEnv,
  codecs: Codecs<S>,
  options: OpenStorageOptions = {},
): Promise<{ readonly config: StorageConfig; readonly memory: Memory<S>; close(): Promise<void> }> {
  const config = storageConfig(env);
  const log = options.log ?? consoleLog;
  const backend = await openBackend(config, log, options);
  return { config, memory: new Memory(backend, codecs, log), close: () => backend.close() };
}

function openBackend(config: StorageConfig, log: StorageLog, options: OpenStorageOptions): Promise<Backend> {
  return config.kind === 'redis'
    ? openRedisBackend({
        url: config.url,
        namespace: config.namespace,
        log,
        opTimeoutMs: options.opTimeoutMs,
        writeSettleMs: options.writeSettleMs,
        connectWaitMs: options.connectWaitMs,
        connectTimeoutMs: options.connectTimeoutMs,
        maxReconnectDelayMs: options.maxReconnectDelayMs,
      })
    : openFileBackend({
        dir: config.dataDir,
        namespace: config.namespace,
        opTimeoutMs: options.opTimeoutMs,
        writeSettleMs: options.writeSettleMs,
        durable: options.durable,
      });
}
