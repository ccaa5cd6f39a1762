/** `gomoku library [--library FILE]` prints a library grouped by node list, as the paper does. */
import { Library, makeProvenance } from '../learning/library.ts';
import { describeProblem, shownInput } from '../rules/result.ts';
import { parseArgs, readInput, type Command } from './command.ts';
import type { CliIO } from '../bot/io.ts';

const help = `usage: gomoku library [--library FILE] [--provenance]

Prints the library's subgoals in the paper's notation, grouped by node list as the paper
prints its list (the rule of the game, (1) 1:5, is always there). With --provenance, the
listing is followed by every subgoal that has a provenance comment, one a line in the file's
order, with where and when it was learned.`;

export const libraryCommand: Command = {
  name: 'library',
  summary: 'print a library of subgoals grouped by node list',
  help,
  run(args: readonly string[], io: CliIO): number {
    const parsed = parseArgs(args, { values: ['library'], switches: ['provenance'] });
    if (!parsed.ok || parsed.value.positional.length > 0) {
      io.err(`gomoku library: ${parsed.ok ? `unexpected argument "${shownInput(parsed.value.positional[0], 40)}"` : parsed.message}\n\n${help}`);
      return 2;
    }
    const path = parsed.value.flags.get('library') as string | undefined;
    let library = Library.empty();
    if (path !== undefined) {
      const text = readInput(io, 'library', path, 'library');
      if (text === undefined) return 1;
      const lib = Library.fromFile(text);
      if (!lib.ok) {
        io.err(`gomoku library: ${describeProblem(lib.error, path)} (${lib.error.code})`);
        return 1;
      }
      library = lib.value;
    }
    io.out(library.listing().replace(/\n$/, ''));
    if (parsed.value.flags.get('provenance') === true) {
      for (const e of library.entries) if (e.provenance !== undefined) io.out(`${e.subgoal.text}  — ${makeProvenance(e.provenance)}`);
    }
    return 0;
  },
};
