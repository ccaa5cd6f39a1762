/**
 * `RetryingWriter`: saves results that must not be lost — a subgoal an analysis learned took
 * real work — even while storage is unavailable.
 *
 * `put` tries to store at once. When that fails with `StorageUnavailable`, the write (already
 * encoded as its envelope, so no codec is needed to replay it) joins an in-memory queue, the
 * queue is written to a small pending file, and a timer retries with doubling delays from
 * `baseDelayMs` up to `maxDelayMs`, for as long as the process lives. Opening a writer reads
 * the pending file, so writes queued before a restart are replayed after it.
 *
 * Decisions:
 * - One queued write per key: a newer put of the same guild/collection/key replaces a queued
 *   one, and a successful put removes it, so a retry can never overwrite a newer value.
 *   Puts and retries run one at a time for the same reason. A key written through the writer
 *   should not also be written directly through `Memory`, or an older retry could land later.
 * - The queue is bounded (`maxPending`); past it the oldest write is dropped and logged as an
 *   error. An unbounded queue would turn a long outage into running out of memory.
 * - Retrying stops at the first write that still fails, rather than hammering a dead store
 *   with the whole queue on every tick.
 * - The timer is unref'd: pending writes are on disk, so they need not keep the process alive.
 * - The pending file is for one process. Two processes sharing a data folder need two files.
 * - A queued write that lands is announced to `onLanded` listeners: what depends on it (the
 *   library's version stamp) is brought up to date after it, not before.
 */
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { messageOf, StorageUnavailable, type StorageLog } from './errors.ts';
import { errnoCode, writeFileAtomic } from './files.ts';
import { encodePart, isCollectionName, type CollectionName } from './keys.ts';
import type { Envelope, Memory, Schema } from './memory.ts';

export interface PendingWrite {
  readonly guildId: string;
  readonly collection: CollectionName;
  readonly key: string;
  readonly envelope: Envelope;
  /** When the first attempt failed, in ms since the epoch; for logs. */
  readonly since: number;
}

export interface RetryingWriterOptions {
  /** Where queued writes are spilled; see index.ts for the default. */
  readonly pendingFile: string;
  readonly log: StorageLog;
  /** First retry delay (default 250 ms); doubled after every failed round. */
  readonly baseDelayMs?: number;
  /** Longest retry delay (default 15 000 ms). */
  readonly maxDelayMs?: number;
  /** Most writes kept (default 1000); past it the oldest is dropped. */
  readonly maxPending?: number;
  /** fsync the pending file (default true). */
  readonly durable?: boolean;
}

export type PutOutcome = 'saved' | 'queued';

/** Format version of the pending file: `{ v: 1, writes: PendingWrite[] }`. */
const PENDING_FORMAT = 1;

export class RetryingWriter<S extends Schema> {
  readonly #memory: Memory<S>;
  readonly #file: string;
  readonly #log: StorageLog;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxPending: number;
  readonly #durable: boolean;
  /** Insertion order is age order: oldest first. */
  readonly #queue = new Map<string, PendingWrite>();
  #chain: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #failedRounds = 0;
  #closed = false;
  readonly #landed = new Set<(write: PendingWrite) => void>();

  private constructor(memory: Memory<S>, options: RetryingWriterOptions) {
    this.#memory = memory;
    this.#file = options.pendingFile;
    this.#log = options.log;
    this.#baseDelayMs = options.baseDelayMs ?? 250;
    this.#maxDelayMs = options.maxDelayMs ?? 15_000;
    this.#maxPending = options.maxPending ?? 1000;
    this.#durable = options.durable ?? true;
  }

  /** Opens a writer, loading writes left pending by an earlier run and scheduling them. */
  static async open<S extends Schema>(memory: Memory<S>, options: RetryingWriterOptions): Promise<RetryingWriter<S>> {
    const writer = new RetryingWriter(memory, options);
    await writer.#load();
    if (writer.#queue.size > 0) {
      writer.#log.info('replaying writes left pending by an earlier run', { count: writer.#queue.size });
      writer.#schedule();
    }
    return writer;
  }

