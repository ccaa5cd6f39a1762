/**
 * `gomoku canon "<description>"` prints the canonical form of a subgoal description, or shows
 * where the description is wrong.
 */
import { canonicalise, canonicalString } from '../notation/canonical.ts';
import { compileDescription } from '../recognition/compile.ts';
import { parseDescription } from '../notation/descriptionNotation.ts';
import { shownInput } from '../rules/result.ts';
import { parseArgs, type Command } from './command.ts';
import type { CliIO } from '../bot/io.ts';

const help = `usage: gomoku canon "<description>"

Prints the canonical form of a subgoal description written in Murray & Elcock's notation,
(node list) pattern list, for example:
  gomoku canon "(2-1, 2) 3:4-3, 4"      prints  (1, 2-1) 4, 3-3:4
Quote the description: the shell reads ( ) and ' itself. If it is not a valid description,
the input is printed with a ^ under the place that is wrong, and the exit code is 1.`;

/**
 * The input's line holding `index`, a caret under `index`, and the message. The line is shown
 * as errors show input (an escape character or other control named, `\u001b`, not sent to the
 * terminal), and the caret counts what is shown; tabs are kept so the caret lines up.
 */
export function markPosition(text: string, index: number, message: string): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const newline = text.indexOf('\n', index);
  const end = newline < 0 ? text.length : newline;
  const show = (t: string) => [...t].map((ch) => (ch === '\t' ? ch : shownInput(ch))).join('');
  const before = show(text.slice(start, index));
  const pad = [...before].map((ch) => (ch === '\t' ? ch : ' ')).join('');
  return `${before}${show(text.slice(index, end))}\n${pad}^\n${message}`;
}

export const canonCommand: Command = {
  name: 'canon',
  summary: 'print the canonical form of a subgoal description',
  help,
  run(args: readonly string[], io: CliIO): number {
    const parsed = parseArgs(args, { values: [], switches: [] });
    if (!parsed.ok) {
      io.err(`gomoku canon: ${parsed.message}\n\n${help}`);
      return 2;
    }
    if (parsed.value.positional.length === 0) {
      io.err(`gomoku canon: give a description\n\n${help}`);
      return 2;
    }
    // Unquoted, a description arrives in pieces; its spaces do not matter, so rejoin them.
    const text = parsed.value.positional.join(' ');
    const result = parseDescription(text);
    if (!result.ok) {
      const { code, message, index } = result.error;
      io.err(markPosition(text, index ?? 0, `gomoku canon: ${message} (${code})`));
      return 1;
    }
    // Well-formed is not yet a subgoal: its nodes must be joined by lines (node 2 of
    // `(1-2) 4-4` is on none of node 1's), as every other command that reads one checks.
    const stream = compileDescription(canonicalise(result.value));
    if (!stream.ok) {
      io.err(`gomoku canon: ${stream.error.message} (${stream.error.code})`);
      return 1;
    }
    io.out(canonicalString(result.value));
    return 0;
  },
};
