/**
 * A `Backend` is one Keyv over one store adapter (@keyv/redis or `KeyvFileStore`), with the
 * three things Keyv leaves to its user made explicit:
 *
 * - Failures. Keyv and @keyv/redis swallow store errors by default (a failed `get` looks like
 *   a missing key). Both are built with `throwOnErrors`, and every operation here turns any
 *   failure, or a run past its time limit, into `StorageUnavailable`.
 * - Serialisation. Keyv wraps a value as `{ value, expires }`; we write that with plain
 *   `JSON.stringify` (Keyv's default serialiser turns strings starting `:base64:` into
 *   Buffers), and reading never throws: text that is not such a wrapper comes back as an
 *   `Unreadable`, so one bad record cannot abort a listing.
 * - Listing. Keyv's own iterator walks the whole namespace; `entries(prefix)` lists one
 *   prefix, through the adapter's `iterator(prefix)` or a back end's own `list` (Redis: see
 *   redis.ts). Never `KEYS`. SCAN may return a key twice, so keys are deduplicated here.
 */
import { Keyv, type DeserializedData, type Deserialize, type KeyvStoreAdapter } from 'keyv';
import { problem, type Problem } from '../rules/result.ts';
import { messageOf, StorageUnavailable } from './errors.ts';
import { FOLDER_IN_PLACE } from './files.ts';
import { SEPARATOR } from './keys.ts';

export type BackendKind = 'redis' | 'file';

/** What a stored value decodes to when it is not a Keyv wrapper we wrote. */
export class Unreadable {
  constructor(readonly problem: Problem) {}
}

/** A store adapter that can list one prefix, as @keyv/redis and `KeyvFileStore` both can. */
export type ListingAdapter = Omit<KeyvStoreAdapter, 'iterator'> & {
  iterator(namespace?: string): AsyncGenerator<[string, unknown], void, unknown>;
};

export interface Backend {
  readonly kind: BackendKind;
  /** Put before every key by the adapter, as `<namespace>::`. */
  readonly namespace: string;
  /** The adapter under Keyv, for tests that must write bytes Keyv would not. */
  readonly adapter: ListingAdapter;
  /** The value stored under `key`, an `Unreadable`, or undefined when there is none. */
  get(key: string): Promise<unknown>;
  /** `value` must be plain JSON data. */
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Moves the value under `from` to `to` as it is, bytes unread; false when there was none. */
  rename(from: string, to: string): Promise<boolean>;
  /** Every `[key, value]` whose key starts with `prefix::`, key without that prefix. */
  entries(prefix: string): Promise<Array<[string, unknown]>>;
  /** Every key of this namespace, without `namespace::`, values unread where the store allows. */
  keys(): Promise<string[]>;
  /** Deletes every key of this namespace; returns how many. For tests and a full reset. */
  clearAll(): Promise<number>;
  /** Resolves when the store answers; else `StorageUnavailable`. */
  ping(): Promise<void>;
  /** Waits for operations under way (each is time-limited), then lets go of the store. */
  close(): Promise<void>;
}

export interface KeyvBackendOptions {
  readonly kind: BackendKind;
  readonly namespace: string;
  readonly adapter: ListingAdapter;
  /** Limit for one get/set/delete; a listing or clear gets five times as long. */
  readonly opTimeoutMs: number;
  /**
   * How much longer a write past its limit is waited for (default four times the limit): a
   * write cannot be called back, so one that is slow is waited out rather than reported
   * failed while it lands. Past this too it is `uncertain`.
   */
  readonly writeSettleMs?: number;
  /** False while the store is known to be out of reach: fail at once rather than wait. */
  readonly isReady?: () => boolean;
  readonly ping: () => Promise<void>;
  /** Yields `[key without 'namespace::', stored value]`; default: the adapter's `iterator`. */
  readonly list?: (namespace: string) => AsyncIterable<[string, unknown]>;
  /** Yields keys without `namespace::` and reads no value; default: `list`'s keys. */
  readonly listKeys?: (namespace: string) => AsyncIterable<string>;
  /** Moves a stored value to another key, full keys without the namespace; false when there was none. */
  readonly rename: (from: string, to: string) => Promise<boolean>;
  /** Releases the store's connection or files. */
  readonly release: () => Promise<void>;
  /** Called after each write that landed. */
  readonly onWritten?: () => void;
}

const DELETE_BATCH = 500;

export class KeyvBackend implements Backend {
  readonly kind: BackendKind;
  readonly namespace: string;
  readonly adapter: ListingAdapter;
  readonly keyv: Keyv;
  readonly #options: KeyvBackendOptions;
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(options: KeyvBackendOptions) {
    this.kind = options.kind;
    this.namespace = options.namespace;
    this.adapter = options.adapter;
    this.#options = options;
    this.keyv = new Keyv(options.adapter as KeyvStoreAdapter, {
      namespace: options.namespace,
      useKeyPrefix: false,
      throwOnErrors: true,
      serialize: serialise,
      // Keyv types its deserialiser generic in the value; ours yields unknown, checked later.
      deserialize: deserialise as Deserialize,
    });
    // Failures reach callers as StorageUnavailable; the event is for listeners we do not have.
    this.keyv.on('error', () => undefined);
  }

  get(key: string): Promise<unknown> {
    return this.#run('get', this.#options.opTimeoutMs, () => this.keyv.get(key));
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.#write('put', this.#options.opTimeoutMs, () => this.keyv.set(key, value));
    this.#options.onWritten?.();
  }

  delete(key: string): Promise<boolean> {
    return this.#write('delete', this.#options.opTimeoutMs, () => this.keyv.delete(key));
  }

