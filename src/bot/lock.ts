/**
 * One-at-a-time work per key (a game, a server's counters), within this process.
 *
 * `run` queues a task behind the ones already holding the key. `isBusy` says, synchronously,
 * whether anything holds it: a move checks it before queueing, so that a second move sent
 * while the first is still being played is refused rather than applied to a position its
 * sender never saw.
 *
 * Decision: serialisation is in-process. One bot process serves a token (Discord sends each
 * interaction to one gateway session), so that is enough; two processes sharing a Redis
 * would need a lock in Redis.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  isBusy(key: string): boolean {
    return this.#tails.has(key);
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const result = before.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Resolves when every task queued so far has finished. */
  async idle(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all([...this.#tails.values()]);
  }
}
