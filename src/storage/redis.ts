/**
 * Opening the Redis back end: @keyv/redis over a node-redis client that we build ourselves,
 * because its defaults are wrong for a bot that must stay up while Redis is down:
 *
 * - An 'error' event on the client with no listener kills the process. We listen from the
 *   start, and log only changes of state (down once, back once), not every reconnect attempt.
 * - `connect()` never settles while the server is unreachable (the client keeps retrying), so
 *   opening waits for it at most `connectWaitMs` and then carries on, reconnecting behind.
 * - With the offline queue on, a command sent while disconnected waits, unbounded, for the
 *   connection to return. It is off (`disableOfflineQueue`), and every operation also checks
 *   `isReady` first (a MULTI, which @keyv/redis uses to delete many keys, skips that check in
 *   the client) and runs under a time limit, so callers get `StorageUnavailable` at once.
 * - Each connection attempt gives up after `connectTimeoutMs` (a silent host would otherwise
 *   hold it for the OS's TCP timeout), and retries back off up to `maxReconnectDelayMs`.
 * - Listing: @keyv/redis's `iterator` runs `SCAN` with the default `COUNT` of 10, and SCAN
 *   walks the whole keyspace whatever the MATCH, so listing one guild's library would take a
 *   round trip per ten keys of every guild. We run the same `SCAN … MATCH … TYPE string` with
 *   `COUNT 1000`, then `MGET` each page.
 */
import KeyvRedis, { createClient } from '@keyv/redis';
import { KeyvBackend, type Backend, type ListingAdapter } from './backend.ts';
import { messageOf, type StorageLog } from './errors.ts';
import { SEPARATOR } from './keys.ts';

/** Keys SCAN looks at per round trip. */
const SCAN_COUNT = 1000;

export interface RedisBackendOptions {
  readonly url: string;
  readonly namespace: string;
  readonly log: StorageLog;
  /** Limit for one operation (default 2000 ms). */
  readonly opTimeoutMs?: number;
  /** See KeyvBackendOptions. */
  readonly writeSettleMs?: number;
  /** Limit for one connection attempt (default 1000 ms). */
  readonly connectTimeoutMs?: number;
  /** How long opening waits for the first connection before going on without it (default 2000 ms). */
  readonly connectWaitMs?: number;
  /** Longest pause between reconnection attempts (default 1000 ms). */
  readonly maxReconnectDelayMs?: number;
}

export async function openRedisBackend(options: RedisBackendOptions): Promise<Backend> {
  const { log } = options;
  const maxDelay = options.maxReconnectDelayMs ?? 1000;
  let closing = false;
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? 1000,
      reconnectStrategy: (retries: number) => (closing ? false : Math.min(50 * 2 ** retries, maxDelay)),
    },
  });

  const where = redactedUrl(options.url);
  let state: 'connecting' | 'up' | 'down' = 'connecting';
  client.on('error', (e: unknown) => {
    if (closing || state === 'down') return;
    state = 'down';
    log.warn('redis is unreachable; operations fail until it is back', { url: where, error: messageOf(e) });
  });
  // Whether this namespace held anything, as last seen: Redis restarted without persistence
  // comes back empty, and the bot would carry on as if its servers had taught it nothing.
  let heldData = false;
  const holdsData = async (): Promise<boolean> => {
    for await (const keys of client.scanIterator({ MATCH: `${options.namespace}${SEPARATOR}*`, COUNT: SCAN_COUNT, TYPE: 'string' })) {
      if (keys.length > 0) return true;
    }
    return false;
  };
  client.on('ready', () => {
    const wasDown = state === 'down';
    if (wasDown) log.info('redis is back', { url: where });
    state = 'up';
    void holdsData().then(
      (now) => {
        if (wasDown && heldData && !now) {
          log.error('REDIS CAME BACK EMPTY: everything this bot stored under its namespace is gone (was Redis restarted without persistence?); servers start again from the rule of the game', { url: where, namespace: options.namespace });
        }
        // A write may have landed while the scan ran; it counts too.
        heldData = now || (!wasDown && heldData);
      },
      () => undefined,
    );
  });

  const adapter = new KeyvRedis(client, { throwOnConnectError: true, throwOnErrors: true });
  // Errors are logged by the client listener above and surface as StorageUnavailable.
  adapter.on('error', () => undefined);

  // Settles on the first connection (or when closed while still trying); errors arrive as events.
  const connected = client.connect().then(
    () => true,
    () => false,
  );
  const reached = await settlesWithin(connected, options.connectWaitMs ?? 2000);
  if (!reached) {
    log.warn('redis did not answer at start; going on without it and retrying', { url: where });
    state = 'down';
  }

  return new KeyvBackend({
    kind: 'redis',
    namespace: options.namespace,
    adapter: adapter as unknown as ListingAdapter,
    opTimeoutMs: options.opTimeoutMs ?? 2000,
    onWritten: () => void (heldData = true),
    ...(options.writeSettleMs !== undefined ? { writeSettleMs: options.writeSettleMs } : {}),
    isReady: () => client.isReady,
    ping: async () => {
      await client.ping();
    },
    list: async function* (namespace) {
      const prefix = `${namespace}${SEPARATOR}`;
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: SCAN_COUNT, TYPE: 'string' })) {
        if (keys.length === 0) continue;
        const values = await client.mGet(keys);
        for (const [i, key] of keys.entries()) yield [key.slice(prefix.length), values[i] ?? undefined];
      }
    },
    listKeys: async function* (namespace) {
      const prefix = `${namespace}${SEPARATOR}`;
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: SCAN_COUNT, TYPE: 'string' })) {
        for (const key of keys) yield key.slice(prefix.length);
      }
    },
    rename: async (from, to) => {
      const prefix = `${options.namespace}${SEPARATOR}`;
      try {
        await client.rename(`${prefix}${from}`, `${prefix}${to}`);
        return true;
      } catch (e) {
        // RENAME of a key that is not there is an error reply, not a failure of the store.
        if (e instanceof Error && /no such key/i.test(e.message)) return false;
        throw e;
      }
    },
    release: async () => {
      closing = true;
      // A connection still being made after this must not hold the process open.
      client.unref();
      // Operations under way have finished (the backend waited), so nothing is lost by
      // destroying rather than QUIT-ting, and destroy cannot hang on a dead server.
      if (client.isOpen) client.destroy();
      await connected;
    },
  });
}

/** Whether `promise` settles within `ms`; the timer is cleared either way. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The URL without its password, for logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable REDIS_URL)';
  }
}