  rename(from: string, to: string): Promise<boolean> {
    return this.#write('rename', this.#options.opTimeoutMs, () => this.#options.rename(from, to));
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      try {
        await this.#write('delete', this.#options.opTimeoutMs * 5, () => this.keyv.deleteMany(batch));
      } catch (e) {
        // Batches already deleted stay deleted: after the first, a failure leaves part done.
        if (i > 0 && e instanceof StorageUnavailable && !e.uncertain) throw new StorageUnavailable('delete', `${e.reason}, after ${i} of ${keys.length} keys were deleted`, { cause: e, uncertain: true });
        throw e;
      }
    }
  }

  entries(prefix: string): Promise<Array<[string, unknown]>> {
    return this.#run('list', this.#options.opTimeoutMs * 5, () => this.#list(`${this.namespace}${SEPARATOR}${prefix}`));
  }

  keys(): Promise<string[]> {
    return this.#run('list', this.#options.opTimeoutMs * 5, async () => {
      const found = new Set<string>();
      if (this.#options.listKeys !== undefined) {
        for await (const key of this.#options.listKeys(this.namespace)) found.add(key);
      } else {
        for (const [key] of await this.#list(this.namespace)) found.add(key);
      }
      return [...found];
    });
  }

  async clearAll(): Promise<number> {
    const keys = (await this.#run('list', this.#options.opTimeoutMs * 5, () => this.#list(this.namespace))).map(([key]) => key);
    await this.deleteMany(keys);
    return keys.length;
  }

  ping(): Promise<void> {
    return this.#run('ping', this.#options.opTimeoutMs, this.#options.ping);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#running]);
    await this.#options.release();
  }

  async #list(namespace: string): Promise<Array<[string, unknown]>> {
    const found = new Map<string, unknown>();
    const listing = this.#options.list?.(namespace) ?? this.adapter.iterator(namespace);
    for await (const [key, stored] of listing) {
      if (stored === undefined || stored === null) continue; // removed between SCAN and MGET
      found.set(key, typeof stored === 'string' ? deserialise(stored).value : new Unreadable(notText()));
    }
    return [...found];
  }

  /**
   * Runs a write with a time limit; one past it is waited for `writeSettleMs` more, and only
   * then given up as `uncertain`. A failure is certain (nothing written) when the write never
   * left (not connected, closed) or the store refused it; otherwise it may have landed.
   */
  #write<T>(operation: string, limitMs: number, task: () => Promise<T>): Promise<T> {
    const settleMs = this.#options.writeSettleMs ?? limitMs * 4;
    return this.#run(operation, limitMs + settleMs, async () => {
      try {
        return await task();
      } catch (e) {
        throw new StorageUnavailable(operation, messageOf(e), { cause: e, uncertain: !refusedBeforeWriting(e) });
      }
    }, true);
  }

  /** Runs one operation with a time limit, turning every failure into StorageUnavailable. */
  #run<T>(operation: string, limitMs: number, task: () => Promise<T>, writing = false): Promise<T> {
    if (this.#closed) return Promise.reject(new StorageUnavailable(operation, 'storage is closed'));
    if (this.#options.isReady?.() === false) {
      return Promise.reject(new StorageUnavailable(operation, `the ${this.kind} store is not connected`));
    }
    const running = withTimeLimit(operation, limitMs, task, writing).catch((e: unknown) => {
      throw e instanceof StorageUnavailable ? e : new StorageUnavailable(operation, messageOf(e), { cause: e });
    });
    this.#running.add(running);
    const forget = () => void this.#running.delete(running);
    running.then(forget, forget);
    return running;
  }
}

async function withTimeLimit<T>(operation: string, limitMs: number, task: () => Promise<T>, writing: boolean): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    const why = writing ? `not confirmed after ${limitMs} ms; it may land yet` : `timed out after ${limitMs} ms`;
    timer = setTimeout(() => reject(new StorageUnavailable(operation, why, { uncertain: writing })), limitMs);
  });
  try {
    return await Promise.race([task(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether a failed write surely wrote nothing: the file system refused it (an errno code;
 * the atomic rename comes last), or Redis never got it (the client was offline or closed) or
 * answered it with an error. A connection that broke with the command on its way may have
 * delivered it.
 */
function refusedBeforeWriting(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x instanceof Error && depth < 5; x = x.cause, depth++) {
    if (typeof (x as NodeJS.ErrnoException).code === 'string' && (x as NodeJS.ErrnoException).errno !== undefined) return true;
    if (['ClientOfflineError', 'ClientClosedError', 'ErrorReply', 'SimpleError', 'BlobError'].includes(x.constructor.name)) return true;
  }
  return false;
}

function serialise(data: DeserializedData<unknown>): string {
  return JSON.stringify(data);
}

function notText(): Problem {
  return problem('bad-json', 'the stored value is not text');
}

/**
 * Reads Keyv's `{ value, expires }` wrapper. Never throws and never returns undefined for
 * something that is there: anything else becomes `{ value: Unreadable }`, which the memory
 * layer logs and skips.
 */
export function deserialise(text: string): DeserializedData<unknown> {
  if (text === FOLDER_IN_PLACE) return { value: new Unreadable(problem('folder-in-place', 'a folder stands where this record should be')) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { value: new Unreadable(problem('bad-json', `the stored text is not JSON: ${messageOf(e)}`)) };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('value' in parsed)) {
    return { value: new Unreadable(problem('bad-wrapper', 'the stored JSON is not a Keyv { value } wrapper')) };
  }
  const expires = 'expires' in parsed && typeof parsed.expires === 'number' ? parsed.expires : undefined;
  return { value: parsed.value, expires };
}
