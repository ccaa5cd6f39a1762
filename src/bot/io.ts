/**
 * What a process started from a terminal reads and writes: the `gomoku` command, the terminal
 * game and the bot's entry (src/discord/main.ts) each take a `CliIO`, so a test can hand them
 * one that records. Files named by a user are read with a bound per kind of file.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** The file's text; throws when it cannot be read or holds more than `maxBytes` (see `readFileBounded`). */
  readFile(path: string, maxBytes?: number): string;
}

/**
 * The most bytes read from a file of each kind. A 19×19 game record is under 3 KiB and a
 * board text under 1 KiB, so 64 KiB is plenty with comments; the project's learned library of
 * 1000 subgoals is 90 KiB with provenance. The bound is on reading, so naming /dev/zero or a
 * 10 GB file by mistake stops at the bound with a clear error rather than filling memory.
 */
export const INPUT_LIMITS = {
  'game record': 64 * 1024,
  board: 64 * 1024,
  openings: 1024 * 1024,
  library: 16 * 1024 * 1024,
} as const;
export type InputKind = keyof typeof INPUT_LIMITS;

/** Reads at most `maxBytes` of a file as UTF-8; a file with more is an error saying so. */
export function readFileBounded(path: string, maxBytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (n === 0) break;
      filled += n;
    }
    if (filled > maxBytes) throw new InputTooLarge(maxBytes);
    return buffer.toString('utf8', 0, filled);
  } finally {
    closeSync(fd);
  }
}

/** A file over its kind's bound. */
export class InputTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`it holds more than ${sizeText(maxBytes)}`);
    this.name = 'InputTooLarge';
  }
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/** With no bound given, the largest of INPUT_LIMITS. */
const DEFAULT_LIMIT = Math.max(...Object.values(INPUT_LIMITS));

export const processIO: CliIO = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  readFile: (path, maxBytes = DEFAULT_LIMIT) => readFileBounded(path, maxBytes),
};
