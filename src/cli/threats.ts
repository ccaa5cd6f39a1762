/**
 * `gomoku threats --board FILE [--library FILE] [--json]` lists the realisations of the
 * library's subgoals on a board, for both colours. The library always holds `(1) 1:5`.
 */
import { boardFromPicture, parseBoardText } from '../rules/boardText.ts';
import { Recogniser } from '../recognition/recognise.ts';
import { threatJson } from '../recognition/threatJson.ts';
import { describeProblem } from '../rules/result.ts';
import { COLOURS } from '../rules/types.ts';
import { parseArgs, readInput, type Command } from './command.ts';
import type { CliIO } from '../bot/io.ts';
import { loadLibrary } from './library.ts';

const help = `usage: gomoku threats --board FILE [--library FILE] [--json]

Lists, for black and for white, every realisation on the board of a subgoal in the library
(the rule of the game, (1) 1:5, is always included): its explicit nodes in label order, its
implicit nodes (the points where the opponent can destroy it) and the moves to five from its
commented node. --json prints
  {"black":[{"subgoal":"(1) 2:4'","nodes":["j10"],"implicit":["h10","m10"],"moves":2}],"white":[...]}`;

export const threatsCommand: Command = {
  name: 'threats',
  summary: 'list the realisations of learned subgoals on a board',
  help,
  run(args: readonly string[], io: CliIO): number {
    const parsed = parseArgs(args, { values: ['board', 'library'], switches: ['json'] });
    if (!parsed.ok || parsed.value.flags.get('board') === undefined || parsed.value.positional.length > 0) {
      io.err(`gomoku threats: ${parsed.ok ? 'give --board FILE' : parsed.message}\n\n${help}`);
      return 2;
    }
    const boardPath = parsed.value.flags.get('board') as string;
    const text = readInput(io, 'threats', boardPath, 'board');
    if (text === undefined) return 1;
    const picture = parseBoardText(text);
    if (!picture.ok) {
      io.err(`gomoku threats: ${describeProblem(picture.error, boardPath)}`);
      return 1;
    }
    const library = loadLibrary(io, 'threats', parsed.value.flags.get('library') as string | undefined);
    if (library === undefined) return 1;
    const size = picture.value.size;
    const recogniser = new Recogniser(boardFromPicture(picture.value), library);
    if (parsed.value.flags.get('json') === true) {
      const out = Object.fromEntries(COLOURS.map((c) => [c, recogniser.realisations(c).map((r) => threatJson(size, r))]));
      io.out(JSON.stringify(out));
      return 0;
    }
    for (const colour of COLOURS) {
      const list = recogniser.realisations(colour);
      io.out(`${colour}: ${list.length === 0 ? 'no realisations' : `${list.length} realisation${list.length === 1 ? '' : 's'}`}`);
      for (const r of list) {
        const j = threatJson(size, r);
        const implicit = j.implicit.length > 0 ? `  implicit ${j.implicit.join(' ')}` : '';
        const moves = j.moves !== null ? `  five in ${j.moves}` : '';
        io.out(`  ${j.subgoal}  nodes ${j.nodes.join(' ')}${implicit}${moves}`);
      }
    }
    return 0;
  },
};
