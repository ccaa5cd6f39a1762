/**
 * A small realisation of a subgoal, for its graphic mnemonic (Murray & Elcock's Fig. 11: "a
 * small picture of the board with a realisation of the subgoal on it").
 *
 * A learned subgoal is recognised, by the analysis's own rule, in the position just before
 * the winner's move p, with p among its nodes. Its example is that realisation with only the
 * stones it depends on: the stones on its footprint (nodes, pattern points and the patterns'
 * flanks). Other stones are dropped so the picture shows the pattern alone, as the paper's do.
 * Dropping stones can, rarely, stop the realisation from being one (a stone off the footprint
 * can matter to the "intersections are complete" rule); the reduced board is therefore
 * recognised again, and if the realisation is gone the example keeps every stone within two
 * lines of the footprint instead.
 */
import type { LearnedSubgoal } from '../learning/analysis.ts';
import { Board } from '../rules/board.ts';
import type { Game } from '../rules/game.ts';
import { parsePoint } from '../rules/point.ts';
import type { Realisation } from '../recognition/realisation.ts';
import { recognise } from '../recognition/recognise.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import { BLACK, type Colour, type Point, type Stone } from '../rules/types.ts';
import type { Example } from './records.ts';

/**
 * The example of a subgoal learned from `game` (a game the winner has just won): needs only the
 * subgoal, the move it was learned at and that move's point, as a worker's answer gives them.
 */
export function exampleOf(game: Game, learned: Pick<LearnedSubgoal, 'subgoal' | 'moveIndex' | 'point'>, winner: Colour): Example | undefined {
  const before = Board.empty(game.size);
  game.moves.slice(0, learned.moveIndex).forEach((p) => before.play(p, game.board.get(p) as Stone));
  const found = findWithNode(before, learned.subgoal, winner, learned.point);
  if (found === undefined) return undefined;
  const keep = new Set(found.footprint);
  const reduced = boardWith(before, (p) => keep.has(p));
  if (findWithNodes(reduced, learned.subgoal, winner, found.nodes) !== undefined) return exampleFrom(reduced, found);
  const near = (p: Point) => found.footprint.some((q) => chebyshev(game.size, p, q) <= 2);
  return exampleFrom(boardWith(before, near), found);
}

/** The example of the rule of the game, `(1) 1:5`: four in a row and the point that makes five. */
export function ruleExample(): Example {
  const size = 9;
  const at = (t: string) => {
    const p = parsePoint(size, t);
    if (!p.ok) throw new Error(`rule example: ${t}`);
    return p.value;
  };
  return { size, colour: 'black', black: ['c5', 'd5', 'e5', 'f5'].map(at), white: [at('b5')], nodes: [at('g5')], implicit: [] };
}

function findWithNode(board: Board, subgoal: Subgoal, colour: Colour, p: Point): Realisation | undefined {
  return recognise(board, [subgoal])[colour].find((r) => r.nodes.includes(p));
}

function findWithNodes(board: Board, subgoal: Subgoal, colour: Colour, nodes: readonly Point[]): Realisation | undefined {
  const want = [...nodes].sort((a, b) => a - b).join(',');
  return recognise(board, [subgoal])[colour].find((r) => [...r.nodes].sort((a, b) => a - b).join(',') === want);
}

function boardWith(from: Board, keep: (p: Point) => boolean): Board {
  const board = Board.empty(from.size);
  for (const p of from.moves) if (keep(p)) board.play(p, from.get(p) as Stone);
  return board;
}

function exampleFrom(board: Board, r: Realisation): Example {
  const black: Point[] = [];
  const white: Point[] = [];
  for (const p of board.moves) (board.get(p) === BLACK ? black : white).push(p);
  black.sort((a, b) => a - b);
  white.sort((a, b) => a - b);
  return { size: board.size, colour: r.colour, black, white, nodes: r.nodes.slice(), implicit: r.implicit.slice() };
}

function chebyshev(size: number, p: Point, q: Point): number {
  return Math.max(Math.abs((p % size) - (q % size)), Math.abs(Math.floor(p / size) - Math.floor(q / size)));
}
