/** Reading a `--library FILE` option: the file's subgoals, compiled, with the rule of five first. */
import { parseLibraryFile, withRule } from '../libraryFile.ts';
import { compileSubgoals, type Subgoal } from '../recognise.ts';
import { describeProblem } from '../result.ts';
import { readInput, type CliIO } from './command.ts';

/** The compiled library, or undefined after printing what is wrong (the caller exits 1). */
export function loadLibrary(io: CliIO, command: string, path: string | undefined): Subgoal[] | undefined {
  let descriptions: Parameters<typeof withRule>[0] = [];
  if (path !== undefined) {
    const text = readInput(io, command, path);
    if (text === undefined) return undefined;
    const parsed = parseLibraryFile(text);
    if (!parsed.ok) {
      io.err(`gomoku ${command}: ${describeProblem(parsed.error, path)} (${parsed.error.code})`);
      return undefined;
    }
    descriptions = parsed.value.map((e) => e.description);
  }
  const compiled = compileSubgoals(withRule(descriptions));
  if (!compiled.ok) {
    io.err(`gomoku ${command}: ${path ?? 'library'}: ${compiled.error.message} (${compiled.error.code})`);
    return undefined;
  }
  return compiled.value;
}
