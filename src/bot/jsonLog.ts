/**
 * The bot's log as one JSON object per line (`LOG_FORMAT=json`), for a log pipeline to read:
 *
 *     {"level":"info","time":"2026-11-26T13:13:12.458Z","pid":28782,"kind":"command",
 *      "command":"move","outcome":"ok","interaction":"…","guild":"…","channel":"…",
 *      "user":"…","ackMs":54,"ms":54,"msg":"interaction"}
 *
 * Written by pino, the maintained JSON logger for Node, rather than by hand: its line format
 * (`level`, `time`, `pid`, the detail's fields at the top level, `msg`) is what log
 * shippers and `pino-pretty` already read, it escapes every string correctly, and its `redact`
 * removes a field anywhere it is given by path. The text format (log.ts) stays the default:
 * it is what a person running `npm start` in a terminal reads.
 *
 * Decisions:
 * - Synchronous writes to standard error (`pino.destination({ sync: true })`), as the text
 *   log: when a stop runs past its deadline the process exits at once, and the line saying
 *   what was pending must not be lost in an asynchronous buffer.
 * - Levels by name (`"level":"info"`), not pino's numbers: readable without a lookup table.
 * - Field names a secret could travel under (`token`, `authorization`, `password`) are
 *   redacted at the top level and one level down, whatever code logs them.
 */
import { pino, stdTimeFunctions, destination, type DestinationStream } from 'pino';
import type { BotLog, LogLevel } from './log.ts';

const SECRET_FIELDS = ['token', 'authorization', 'password'];

export function createJsonLog(level: LogLevel, stream: DestinationStream = destination({ dest: 2, sync: true })): BotLog {
  const logger = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`)], censor: '***' },
    },
    stream,
  );
  return {
    error: (message, detail) => logger.error(detail ?? {}, message),
    warn: (message, detail) => logger.warn(detail ?? {}, message),
    info: (message, detail) => logger.info(detail ?? {}, message),
    debug: (message, detail) => logger.debug(detail ?? {}, message),
  };
}
