/**
 * Worker threads yield the processor to the thread that answers Discord.
 *
 * The load benchmark (bench/load.ts) found the answering thread's longest "blocks" were not long
 * tasks but short callbacks waiting for a core: on two cores the play and analysis workers of one
 * or two bot processes are runnable at once and the scheduler shares the cores evenly among
 * them. A worker's job is measured in hundreds of milliseconds and a reply's callback in a few,
 * so a worker thread runs at a lower priority (a higher nice value): when both want a core the
 * answering thread and the heartbeats go first, and on an idle machine the worker runs as fast.
 *
 * Decisions:
 * - Linux only. There the nice value belongs to a thread (setpriority(2), "Bugs": the NPTL
 *   threads do not share it), so `os.setPriority(0, …)` in a worker lowers that worker alone.
 *   On macOS and Windows the same call lowers the whole process, the answering thread too, which
 *   is the opposite of the point, so elsewhere nothing is changed.
 * - Nice 10: the scheduler's weight for nice 10 is about a tenth of nice 0's, enough for the
 *   answering thread to win a contended core at once, while a worker alone on a core is not
 *   slowed at all. Only lowering is possible without privileges, and lowering is all this asks.
 * - A refusal (a container that forbids it) is not an error: the worker runs as before.
 * - `WORKER_NICE` (0-19) sets it; 0 leaves the workers at the answering thread's priority, for a
 *   host where the bot's workers should not give way to other programs. A worker thread sees the
 *   environment the process started with, and the bot checks the value at start (config.ts), so a
 *   bad value stops the bot there with its name rather than being ignored in a worker.
 */
import { setPriority } from 'node:os';

/** The nice value a worker thread runs at on Linux unless `WORKER_NICE` says otherwise. */
export const WORKER_NICE = 10;
/**
 * The nice value of workers whose work nobody waits for (reflection's walks back through old
 * games): the lowest priority there is, below the play workers, whatever `WORKER_NICE` says.
 * Its scheduler weight (15) is a seventh of nice 10's (110), so on a contended core the play
 * workers run about seven times as much; on an idle core it runs at full speed.
 */
export const BACKGROUND_NICE = 19;

export interface NiceEnv {
  readonly WORKER_NICE?: string;
}

/** The nice value the environment asks for; throws a TypeError naming the variable on a bad one. */
export function workerNice(env: NiceEnv): number {
  const text = env.WORKER_NICE?.trim();
  if (text === undefined || text === '') return WORKER_NICE;
  if (!/^\d{1,2}$/.test(text) || Number(text) > 19) throw new TypeError(`WORKER_NICE must be a whole number from 0 to 19, not "${env.WORKER_NICE}"`);
  return Number(text);
}

/**
 * In a worker, a bad `WORKER_NICE` is the default: the bot has refused it at start already, and
 * a tool that starts workers without reading the bot's settings (`gomoku brain`) should not
 * lose its workers over a variable that is not its own.
 */
function niceOrDefault(env: NiceEnv): number {
  try {
    return workerNice(env);
  } catch {
    return WORKER_NICE;
  }
}

/**
 * Lowers the calling thread's priority to `nice` where that touches only this thread (Linux).
 * Returns whether it did.
 */
export function yieldToAnsweringThread(nice: number = niceOrDefault(process.env), platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' || nice === 0) return false;
  try {
    setPriority(0, nice);
    return true;
  } catch {
    return false;
  }
}
