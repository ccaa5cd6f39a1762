/**
 * What a guild remembers, typed: seven named collections — `library`, `games`, `records`,
 * `stats`, `tombstones`, `versions`, `summaries` — each a map from a string key to a value of its own type, stored through a codec in
 * a versioned envelope `{ v, data }`.
 *
 * The record types belong to other modules; this layer only needs, per collection, a `Codec`:
 * its format `version`, `encode` to plain JSON data, and `decode` back, as a `Result`. A stored
 * record that cannot be read — not JSON, not an envelope, another version, or refused by the
 * codec — is logged (with its guild, collection, key and a `Problem` code) and treated as
 * absent: `get` returns undefined and `list` leaves it out. It is not deleted, so a later
 * codec that understands it (say, one reading an old version) still can.
 */
import { err, problem, type Problem, type Result } from '../rules/result.ts';
import { Unreadable, type Backend } from './backend.ts';
import { messageOf, type StorageLog } from './errors.ts';
import {
  collectionPrefix,
  COLLECTIONS,
  decodePart,
  encodePart,
  guildPrefix,
  isCollectionName,
  recordKey,
  SEPARATOR,
  type CollectionName,
} from './keys.ts';

export interface Codec<T> {
  /** The format version written into every envelope; a record of another version is unreadable. */
  readonly version: number;
  /** To plain JSON data (objects, arrays, strings, finite numbers, booleans, null). */
  encode(value: T): unknown;
  decode(raw: unknown): Result<T>;
}

/** The type kept in each collection, e.g. `{ library: Subgoal; games: Game; records: GameRecord; stats: Stats }`. */
export type Schema = { readonly [C in CollectionName]: unknown };

export type Codecs<S extends Schema> = { readonly [C in CollectionName]: Codec<S[C]> };

/** How every record is stored. */
export interface Envelope {
  readonly v: number;
  readonly data: unknown;
}

export interface Entry<T> {
  readonly key: string;
  readonly value: T;
}

export interface Collection<T> {
  readonly name: CollectionName;
  readonly guildId: string;
  /** The record, or undefined when there is none or it cannot be read (then logged). */
  get(key: string): Promise<T | undefined>;
  put(key: string, value: T): Promise<void>;
  /** Whether there was a record to delete. */
  delete(key: string): Promise<boolean>;
  /**
   * Moves the record under `key` aside when it is there and cannot be read, bytes as they
   * are, to `<guild>::quarantine::<collection>.<key>.<ms>` (never listed as a collection);
   * returns where, or undefined when there was nothing to move. Called before writing a key
   * whose old value was found unreadable (a member's next challenge), so that the write does
   * not destroy what a person may want to look at — and a folder standing in a record's place
   * no longer fails the write.
   */
  moveAsideUnreadable(key: string): Promise<string | undefined>;
  /** Every readable record, by key in code-unit order. */
  list(): Promise<Array<Entry<T>>>;
  /** Deletes every record of this collection in this guild; returns how many keys went. */
  clear(): Promise<number>;
}

export type GuildMemory<S extends Schema> = { readonly [C in CollectionName]: Collection<S[C]> } & {
  readonly guildId: string;
  /** Forgets everything this guild stored, in every collection, and nothing of any other guild. */
  clear(): Promise<number>;
};

/** Where unreadable records are moved to, beside a guild's collections (never listed as one). */
export const QUARANTINE = 'quarantine';

/**
 * How long decoding may hold the event loop before it lets other work run. By time, not by
 * count: 50 records of the learned library took 50-90 ms on a busy machine, past the 50 ms the
 * load benchmark allows any one job.
 */
const DECODE_SLICE_MS = 10;

export class Memory<S extends Schema> {
  /** Folders in records' places already reported. */
  readonly #folders = new Set<string>();

  constructor(
    readonly backend: Backend,
    readonly codecs: Codecs<S>,
    readonly log: StorageLog,
  ) {}

