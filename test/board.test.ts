import { describe, expect, it } from 'vitest';
import { Board } from '../src/rules/board.ts';
import { geometry } from '../src/rules/geometry.ts';
import { pointAt } from '../src/rules/point.ts';
import { seededRandom } from '../src/rules/random.ts';
import { BLACK, EMPTY, WHITE, type Stone } from '../src/rules/types.ts';
import { bruteExactFive, bruteWindows } from './support/bruteForce.ts';

function expectMatchesBruteForce(board: Board): void {
  const brute = bruteWindows(board.snapshot());
  const g = board.geometry;
  expect(g.windowCount).toBe(brute.length);
  // Windows are matched by their point set, not by id, so the check does not trust the id order.
  const byKey = new Map(brute.map((w) => [w.points.slice().sort((a, b) => a - b).join(','), w]));
  const hist = { [BLACK]: new Array(6).fill(0), [WHITE]: new Array(6).fill(0) };
  for (let w = 0; w < g.windowCount; w++) {
    const key = board.windowPoints(w).sort((a, b) => a - b).join(',');
    const b = byKey.get(key);
    expect(b, `window ${key}`).toBeDefined();
    expect(board.stonesIn(w, BLACK)).toBe(b!.black);
    expect(board.stonesIn(w, WHITE)).toBe(b!.white);
    expect(board.isPossible(w, BLACK)).toBe(b!.possibleBlack);
    expect(board.isPossible(w, WHITE)).toBe(b!.possibleWhite);
    if (b!.possibleBlack) hist[BLACK][b!.black]++;
    if (b!.possibleWhite) hist[WHITE][b!.white]++;
  }
  for (const s of [BLACK, WHITE] as const) {
    for (let k = 0; k <= 5; k++) expect(board.possibleCount(s, k), `colour ${s} k ${k}`).toBe(hist[s][k]);
  }
}

describe('geometry', () => {
  it.each([5, 6, 15, 19])('counts every window of a %i×%i board', (n) => {
    const g = geometry(n);
    const perLine = n - 4;
    // n rows and n columns of (n - 4) windows each, plus (n - 4)² on each diagonal direction.
    expect(g.windowCount).toBe(2 * n * perLine + 2 * perLine * perLine);
  });

  it('gives each point the windows it lies in and the windows it flanks', () => {
    const g = geometry(19);
    const corner = pointAt(19, 0, 0);
    const centre = pointAt(19, 9, 9);
    // A corner lies in one window per direction except the falling diagonal, which cannot reach it.
    expect(g.pointWindowStart[corner + 1] - g.pointWindowStart[corner]).toBe(3);
    // The centre lies in five windows in each of the four directions.
    expect(g.pointWindowStart[centre + 1] - g.pointWindowStart[centre]).toBe(20);
    // ...and flanks two windows in each direction (one ending just before it, one starting just after).
    expect(g.pointFlankStart[centre + 1] - g.pointFlankStart[centre]).toBe(8);
    // A corner flanks the windows that start one step away from it: along the row, the column
    // and the rising diagonal.
    expect(g.pointFlankStart[corner + 1] - g.pointFlankStart[corner]).toBe(3);
  });
});

describe('Board window state', () => {
  it('starts with every window possible and empty for both colours', () => {
    const b = Board.empty(19);
    expect(b.possibleCount(BLACK, 0)).toBe(b.geometry.windowCount);
    expect(b.possibleCount(WHITE, 0)).toBe(b.geometry.windowCount);
    expectMatchesBruteForce(b);
  });

  it('an opponent stone inside a window kills it; an own stone on a flank kills it', () => {
    const b = Board.empty(19);
    const row = 9;
    for (let c = 3; c <= 6; c++) b.play(pointAt(19, c, row), BLACK);
    // Windows holding all four black stones on row 10: d..h (cols 3..7) and c..g (cols 2..6).
    const four = b.possibleWindows(BLACK, 4);
    expect(four).toHaveLength(2);
    b.play(pointAt(19, 7, row), WHITE); // blocks the window starting at col 3
    expect(b.possibleWindows(BLACK, 4)).toHaveLength(1);
    b.play(pointAt(19, 1, row), BLACK); // b10: its stone flanks the window c..g (cols 2..6)
    expect(b.possibleWindows(BLACK, 4)).toHaveLength(0);
    expectMatchesBruteForce(b);
  });

  it('keeps the counts equal to a brute-force recount over random plays and undos (seeded)', () => {
    for (const [seed, size] of [[1, 19], [2, 15], [3, 5], [4, 9]] as const) {
      const rnd = seededRandom(seed);
      const b = Board.empty(size);
      const empties = () => Array.from({ length: size * size }, (_, p) => p).filter((p) => b.isEmpty(p));
      for (let step = 0; step < 120 && b.stoneCount < size * size; step++) {
        if (b.stoneCount > 0 && rnd.next() < 0.25) b.undo();
        else b.play(rnd.pick(empties()), rnd.next() < 0.5 ? BLACK : WHITE);
        if (step % 10 === 0) expectMatchesBruteForce(b);
      }
      expectMatchesBruteForce(b);
      while (b.stoneCount > 0) b.undo();
      expectMatchesBruteForce(b);
      expect(b.snapshot().cells.every((c) => c === EMPTY)).toBe(true);
    }
  });

  it('clone is independent of the original', () => {
    const a = Board.empty(15);
    a.play(7, BLACK);
    const b = a.clone();
    b.play(8, WHITE);
    expect(a.get(8)).toBe(EMPTY);
    expect(a.stoneCount).toBe(1);
    expectMatchesBruteForce(a);
    expectMatchesBruteForce(b);
  });

  it('refuses to place on an occupied point and to undo an empty board', () => {
    const b = Board.empty(5);
    b.play(0, BLACK);
    expect(() => b.play(0, WHITE)).toThrow(RangeError);
    b.undo();
    expect(() => b.undo()).toThrow(RangeError);
  });
});

describe('exact five', () => {
  it('agrees with a run scanner on random crowded boards (seeded)', () => {
    const rnd = seededRandom(77);
    for (let trial = 0; trial < 60; trial++) {
      const size = rnd.pick([7, 9, 15, 19]);
      const b = Board.empty(size);
      const fill = rnd.int(size * size);
      for (let i = 0; i < fill; i++) {
        const p = rnd.int(size * size);
        if (b.isEmpty(p)) b.play(p, (rnd.next() < 0.6 ? BLACK : WHITE) as Stone);
      }
      const brute = bruteExactFive(b.snapshot());
      const found = new Set(b.fives().map((five) => b.get(five[0]) as Stone));
      expect(found).toEqual(brute);
      for (let p = 0; p < size * size; p++) {
        if (b.isEmpty(p)) continue;
        const five = b.fiveThrough(p);
        if (five !== undefined) expect(five.every((q) => b.get(q) === b.get(p))).toBe(true);
      }
    }
  });

  it('a run of six is no five, a run of five is', () => {
    const b = Board.empty(19);
    for (let c = 0; c < 6; c++) b.play(pointAt(19, c, 0), BLACK);
    expect(b.fiveThrough(pointAt(19, 2, 0))).toBeUndefined();
    expect(b.fives()).toEqual([]);
    b.undo();
    expect(b.fiveThrough(pointAt(19, 2, 0))).toHaveLength(5);
  });
});
