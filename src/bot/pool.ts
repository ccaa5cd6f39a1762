/**
 * A server's memory settings (`/memory watch`, `/memory share`) and the shared pool of learned
 * subgoals servers may publish to and adopt from.
 *
 * What crosses between servers, and what never does:
 * - A pool entry is a subgoal's canonical description (its comments — the moves to five — are
 *   part of the text) and the servers that learned it, each as a token: the first 24 hex digits
 *   of SHA-256 over `gomoku-pool:<guild id>`. Other servers see only the text and how many
 *   tokens it has; the tokens let a server be counted once and take back exactly what it gave.
 * - Never: member ids, names, game records, game ids, dates, examples (they are cut from a
 *   game), counters, or anything of a server that has not opted in.
 * - A server is read from only when it shares (`share on` publishes its library; a subgoal it
 *   learns later is published as it is learned), and written to only when an admin adopts.
 *   A server that never ran either is never touched.
 * - Only what the server learned itself is published — its losses and the games it watched —
 *   not what it adopted, so a count of servers counts servers that learned it.
 * - `share off` and /reset-memory withdraw the server's token from every entry (an entry
 *   nobody else learned goes); adopted subgoals stay adopted until /reset-memory.
 * - Adopting asks first, with how many subgoals are new here; it then adopts what is new at
 *   that moment (the pool may have grown), with the provenance game `pool` and the number of
 *   servers that had learned each. A text that does not parse or compile is skipped and logged.
 * - Pool entries are read-modify-write under one in-process lock (one bot process; see
 *   lock.ts). A write that fails part way is reported as far as it got: the reply says how
 *   many were saved, and running the command again finishes it (every step is idempotent).
 */
import { createHash } from 'node:crypto';
import { parseDescription } from '../notation/descriptionNotation.ts';
import { compileCached } from '../learning/library.ts';
import { isStorageUnavailable, SharedCollection, StorageUnavailable } from '../storage/index.ts';
import { DEFAULT_SETTINGS, poolCodec, SETTINGS_KEY, type MemorySettings, type PoolEntry } from './communityRecords.ts';
import type { ServiceKit } from './kit.ts';
import { errorText } from './log.ts';
import { done, refuse, type BotResult } from './problems.ts';
import { subgoalKey, type LearnedRecord } from './records.ts';

/** The pool's storage prefix, `@pool` (storage/shared.ts). */
export const POOL_NAME = 'pool';
const POOL_LOCK = 'pool';

export interface ShareChange {
  readonly settings: MemorySettings;
  /** Subgoals whose entry gained this server's token (share on), or lost it (share off). */
  readonly changed: number;
  /** False when storage failed part way: `changed` is how far it got. */
  readonly complete: boolean;
}

export interface AdoptPreview {
  /** Subgoals in the pool. */
  readonly pool: number;
  /** Of those, the ones this server's library does not hold, with how many servers learned each. */
  readonly fresh: readonly { readonly text: string; readonly servers: number }[];
}

export interface Adopted {
  readonly adopted: readonly string[];
  /** False when storage failed part way. */
  readonly complete: boolean;
}

export interface MemoryStatus {
  readonly settings: MemorySettings;
  /** Subgoals this server has in the pool (0 unless it shares). */
  readonly published: number;
  readonly pool: number;
}

/** The token a server is counted by in the pool. */
export function poolToken(guildId: string): string {
  return createHash('sha256').update(`gomoku-pool:${guildId}`).digest('hex').slice(0, 24);
}

export class SharedPool {
  readonly #kit: ServiceKit;
  readonly #pool: SharedCollection<PoolEntry> | undefined;

  constructor(kit: ServiceKit) {
    this.#kit = kit;
    const backend = kit.store.backend;
    this.#pool = backend === undefined ? undefined : new SharedCollection(backend, POOL_NAME, poolCodec, kit.log);
  }

