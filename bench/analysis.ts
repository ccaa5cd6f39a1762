/**
 * Analysis benchmark: the backtrack analysis of a lost game of about 60 and about 150 moves,
 * with the rule of five alone and with the 100- and 1000-subgoal benchmark libraries.
 *
 * The games are made by a documented generator: the benchmark position generator
 * (bench/positions.ts: careful-beginner play that blocks fives and open fours) plays the
 * given number of moves, then both sides play on with the same policy but without the
 * open-four blocks, until someone makes five. Seeds are tried in order from 1 until the game
 * ends within 10 moves of the wanted length; the seed found is printed.
 */
import { analyseGame } from '../src/learning/analysis.ts';
import type { Game } from '../src/rules/game.ts';
import { compileSubgoal } from '../src/recognition/subgoal.ts';
import { parseDescription } from '../src/notation/descriptionNotation.ts';
import { expectOk } from '../src/rules/result.ts';
import { fiveThreats, openFourPoints } from '../src/rules/threats.ts';
import { opposite, stoneOf } from '../src/rules/types.ts';
import { measure, type Measurement } from './harness.ts';
import { benchLibrary } from './libraries.ts';
import { generateGame } from './positions.ts';

/** Plays on from a generated position until a five: take a five, block one, make an open four, else the nearest point by id. */
function finish(game: Game, limit: number): Game {
  while (!game.isOver && game.moves.length < limit) {
    const me = stoneOf(game.turn);
    const them = stoneOf(opposite(game.turn));
    const pick = fiveThreats(game.board, me)[0] ?? fiveThreats(game.board, them)[0] ?? openFourPoints(game.board, me)[0];
    if (pick !== undefined) {
      game.play(pick);
      continue;
    }
    // Extend a random-looking but fixed line: the lowest empty point next to the last move.
    const last = game.moves[game.moves.length - 1];
    const size = game.size;
    let moved = false;
    for (const d of [1, -1, size, -size, size + 1, size - 1, -size + 1, -size - 1]) {
      const p = last + d;
      if (p >= 0 && p < size * size && game.board.isEmpty(p) && Math.abs((p % size) - (last % size)) <= 1) {
        game.play(p);
        moved = true;
        break;
      }
    }
    if (!moved) break;
  }
  return game;
}

export function lostGame(length: number): { game: Game; seed: number } {
  for (let seed = 1; seed < 500; seed++) {
    const game = finish(generateGame(seed, Math.max(4, length - 12)), length + 40);
    if (game.status.kind === 'won' && Math.abs(game.moves.length - length) <= 10) return { game, seed };
  }
  throw new Error(`no generated game ended near ${length} moves`);
}

export function benchAnalysis(): Measurement[] {
  const rule = [expectOk(compileSubgoal(expectOk(parseDescription('(1) 1:5'))))];
  const libs = [
    { name: 'rule of five only', lib: rule },
    { name: '100 subgoals', lib: benchLibrary(100) },
    { name: '1000 subgoals', lib: benchLibrary(1000) },
  ];
  const out: Measurement[] = [];
  for (const length of [60, 150]) {
    const { game, seed } = lostGame(length);
    for (const { name, lib } of libs) {
      const learned = expectOk(analyseGame(game, lib)).learned.length;
      out.push(
        measure(`analyse a lost game of ${game.moves.length} moves, ${name}`, () => analyseGame(game, lib), {
          samples: 9,
          note: `game seed ${seed}; learns ${learned}`,
        }),
      );
    }
  }
  return out;
}
