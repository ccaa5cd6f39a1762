/**
 * Each server's library, compiled, kept in memory between commands.
 *
 * Reading a library of 1000 learned subgoals from storage and decoding it (every description
 * parsed, canonicalised and looked up among the compiled streams) took 200 ms from Redis and
 * 450 ms from files, on every /move, /hint, /threats and /library (issue 26). Here a server's
 * library is read once and kept; each command reads only the library's version
 * (`versions::library`, records.ts) and reads the library again only when that changed.
 *
 * ## The version
 *
 * Whoever changes a library — the bot learning from a loss, a memory reset, `gomoku memory
 * import`, in this process or another one on the same storage — writes a new version after
 * the change (`changed`, `bumpLibraryVersion`). A reader reads the version first and the
 * library after it, so a library it holds under version V already holds every change whose
 * new version was written before V was read; a change made after that writes a version other
 * than V, and the next command reads the library again.
 *
 * - A version is a count and a random stamp (records.ts `Version`): the count is
 *   read-modify-write, not atomic, and two processes bumping at once would otherwise write
 *   the same value and one change could go unseen. Only equality is ever asked of it.
 * - No version stored (a library older than this, or a memory cleared) is a version too,
 *   `none`: a process holding `none` reads again once anyone writes one.
 * - A learned subgoal that storage could not take at once waits in the retrying writer's
 *   queue; the version written beside it might land first. So when a queued library write
 *   lands, the writer tells us (`onLanded`) and the version is bumped again, after it.
 * - The version is written through the retrying writer too: a change must not go unseen
 *   because storage was out of reach the moment after it.
 *
 * ## What is kept
 *
 * The learned subgoals in the order they were learned (by provenance), the rule of five
 * first, as a `Library` whose `Subgoal`s are the compiled ones every game of the process
 * shares (library.ts `compileCached`), with their recogniser machines (entryGroups.ts builds one
 * per subgoal, once), and each one's example for its mnemonic. Not the counters: they change
 * on every game, and only /library shows them, so it reads them itself.
 *
 * At most `maxGuilds` servers are kept (least recently used go first): memory stays bounded
 * however many servers the bot is in, and a server that comes back reads its library again.
 * Two commands of a server whose library is not held share one read.
 */
import { randomBytes } from 'node:crypto';
import { Library } from '../learning/library.ts';
import { isStorageUnavailable, type GuildMemory, type PendingWrite, type PutOutcome, type RetryingWriter } from '../storage/index.ts';
import { errorText, silentLog, type BotLog } from './log.ts';
import { LIBRARY_VERSION_KEY, type BotSchema, type Example, type LearnedRecord, type Version } from './records.ts';
import type { LearnedOrigin } from './communityRecords.ts';

/** The part of storage the cache uses (src/storage `Storage<BotSchema>` fits). */
export interface LibraryStore {
  guild(guildId: string): GuildMemory<BotSchema>;
  readonly writer: Pick<RetryingWriter<BotSchema>, 'put'> & Partial<Pick<RetryingWriter<BotSchema>, 'onLanded'>>;
}

/** A server's library as commands use it. Shared: never change it (clone it first). */
export interface CompiledLibrary {
  /** The rule of five, then the learned subgoals in the order they were learned; no counters. */
  readonly library: Library;
  readonly examples: ReadonlyMap<string, Example>;
  /** Where subgoals not learned from the bot's own losses came from (communityRecords.ts). */
  readonly origins: ReadonlyMap<string, LearnedOrigin>;
  /** Subgoals learned by walking back again through an old game (reflection.ts). */
  readonly reflected: ReadonlySet<string>;
  /** The version it was read under (`none` when storage holds none). */
  readonly version: string;
}

export interface LibraryCacheOptions {
  /** Servers whose library is kept at most (default 200). */
  readonly maxGuilds?: number;
  readonly log?: BotLog;
}

export const DEFAULT_MAX_GUILDS = 200;

interface Held {
  readonly compiled: CompiledLibrary;
  /** The count of the version it was read under, so a bump from here counts on from it. */
  readonly n: number;
}

export class LibraryCache {
  readonly #store: LibraryStore;
  readonly #maxGuilds: number;
  readonly #log: BotLog;
  /** By guild; Map order is use order, least recent first. */
  readonly #held = new Map<string, Held>();
  /** Reads under way, by guild and version. */
  readonly #reading = new Map<string, Promise<CompiledLibrary>>();
  readonly #stopListening: () => void;
  readonly #derived = new WeakMap<CompiledLibrary, Map<string, unknown>>();

  constructor(store: LibraryStore, options: LibraryCacheOptions = {}) {
    this.#store = store;
    this.#maxGuilds = options.maxGuilds ?? DEFAULT_MAX_GUILDS;
    this.#log = options.log ?? silentLog;
    this.#stopListening = store.writer.onLanded?.((write) => this.#landed(write)) ?? (() => undefined);
  }

  /** How many servers' libraries are held. */
  get size(): number {
    return this.#held.size;
  }

