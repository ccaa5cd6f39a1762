/**
 * `KeyvFileStore`: a Keyv store adapter that keeps each key in its own file under a data
 * folder, so the bot remembers across restarts with no Redis. It speaks the same adapter
 * protocol as @keyv/redis — `get`/`set`/`delete`/`clear`, `iterator(namespace)` yielding
 * `[key without the namespace, stored string]`, keys joined with `::` after the namespace — so
 * the rest of storage cannot tell the two apart.
 *
 * Layout. A full key `a::b::c` is the file `<dir>/a/b/c.json`: every `::`-separated part but the
 * last is a folder, which makes listing one guild or one collection a walk of one folder rather
 * than of the whole store. Each part is written in a file-name-safe form: `a`–`z`, `0`–`9`, `_`
 * and `-` stay as they are; every other byte of its UTF-8, capitals and `.` included, becomes
 * `%XX` with upper-case hex. So a name never holds a path separator or a dot (temporary files
 * and `.json` cannot clash with it), and two keys differing only in case stay two files on a
 * case-insensitive file system. An empty part is `~`; a part whose encoding would be longer
 * than `MAX_NAME` is `~` and the SHA-256 of the part, so names fit every file system.
 *
 * A file holds `{"key": <full key>, "value": <the string Keyv stored>}` and a newline. The key is
 * kept inside because a hashed name cannot be decoded. A file whose content is not that shape
 * is handed up as its raw text, which the reader above reports as unreadable.
 *
 * Durability and concurrency: see files.ts — each `set` is an atomic replace of one file, and
 * operations on one file run one after another in call order. Keyv's TTL is ignored here
 * (Keyv keeps the expiry inside the value and checks it on read; storage sets none).
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, readdir, readFile, rename, rmdir, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { SEPARATOR } from './keys.ts';
import { errnoCode, FOLDER_IN_PLACE, isHiddenName, SerialById, writeFileAtomic } from './files.ts';

const FILE_SUFFIX = '.json';
/** Longest encoded part kept readable; longer ones are hashed (most file systems allow 255 bytes). */
export const MAX_NAME = 160;

export interface KeyvFileStoreOptions {
  /** The data folder; created on the first write. */
  readonly dir: string;
  /** Namespace put before every key, as @keyv/redis does. Keyv sets it too. */
  readonly namespace?: string;
  /** fsync every write and its folder (default true). Off only makes tests of nothing-but-logic faster. */
  readonly durable?: boolean;
}

export class KeyvFileStore extends EventEmitter {
  readonly dir: string;
  namespace: string | undefined;
  readonly #durable: boolean;
  readonly #serial = new SerialById();

  constructor(options: KeyvFileStoreOptions) {
    super();
    this.dir = resolve(options.dir);
    this.namespace = options.namespace;
    this.#durable = options.durable ?? true;
  }

  /**
   * Keyv reads `opts` to decide whether the adapter can iterate (`dialect`, then `url`); we
   * iterate through `iterator()` ourselves, so this only has to be present and harmless.
   */
  get opts(): { readonly dialect: 'file'; readonly url: string; readonly dir: string } {
    return { dialect: 'file', url: `file:${this.dir}`, dir: this.dir };
  }

  async get<Value>(key: string): Promise<Value | undefined> {
    const full = this.#fullKey(key);
    const text = await readIfExists(this.pathOf(full));
    if (text === undefined) return undefined;
    const stored = parseStored(text);
    if (stored === undefined) return text as Value;
    return stored.key === full ? (stored.value as Value) : undefined;
  }

  /**
   * Moves what is stored under `from` (a file, or a folder standing in its place) to `to`;
   * false when there was nothing. Keys as for `get`.
   */
  async rename(from: string, to: string): Promise<boolean> {
    const source = this.pathOf(this.#fullKey(from));
    const target = this.pathOf(this.#fullKey(to));
    return this.#serial.run(source, async () => {
      await mkdir(dirname(target), { recursive: true });
      try {
        await rename(source, target);
        return true;
      } catch (e) {
        if (errnoCode(e) === 'ENOENT') return false;
        throw e;
      }
    });
  }