  guild(guildId: string): GuildMemory<S> {
    guildPrefix(guildId); // rejects an empty id now rather than at first use
    const collections = Object.fromEntries(COLLECTIONS.map((name) => [name, this.#collection(guildId, name)]));
    return {
      ...(collections as { [C in CollectionName]: Collection<S[C]> }),
      guildId,
      clear: () => this.clearGuild(guildId),
    };
  }

  /** See `GuildMemory.clear`. */
  async clearGuild(guildId: string): Promise<number> {
    const prefix = guildPrefix(guildId);
    const keys = (await this.backend.entries(prefix)).map(([key]) => `${prefix}${SEPARATOR}${key}`);
    await this.backend.deleteMany(keys);
    return keys.length;
  }

  /**
   * Every guild with something stored, and how many keys each of its collections holds
   * (unreadable records included): one listing of keys, no record read or decoded.
   */
  async census(): Promise<Map<string, Record<CollectionName, number>>> {
    const counts = new Map<string, Record<CollectionName, number>>();
    for (const key of await this.backend.keys()) {
      const [encodedGuild, collection] = key.split(SEPARATOR);
      const guildId = decodePart(encodedGuild);
      if (guildId === undefined || collection === undefined || !isCollectionName(collection)) continue;
      let c = counts.get(guildId);
      if (c === undefined) counts.set(guildId, (c = Object.fromEntries(COLLECTIONS.map((n) => [n, 0])) as Record<CollectionName, number>));
      c[collection]++;
    }
    return counts;
  }

  /** The envelope `value` is stored in. Throws (a programming error) if it is not JSON data. */
  envelope<C extends CollectionName>(collection: C, value: S[C]): Envelope {
    const codec = this.codecs[collection];
    const envelope: Envelope = { v: codec.version, data: codec.encode(value) };
    assertJsonData(envelope, collection);
    return envelope;
  }

  /** Stores an envelope made earlier (the retrying writer keeps envelopes, not values). */
  async putEnvelope(guildId: string, collection: CollectionName, key: string, envelope: Envelope): Promise<void> {
    await this.backend.set(recordKey(guildId, collection, key), envelope);
  }

  #collection<C extends CollectionName>(guildId: string, name: C): Collection<S[C]> {
    const codec = this.codecs[name];
    const read = (key: string, stored: unknown): S[C] | undefined => {
      const result = openEnvelope(codec, stored);
      if (result.ok) return result.value;
      this.#skipped(guildId, name, key, result.error);
      return undefined;
    };
    return {
      name,
      guildId,
      get: async (key) => {
        const stored = await this.backend.get(recordKey(guildId, name, key));
        return stored === undefined ? undefined : read(key, stored);
      },
      moveAsideUnreadable: async (key) => {
        const stored = await this.backend.get(recordKey(guildId, name, key));
        if (stored === undefined || openEnvelope(codec, stored).ok) return undefined;
        return this.#moveAside(guildId, name, key);
      },
      put: async (key, value) => this.putEnvelope(guildId, name, key, this.envelope(name, value)),
      delete: (key) => this.backend.delete(recordKey(guildId, name, key)),
      list: async () => {
        const found: Array<Entry<S[C]>> = [];
        let sliceStart = performance.now();
        for (const [encoded, stored] of await this.backend.entries(collectionPrefix(guildId, name))) {
          // Decoding can be slow (a learned subgoal is parsed and compiled): a thousand records
          // held the event loop for a second. Every so often, let other work (a Discord
          // heartbeat, another member's reply, the timer that defers this one) run.
          if (performance.now() - sliceStart > DECODE_SLICE_MS) {
            await new Promise((resolve) => setImmediate(resolve));
            sliceStart = performance.now();
          }
          const key = decodePart(encoded);
          if (key === undefined) {
            this.#skipped(guildId, name, encoded, problem('bad-key', 'the stored key was not written by this module'));
            continue;
          }
          const value = read(key, stored);
          if (value !== undefined) found.push({ key, value });
        }
        return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      },
      clear: async () => {
        const prefix = collectionPrefix(guildId, name);
        const keys = (await this.backend.entries(prefix)).map(([key]) => `${prefix}${SEPARATOR}${key}`);
        await this.backend.deleteMany(keys);
        return keys.length;
      },
    };
  }

  /** See `Collection.moveAsideUnreadable`. */
  async #moveAside(guildId: string, collection: CollectionName, key: string): Promise<string | undefined> {
    const to = `${guildPrefix(guildId)}${SEPARATOR}${QUARANTINE}${SEPARATOR}${collection}.${encodePart(key)}.${Date.now()}`;
    if (!(await this.backend.rename(recordKey(guildId, collection, key), to))) return undefined;
    const movedTo = `${this.backend.namespace}${SEPARATOR}${to}`;
    this.log.warn('moved an unreadable record aside', { guildId, collection, key, movedTo });
    this.#folders.delete(`${guildId}|${collection}|${key}`);
    return movedTo;
  }

  #skipped(guildId: string, collection: CollectionName, key: string, why: Problem): void {
    // A folder in a record's place is said once: it is not going away by itself, and every
    // command touching it would say it again.
    if (why.code === 'folder-in-place') {
      const id = `${guildId}|${collection}|${key}`;
      if (this.#folders.has(id)) return;
      this.#folders.add(id);
    }
    this.log.warn('skipped an unreadable record', { guildId, collection, key, code: why.code, reason: why.message });
  }
}

/** Checks the envelope and its version, then lets the codec decode; never throws. */
export function openEnvelope<T>(codec: Codec<T>, stored: unknown): Result<T> {
  if (stored instanceof Unreadable) return err(stored.problem);
  if (typeof stored !== 'object' || stored === null || !('v' in stored) || !('data' in stored)) {
    return err(problem('bad-envelope', 'the record is not a { v, data } envelope'));
  }
  if (stored.v !== codec.version) {
    return err(problem('wrong-version', `the record has format version ${String(stored.v)}, this build reads ${codec.version}`));
  }
  try {
    return codec.decode(stored.data);
  } catch (e) {
    return err(problem('decode-threw', `the codec threw: ${messageOf(e)}`));
  }
}

/** JSON would silently change these (undefined dropped, NaN to null), so refuse them. */
function assertJsonData(value: unknown, where: string): void {
  const seen = new Set<unknown>();
  const visit = (x: unknown, path: string): void => {
    if (x === null || typeof x === 'string' || typeof x === 'boolean') return;
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) throw new TypeError(`storage: ${path} is ${x}, which JSON cannot hold`);
      return;
    }
    if (typeof x !== 'object') throw new TypeError(`storage: ${path} is a ${typeof x}, which JSON cannot hold`);
    if (seen.has(x)) throw new TypeError(`storage: ${path} is part of a cycle`);
    seen.add(x);
    if (Array.isArray(x)) {
      x.forEach((item, i) => visit(item, `${path}[${i}]`));
    } else {
      const proto = Object.getPrototypeOf(x);
      if (proto !== Object.prototype && proto !== null) throw new TypeError(`storage: ${path} is not a plain object`);
      for (const [k, v] of Object.entries(x)) visit(v, `${path}.${k}`);
    }
    seen.delete(x);
  };
  visit(value, where);
}