  /**
   * The server's library: the one held when storage's version is still the one it was read
   * under (one read), else read again. Storage failures are thrown (`StorageUnavailable`).
   */
  async get(guildId: string): Promise<CompiledLibrary> {
    const stored = await this.#store.guild(guildId).versions.get(LIBRARY_VERSION_KEY);
    const version = versionText(stored);
    const held = this.#held.get(guildId);
    if (held !== undefined && held.compiled.version === version) {
      this.#held.delete(guildId);
      this.#held.set(guildId, held);
      return held.compiled;
    }
    const id = `${guildId}\u0000${version}`;
    let reading = this.#reading.get(id);
    if (reading === undefined) {
      reading = this.#read(guildId, version, stored?.n ?? 0).finally(() => this.#reading.delete(id));
      this.#reading.set(id, reading);
    }
    return reading;
  }

  /**
   * Says that the server's library changed: writes a new version (through the retrying
   * writer, so it is queued rather than lost during an outage). Every process, this one
   * included, reads the library again at its next command.
   */
  async changed(guildId: string): Promise<PutOutcome> {
    let n = this.#held.get(guildId)?.n ?? 0;
    try {
      n = Math.max(n, (await this.#store.guild(guildId).versions.get(LIBRARY_VERSION_KEY))?.n ?? 0);
    } catch (e) {
      if (!isStorageUnavailable(e)) throw e;
    }
    return this.#store.writer.put(guildId, 'versions', LIBRARY_VERSION_KEY, nextVersion(n));
  }

  /**
   * A value worked out from a held library once (its listing order takes 300 ms for 1000
   * subgoals), and again only for a library read anew.
   */
  derived<T>(compiled: CompiledLibrary, name: string, make: () => T): T {
    let values = this.#derived.get(compiled);
    if (values === undefined) this.#derived.set(compiled, (values = new Map()));
    if (!values.has(name)) values.set(name, make());
    return values.get(name) as T;
  }

  /** Stops listening to the writer. */
  close(): void {
    this.#stopListening();
  }

  async #read(guildId: string, version: string, n: number): Promise<CompiledLibrary> {
    const started = performance.now();
    const learned = await this.#store.guild(guildId).library.list();
    const compiled = { ...compiledLibrary(learned.map((e) => e.value)), version };
    this.#held.delete(guildId);
    this.#held.set(guildId, { compiled, n });
    for (const oldest of this.#held.keys()) {
      if (this.#held.size <= this.#maxGuilds) break;
      this.#held.delete(oldest);
    }
    this.#log.debug('read a library', { guildId, version, learned: learned.length, ms: Math.round(performance.now() - started) });
    return compiled;
  }

  #landed(write: PendingWrite): void {
    if (write.collection !== 'library') return;
    this.changed(write.guildId).catch((e: unknown) => {
      this.#log.error('could not mark a library changed after a queued subgoal landed', { guildId: write.guildId, error: errorText(e) });
    });
  }
}

/** The library of a server's learned records, in the order they were learned, with their examples. */
export function compiledLibrary(records: readonly LearnedRecord[]): { library: Library; examples: Map<string, Example>; origins: Map<string, LearnedOrigin>; reflected: Set<string> } {
  const library = Library.empty();
  const examples = new Map<string, Example>();
  const origins = new Map<string, LearnedOrigin>();
  const reflected = new Set<string>();
  for (const r of records.slice().sort(byProvenance)) {
    library.add(r.subgoal, r.provenance);
    if (r.example !== undefined) examples.set(r.subgoal.text, r.example);
    if (r.origin !== undefined) origins.set(r.subgoal.text, r.origin);
    if (r.reflected === true) reflected.add(r.subgoal.text);
  }
  return { library, examples, origins, reflected };
}

/** Oldest first; within a game, the move nearest the win (learned first) first. */
export function byProvenance(a: LearnedRecord, b: LearnedRecord): number {
  const d = Date.parse(a.provenance.date) - Date.parse(b.provenance.date);
  if (d !== 0) return d;
  if (a.provenance.game !== b.provenance.game) return a.provenance.game < b.provenance.game ? -1 : 1;
  return b.provenance.move - a.provenance.move;
}

/** The version after one whose count is `n`. */
export function nextVersion(n: number): Version {
  return { n: n + 1, stamp: randomBytes(6).toString('hex') };
}

/** A version as the cache compares it. */
export function versionText(v: Version | undefined): string {
  return v === undefined ? 'none' : `${v.n}.${v.stamp}`;
}

/**
 * Writes a new library version straight to storage, for a process without a retrying writer
 * (`gomoku memory import`): it fails, with `StorageUnavailable`, rather than queue.
 */
export async function bumpLibraryVersion(memory: GuildMemory<BotSchema>): Promise<Version> {
  const next = nextVersion((await memory.versions.get(LIBRARY_VERSION_KEY))?.n ?? 0);
  await memory.versions.put(LIBRARY_VERSION_KEY, next);
  return next;
}