  async getMany<Value>(keys: string[]): Promise<Array<Value | undefined>> {
    return Promise.all(keys.map((key) => this.get<Value>(key)));
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  async set(key: string, value: unknown): Promise<boolean> {
    const full = this.#fullKey(key);
    const path = this.pathOf(full);
    const text = `${JSON.stringify({ key: full, value })}\n`;
    await this.#serial.run(path, () => writeCreatingFolders(path, text, this.#durable));
    return true;
  }

  async setMany(entries: Array<{ key: string; value: unknown }>): Promise<void> {
    await Promise.all(entries.map(({ key, value }) => this.set(key, value)));
  }

  async delete(key: string): Promise<boolean> {
    const path = this.pathOf(this.#fullKey(key));
    const deleted = await this.#serial.run(path, () => unlinkIfExists(path));
    if (deleted) await this.#pruneFolders(dirname(path));
    return deleted;
  }

  async deleteMany(keys: string[]): Promise<boolean> {
    const deleted = await Promise.all(keys.map((key) => this.delete(key)));
    return deleted.some(Boolean);
  }

  /** Removes every key under the current namespace (every key, when there is none). */
  async clear(): Promise<void> {
    const folder = this.#folderOf(this.namespace);
    for await (const path of walk(folder)) {
      await this.#serial.run(path, () => unlinkIfExists(path));
    }
    await removeEmptyFolders(folder);
  }

  /**
   * Yields `[key, stored value]` for every key under `namespace` (the full keys starting with
   * `namespace::`), the key without that prefix, in file-name order. Like @keyv/redis, it uses
   * the argument and not `this.namespace`, so a caller can list any prefix.
   */
  async *iterator<Value>(namespace?: string): AsyncGenerator<[string, Value | undefined], void, unknown> {
    const prefix = namespace === undefined || namespace === '' ? '' : `${namespace}${SEPARATOR}`;
    for await (const path of walk(this.#folderOf(namespace))) {
      const text = await readIfExists(path);
      if (text === undefined) continue; // deleted since the folder was read
      const stored = parseStored(text);
      const full = stored?.key ?? this.keyOfPath(path);
      if (!full.startsWith(prefix)) continue;
      yield [full.slice(prefix.length), (stored === undefined ? text : stored.value) as Value];
    }
  }

  async disconnect(): Promise<void> {
    await this.#serial.idle();
  }

  /** The file that holds a full key (namespace included). */
  pathOf(fullKey: string): string {
    const parts = fullKey.split(SEPARATOR).map(fileName);
    const last = parts.pop() ?? '~';
    return join(this.dir, ...parts, `${last}${FILE_SUFFIX}`);
  }

  /** The full key a file's path spells, best effort: a hashed part stays as its file name. */
  keyOfPath(path: string): string {
    const relative = path.slice(this.dir.length + 1, -FILE_SUFFIX.length);
    return relative
      .split(/[\\/]/)
      .map((name) => partOfFileName(name) ?? name)
      .join(SEPARATOR);
  }

  /**
   * Removes `folder` and its parents up to the data folder while they are empty, so a cleared
   * guild leaves no folder behind. A write racing with this recreates what it needs.
   */
  async #pruneFolders(folder: string): Promise<void> {
    for (let current = folder; current.length > this.dir.length && current.startsWith(this.dir); current = dirname(current)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty (ENOTEMPTY/EEXIST), or already gone
      }
    }
  }

  #fullKey(key: string): string {
    return this.namespace === undefined || this.namespace === '' ? key : `${this.namespace}${SEPARATOR}${key}`;
  }

  #folderOf(namespace: string | undefined): string {
    if (namespace === undefined || namespace === '') return this.dir;
    return join(this.dir, ...namespace.split(SEPARATOR).map(fileName));
  }
}

const PLAIN_BYTE = /^[a-z0-9_-]$/;

/** One key part as a file or folder name (see the module comment). */
export function fileName(part: string): string {
  if (part === '') return '~';
  let name = '';
  for (const byte of Buffer.from(part, 'utf8')) {
    const char = String.fromCharCode(byte);
    name += PLAIN_BYTE.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (name.length <= MAX_NAME) return name;
  return `~${createHash('sha256').update(part, 'utf8').digest('hex')}`;
}

/** The inverse of `fileName`; undefined for a hashed name or one it did not produce. */
export function partOfFileName(name: string): string | undefined {
  if (name === '~') return '';
  if (!/^(?:[a-z0-9_-]|%[0-9A-F]{2})+$/.test(name)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < name.length; ) {
    if (name[i] === '%') {
      bytes.push(Number.parseInt(name.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      bytes.push(name.charCodeAt(i));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

interface StoredFile {
  readonly key: string;
  readonly value: unknown;
}

function parseStored(text: string): StoredFile | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !('key' in parsed) || !('value' in parsed)) return undefined;
  return typeof parsed.key === 'string' ? { key: parsed.key, value: parsed.value } : undefined;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return undefined;
    if (errnoCode(e) === 'EISDIR') return FOLDER_IN_PLACE;
    throw e;
  }
}

async function unlinkIfExists(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return false;
    throw e;
  }
}

/**
 * `writeFileAtomic`, creating the folders first. A `clear` running at the same time may remove
 * an emptied folder between the two steps (`delete` prunes empty folders), hence the few
 * retries on ENOENT.
 */
async function writeCreatingFolders(path: string, text: string, durable: boolean): Promise<void> {
  const folder = dirname(path);
  for (let attempt = 1; ; attempt++) {
    await mkdir(folder, { recursive: true });
    try {
      await writeFileAtomic(path, text, durable);
      return;
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT' || attempt >= 5) throw e;
    }
  }
}

/** Every stored file under `folder`, depth first, in name order; a missing folder has none. */
async function* walk(folder: string): AsyncGenerator<string, void, unknown> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (e) {
    if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ENOTDIR') return;
    throw e;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (isHiddenName(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile() && entry.name.endsWith(FILE_SUFFIX)) yield path;
  }
}

/** Removes the folders under `folder` (and it) that hold nothing, leaving any that filled up again. */
async function removeEmptyFolders(folder: string): Promise<void> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.isDirectory()) await removeEmptyFolders(join(folder, entry.name));
  }
  await rmdir(folder).catch(() => undefined);
}
