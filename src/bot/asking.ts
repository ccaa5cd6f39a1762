/**
 * Who is waiting for the work under way: the member's interaction, as the thread that answers
 * Discord sees it, carried through the service to its thinking without the service passing it
 * along (node's AsyncLocalStorage, which follows a call through every await).
 *
 * Two things need it, both measured with the load benchmark (bench/load.ts):
 * - **Which job first.** The play workers took jobs in the order they were asked for, so a
 *   move's picture, asked for when its move came back, queued behind every job asked for
 *   meanwhile: a member waited for the whole queue twice. The pool takes the job of the
 *   longest-waiting member first (`since`), which finishes what was started.
 * - **When to defer.** Discord wants an acknowledgement within 3 s; the edge waited 50 ms
 *   for a reply before deferring, so a command that had to wait for a worker was acknowledged
 *   only after that grace, and later still when the thread was busy. Work sent to a worker is
 *   work that may wait: the thinker says so (`slow`), and the edge defers at once. A refusal
 *   (not your turn, no game) never reaches a worker and still comes as its own private reply.
 *
 * Outside an interaction (the terminal game, a test, reading ahead at start) there is none,
 * and the work is as urgent as when it was asked for.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export class Asking {
  /** When the interaction arrived (performance.now()). */
  readonly since: number;
  #slow = false;
  readonly #waiting: (() => void)[] = [];

  constructor(since: number) {
    this.since = since;
  }

  /** Whether work that may wait for a worker has begun. */
  get isSlow(): boolean {
    return this.#slow;
  }

  /** Says that work that may wait for a worker has begun. */
  slow(): void {
    if (this.#slow) return;
    this.#slow = true;
    for (const resolve of this.#waiting.splice(0)) resolve();
  }

  /** Resolves once `slow` has been said (at once if it has). */
  whenSlow(): Promise<void> {
    if (this.#slow) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

const current = new AsyncLocalStorage<Asking>();

/** Runs `work` on behalf of an interaction that arrived at `since`. */
export function asking<T>(since: number, work: () => T): T {
  return current.run(new Asking(since), work);
}

/** The interaction the current work is for, if any. */
export function currentAsking(): Asking | undefined {
  return current.getStore();
}
