/**
 * How long the event loop was held: the one thread that answers every member and sends the
 * gateway's heartbeats. A job that holds it for 300 ms delays every reply due meanwhile by
 * 300 ms, whoever it was for, so this is the figure the load benchmark (bench/load.ts) holds
 * to 50 ms.
 *
 * node's own `monitorEventLoopDelay` (perf_hooks) measures it: a timer inside libuv that
 * records how late it fires. Sampling every 5 ms, a block of B ms shows as a delay of about B.
 *
 * `EVENT_LOOP_REPORT_MS` set (e.g. 1000): every that many ms the longest delay since the last
 * line, with the 99th percentile, is logged (`event loop {maxMs, p99Ms}`) and the histogram
 * starts again; unset, nothing is measured. A line is logged on stop as well, so a short run
 * is covered to its end.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { BotLog } from './log.ts';

export interface LoopEnv {
  readonly EVENT_LOOP_REPORT_MS?: string;
}

/** The reporting interval the environment asks for, or undefined; throws a TypeError on a bad value. */
export function loopReportMs(env: LoopEnv): number | undefined {
  const text = env.EVENT_LOOP_REPORT_MS?.trim();
  if (text === undefined || text === '') return undefined;
  if (!/^\d{2,7}$/.test(text) || Number(text) < 10) throw new TypeError(`EVENT_LOOP_REPORT_MS must be a whole number of milliseconds from 10, not "${text}"`);
  return Number(text);
}

/** Starts reporting when the environment asks; returns what stops it (logging the last stretch). */
export function watchEventLoop(env: LoopEnv, log: BotLog): () => void {
  const everyMs = loopReportMs(env);
  if (everyMs === undefined) return () => undefined;
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const report = () => {
    if (histogram.count === 0) return;
    log.info('event loop', { maxMs: round(histogram.max / 1e6), p99Ms: round(histogram.percentile(99) / 1e6), samples: histogram.count });
    histogram.reset();
  };
  const timer = setInterval(report, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    report();
    histogram.disable();
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
