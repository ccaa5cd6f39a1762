/**
 * The npm package `gomokuai` (a one-ply pattern scorer taken from Zebra_Gomoku) as a
 * `MovePlayer`: a weak but real opponent for the match runner and a stand-in brain until
 * the project's own player exists. It lives at the edge because it loads a CommonJS
 * package the core must not depend on.
 *
 * The package's conventions, read from its src/ai.js and tests:
 * - the board is a flat array indexed `x + y * size`, x the column;
 * - 1 is the stones of the side it moves for, 2 the opponent's, 0 empty (its tie-break
 *   prefers the attack score of 1, and its tests expect it to complete a line of 1s);
 * - it scores lines of five or more alike, knowing nothing of "exactly five";
 * - on an empty board every point scores 0 and it answers the corner {x: 0, y: 0};
 * - `bestMove` falls back to `randomMove` (Math.random) when its scan lands on an occupied
 *   point, which happens only when a five is already on the board or the board is full,
 *   and returns null on a full board.
 *
 * It has no notion of up or down, so our point (col, row) is simply its (x, y) = (col, row).
 */
import { createRequire } from 'node:module';
import { nearestCentre, type MovePlayer } from '../play/engine.ts';
import type { Game } from '../rules/game.ts';
import { pointAt } from '../rules/point.ts';
import { EMPTY, stoneOf, type Point } from '../rules/types.ts';

type Mark = 0 | 1 | 2;
interface GomokuAi {
  bestMove(board: Mark[], size: number): { x: number; y: number } | null;
}

const gomokuai = createRequire(import.meta.url)('gomokuai') as GomokuAi;

/** The board as gomokuai reads it: 1 the side to move, 2 the other side, 0 empty. */
export function gomokuaiBoard(game: Game): Mark[] {
  const own = stoneOf(game.turn);
  const marks: Mark[] = new Array<Mark>(game.board.points);
  for (let p = 0; p < marks.length; p++) {
    const cell = game.board.get(p);
    marks[p] = cell === EMPTY ? 0 : cell === own ? 1 : 2;
  }
  return marks;
}

/**
 * A player asking gomokuai for every move. On an empty board it plays the centre rather
 * than gomokuai's corner; an answer that is not an empty point (see above) is replaced by
 * the empty point nearest the centre, so the player is deterministic and never illegal.
 */
export function createGomokuaiPlayer(): MovePlayer {
  return {
    name: 'gomokuai',
    chooseMove(game: Game): Point {
      const fallback = nearestCentre(game);
      if (fallback === undefined) throw new RangeError('gomokuai asked to move on a full board');
      if (game.moves.length === 0) return fallback;
      const size = game.size;
      const answer = gomokuai.bestMove(gomokuaiBoard(game), size);
      if (answer === null || !Number.isInteger(answer.x) || !Number.isInteger(answer.y)) return fallback;
      if (answer.x < 0 || answer.x >= size || answer.y < 0 || answer.y >= size) return fallback;
      const p = pointAt(size, answer.x, answer.y);
      return game.board.isEmpty(p) ? p : fallback;
    },
  };
}
