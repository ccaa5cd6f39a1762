import { describe, expect, it } from 'vitest';
import { Board } from '../src/rules/board.ts';
import { boardFromPicture, parseBoardText } from '../src/rules/boardText.ts';
import { makePoint } from '../src/rules/point.ts';
import { expectOk } from '../src/rules/result.ts';
import {
  inverseSymmetry,
  SYMMETRIES,
  swapColours,
  transformPicture,
  transformPoint,
  translatePicture,
  translatePoint,
} from '../src/rules/symmetry.ts';
import { BLACK, WHITE, type Stone } from '../src/rules/types.ts';
import { fixture } from './support/fixtures.ts';

function histogram(b: Board, s: Stone): number[] {
  return [0, 1, 2, 3, 4, 5].map((k) => b.possibleCount(s, k));
}

describe('board symmetries', () => {
  it('are eight distinct bijections of the points, each undone by its inverse', () => {
    for (const size of [5, 15, 19]) {
      const images = new Set<string>();
      for (const t of SYMMETRIES) {
        const img = Array.from({ length: size * size }, (_, p) => transformPoint(size, t, p));
        expect(new Set(img).size).toBe(size * size);
        images.add(img.join(','));
        for (let p = 0; p < size * size; p++) expect(transformPoint(size, inverseSymmetry(t), img[p])).toBe(p);
      }
      expect(images.size).toBe(8);
    }
  });

  it('rotate a1 to s1 on 19×19 and keep the centre fixed', () => {
    expect(makePoint(19, transformPoint(19, 1, 0))).toBe('s1');
    for (const t of SYMMETRIES) expect(makePoint(19, transformPoint(19, t, 180))).toBe('j10');
  });

  it('preserve window counts, fives, and colour swap exchanges them (middle game fixture)', () => {
    const pic = expectOk(parseBoardText(fixture('boards/midgame-19.txt')));
    const base = boardFromPicture(pic);
    for (const t of SYMMETRIES) {
      const b = boardFromPicture(transformPicture(pic, t));
      expect(histogram(b, BLACK)).toEqual(histogram(base, BLACK));
      expect(histogram(b, WHITE)).toEqual(histogram(base, WHITE));
    }
    const swapped = boardFromPicture(swapColours(pic));
    expect(histogram(swapped, BLACK)).toEqual(histogram(base, WHITE));
    expect(histogram(swapped, WHITE)).toEqual(histogram(base, BLACK));
  });

  it('translation moves stones and refuses to push one off the board', () => {
    const pic = expectOk(parseBoardText(fixture('boards/midgame-19.txt')));
    const moved = translatePicture(pic, 3, -2);
    expect(moved).toBeDefined();
    for (let p = 0; p < 361; p++) {
      if (pic.cells[p] === 0) continue;
      expect(moved!.cells[translatePoint(19, p, 3, -2)!]).toBe(pic.cells[p]);
    }
    expect(translatePicture(pic, 12, 0)).toBeUndefined();
    expect(translatePoint(19, 0, -1, 0)).toBeUndefined();
    // Away from the edges a translation keeps the inner windows' counts: compare 4-stone windows.
    const b1 = boardFromPicture(pic);
    const b2 = boardFromPicture(moved!);
    for (const s of [BLACK, WHITE] as const) {
      for (const k of [2, 3, 4, 5]) expect(b2.possibleCount(s, k)).toBe(b1.possibleCount(s, k));
    }
  });
});
