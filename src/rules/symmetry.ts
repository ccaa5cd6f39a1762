/**
 * The eight symmetries of the square board (rotations and reflections) and translation, as
 * functions on points and on board pictures. Recognition must not care where on the board,
 * or which way round, a pattern stands; the tests use these to check that.
 */
import type { BoardPicture } from './boardText.ts';
import { colOf, onBoard, pointAt, rowOf } from './point.ts';
import { BLACK, EMPTY, WHITE, type Cell, type Point } from './types.ts';

/** 0 identity, 1–3 rotations by 90°, 180°, 270°, 4–7 the reflections. */
export type Symmetry = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;
export const SYMMETRIES: readonly Symmetry[] = [0, 1, 2, 3, 4, 5, 6, 7];

/** Maps (col, row) to its image under symmetry t on an N×N board. */
export function transformCoords(size: number, t: Symmetry, col: number, row: number): [number, number] {
  const m = size - 1;
  switch (t) {
    case 0: return [col, row];
    case 1: return [m - row, col];
    case 2: return [m - col, m - row];
    case 3: return [row, m - col];
    case 4: return [m - col, row];
    case 5: return [col, m - row];
    case 6: return [row, col];
    case 7: return [m - row, m - col];
  }
}

export function transformPoint(size: number, t: Symmetry, p: Point): Point {
  const [c, r] = transformCoords(size, t, colOf(size, p), rowOf(size, p));
  return pointAt(size, c, r);
}

/** The symmetry that undoes t. */
export function inverseSymmetry(t: Symmetry): Symmetry {
  return t === 1 ? 3 : t === 3 ? 1 : t;
}

export function transformPicture(picture: BoardPicture, t: Symmetry): BoardPicture {
  const { size } = picture;
  const cells = new Array<Cell>(size * size).fill(EMPTY);
  picture.cells.forEach((cell, p) => (cells[transformPoint(size, t, p)] = cell));
  return { size, cells };
}

/** The point shifted by (dCol, dRow), or undefined when that leaves the board. */
export function translatePoint(size: number, p: Point, dCol: number, dRow: number): Point | undefined {
  const c = colOf(size, p) + dCol;
  const r = rowOf(size, p) + dRow;
  return onBoard(size, c, r) ? pointAt(size, c, r) : undefined;
}

/** The picture shifted by (dCol, dRow), or undefined when a stone would leave the board. */
export function translatePicture(picture: BoardPicture, dCol: number, dRow: number): BoardPicture | undefined {
  const { size } = picture;
  const cells = new Array<Cell>(size * size).fill(EMPTY);
  for (let p = 0; p < cells.length; p++) {
    if (picture.cells[p] === EMPTY) continue;
    const q = translatePoint(size, p, dCol, dRow);
    if (q === undefined) return undefined;
    cells[q] = picture.cells[p];
  }
  return { size, cells };
}

/** The picture with black and white exchanged. */
export function swapColours(picture: BoardPicture): BoardPicture {
  const swap = (c: Cell): Cell => (c === BLACK ? WHITE : c === WHITE ? BLACK : EMPTY);
  return { size: picture.size, cells: picture.cells.map(swap) };
}
