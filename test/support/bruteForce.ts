// Obviously-correct recomputations used to check the board's incremental state. They walk the
// board point by point with no shared tables, so they share no bug with src/rules/geometry.ts.
import type { BoardPicture } from '../../src/rules/boardText.ts';
import { BLACK, EMPTY, WHITE, type Stone } from '../../src/rules/types.ts';

export interface BruteWindow {
  points: number[];
  black: number;
  white: number;
  possibleBlack: boolean;
  possibleWhite: boolean;
}

export function bruteWindows(pic: BoardPicture): BruteWindow[] {
  const { size, cells } = pic;
  const at = (c: number, r: number): number | undefined =>
    c >= 0 && c < size && r >= 0 && r < size ? cells[r * size + c] : undefined;
  const out: BruteWindow[] = [];
  for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        if (at(c + 4 * dc, r + 4 * dr) === undefined) continue;
        const pts: number[] = [];
        let black = 0;
        let white = 0;
        for (let i = 0; i < 5; i++) {
          const v = at(c + i * dc, r + i * dr);
          pts.push((r + i * dr) * size + c + i * dc);
          if (v === BLACK) black++;
          if (v === WHITE) white++;
        }
        const before = at(c - dc, r - dr);
        const after = at(c + 5 * dc, r + 5 * dr);
        const flankedBy = (s: Stone) => before === s || after === s;
        out.push({
          points: pts,
          black,
          white,
          possibleBlack: white === 0 && !flankedBy(BLACK),
          possibleWhite: black === 0 && !flankedBy(WHITE),
        });
      }
    }
  }
  return out;
}

/** Colours with a run of exactly five stones somewhere, by scanning every maximal run. */
export function bruteExactFive(pic: BoardPicture): Set<Stone> {
  const { size, cells } = pic;
  const found = new Set<Stone>();
  for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const v = cells[r * size + c];
        if (v === EMPTY) continue;
        const pc = c - dc;
        const pr = r - dr;
        if (pc >= 0 && pc < size && pr >= 0 && pr < size && cells[pr * size + pc] === v) continue;
        let len = 0;
        let cc = c;
        let rr = r;
        while (cc >= 0 && cc < size && rr >= 0 && rr < size && cells[rr * size + cc] === v) {
          len++;
          cc += dc;
          rr += dr;
        }
        if (len === 5) found.add(v as Stone);
      }
    }
  }
  return found;
}