  /** The writes waiting for storage, oldest first. */
  get pending(): readonly PendingWrite[] {
    return [...this.#queue.values()];
  }

  /**
   * Stores `value`, or queues it when storage is unavailable. Rejects only on a programming
   * error (an empty key, a value that is not JSON data) or after `close`.
   */
  async put<C extends CollectionName>(guildId: string, collection: C, key: string, value: S[C]): Promise<PutOutcome> {
    if (this.#closed) throw new StorageUnavailable('put', 'the writer is closed');
    encodePart(guildId);
    encodePart(key);
    const envelope = this.#memory.envelope(collection, value);
    return this.#serially(async () => {
      const id = idOf(guildId, collection, key);
      try {
        await this.#memory.putEnvelope(guildId, collection, key, envelope);
      } catch (e) {
        if (!(e instanceof StorageUnavailable)) throw e;
        const since = this.#queue.get(id)?.since ?? Date.now();
        this.#enqueue(id, { guildId, collection, key, envelope, since });
        this.#log.warn('could not save; queued to retry', { guildId, collection, key, reason: e.reason, pending: this.#queue.size });
        await this.#spill();
        this.#schedule();
        return 'queued';
      }
      if (this.#queue.delete(id)) await this.#spill();
      if (this.#queue.size > 0) this.#retrySoon();
      return 'saved';
    });
  }

  /**
   * Calls `listener` each time a queued write is stored by a retry (not for puts stored at
   * once: their caller knows). Returns a function that removes it.
   */
  onLanded(listener: (write: PendingWrite) => void): () => void {
    this.#landed.add(listener);
    return () => void this.#landed.delete(listener);
  }

  /** Tries every pending write now, oldest first; resolves to how many are still pending. */
  flush(): Promise<number> {
    return this.#serially(async () => {
      let changed = false;
      const landed: PendingWrite[] = [];
      for (const [id, write] of [...this.#queue]) {
        try {
          await this.#memory.putEnvelope(write.guildId, write.collection, write.key, write.envelope);
          landed.push(write);
        } catch (e) {
          if (e instanceof StorageUnavailable) break;
          this.#log.error('dropped a pending write that cannot be stored', { ...describe(write), error: messageOf(e) });
        }
        this.#queue.delete(id);
        changed = true;
      }
      if (changed) await this.#spill();
      for (const write of landed) {
        for (const listener of this.#landed) {
          try {
            listener(write);
          } catch (e) {
            this.#log.error('a listener for landed writes failed', { ...describe(write), error: messageOf(e) });
          }
        }
      }
      return this.#queue.size;
    });
  }

  /** Stops retrying and waits for a put or retry under way. Pending writes stay in the file. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#chain;
  }

  #serially<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#chain.then(task);
    this.#chain = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  #enqueue(id: string, write: PendingWrite): void {
    this.#queue.delete(id);
    this.#queue.set(id, write);
    while (this.#queue.size > this.#maxPending) {
      const [oldestId, oldest] = this.#queue.entries().next().value as [string, PendingWrite];
      this.#queue.delete(oldestId);
      this.#log.error('too many pending writes; dropped the oldest', { ...describe(oldest), maxPending: this.#maxPending });
    }
  }

  #schedule(): void {
    if (this.#closed || this.#timer !== undefined || this.#queue.size === 0) return;
    const delay = Math.min(this.#baseDelayMs * 2 ** this.#failedRounds, this.#maxDelayMs);
    this.#timer = setTimeout(() => void this.#retry(), delay);
    this.#timer.unref();
  }

  /** Storage answered a put: try the queue now instead of waiting out the backoff. */
  #retrySoon(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#failedRounds = 0;
    this.#schedule();
  }

  async #retry(): Promise<void> {
    this.#timer = undefined;
    let remaining: number;
    try {
      remaining = await this.flush();
    } catch (e) {
      this.#log.error('retrying pending writes failed', { error: messageOf(e) });
      remaining = this.#queue.size;
    }
    if (remaining === 0) {
      this.#failedRounds = 0;
      this.#log.info('every pending write is saved');
      return;
    }
    this.#failedRounds = Math.min(this.#failedRounds + 1, 30);
    this.#schedule();
  }

  /** Writes the queue to the pending file (removes the file when empty). Never throws. */
  async #spill(): Promise<void> {
    try {
      if (this.#queue.size === 0) {
        await rm(this.#file, { force: true });
        return;
      }
      await mkdir(dirname(this.#file), { recursive: true });
      const text = `${JSON.stringify({ v: PENDING_FORMAT, writes: [...this.#queue.values()] })}\n`;
      await writeFileAtomic(this.#file, text, this.#durable);
    } catch (e) {
      this.#log.error('could not write the pending file; queued writes live only in memory', {
        file: this.#file,
        error: messageOf(e),
      });
    }
  }

  async #load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT') this.#log.error('could not read the pending file', { file: this.#file, error: messageOf(e) });
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const writes = pendingWritesOf(parsed);
    if (writes === undefined) {
      // Keep it for a person to look at rather than overwrite it with the next spill.
      const aside = `${this.#file}.unreadable-${Date.now()}`;
      await rename(this.#file, aside).catch(() => undefined);
      this.#log.error('the pending file is unreadable; moved it aside', { file: this.#file, movedTo: aside });
      return;
    }
    for (const write of writes) {
      if (isPendingWrite(write)) this.#enqueue(idOf(write.guildId, write.collection, write.key), write);
      else this.#log.warn('skipped an unreadable entry of the pending file', { file: this.#file, entry: JSON.stringify(write) });
    }
  }
}

function idOf(guildId: string, collection: CollectionName, key: string): string {
  return JSON.stringify([guildId, collection, key]);
}

function describe(write: PendingWrite): Record<string, unknown> {
  return { guildId: write.guildId, collection: write.collection, key: write.key, since: new Date(write.since).toISOString() };
}

function pendingWritesOf(parsed: unknown): unknown[] | undefined {
  if (typeof parsed !== 'object' || parsed === null || !('v' in parsed) || !('writes' in parsed)) return undefined;
  if (parsed.v !== PENDING_FORMAT || !Array.isArray(parsed.writes)) return undefined;
  return parsed.writes as unknown[];
}

function isPendingWrite(x: unknown): x is PendingWrite {
  if (typeof x !== 'object' || x === null) return false;
  const w = x as Record<string, unknown>;
  const envelope = w.envelope as Record<string, unknown> | null | undefined;
  return (
    typeof w.guildId === 'string' &&
    w.guildId !== '' &&
    typeof w.collection === 'string' &&
    isCollectionName(w.collection) &&
    typeof w.key === 'string' &&
    w.key !== '' &&
    typeof w.since === 'number' &&
    typeof envelope === 'object' &&
    envelope !== null &&
    typeof envelope.v === 'number' &&
    'data' in envelope
  );
}
