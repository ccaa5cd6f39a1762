/** `gomoku stream "<description>"` prints the control stream a description compiles to. */
import { canonicalise } from '../notation/canonical.ts';
import { compileDescription } from '../recognition/compile.ts';
import { makeControlStream } from '../recognition/controlStream.ts';
import { parseDescription } from '../notation/descriptionNotation.ts';
import { markPosition } from './canon.ts';
import { parseArgs, type Command } from './command.ts';
import { shownInput } from '../rules/result.ts';
import type { CliIO } from '../bot/io.ts';

const help = `usage: gomoku stream "<description>" [--entry N]

Canonicalises the description and prints its control stream: the line and node tables, then
one element a line (A, B, C, D, E, as in the paper's Fig. 9). The scan starts from the most
demanding node unless --entry names another.`;

export const streamCommand: Command = {
  name: 'stream',
  summary: 'print the control stream a description compiles to',
  help,
  run(args: readonly string[], io: CliIO): number {
    const parsed = parseArgs(args, { values: ['entry'], switches: [] });
    if (!parsed.ok || parsed.value.positional.length === 0) {
      io.err(`gomoku stream: ${parsed.ok ? 'give a description' : parsed.message}\n\n${help}`);
      return 2;
    }
    const text = parsed.value.positional.join(' ');
    const d = parseDescription(text);
    if (!d.ok) {
      io.err(markPosition(text, d.error.index ?? 0, `gomoku stream: ${d.error.message} (${d.error.code})`));
      return 1;
    }
    const entryText = parsed.value.flags.get('entry') as string | undefined;
    if (entryText !== undefined && !/^\d{1,2}$/.test(entryText)) {
      io.err(`gomoku stream: --entry takes a node's label, a whole number such as 1 or 2, not "${shownInput(entryText)}"`);
      return 2;
    }
    const entry = entryText === undefined ? undefined : Number(entryText);
    const stream = compileDescription(canonicalise(d.value), entry);
    if (!stream.ok) {
      io.err(`gomoku stream: ${stream.error.message} (${stream.error.code})`);
      return 1;
    }
    io.out(makeControlStream(stream.value));
    return 0;
  },
};
