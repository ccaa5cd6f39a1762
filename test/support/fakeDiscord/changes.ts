/**
 * Waiting for a condition on the fake without polling or fixed sleeps: everything that changes
 * the fake's state (a request answered, a gateway event) calls `notify()`, and each waiter checks
 * its condition again then. A waiter that times out rejects with what it waited for and a
 * description of the state it saw, so a failing test says why.
 */
interface Waiter {
  check(): void;
  fail(error: Error): void;
}

export class Changes {
  readonly #waiters = new Set<Waiter>();
  #closed = false;

  notify(): void {
    for (const waiter of [...this.#waiters]) waiter.check();
  }

  /**
   * Resolves with the first value `probe` gives other than undefined, checking now and after each
   * change; rejects after `timeoutMs` or when the fake closes.
   */
  waitFor<T>(probe: () => T | undefined, timeoutMs: number, what: string, describe: () => string): Promise<T> {
    if (this.#closed) return Promise.reject(new Error(`fake Discord is closed; cannot wait for ${what}`));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        check: () => {
          let value: T | undefined;
          try {
            value = probe();
          } catch (e) {
            settle();
            reject(e instanceof Error ? e : new Error(String(e)));
            return;
          }
          if (value === undefined) return;
          settle();
          resolve(value);
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        waiter.fail(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${describe()}`));
      }, timeoutMs);
      const settle = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
      };
      this.#waiters.add(waiter);
      waiter.check();
    });
  }

  /** Rejects every waiter; later waits reject at once. */
  close(): void {
    this.#closed = true;
    for (const waiter of [...this.#waiters]) waiter.fail(new Error('fake Discord closed while waiting'));
  }
}
