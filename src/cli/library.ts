/** Reading a `--library FILE` option: the file's subgoals, compiled, with the rule of five first. */
import { Library } from '../learning/library.ts';
import { describeProblem } from '../rules/result.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import { readInput } from './command.ts';
import type { CliIO } from '../bot/io.ts';

/** The compiled library, or undefined after printing what is wrong (the caller exits 1). */
export function loadLibrary(io: CliIO, command: string, path: string | undefined): Subgoal[] | undefined {
  if (path === undefined) return Library.empty().subgoals();
  const text = readInput(io, command, path, 'library');
  if (text === undefined) return undefined;
  const lib = Library.fromFile(text);
  if (!lib.ok) {
    io.err(`gomoku ${command}: ${describeProblem(lib.error, path)} (${lib.error.code})`);
    return undefined;
  }
  return lib.value.subgoals();
}
