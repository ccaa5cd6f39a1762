/**
 * Point notation: a column letter `a`, `b`, … (no letter skipped) then the row number counted
 * from 1 at the bottom. `j10` is the centre of a 19×19 board, `h8` of a 15×15 board. Input is
 * case-insensitive; output is lower case.
 */
import { err, ok, problem, shownInput, type Result } from './result.ts';
import { MAX_SIZE, MIN_SIZE, type Point } from './types.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export function pointAt(size: number, col: number, row: number): Point {
  return row * size + col;
}

export function colOf(size: number, p: Point): number {
  return p % size;
}

export function rowOf(size: number, p: Point): number {
  return Math.floor(p / size);
}

export function onBoard(size: number, col: number, row: number): boolean {
  return col >= 0 && col < size && row >= 0 && row < size;
}

export function columnLetter(col: number): string {
  return LETTERS[col];
}

export function makePoint(size: number, p: Point): string {
  return `${LETTERS[colOf(size, p)]}${rowOf(size, p) + 1}`;
}

/**
 * Parses a point such as `j10` on a board of the given size. Problems say what is wrong:
 * not a point at all, or a column or row off this board.
 */
export function parsePoint(size: number, text: string): Result<Point> {
  const m = /^\s*([a-zA-Z])(\d{1,2})\s*$/.exec(text);
  if (m === null) {
    return err(problem('bad-point', `"${shownInput(text)}" is not a point: write a column letter then a row number, like j10`));
  }
  const col = LETTERS.indexOf(m[1].toLowerCase());
  const row = Number(m[2]) - 1;
  const last = `${LETTERS[size - 1]}${size}`;
  if (col >= size) {
    return err(problem('point-off-board', `column ${m[1].toLowerCase()} is off this ${size}×${size} board (a to ${LETTERS[size - 1]})`));
  }
  if (row < 0 || row >= size) {
    return err(problem('point-off-board', `row ${m[2]} is off this ${size}×${size} board (1 to ${size}; the far corner is ${last})`));
  }
  return ok(pointAt(size, col, row));
}

export function validSize(size: number): boolean {
  return Number.isInteger(size) && size >= MIN_SIZE && size <= MAX_SIZE;
}
