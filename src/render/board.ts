/**
 * Board images: a position, and a position with recognised realisations overlaid. Each is a
 * pure function of a snapshot, the overlays and a theme: the same input gives the same PNG
 * bytes.
 */
import type { CanvasRenderingContext2D } from 'canvas';
import type { BoardSnapshot, RealisationOverlay } from '../rules/snapshot.ts';
import { BLACK, EMPTY, WHITE, colourOf, type Stone } from '../rules/types.ts';
import { validSize } from '../rules/point.ts';
import { boardLayout, inView, lineEnds, pointToPixel, type Layout } from './layout.ts';
import { marksByPoint, placeMarks } from './marks.ts';
import {
  encodePng,
  newImage,
  paintAndEncode,
  paintBackground,
  paintImplicitMark,
  paintLastMove,
  paintMoveNumber,
  paintNodeMark,
  paintStone,
  paintWinningLine,
} from './paint.ts';
import { defaultTheme, type Theme } from './theme.ts';

export interface RenderOptions {
  readonly theme?: Theme;
  /** Write each stone's move number on it, when the snapshot carries them. Off by default. */
  readonly showMoveNumbers?: boolean;
}

/** A snapshot that cannot be drawn is a programming error upstream, not a user's mistake. */
export function checkSnapshot(snapshot: BoardSnapshot): void {
  const { size, cells } = snapshot;
  if (!validSize(size)) throw new RangeError(`cannot draw a ${size}×${size} board`);
  if (cells.length !== size * size) throw new RangeError(`a ${size}×${size} snapshot needs ${size * size} cells, not ${cells.length}`);
}

/** The PNG of a position: wood, lines, coordinates, stones, the last move and any winning five. */
export function renderBoard(snapshot: BoardSnapshot, options: RenderOptions = {}): Buffer {
  checkSnapshot(snapshot);
  const theme = options.theme ?? defaultTheme;
  const layout = boardLayout(snapshot.size, theme);
  return paintAndEncode(layout.width, layout.height, theme, (ctx) => paintPosition(ctx, layout, theme, snapshot, options.showMoveNumbers ?? false));
}

/**
 * The PNG of a position with realisations overlaid: each explicit node a disc numbered by its
 * label (1, 2, 3… in the overlay's node order), each implicit node a hollow square, in the
 * colour of the side whose realisation it is.
 */
export function renderThreats(snapshot: BoardSnapshot, overlays: readonly RealisationOverlay[], options: RenderOptions = {}): Buffer {
  checkSnapshot(snapshot);
  const theme = options.theme ?? defaultTheme;
  const layout = boardLayout(snapshot.size, theme);
  const { canvas, ctx } = newImage(layout.width, layout.height);
  paintPosition(ctx, layout, theme, snapshot, options.showMoveNumbers ?? false);
  paintOverlays(ctx, layout, theme, overlays);
  return encodePng(canvas, theme);
}

/** Everything a position shows, on whatever part of the board the layout has in view. */
export function paintPosition(
  ctx: CanvasRenderingContext2D,
  layout: Layout,
  theme: Theme,
  snapshot: BoardSnapshot,
  showMoveNumbers: boolean,
): void {
  paintBackground(ctx, layout, theme);
  const { size, cells } = snapshot;

  const ends = snapshot.winningLine === undefined ? null : lineEnds(size, snapshot.winningLine);
  if (ends !== null) paintWinningLine(ctx, layout, theme, pointToPixel(layout, ends[0]), pointToPixel(layout, ends[1]));

  const numbers = showMoveNumbers ? snapshot.moveNumbers : undefined;
  for (let p = 0; p < cells.length; p++) {
    const cell = cells[p];
    if (cell === EMPTY || !inView(layout, p)) continue;
    const colour = colourOf(cell as Stone);
    const at = pointToPixel(layout, p);
    paintStone(ctx, layout, theme, at, colour);
    const n = numbers?.[p] ?? 0;
    if (n > 0) paintMoveNumber(ctx, layout, theme, at, n, colour);
  }

  const last = snapshot.lastMove;
  if (last !== undefined && inView(layout, last)) {
    const numbered = (numbers?.[last] ?? 0) > 0 && (cells[last] === BLACK || cells[last] === WHITE);
    paintLastMove(ctx, layout, theme, pointToPixel(layout, last), numbered);
  }
}

export function paintOverlays(ctx: CanvasRenderingContext2D, layout: Layout, theme: Theme, overlays: readonly RealisationOverlay[]): void {
  for (const [p, marks] of marksByPoint(overlays)) {
    if (!inView(layout, p)) continue;
    const centre = pointToPixel(layout, p);
    for (const { mark, dx, dy, size } of placeMarks(marks, theme.realisations)) {
      const at = { x: centre.x + dx * layout.cell, y: centre.y + dy * layout.cell };
      if (mark.kind === 'node') paintNodeMark(ctx, layout, theme, at, mark.side, mark.label, size);
      else paintImplicitMark(ctx, layout, theme, at, mark.side, size);
    }
  }
}
