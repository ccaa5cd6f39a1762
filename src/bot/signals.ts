/**
 * Stopping on SIGINT or SIGTERM, for the Discord bot (src/discord/main.ts) and the terminal
 * game (src/bot/terminal.ts) alike: the first signal asks for a clean stop; a second one, when the
 * stop is taking too long for whoever sent it, exits at once.
 *
 * A second signal counts only when it comes `SAME_SIGNAL_MS` or more after the first: npm
 * forwards the signals it receives to its child (@npmcli/run-script, signal-manager.js), so a
 * signal to `npm start`'s process group — `kill -TERM -<pgid>` from a process manager, or
 * Ctrl-C in a terminal, which signals the whole foreground group — reaches the bot twice at
 * once, once directly and once from npm. Those two are one request, not a person insisting.
 */
import type { BotLog } from './log.ts';

export const SAME_SIGNAL_MS = 1000;

export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGTERM: 15 };

export interface StopSignals {
  /** The first SIGINT or SIGTERM. */
  readonly first: Promise<NodeJS.Signals>;
  /** Stops listening (Node's defaults apply again). */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM until disposed. Any signal `SAME_SIGNAL_MS` or more after
 * the first calls `exitNow` with 128 + its number, as a shell reports a process it killed.
 * While listening, no signal falls back to Node's default, which kills without a word.
 */
export function onStopSignals(
  log: Pick<BotLog, 'warn'>,
  exitNow: (code: number) => void,
  source: SignalSource = process,
  now: () => number = () => performance.now(),
): StopSignals {
  let firstAt: number | undefined;
  let resolveFirst: (signal: NodeJS.Signals) => void = () => undefined;
  const first = new Promise<NodeJS.Signals>((resolve) => (resolveFirst = resolve));
  const listener = (signal: NodeJS.Signals) => {
    const t = now();
    if (firstAt === undefined) {
      firstAt = t;
      resolveFirst(signal);
      return;
    }
    if (t - firstAt < SAME_SIGNAL_MS) return;
    log.warn('a second signal: exiting at once, without finishing the stop', { signal });
    exitNow(128 + (SIGNAL_NUMBERS[signal] ?? 0));
  };
  source.on('SIGINT', listener);
  source.on('SIGTERM', listener);
  return {
    first,
    dispose: () => {
      source.off('SIGINT', listener);
      source.off('SIGTERM', listener);
    },
  };
}
