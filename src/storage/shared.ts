/**
 * A collection that belongs to no server: the shared pool of learned subgoals (issue 28) lives
 * in the same store as every server's memory, under a prefix of its own:
 *
 *     <ns>::@<name>::<key>      e.g.  gomoku::@pool::sg-3f1c…
 *
 * A server's keys start `<ns>::<guild>::` with the guild id percent-encoded (keys.ts), and
 * `encodeURIComponent` always encodes `@`, so no guild id, Discord's or any other, can produce
 * a prefix starting with `@`: clearing or listing a guild never reaches the pool, and the pool's
 * listing never reaches a guild. In the file store it is the folder `DATA_DIR/<ns>/%40<name>/`.
 *
 * Records are stored as everywhere else: a versioned envelope `{ v, data }` through a codec,
 * read back with `openEnvelope`, an unreadable one logged and skipped.
 */
import type { Backend } from './backend.ts';
import type { LogDetail, StorageLog } from './errors.ts';
import { decodePart, encodePart, SEPARATOR } from './keys.ts';
import { openEnvelope, type Codec, type Entry } from './memory.ts';

export class SharedCollection<T> {
  readonly #backend: Backend;
  readonly #prefix: string;
  readonly #codec: Codec<T>;
  readonly #log: StorageLog;

  /** `name`: letters, digits and `-` (it is written into keys and folder names as it is). */
  constructor(backend: Backend, name: string, codec: Codec<T>, log: StorageLog) {
    if (!/^[a-z0-9-]{1,32}$/.test(name)) throw new TypeError(`storage: a shared collection's name must be lower-case letters, digits or '-', not "${name}"`);
    this.#backend = backend;
    this.#prefix = `@${name}`;
    this.#codec = codec;
    this.#log = log;
  }

  /** The record, or undefined when there is none or it cannot be read (then logged). */
  async get(key: string): Promise<T | undefined> {
    const stored = await this.#backend.get(this.#key(key));
    return stored === undefined ? undefined : this.#read(key, stored);
  }

  async put(key: string, value: T): Promise<void> {
    await this.#backend.set(this.#key(key), { v: this.#codec.version, data: this.#codec.encode(value) });
  }

  delete(key: string): Promise<boolean> {
    return this.#backend.delete(this.#key(key));
  }

  /** Every readable record, by key in code-unit order. */
  async list(): Promise<Array<Entry<T>>> {
    const found: Array<Entry<T>> = [];
    for (const [encoded, stored] of await this.#backend.entries(this.#prefix)) {
      const key = decodePart(encoded);
      if (key === undefined) {
        this.#skipped(encoded, { code: 'bad-key', reason: 'the stored key was not written by this module' });
        continue;
      }
      const value = this.#read(key, stored);
      if (value !== undefined) found.push({ key, value });
    }
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  #key(key: string): string {
    return `${this.#prefix}${SEPARATOR}${encodePart(key)}`;
  }

  #read(key: string, stored: unknown): T | undefined {
    const result = openEnvelope(this.#codec, stored);
    if (result.ok) return result.value;
    this.#skipped(key, { code: result.error.code, reason: result.error.message });
    return undefined;
  }

  #skipped(key: string, why: LogDetail): void {
    this.#log.warn('skipped an unreadable record', { collection: this.#prefix, key, ...why });
  }
}
