/**
 * The bot's logger: one line per event, `LEVEL message {detail as JSON}`, filtered by
 * `LOG_LEVEL` (error, warn, info or debug; info when unset or unknown). It is also the
 * `StorageLog` storage reports to, so every line of the process goes one way.
 */
import type { LogDetail, StorageLog } from '../storage/index.ts';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface BotLog extends StorageLog {
  debug(message: string, detail?: LogDetail): void;
}

export function parseLogLevel(text: string | undefined): LogLevel {
  const t = text?.trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(t ?? '') ? (t as LogLevel) : 'info';
}

/** A logger writing lines at `level` and above to `write` (stderr by default). */
export function createLog(level: LogLevel, write: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): BotLog {
  const rank = LOG_LEVELS.indexOf(level);
  const at = (l: LogLevel) => (message: string, detail?: LogDetail) => {
    if (LOG_LEVELS.indexOf(l) > rank) return;
    const tail = detail === undefined || Object.keys(detail).length === 0 ? '' : ` ${safeJson(detail)}`;
    write(`${new Date().toISOString()} ${l.toUpperCase()} ${message}${tail}`);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLog: BotLog = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

function safeJson(detail: LogDetail): string {
  try {
    return JSON.stringify(detail, (_k, v: unknown) => (v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v));
  } catch {
    return String(detail);
  }
}

/** The message of anything thrown. */
export function errorText(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
