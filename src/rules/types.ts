/**
 * The game's vocabulary. Colours are stored on the board as small integers (EMPTY, BLACK,
 * WHITE) so that a board is a flat typed array indexed by point id = row * size + col, the
 * one-dimensional indexing of the JinGo write-up.
 */
export const COLOURS = ['black', 'white'] as const;
export type Colour = (typeof COLOURS)[number];

export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;
export type Cell = typeof EMPTY | typeof BLACK | typeof WHITE;
export type Stone = typeof BLACK | typeof WHITE;

export function stoneOf(c: Colour): Stone {
  return c === 'black' ? BLACK : WHITE;
}

export function colourOf(s: Stone): Colour {
  return s === BLACK ? 'black' : 'white';
}

export function opposite(c: Colour): Colour {
  return c === 'black' ? 'white' : 'black';
}

export function otherStone(s: Stone): Stone {
  return s === BLACK ? WHITE : BLACK;
}

/** The paper plays on 19×19; users pick 15 or 19; the rules work from 5 up. */
export const MIN_SIZE = 5;
export const MAX_SIZE = 19;
export const DEFAULT_SIZE = 19;

/** A point id: row * size + col, row 0 at the bottom (row "1" in point notation). */
export type Point = number;

/**
 * The four line directions as (dCol, dRow): horizontal, vertical, the rising diagonal and
 * the falling diagonal. A "line" in the paper is one of these through a point.
 */
export const DIRECTIONS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
] as const;
export type Direction = 0 | 1 | 2 | 3;
