/**
 * Fixed positions for the renderer's benchmark, its tests and the README's images. They are
 * built from literal move lists, so they never change unless this file does.
 */
import { parsePoint } from '../rules/point.ts';
import type { BoardSnapshot, RealisationOverlay } from '../rules/snapshot.ts';
import { BLACK, EMPTY, WHITE, type Cell, type Colour, type Point } from '../rules/types.ts';

/** Points from notation; a typo here is a bug in this file, so it throws. */
export function points(size: number, text: string): Point[] {
  return text
    .trim()
    .split(/\s+/)
    .filter((t) => t.length > 0)
    .map((t) => {
      const r = parsePoint(size, t);
      if (!r.ok) throw new Error(`sample point ${t}: ${r.error.message}`);
      return r.value;
    });
}

/** A game played from a move list, black first: stones, move numbers and the last move. */
export function gameSnapshot(size: number, moves: string, winningLine?: string): BoardSnapshot {
  const cells: Cell[] = new Array<Cell>(size * size).fill(EMPTY);
  const moveNumbers: number[] = new Array<number>(size * size).fill(0);
  const played = points(size, moves);
  played.forEach((p, i) => {
    if (cells[p] !== EMPTY) throw new Error(`sample move ${i + 1} is on an occupied point`);
    cells[p] = i % 2 === 0 ? BLACK : WHITE;
    moveNumbers[p] = i + 1;
  });
  return {
    size,
    cells,
    moveNumbers,
    lastMove: played[played.length - 1],
    ...(winningLine === undefined ? {} : { winningLine: points(size, winningLine) }),
  };
}

/** Stones placed directly (no move order): black's then white's. */
export function setupSnapshot(size: number, black: string, white: string): BoardSnapshot {
  const cells: Cell[] = new Array<Cell>(size * size).fill(EMPTY);
  for (const p of points(size, black)) cells[p] = BLACK;
  for (const p of points(size, white)) cells[p] = WHITE;
  return { size, cells };
}

export function overlay(size: number, colour: Colour, nodes: string, implicit: string): RealisationOverlay {
  return { colour, nodes: points(size, nodes), implicit: points(size, implicit) };
}

/** Sixty moves around the centre of a 19×19 board (a seeded random walk, written out). */
export const MIDGAME_19_MOVES =
  'j10 h8 i7 l11 k10 g7 h7 h5 j9 g4 e3 h9 h11 i11 h10 g11 g12 f11 i13 e13 h12 j12 e12 h13 d12 j13 l13 l15 e14 j14 ' +
  'c15 f16 d16 c17 e15 i12 d17 d14 d15 g17 f13 f14 f17 h16 h17 g13 g14 g15 e16 g16 c14 c12 i16 j17 c10 d11 f9 e11 d10 c13';

export function midgame19(): BoardSnapshot {
  return gameSnapshot(19, MIDGAME_19_MOVES);
}

/** A 15×15 game black has won with d4: five on the rising diagonal d4–h8, white's i9 beyond it. */
export function finished15(): BoardSnapshot {
  return gameSnapshot(15, 'h8 h9 g7 i9 j7 f10 f6 j9 e5 k9 d4', 'd4 e5 f6 g7 h8');
}

/** Realisations on the midgame position: black's and white's, two of them sharing points. */
export function midgame19Overlays(): RealisationOverlay[] {
  return [
    // Black: two open threes crossing at k12.
    overlay(19, 'black', 'k12', 'k11 k13 j11 m13'),
    // Black again, sharing k11 as an explicit node.
    overlay(19, 'black', 'k11 m11', 'n11 k9'),
    // White: a four to complete, and the point behind it.
    overlay(19, 'white', 'f12', 'f10'),
    // White: two nodes, one of them a point black's realisation also needs.
    overlay(19, 'white', 'j11 k11', 'l10 m9'),
  ];
}

/** Small realisations for a mnemonic sheet, one per description, on otherwise empty boards. */
export function mnemonicSamples(): { title: string; snapshot: BoardSnapshot; overlay: RealisationOverlay }[] {
  const size = 19;
  return [
    { title: '(1) 1:5', snapshot: setupSnapshot(size, 'j10 k10 l10 m10', ''), overlay: overlay(size, 'black', 'n10', '') },
    { title: "(1) 2:4'", snapshot: setupSnapshot(size, 'j10 k10 l10', ''), overlay: overlay(size, 'black', 'm10', 'i10 n10') },
    { title: '(1, 1) 2:4, 4', snapshot: setupSnapshot(size, 'j10 k10 l10 n12 n13 n14', 'i10 n15'), overlay: overlay(size, 'black', 'n10', 'm10 n11') },
    { title: "(1, 1) 3:3', 3'", snapshot: setupSnapshot(size, 'j10 k10 m12 m13', ''), overlay: overlay(size, 'black', 'm10', 'i10 l10 n10 m9 m11 m14') },
    { title: '(1, 2-1) 4, 3-3:4', snapshot: setupSnapshot(size, 'i10', 'j10 k10 l11 l12'), overlay: overlay(size, 'white', 'm10 l10', 'n10 l9 l13') },
    { title: "(1, 2-1, 2) 4:3', 2'-4:2', 3'", snapshot: setupSnapshot(size, 'j9 k9 m11 m12', ''), overlay: overlay(size, 'black', 'l9 m10', 'i9 m9 n9 m13 l10 n10') },
  ];
}
