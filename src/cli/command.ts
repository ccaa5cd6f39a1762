/**
 * The shape of one `gomoku` sub-command. Each lives in its own file under src/cli and is
 * listed in main.ts. A command parses its own options, calls the core, prints, and returns
 * an exit code: 0 done, 1 the input was bad (a message said where), 2 usage error.
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

export interface Command {
  readonly name: string;
  /** One line for `gomoku --help`. */
  readonly summary: string;
  /** The full `--help` text of this command. */
  readonly help: string;
  run(args: readonly string[], io: CliIO): Promise<number> | number;
}

export const processIO: CliIO = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  readFile: (path, maxBytes = DEFAULT_LIMIT) => readFileBounded(path, maxBytes),
};

export interface ParsedArgs {
  readonly flags: ReadonlyMap<string, string | true>;
  readonly positional: readonly string[];
}

/**
 * Parses `--name value`, `--name=value` and bare `--switch` options. `switches` lists the
 * options that take no value. Unknown options are reported, not ignored.
 */
export function parseArgs(
  args: readonly string[],
  known: { readonly values: readonly string[]; readonly switches: readonly string[] },
): { ok: true; value: ParsedArgs } | { ok: false; message: string } {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--') || arg === '--') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (known.switches.includes(name)) {
      if (eq >= 0) return { ok: false, message: `option --${name} takes no value` };
      flags.set(name, true);
    } else if (known.values.includes(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined) return { ok: false, message: `option --${name} needs a value` };
      flags.set(name, value);
    } else {
      return { ok: false, message: `unknown option --${name}` };
    }
  }
  return { ok: true, value: { flags, positional } };
}

/**
 * Reads a file named on the command line, of at most the kind's bound; on failure prints
 * "gomoku <command>: cannot read <path>: <why>" and returns undefined (the caller exits 1).
 */
export function readInput(io: CliIO, command: string, path: string, kind: InputKind): string | undefined {
  try {
    return io.readFile(path, INPUT_LIMITS[kind]);
  } catch (e) {
    if (e instanceof InputTooLarge) io.err(`gomoku ${command}: ${path} is too large for a ${kind}: ${e.message}`);
    else io.err(`gomoku ${command}: cannot read ${path}: ${(e as Error).message}`);
    return undefined;
  }
}
