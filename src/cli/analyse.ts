/**
 * `gomoku analyse --game FILE [--library FILE] [--write] [--json]`: the backtrack analysis of
 * a lost game. Prints each subgoal learned, in canonical form, nearest the win first.
 */
import { basename } from 'node:path';
import { analyseGame } from '../learning/analysis.ts';
import { parseGame } from '../rules/gameRecord.ts';
import { Library } from '../learning/library.ts';
import { makePoint } from '../rules/point.ts';
import { describeProblem } from '../rules/result.ts';
import { parseArgs, readInput, type Command } from './command.ts';
import { INPUT_LIMITS, type CliIO } from '../bot/io.ts';
import { saveLearned } from './learnedLibrary.ts';

const help = `usage: gomoku analyse --game FILE [--library FILE] [--write] [--json] [--walk]

Walks back through a game whose last move completes a five and prints the subgoals the
winner's moves teach, in the paper's notation, one a line, nearest the win first. The
library (always holding (1) 1:5) is what the analysis starts from; each subgoal learned is
used for the moves further back.
  --write   add the new subgoals to the library file, each after a comment saying where and
            when it was learned (the file is created if it does not exist)
  --json    print [{"subgoal": ..., "move": n, "point": ..., "new": true|false}, ...]
  --walk    print the walk instead, one line per winner's move looked at, nearest the win
            first: the move, and what it taught or why it taught nothing (passed: the
            winner already held a four or a three, so the walk went on)`;

export const analyseCommand: Command = {
  name: 'analyse',
  summary: 'learn subgoals from a lost game (backtrack analysis)',
  help,
  async run(args: readonly string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, { values: ['game', 'library'], switches: ['write', 'json', 'walk'] });
    if (!parsed.ok || parsed.value.flags.get('game') === undefined || parsed.value.positional.length > 0) {
      io.err(`gomoku analyse: ${parsed.ok ? 'give --game FILE' : parsed.message}\n\n${help}`);
      return 2;
    }
    const gamePath = parsed.value.flags.get('game') as string;
    const libraryPath = parsed.value.flags.get('library') as string | undefined;
    const write = parsed.value.flags.get('write') === true;
    if (write && libraryPath === undefined) {
      io.err(`gomoku analyse: --write needs --library FILE\n\n${help}`);
      return 2;
    }
    const gameText = readInput(io, 'analyse', gamePath, 'game record');
    if (gameText === undefined) return 1;
    const game = parseGame(gameText);
    if (!game.ok) {
      io.err(`gomoku analyse: ${describeProblem(game.error, gamePath)}`);
      return 1;
    }
    let library = Library.empty();
    if (libraryPath !== undefined) {
      let text: string | undefined;
      try {
        text = io.readFile(libraryPath, INPUT_LIMITS.library);
      } catch (e) {
        // A library file that does not exist yet is an empty library when writing to it.
        if (!write || (e as NodeJS.ErrnoException).code !== 'ENOENT') {
          io.err(`gomoku analyse: cannot read ${libraryPath}: ${(e as Error).message}`);
          return 1;
        }
      }
      if (text !== undefined) {
        const lib = Library.fromFile(text);
        if (!lib.ok) {
          io.err(`gomoku analyse: ${describeProblem(lib.error, libraryPath)} (${lib.error.code})`);
          return 1;
        }
        library = lib.value;
      }
    }
    const analysis = analyseGame(game.value, library.subgoals());
    if (!analysis.ok) {
      io.err(`gomoku analyse: ${gamePath}: ${analysis.error.message}`);
      return 1;
    }
    const size = game.value.size;
    if (parsed.value.flags.get('json') === true) {
      io.out(
        JSON.stringify(
          analysis.value.learned.map((l) => ({ subgoal: l.subgoal.text, move: l.moveIndex + 1, point: makePoint(size, l.point), new: l.isNew })),
        ),
      );
    } else if (parsed.value.flags.get('walk') === true) {
      for (const w of analysis.value.walk) {
        const l = analysis.value.learned.find((x) => x.moveIndex === w.moveIndex);
        const what = l !== undefined ? `${l.subgoal.text}${l.isNew ? '' : ' (known)'}` : w.why ?? '';
        io.out(`${w.moveIndex + 1} ${makePoint(size, w.point)} ${w.outcome}: ${what}`);
      }
    } else if (analysis.value.learned.length === 0) {
      io.out(`nothing learned: no move of ${analysis.value.winner}'s made threats that one reply could not stop`);
    } else {
      for (const l of analysis.value.learned) io.out(l.subgoal.text);
    }
    if (write && libraryPath !== undefined) {
      const date = new Date().toISOString().slice(0, 10);
      const added = library.addLessons(analysis.value.learned, basename(gamePath), date);
      // As `brain --learn` saves: under the file's lock, merged with what is on disk then, and
      // written atomically — so a brain learning into the same file loses nothing, and a write
      // that fails half-way leaves the file as it was.
      const saved = await saveLearned(libraryPath, library, ['subgoals learned by gomoku analyse']);
      if (!saved.ok) {
        // The analysis was printed; what could not be done is said in one line, not a stack.
        io.err(`gomoku analyse: ${saved.error.message}; the file is as it was: nothing learned was saved`);
        return 1;
      }
      io.err(`gomoku analyse: ${added} new subgoal${added === 1 ? '' : 's'} written to ${libraryPath}`);
    }
    return 0;
  },
};
