/**
 * `gomoku show --game FILE` prints the final board of a game record and its result;
 * `gomoku show --board FILE` prints a board text back, normalised, and says who has a five.
 */
import { boardFromPicture, makeBoardText, parseBoardText } from '../rules/boardText.ts';
import { describeStatus } from '../rules/game.ts';
import { parseGame } from '../rules/gameRecord.ts';
import { makePoint } from '../rules/point.ts';
import { describeProblem } from '../rules/result.ts';
import { colourOf, type Stone } from '../rules/types.ts';
import { parseArgs, readInput, type Command } from './command.ts';
import type { CliIO } from '../bot/io.ts';

const help = `usage: gomoku show --game FILE
       gomoku show --board FILE

Prints a board as board text (top row first; . empty, x black, o white).
  --game FILE    a game record: moves like j10, black first; "# size 15" first line sets the size
  --board FILE   a board text file
With --game it prints the final position and the result; with --board, who has a five.`;

export const showCommand: Command = {
  name: 'show',
  summary: 'print the final board of a game record, or a board text',
  help,
  run(args: readonly string[], io: CliIO): number {
    const parsed = parseArgs(args, { values: ['game', 'board'], switches: [] });
    if (!parsed.ok) {
      io.err(`gomoku show: ${parsed.message}\n\n${help}`);
      return 2;
    }
    const game = parsed.value.flags.get('game');
    const board = parsed.value.flags.get('board');
    if ((game === undefined) === (board === undefined) || parsed.value.positional.length > 0) {
      io.err(`gomoku show: give exactly one of --game FILE or --board FILE\n\n${help}`);
      return 2;
    }
    const path = (game ?? board) as string;
    const text = readInput(io, 'show', path, game !== undefined ? 'game record' : 'board');
    if (text === undefined) return 1;
    if (game !== undefined) {
      const result = parseGame(text);
      if (!result.ok) {
        io.err(`gomoku show: ${describeProblem(result.error, path)}`);
        return 1;
      }
      const g = result.value;
      io.out(makeBoardText(g.board.snapshot()));
      io.out(`${g.moves.length} moves; ${describeStatus(g)}`);
      return 0;
    }
    const picture = parseBoardText(text);
    if (!picture.ok) {
      io.err(`gomoku show: ${describeProblem(picture.error, path)}`);
      return 1;
    }
    const b = boardFromPicture(picture.value);
    io.out(makeBoardText(picture.value));
    const fives = b.fives();
    if (fives.length === 0) {
      io.out('no five on this board');
    } else {
      for (const five of fives) {
        const who = colourOf(b.get(five[0]) as Stone);
        io.out(`${who} has five at ${five.map((p) => makePoint(b.size, p)).join(' ')}`);
      }
    }
    return 0;
  },
};
