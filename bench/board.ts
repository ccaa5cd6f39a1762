/** Board micro-benchmarks: play+undo throughput and enumeration of possible 5-patterns. */
import { BLACK, WHITE } from '../src/rules/types.ts';
import { measure, type Measurement } from './harness.ts';
import { generateGame } from './positions.ts';

export function benchBoard(): Measurement[] {
  const game = generateGame(1968, 60);
  const board = game.board;
  const empties = Array.from({ length: board.points }, (_, p) => p).filter((p) => board.isEmpty(p));
  const out: Measurement[] = [];
  const playUndo = measure(
    'board: play+undo, 19×19 middle game',
    () => {
      for (const p of empties) {
        board.play(p, BLACK);
        board.undo();
      }
      return board.stoneCount;
    },
    { samples: 21, inner: 20 },
  );
  const perPair = playUndo.medianUs / empties.length;
  out.push({
    ...playUndo,
    medianUs: perPair,
    worstUs: playUndo.worstUs / empties.length,
    note: `${(1e6 / perPair / 1e6).toFixed(2)} M play+undo pairs per second`,
  });
  out.push(
    measure('board: enumerate possible 5-patterns, both colours', () => board.possibleWindows(BLACK).length + board.possibleWindows(WHITE).length, {
      samples: 21,
      inner: 200,
      note: `${board.possibleWindows(BLACK).length} black + ${board.possibleWindows(WHITE).length} white of ${board.geometry.windowCount} windows`,
    }),
  );
  out.push(
    measure('board: possible 5-patterns through every point, both colours', () => {
      let n = 0;
      for (let p = 0; p < board.points; p++) n += board.possibleWindowsThrough(p, BLACK).length + board.possibleWindowsThrough(p, WHITE).length;
      return n;
    }, { samples: 21, inner: 50 }),
  );
  return out;
}
