/**
 * The shape of one `gomoku` sub-command. Each lives in its own file under src/cli and is
 * listed in main.ts. A command parses its own options, calls the core, prints, and returns
 * an exit code: 0 done, 1 the input was bad (a message said where), 2 usage error.
 */
import { INPUT_LIMITS, InputTooLarge, type CliIO, type InputKind } from '../bot/io.ts';

export interface Command {
  readonly name: string;
  /** One line for `gomoku --help`. */
  readonly summary: string;
  /** The full `--help` text of this command. */
  readonly help: string;
  run(args: readonly string[], io: CliIO): Promise<number> | number;
}

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
