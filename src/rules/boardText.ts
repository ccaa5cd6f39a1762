/**
 * Board text: N lines, the top row (row N) first, one character a point: `.` empty, `x`
 * black, `o` white (either case). Spaces are ignored; blank lines and lines starting with `#`
 * are skipped. The size is the number of rows.
 *
 *     . . x
 *     . o x      ← a 3×3 picture; boards are 5×5 to 19×19
 *     . . .
 *
 * A board copied from the terminal game, with its coordinates, reads too: a line of the column
 * letters in order (`a b c …`, above or below the rows) is skipped, and a row may start with
 * its number, which must then be that row's (`19` for the top row of a 19×19 board).
 */
import { Board } from './board.ts';
import { columnLetter, pointAt, validSize } from './point.ts';
import { err, ok, problem, shownInput, type Result } from './result.ts';
import { BLACK, EMPTY, MAX_SIZE, MIN_SIZE, WHITE, type Cell, type Point } from './types.ts';
import { splitLines } from './textLines.ts';

export interface BoardPicture {
  readonly size: number;
  /** One cell per point id (row 0 at the bottom). */
  readonly cells: readonly Cell[];
}

const CELL_OF: Record<string, Cell> = { '.': EMPTY, x: BLACK, X: BLACK, o: WHITE, O: WHITE };
const CHAR_OF = ['.', 'x', 'o'] as const;

export function parseBoardText(text: string): Result<BoardPicture> {
  const rows: { line: number; cells: { cell: Cell; column: number }[]; end: number }[] = [];
  // A byte-order mark (an editor's, on saving as UTF-8) is no part of the picture, as game
  // records and library files, whose parsers take it for white space, already read it.
  const lines = splitLines(text.startsWith('\ufeff') ? text.slice(1) : text);
  const labels: { line: number; label: number; column: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#') || isColumnLetters(trimmed)) continue;
    const cells: { cell: Cell; column: number }[] = [];
    const label = /^\s*(\d{1,2})(?=\s)/.exec(raw);
    if (label !== null) labels.push({ line: i + 1, label: Number(label[1]), column: raw.indexOf(label[1]) + 1 });
    for (let c = label === null ? 0 : label[0].length; c < raw.length; c++) {
      const ch = raw[c];
      if (ch === ' ' || ch === '\t') continue;
      const cell = CELL_OF[ch];
      if (cell === undefined) {
        return err(problem('bad-cell', `"${shownInput(ch)}" is not a board point: use . for empty, x for black, o for white`, { line: i + 1, column: c + 1 }));
      }
      cells.push({ cell, column: c + 1 });
    }
    rows.push({ line: i + 1, cells, end: raw.length + 1 });
  }
  const size = rows.length;
  if (!validSize(size)) {
    const where = rows.length > 0 ? { line: rows[rows.length - 1].line } : { line: 1 };
    return err(problem('bad-size', `a board has ${MIN_SIZE} to ${MAX_SIZE} rows; this one has ${size}`, where));
  }
  if (labels.length > 0) {
    const rowOfLine = new Map(rows.map((r, i) => [r.line, size - i]));
    for (const l of labels) {
      const row = rowOfLine.get(l.line)!;
      if (l.label !== row) return err(problem('row-label', `this row is labelled ${l.label} but is row ${row} of a ${size}-row board (the top row is ${size})`, { line: l.line, column: l.column }));
    }
  }
  const cells = new Array<Cell>(size * size).fill(EMPTY);
  for (let r = 0; r < size; r++) {
    const row = rows[r];
    if (row.cells.length !== size) {
      const column = row.cells.length > size ? row.cells[size].column : row.end;
      return err(problem('row-length', `row ${size - r} has ${row.cells.length} points; a ${size}-row board needs ${size}`, { line: row.line, column }));
    }
    const boardRow = size - 1 - r;
    row.cells.forEach((c, col) => (cells[pointAt(size, col, boardRow)] = c.cell));
  }
  return ok({ size, cells });
}

/** Whether a line is the column letters a, b, c, … in order, as the terminal's board heads its columns. */
function isColumnLetters(line: string): boolean {
  const letters = line.split(/\s+/);
  return letters.length >= MIN_SIZE && letters.every((l, i) => l === columnLetter(i));
}

export function makeBoardText(picture: BoardPicture): string {
  const { size, cells } = picture;
  const lines: string[] = [];
  for (let row = size - 1; row >= 0; row--) {
    const chars: string[] = [];
    for (let col = 0; col < size; col++) chars.push(CHAR_OF[cells[pointAt(size, col, row)]]);
    lines.push(chars.join(' '));
  }
  return `${lines.join('\n')}\n`;
}

/** A board holding the picture's stones, placed in point order (a picture has no move order). */
export function boardFromPicture(picture: BoardPicture): Board {
  const board = Board.empty(picture.size);
  picture.cells.forEach((cell, p: Point) => {
    if (cell !== EMPTY) board.play(p, cell);
  });
  return board;
}
