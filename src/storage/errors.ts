/**
 * The one failure storage reports to its callers, and the logger it reports everything else to.
 *
 * Storage being out of reach (Redis down, the data folder unwritable, an operation over its time
 * limit, the store already closed) is not a bug in the caller: the Discord layer catches
 * `StorageUnavailable` in one place and answers "storage unavailable, try again". Every other
 * throw out of this module is a programming error (an empty key, a value JSON cannot hold).
 */
export class StorageUnavailable extends Error {
  /** Stable, for callers that match on codes as they do on a `Problem`. */
  readonly code = 'storage-unavailable';
  /**
   * True when a write may have landed all the same: it reached the store and then went
   * unanswered past every limit, or the connection broke while it was on its way. False means
   * nothing was written. Reads are never uncertain: they change nothing.
   */
  readonly uncertain: boolean;

  constructor(
    /** What was being done: `get`, `put`, `list`, `clear`, `ping`, … */
    readonly operation: string,
    /** Why, in a few words: `not connected`, `timed out after 2000 ms`, the cause's message. */
    readonly reason: string,
    options?: { readonly cause?: unknown; readonly uncertain?: boolean },
  ) {
    super(`storage unavailable (${operation}): ${reason}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StorageUnavailable';
    this.uncertain = options?.uncertain ?? false;
  }
}

export function isStorageUnavailable(e: unknown): e is StorageUnavailable {
  return e instanceof StorageUnavailable;
}

/** Detail attached to a log line: plain data, so a JSON logger can print it as it is. */
export type LogDetail = Readonly<Record<string, unknown>>;

/**
 * Where storage says what it skipped or retried. Injected, so tests can read what was logged
 * and the bot can route it to its own logger.
 */
export interface StorageLog {
  info(message: string, detail?: LogDetail): void;
  warn(message: string, detail?: LogDetail): void;
  error(message: string, detail?: LogDetail): void;
}

export const consoleLog: StorageLog = {
  info: (message, detail) => console.info(`[storage] ${message}`, detail ?? ''),
  warn: (message, detail) => console.warn(`[storage] ${message}`, detail ?? ''),
  error: (message, detail) => console.error(`[storage] ${message}`, detail ?? ''),
};

/** The message of anything thrown, for a log line or a `reason`. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message === '' ? e.name : e.message;
  return String(e);
}
