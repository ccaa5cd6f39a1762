/**
 * Soundness-solver benchmarks: whole `solve` calls (iterative deepening, table and main line
 * included) on fixed positions — a hand-built double open three and games from the
 * documented generator (bench/positions.ts) — reported per call, with the nodes searched and
 * nodes per second in the note. A fresh search each call: nothing is carried between calls.
 */
import type { Board } from '../src/rules/board.ts';
import { boardFromPicture, parseBoardText } from '../src/rules/boardText.ts';
import { expectOk } from '../src/rules/result.ts';
import { solve, type SolveOptions } from '../src/learning/solver.ts';
import { BLACK, WHITE, type Stone } from '../src/rules/types.ts';
import { measure, type Measurement } from './harness.ts';
import { generateGame } from './positions.ts';

/** Two twos crossing at e5 on an empty 9×9 board: e5 is a double open three, a win in 3. */
const DOUBLE_THREE = `
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . x x . . . . .
. . . . x . . . .
. . . . x . . . .
. . . . . . . . .
. . . . . . . . .
`;

interface Case {
  readonly name: string;
  readonly board: Board;
  readonly attacker: Stone;
  readonly options: SolveOptions;
  readonly samples: number;
  /** Calls per sample: the quick cases need many for the timer and the JIT to settle. */
  readonly inner: number;
}

const BUDGET = 1_000_000;

function cases(): Case[] {
  const opening = generateGame(1968, 12).board;
  const early = generateGame(1968, 20).board;
  const middle = generateGame(1968, 60).board;
  return [
    { name: 'double open three, 9×9, k 3', board: boardFromPicture(expectOk(parseBoardText(DOUBLE_THREE))), attacker: BLACK, options: { maxAttackerMoves: 3, nodeBudget: BUDGET }, samples: 21, inner: 50 },
    { name: 'opening (12 moves), black, k 6', board: opening, attacker: BLACK, options: { maxAttackerMoves: 6, nodeBudget: BUDGET }, samples: 9, inner: 1 },
    { name: 'opening (12 moves), white, k 6', board: opening, attacker: WHITE, options: { maxAttackerMoves: 6, nodeBudget: BUDGET }, samples: 9, inner: 1 },
    { name: 'early game (20 moves), white, k 6, counter-fours', board: early, attacker: WHITE, options: { maxAttackerMoves: 6, nodeBudget: BUDGET, counterFours: true }, samples: 5, inner: 1 },
    { name: 'middle game (60 moves), white, k 5', board: middle, attacker: WHITE, options: { maxAttackerMoves: 5, nodeBudget: BUDGET }, samples: 15, inner: 20 },
  ];
}

export function benchSolver(): Measurement[] {
  const out: Measurement[] = [];
  for (const c of cases()) {
    const probe = solve(c.board, c.attacker, c.options);
    const m = measure(`solve: ${c.name}`, () => solve(c.board, c.attacker, c.options), { samples: c.samples, inner: c.inner, warmup: 2 });
    const verdict = probe.result === 'win' ? `win in ${probe.moves}` : probe.result;
    const perSecond = probe.nodes / (m.medianUs / 1e6);
    out.push({ ...m, note: `${verdict}, ${probe.nodes} nodes, ${(perSecond / 1000).toFixed(0)} k nodes/s` });
  }
  return out;
}
