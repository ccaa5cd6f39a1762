/**
 * Where things go on the image: pure geometry, no canvas. The drawing code and the tests both
 * ask this module where a point's centre is, so the layout maths lives in one place.
 *
 * Pixel conventions: an intersection's lines are one pixel wide and sit on whole pixel
 * columns and rows, so a point's centre is the middle of that pixel (a `.5` coordinate), and
 * `Math.floor` of it is the pixel to sample. Row 0 (row `1` in point notation) is at the
 * bottom of the image, as it is in point notation.
 */
import { colOf, columnLetter, pointAt, rowOf } from '../rules/point.ts';
import type { Point } from '../rules/types.ts';
import type { Theme } from './theme.ts';

/** The intersections in view, inclusive, in board columns and rows (row 0 at the bottom). */
export interface Box {
  readonly colMin: number;
  readonly colMax: number;
  readonly rowMin: number;
  readonly rowMax: number;
}

export interface Layout {
  readonly size: number;
  readonly cell: number;
  readonly box: Box;
  /** Pixel column of the line through `box.colMin` and pixel row of the line through `box.rowMax`. */
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  /**
   * Which sides of the board are in view. Where a side is, its outer line is drawn as the
   * border; where it is not (a cropped mnemonic), the lines run on to the image's edge.
   */
  readonly edges: { readonly left: boolean; readonly right: boolean; readonly top: boolean; readonly bottom: boolean };
  /** Coordinate labels, when drawn: their font size and the distance from the outer line to a label's centre. */
  readonly coordinates: { readonly fontPx: number; readonly offsetPx: number } | null;
}

export interface Pixel {
  readonly x: number;
  readonly y: number;
}

/** The cell size for a full board: the theme's, or larger on small boards (see Theme.minGridPx). */
export function cellFor(size: number, theme: Theme): number {
  return Math.max(theme.cellPx, Math.floor(theme.minGridPx / (size - 1)));
}

/** The layout of a whole board, with coordinates on all four sides when the theme shows them. */
export function boardLayout(size: number, theme: Theme): Layout {
  const cell = cellFor(size, theme);
  const stoneEdge = cell * theme.stones.radius;
  let margin: number;
  let coordinates: Layout['coordinates'] = null;
  if (theme.coordinates.show) {
    const c = theme.coordinates;
    const fontPx = Math.round(Math.min(c.maxPx, Math.max(c.minPx, cell * c.size)));
    // A label is about one font size wide ("19") and under one high; half of that, plus the
    // gap, clears the stone on the outer line.
    const offsetPx = Math.ceil(stoneEdge + fontPx * (c.gap + 0.5));
    coordinates = { fontPx, offsetPx };
    margin = offsetPx + fontPx;
  } else {
    margin = Math.ceil(stoneEdge + cell * 0.25);
  }
  const span = (size - 1) * cell + 1;
  return {
    size,
    cell,
    box: { colMin: 0, colMax: size - 1, rowMin: 0, rowMax: size - 1 },
    left: margin,
    top: margin,
    width: span + 2 * margin,
    height: span + 2 * margin,
    edges: { left: true, right: true, top: true, bottom: true },
    coordinates,
  };
}

/** The layout of part of a board, drawn small and without coordinates: a mnemonic. */
export function cropLayout(size: number, box: Box, theme: Theme, cellPx: number = theme.mnemonic.cellPx): Layout {
  const cell = cellPx;
  const edge = Math.ceil(theme.mnemonic.edge * cell);
  return {
    size,
    cell,
    box,
    left: edge,
    top: edge,
    width: (box.colMax - box.colMin) * cell + 1 + 2 * edge,
    height: (box.rowMax - box.rowMin) * cell + 1 + 2 * edge,
    edges: { left: box.colMin === 0, right: box.colMax === size - 1, top: box.rowMax === size - 1, bottom: box.rowMin === 0 },
    coordinates: null,
  };
}

/**
 * The smallest box holding every given point, grown by `margin` on each side and kept on the
 * board. With no points it is the whole board.
 */
export function boundingBox(size: number, points: Iterable<Point>, margin: number): Box {
  let colMin = size;
  let colMax = -1;
  let rowMin = size;
  let rowMax = -1;
  for (const p of points) {
    const col = colOf(size, p);
    const row = rowOf(size, p);
    colMin = Math.min(colMin, col);
    colMax = Math.max(colMax, col);
    rowMin = Math.min(rowMin, row);
    rowMax = Math.max(rowMax, row);
  }
  if (colMax < 0) return { colMin: 0, colMax: size - 1, rowMin: 0, rowMax: size - 1 };
  const clamp = (v: number): number => Math.min(size - 1, Math.max(0, v));
  return { colMin: clamp(colMin - margin), colMax: clamp(colMax + margin), rowMin: clamp(rowMin - margin), rowMax: clamp(rowMax + margin) };
}

