import { describe, expect, it } from 'vitest';
import { Board } from '../src/rules/board.ts';
import { directionWindows, EMPTY_SHIFT, LINE_SHIFT, ProfileTable, windowSet } from '../src/recognition/profile.ts';
import { seededRandom } from '../src/rules/random.ts';
import { BLACK, WHITE, type Stone } from '../src/rules/types.ts';

/**
 * The profile table's derived data — the OR of a point's other masks, and the line bit boards
 * the interpreter's C element reads its candidates from — checked against the masks they are
 * derived from, point by point, on boards reached by seeded random play and undo.
 */
describe('profile table: others and line bit boards', () => {
  const sizes = [9, 15, 19];

  /** Everything the table holds, from the masks by the definitions alone. */
  function expected(t: ProfileTable): { others: number[]; lineAtoms: number[]; lineEmpty: number[] } {
    const g = t.board.geometry;
    const dw = directionWindows(g);
    const others: number[] = [];
    const lineAtoms = new Array<number>(t.lineAtoms.length).fill(0);
    const lineEmpty = new Array<number>(t.lineEmpty.length).fill(0);
    for (let p = 0; p < g.points; p++) {
      for (let d = 0; d < 4; d++) {
        if (t.board.isEmpty(p)) lineEmpty[d * t.lineCount + dw.lineOf[p * 4 + d]] |= 1 << (dw.posOf[p * 4 + d] + EMPTY_SHIFT);
        let o = 0;
        for (let e = 0; e < 4; e++) if (e !== d) o |= t.masks[p * 4 + e];
        others.push(o);
        for (let a = 0; a < 10; a++) {
          const bit = 1 << (dw.posOf[p * 4 + d] + LINE_SHIFT);
          if ((t.masks[p * 4 + d] >> a) & 1) lineAtoms[(d * 2 * 10 + a) * t.lineCount + dw.lineOf[p * 4 + d]] |= bit;
          if ((o >> a) & 1) lineAtoms[((d * 2 + 1) * 10 + a) * t.lineCount + dw.lineOf[p * 4 + d]] |= bit;
        }
      }
    }
    return { others, lineAtoms, lineEmpty };
  }

  for (const size of sizes) {
    it(`stay what the masks say through plays and undos (${size}×${size})`, () => {
      const rnd = seededRandom(400 + size);
      const board = Board.empty(size);
      const tables = [new ProfileTable(board, BLACK), new ProfileTable(board, WHITE)];
      for (let step = 0; step < 120; step++) {
        let q: number;
        if (board.stoneCount > 3 && rnd.next() < 0.3) {
          q = board.undo();
        } else {
          const empties = Array.from({ length: board.points }, (_, p) => p).filter((p) => board.isEmpty(p));
          q = rnd.pick(empties);
          board.play(q, (board.stoneCount % 2 === 0 ? BLACK : WHITE) as Stone);
        }
        for (const t of tables) t.refreshAround(q);
        if (step % 10 !== 9) continue;
        for (const t of tables) {
          const fresh = new ProfileTable(board.clone(), t.stone);
          expect(Array.from(t.masks), `step ${step}`).toEqual(Array.from(fresh.masks));
          // Both ways of making window sets (point by point around a move, window by window afresh) agree with the definition.
          const sets = Array.from({ length: board.points * 4 }, (_, pd) => (board.isEmpty(pd >> 2) ? windowSet(board, pd >> 2, t.stone, pd & 3) : 0));
          expect(Array.from(t.windows), `step ${step}`).toEqual(sets);
          expect(Array.from(fresh.windows), `step ${step}`).toEqual(sets);
          const want = expected(t);
          expect(Array.from(t.others), `step ${step}`).toEqual(want.others);
          expect(Array.from(t.lineAtoms), `step ${step}`).toEqual(want.lineAtoms);
          expect(Array.from(t.lineEmpty), `step ${step}`).toEqual(want.lineEmpty);
        }
      }
    });
  }

  it('candidates are the points within four steps along the line meeting both atom sets', () => {
    const rnd = seededRandom(77);
    const board = Board.empty(19);
    for (let i = 0; i < 70; i++) {
      const empties = Array.from({ length: board.points }, (_, p) => p).filter((p) => board.isEmpty(p));
      board.play(rnd.pick(empties), (i % 2 === 0 ? BLACK : WHITE) as Stone);
    }
    const t = new ProfileTable(board, BLACK);
    const g = board.geometry;
    const dw = directionWindows(g);
    let nonEmpty = 0;
    for (let n = 0; n < 3000; n++) {
      const f = rnd.int(board.points);
      const d = rnd.int(4);
      const along = 1 << rnd.int(10) | (rnd.next() < 0.3 ? 1 << rnd.int(10) : 0);
      const others = rnd.next() < 0.3 ? 0 : 1 << rnd.int(10);
      let want = 0;
      for (let s = -4; s <= 4; s++) {
        const q = f + s * g.step[d];
        if (q < 0 || q >= board.points || dw.lineOf[q * 4 + d] !== dw.lineOf[f * 4 + d]) continue;
        if ((t.masks[q * 4 + d] & along) === along && (t.others[q * 4 + d] & others) === others) want |= 1 << (s + 4);
      }
      expect(t.candidates(f, d, along, others), `f ${f} d ${d}`).toBe(want);
      if (want !== 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(300);
  });
});
