/**
 * What a stone makes along its four lines, read from the board's possible 5-patterns — the
 * facts behind the bot's plain-spoken reasons (reasonWords.ts): "an open four at k7–n10",
 * "a four: you must block at g3", "two open threes". Wording only: the player never reads
 * this; it chooses from its realisations, and these facts say in a Go-Moku player's words
 * what that choice does on the board.
 *
 * Everything is counted in possible 5-patterns (a window holding no stone of the other
 * colour and flanked by none of its own), so "only exactly five wins" is built in, as in
 * src/rules/threats.ts; the shapes are read one line at a time, because a reply names each line's
 * stones.
 *
 *     five        XXXXX (exactly)
 *     open four   .XXXX.  X.XXX.X   two points complete a five on this line
 *     four        OXXXX.  XX.XX     one point does
 *     open three  ..XXX.  .XX.X.    a point makes an open four on this line
 *     three       OXXX..            three in a pattern, but no open four to be had
 *     two         two in a pattern
 */
import type { Board } from '../rules/board.ts';
import { WINDOW } from '../rules/geometry.ts';
import { fiveThreatsIn, fourMovesIn } from '../rules/threats.ts';
import type { Point, Stone } from '../rules/types.ts';

export const SHAPE_KINDS = ['none', 'two', 'three', 'open-three', 'four', 'open-four', 'five'] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];

export interface LineShape {
  readonly kind: ShapeKind;
  /** 0..3 as in DIRECTIONS. */
  readonly direction: number;
  /** The colour's stones the shape is made of, the move's among them, in line order. */
  readonly stones: readonly Point[];
  /** Four, open four: the points that complete a five. Open three: those that make an open four. */
  readonly points: readonly Point[];
}

/**
 * The shapes a stone of `s` at the empty point `p` would make, one per line that holds
 * anything, strongest first (ties by direction). `board` is left as it was.
 */
export function shapesOfMove(board: Board, p: Point, s: Stone): LineShape[] {
  const after = board.clone();
  after.play(p, s);
  return shapesThrough(after, p, s);
}

/** The shapes through the stone of `s` already on `p`, strongest first. */
export function shapesThrough(board: Board, p: Point, s: Stone): LineShape[] {
  const out: LineShape[] = [];
  for (let d = 0; d < 4; d++) {
    const shape = lineShape(board, p, s, d);
    if (shape.kind !== 'none') out.push(shape);
  }
  return out.sort((a, b) => rank(b.kind) - rank(a.kind) || a.direction - b.direction);
}

export function rank(kind: ShapeKind): number {
  return SHAPE_KINDS.indexOf(kind);
}

function lineShape(board: Board, p: Point, s: Stone, d: number): LineShape {
  const run = board.runThrough(p, d as 0 | 1 | 2 | 3);
  if (run.length === WINDOW) return { kind: 'five', direction: d, stones: inLineOrder(board, run), points: [] };
  const windows = possibleThrough(board, p, s, d);
  const holding = (k: number) => windows.filter((w) => board.stonesIn(w, s) === k);
  const fours = holding(WINDOW - 1);
  if (fours.length > 0) {
    const points = inLineOrder(board, fiveThreatsIn(board, s, fours));
    return { kind: points.length >= 2 ? 'open-four' : 'four', direction: d, stones: stonesOf(board, fours, s), points };
  }
  const threes = holding(WINDOW - 2);
  if (threes.length > 0) {
    // A point of these patterns that would leave two ways to five on this line: the rule's own
    // open-four points (src/rules/threats.ts), read from this line's windows only.
    const points = inLineOrder(board, fourMovesIn(board, s, threes).openFours);
    return { kind: points.length > 0 ? 'open-three' : 'three', direction: d, stones: stonesOf(board, threes, s), points };
  }
  const twos = holding(2);
  if (twos.length > 0) return { kind: 'two', direction: d, stones: stonesOf(board, [twos[0]], s), points: [] };
  return { kind: 'none', direction: d, stones: [p], points: [] };
}

/** The possible 5-patterns of s through p along direction d. */
function possibleThrough(board: Board, p: Point, s: Stone, d: number): number[] {
  const g = board.geometry;
  return board.possibleWindowsThrough(p, s).filter((w) => g.windowDirection[w] === d);
}

function stonesOf(board: Board, windows: readonly number[], s: Stone): Point[] {
  const seen = new Set<Point>();
  for (const w of windows) for (const q of board.windowPoints(w)) if (board.get(q) === s) seen.add(q);
  return inLineOrder(board, [...seen]);
}

/** Along any one line, by column then row: the order a reader names a line's ends in. */
export function inLineOrder(board: Board, points: readonly Point[]): Point[] {
  const size = board.size;
  return [...points].sort((a, b) => (a % size) - (b % size) || a - b);
}