export function inView(layout: Layout, p: Point): boolean {
  const col = colOf(layout.size, p);
  const row = rowOf(layout.size, p);
  const b = layout.box;
  return col >= b.colMin && col <= b.colMax && row >= b.rowMin && row <= b.rowMax;
}

/** The centre of a column's line: a `.5` pixel coordinate. */
export function columnX(layout: Layout, col: number): number {
  return layout.left + (col - layout.box.colMin) * layout.cell + 0.5;
}

/** The centre of a row's line: row 0 is the lowest. */
export function rowY(layout: Layout, row: number): number {
  return layout.top + (layout.box.rowMax - row) * layout.cell + 0.5;
}

/** The pixel centre of an intersection; `Math.floor` each coordinate to get the pixel to sample. */
export function pointToPixel(layout: Layout, p: Point): Pixel {
  return { x: columnX(layout, colOf(layout.size, p)), y: rowY(layout, rowOf(layout.size, p)) };
}

/** Every point in view, in id order. */
export function pointsInView(layout: Layout): Point[] {
  const out: Point[] = [];
  const b = layout.box;
  for (let row = b.rowMin; row <= b.rowMax; row++) {
    for (let col = b.colMin; col <= b.colMax; col++) out.push(pointAt(layout.size, col, row));
  }
  return out;
}

/**
 * Star points (hoshi). 19×19 and 13×13 have them on the fourth line, 15×15 on the fourth line
 * with the centre (the five of a Go-Moku board), 9×9 on the third; other odd sizes from 7 mark
 * just the centre, and even sizes below 9 none.
 */
export function starPoints(size: number): Point[] {
  const centre = (size - 1) / 2;
  let lines: number[];
  if (size >= 13) lines = [3, size - 4];
  else if (size >= 9) lines = [2, size - 3];
  else lines = [];
  const out: Point[] = [];
  for (const row of lines) for (const col of lines) out.push(pointAt(size, col, row));
  if (size % 2 === 1 && size >= 7) {
    out.push(pointAt(size, centre, centre));
    if (size >= 19) {
      // The side stars of a 19×19 board.
      for (const [col, row] of [
        [3, centre],
        [size - 4, centre],
        [centre, 3],
        [centre, size - 4],
      ]) {
        out.push(pointAt(size, col, row));
      }
    }
  }
  return out.sort((a, b) => a - b);
}

export interface Label {
  readonly text: string;
  /** The centre of the label. */
  readonly x: number;
  readonly y: number;
  /** Letters name columns (top and bottom); numbers name rows (left and right). */
  readonly kind: 'column' | 'row';
}

/** Coordinate labels on all four sides, matching point notation: `a1` is the bottom left corner. */
export function coordinateLabels(layout: Layout): Label[] {
  const c = layout.coordinates;
  if (c === null) return [];
  const out: Label[] = [];
  const b = layout.box;
  const topY = rowY(layout, b.rowMax) - c.offsetPx;
  const bottomY = rowY(layout, b.rowMin) + c.offsetPx;
  const leftX = columnX(layout, b.colMin) - c.offsetPx;
  const rightX = columnX(layout, b.colMax) + c.offsetPx;
  for (let col = b.colMin; col <= b.colMax; col++) {
    const x = columnX(layout, col);
    const text = columnLetter(col);
    out.push({ text, x, y: topY, kind: 'column' }, { text, x, y: bottomY, kind: 'column' });
  }
  for (let row = b.rowMin; row <= b.rowMax; row++) {
    const y = rowY(layout, row);
    const text = String(row + 1);
    out.push({ text, x: leftX, y, kind: 'row' }, { text, x: rightX, y, kind: 'row' });
  }
  return out;
}

/** The two ends of a straight run of points (the winning five), whichever order they come in. */
export function lineEnds(size: number, points: readonly Point[]): [Point, Point] | null {
  if (points.length === 0) return null;
  let best: [Point, Point] = [points[0], points[0]];
  let bestDistance = -1;
  for (const a of points) {
    for (const b of points) {
      const d = Math.max(Math.abs(colOf(size, a) - colOf(size, b)), Math.abs(rowOf(size, a) - rowOf(size, b)));
      // Ties broken by point, so the ends do not depend on the order the points were listed in.
      if (d > bestDistance || (d === bestDistance && a < best[0])) {
        bestDistance = d;
        best = a <= b ? [a, b] : [b, a];
      }
    }
  }
  return best;
}