  /** The server's settings (defaults when it has none). */
  async settings(guildId: string): Promise<MemorySettings> {
    return (await this.#kit.store.guild(guildId).settings.get(SETTINGS_KEY)) ?? DEFAULT_SETTINGS;
  }

  status(guildId: string): Promise<BotResult<MemoryStatus>> {
    return this.#kit.guarded(async () => {
      const settings = await this.settings(guildId);
      const entries = await this.#entries();
      const token = poolToken(guildId);
      return done({ settings, published: entries.filter((e) => e.value.contributors.includes(token)).length, pool: entries.length });
    });
  }

  /** `/memory watch on|off`. */
  setWatch(guildId: string, on: boolean, canManageServer: boolean): Promise<BotResult<MemorySettings>> {
    if (!canManageServer) return Promise.resolve(refuse({ code: 'not-admin', what: 'memory' }));
    return this.#kit.guarded(async () => {
      const settings = { ...(await this.settings(guildId)), watch: on };
      await this.#kit.store.guild(guildId).settings.put(SETTINGS_KEY, settings);
      this.#kit.log.info('memory setting changed', { guildId, watch: on });
      return done(settings);
    });
  }

  /** `/memory share on|off`: publishes the server's own learned subgoals, or withdraws them. */
  setShare(guildId: string, on: boolean, canManageServer: boolean): Promise<BotResult<ShareChange>> {
    if (!canManageServer) return Promise.resolve(refuse({ code: 'not-admin', what: 'memory' }));
    return this.#kit.guarded(async () => {
      if (this.#pool === undefined) return refuse({ code: 'storage-unavailable' });
      const settings = { ...(await this.settings(guildId)), share: on };
      // On: the setting first, so a subgoal learned meanwhile is published too. Off: the setting
      // first too, so nothing is published after the withdrawal has begun.
      await this.#kit.store.guild(guildId).settings.put(SETTINGS_KEY, settings);
      const outcome = on ? await this.#publish(guildId, await this.#ownTexts(guildId)) : await this.#withdraw(guildId);
      this.#kit.log.info('memory setting changed', { guildId, share: on, changed: outcome.changed, complete: outcome.complete });
      return done({ settings, ...outcome });
    });
  }

  /** What `/memory adopt` would bring: the pool's subgoals this server lacks. */
  preview(guildId: string, canManageServer: boolean): Promise<BotResult<AdoptPreview>> {
    if (!canManageServer) return Promise.resolve(refuse({ code: 'not-admin', what: 'memory' }));
    return this.#kit.guarded(async () => {
      const [entries, known] = await Promise.all([this.#entries(), this.#known(guildId)]);
      const fresh = entries.filter((e) => !known.has(e.value.text)).map((e) => ({ text: e.value.text, servers: e.value.contributors.length }));
      return done({ pool: entries.length, fresh });
    });
  }

  /** `/memory adopt`, confirmed: copies the pool's subgoals this server lacks into its library. */
  adopt(guildId: string, canManageServer: boolean): Promise<BotResult<Adopted>> {
    if (!canManageServer) return Promise.resolve(refuse({ code: 'not-admin', what: 'memory' }));
    return this.#kit.guarded(async (): Promise<BotResult<Adopted>> => {
      const [entries, known] = await Promise.all([this.#entries(), this.#known(guildId)]);
      const library = this.#kit.store.guild(guildId).library;
      const date = new Date(this.#kit.now()).toISOString();
      const adopted: string[] = [];
      // Even an adoption that stopped part way changed the library: every process reads it again.
      const changed = async () => {
        if (adopted.length > 0) await this.#kit.libraryChanged(guildId);
      };
      for (const { value } of entries) {
        if (known.has(value.text)) continue;
        const parsed = parseDescription(value.text);
        const compiled = parsed.ok ? compileCached(parsed.value) : parsed;
        if (!compiled.ok || compiled.value.text !== value.text) {
          this.#kit.log.warn('skipped a pool entry that is not a canonical description', { text: value.text, error: compiled.ok ? 'not canonical' : compiled.error.message });
          continue;
        }
        const record: LearnedRecord = { subgoal: compiled.value, provenance: { game: 'pool', move: 1, date }, origin: { kind: 'pool', servers: value.contributors.length } };
        try {
          await library.put(subgoalKey(value.text), record);
        } catch (e) {
          if (!isStorageUnavailable(e)) throw e;
          this.#kit.log.warn('adopting from the pool stopped: storage unavailable', { guildId, adopted: adopted.length });
          await changed().catch(() => undefined);
          return done({ adopted, complete: false });
        }
        known.add(value.text);
        adopted.push(value.text);
      }
      this.#kit.log.info('adopted from the pool', { guildId, adopted: adopted.length });
      await changed();
      return done({ adopted, complete: true });
    });
  }

  /** Newly learned subgoals of a server that shares are published as they are learned; never fails the game. */
  async learned(guildId: string, texts: readonly string[]): Promise<void> {
    if (texts.length === 0 || this.#pool === undefined) return;
    try {
      if (!(await this.settings(guildId)).share) return;
      const outcome = await this.#publish(guildId, texts);
      if (!outcome.complete) this.#kit.log.warn('could not publish every learned subgoal to the pool; /memory share on publishes them again', { guildId, published: outcome.changed });
    } catch (e) {
      this.#kit.log.warn('could not publish learned subgoals to the pool', { guildId, error: errorText(e) });
    }
  }

  /** /reset-memory: takes back everything the server published, if it ever shared. */
  async withdraw(guildId: string): Promise<void> {
    if (this.#pool === undefined) return;
    const outcome = await this.#withdraw(guildId);
    if (outcome.changed > 0) this.#kit.log.info('withdrew from the pool', { guildId, withdrawn: outcome.changed, complete: outcome.complete });
    // The reset stops here, its library untouched, rather than leave contributions behind.
    if (!outcome.complete) throw new StorageUnavailable('put', 'the shared pool could not be updated');
  }

  // -------------------------------------------------------------------------------------------

  async #entries() {
    return this.#pool === undefined ? [] : this.#pool.list();
  }

  /** The server's library, as canonical texts. */
  async #known(guildId: string): Promise<Set<string>> {
    return new Set((await this.#kit.store.guild(guildId).library.list()).map((e) => e.value.subgoal.text));
  }

  /** What the server learned itself: its losses and watched games, not what it adopted. */
  async #ownTexts(guildId: string): Promise<string[]> {
    return (await this.#kit.store.guild(guildId).library.list()).filter((e) => e.value.origin?.kind !== 'pool').map((e) => e.value.subgoal.text);
  }

  #publish(guildId: string, texts: readonly string[]): Promise<{ changed: number; complete: boolean }> {
    const pool = this.#pool!;
    const token = poolToken(guildId);
    return this.#kit.lock.run(POOL_LOCK, async () => {
      let changed = 0;
      for (const text of texts) {
        try {
          const key = subgoalKey(text);
          const was = await pool.get(key);
          if (was?.contributors.includes(token)) continue;
          await pool.put(key, { text, contributors: [...(was?.contributors ?? []), token] });
          changed++;
        } catch (e) {
          if (!isStorageUnavailable(e)) throw e;
          return { changed, complete: false };
        }
      }
      return { changed, complete: true };
    });
  }

  #withdraw(guildId: string): Promise<{ changed: number; complete: boolean }> {
    const pool = this.#pool!;
    const token = poolToken(guildId);
    return this.#kit.lock.run(POOL_LOCK, async () => {
      let changed = 0;
      for (const { key, value } of await pool.list()) {
        if (!value.contributors.includes(token)) continue;
        const rest = value.contributors.filter((t) => t !== token);
        try {
          if (rest.length === 0) await pool.delete(key);
          else await pool.put(key, { text: value.text, contributors: rest });
          changed++;
        } catch (e) {
          if (!isStorageUnavailable(e)) throw e;
          return { changed, complete: false };
        }
      }
      return { changed, complete: true };
    });
  }
}
