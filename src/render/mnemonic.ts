/**
 * Graphic mnemonics, after Fig. 11 of Murray & Elcock: a small picture of one realisation of a
 * subgoal beside its description, for the /library listing. The picture is the part of the
 * board the realisation occupies, with one line of board around it.
 *
 * What the crop holds: the overlay's explicit and implicit nodes and every stone on the
 * snapshot. A mnemonic is meant to be drawn from a snapshot that holds just the realisation's
 * stones (as the paper's mnemonics do); given a whole game, it shows most of the board.
 */
import { createCanvas, type Canvas } from 'canvas';
import './fonts.ts';
import type { BoardSnapshot, RealisationOverlay } from '../rules/snapshot.ts';
import { EMPTY, type Point } from '../rules/types.ts';
import { checkSnapshot, paintOverlays, paintPosition } from './board.ts';
import { boundingBox, cropLayout, type Box, type Layout } from './layout.ts';
import { encodePng, font, newImage } from './paint.ts';
import { defaultTheme, type Theme } from './theme.ts';

export interface MnemonicOptions {
  readonly theme?: Theme;
  /** Cell size in pixels; the theme's mnemonic cell by default. */
  readonly cellPx?: number;
}

export interface MnemonicItem {
  /** Shown above the picture: a subgoal's description, such as `(1, 1) 3:3', 3'`. */
  readonly title: string;
  readonly snapshot: BoardSnapshot;
  readonly overlay: RealisationOverlay;
}

/** The part of the board a mnemonic shows: its points and stones, plus one line around them. */
export function mnemonicBox(snapshot: BoardSnapshot, overlay: RealisationOverlay): Box {
  const points: Point[] = [...overlay.nodes, ...overlay.implicit];
  snapshot.cells.forEach((cell, p) => {
    if (cell !== EMPTY) points.push(p);
  });
  return boundingBox(snapshot.size, points, 1);
}

export function mnemonicLayout(snapshot: BoardSnapshot, overlay: RealisationOverlay, options: MnemonicOptions = {}): Layout {
  const theme = options.theme ?? defaultTheme;
  return cropLayout(snapshot.size, mnemonicBox(snapshot, overlay), theme, options.cellPx ?? theme.mnemonic.cellPx);
}

function drawMnemonic(snapshot: BoardSnapshot, overlay: RealisationOverlay, theme: Theme, options: MnemonicOptions): Canvas {
  checkSnapshot(snapshot);
  const layout = mnemonicLayout(snapshot, overlay, { ...options, theme });
  const { canvas, ctx } = newImage(layout.width, layout.height);
  // Only the realisation: no last move, winning five or move numbers.
  paintPosition(ctx, layout, theme, { size: snapshot.size, cells: snapshot.cells }, false);
  paintOverlays(ctx, layout, theme, [overlay]);
  return canvas;
}

/** The PNG of one realisation, cropped and small. */
export function renderMnemonic(snapshot: BoardSnapshot, overlay: RealisationOverlay, options: MnemonicOptions = {}): Buffer {
  const theme = options.theme ?? defaultTheme;
  return encodePng(drawMnemonic(snapshot, overlay, theme, options), theme);
}

/**
 * Several mnemonics in one PNG, in a grid of up to `theme.sheet.columns` columns, each under
 * its title (wrapped to the column's width), in the order given.
 */
export function renderMnemonicSheet(items: readonly MnemonicItem[], options: MnemonicOptions = {}): Buffer {
  if (items.length === 0) throw new RangeError('a mnemonic sheet needs at least one item');
  const theme = options.theme ?? defaultTheme;
  const s = theme.sheet;
  const pictures = items.map((item) => drawMnemonic(item.snapshot, item.overlay, theme, options));

  const columns = Math.min(items.length, s.columns);
  const columnWidth = Math.max(s.minColumnPx, ...pictures.map((p) => p.width));
  const lineHeight = Math.round(s.titlePx * 1.35);
  const titleFont = font(s.titlePx, theme.font.monoFamily);
  const measure = createCanvas(1, 1).getContext('2d');
  measure.font = titleFont;
  const titles = items.map((item) => wrap(item.title, columnWidth, (t) => measure.measureText(t).width));

  const gap = Math.round(s.paddingPx / 2);
  const rowHeights: number[] = [];
  for (let i = 0; i < items.length; i += columns) {
    let h = 0;
    for (let j = i; j < Math.min(items.length, i + columns); j++) {
      h = Math.max(h, titles[j].length * lineHeight + gap + pictures[j].height);
    }
    rowHeights.push(h);
  }
  const width = s.paddingPx + columns * (columnWidth + s.paddingPx);
  const height = s.paddingPx + rowHeights.reduce((sum, h) => sum + h + s.paddingPx, 0);

  const { canvas, ctx } = newImage(width, height);
  ctx.fillStyle = s.background;
  ctx.fillRect(0, 0, width, height);
  ctx.font = titleFont;
  ctx.fillStyle = s.text;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  const ascent = ctx.measureText('(').actualBoundingBoxAscent;
  let top = s.paddingPx;
  rowHeights.forEach((rowHeight, r) => {
    for (let c = 0; c < columns; c++) {
      const i = r * columns + c;
      if (i >= items.length) break;
      const left = s.paddingPx + c * (columnWidth + s.paddingPx);
      const middle = left + columnWidth / 2;
      titles[i].forEach((line, k) => ctx.fillText(line, middle, top + k * lineHeight + ascent));
      const picture = pictures[i];
      ctx.drawImage(picture, Math.round(middle - picture.width / 2), top + titles[i].length * lineHeight + gap);
    }
    top += rowHeight + s.paddingPx;
  });
  return encodePng(canvas, theme);
}

/**
 * Breaks a title into lines no wider than `width`, at spaces where it can and inside a word
 * only when one word alone is too wide.
 */
export function wrap(text: string, width: number, measure: (t: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w.length > 0)) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (measure(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    let rest = word;
    while (measure(rest) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && measure(rest.slice(0, cut)) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line !== '') lines.push(line);
  return lines.length > 0 ? lines : [''];
}
