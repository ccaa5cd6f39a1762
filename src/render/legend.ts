/**
 * /threats with a legend: the board with realisations overlaid (board.ts `renderThreats`'s
 * picture, pixel for pixel, at the top) and, below it, a strip that says which colour is
 * which side and what the marks mean — a disc is an explicit node (numbered by its label), a
 * square an implicit node. The board keeps its layout, so points are where `boardLayout`
 * puts them.
 */
import type { BoardSnapshot, RealisationOverlay } from '../rules/snapshot.ts';
import type { Colour } from '../rules/types.ts';
import { checkSnapshot, paintOverlays, paintPosition } from './board.ts';
import { boardLayout, type Layout, type Pixel } from './layout.ts';
import { font, paintAndEncode, paintImplicitMark, paintNodeMark } from './paint.ts';
import { defaultTheme, type Theme } from './theme.ts';

export interface LegendLabels {
  /** What each side is called, e.g. "Black (you)". */
  readonly black: string;
  readonly white: string;
}

/** Where the legend's swatches are, for drawing and for tests reading the PNG. */
export interface LegendLayout {
  readonly board: Layout;
  readonly width: number;
  readonly height: number;
  readonly swatches: readonly { readonly kind: 'node' | 'implicit'; readonly side: Colour; readonly at: Pixel; readonly text: string }[];
  readonly fontPx: number;
}

export function legendLayout(size: number, labels: LegendLabels, theme: Theme = defaultTheme): LegendLayout {
  const board = boardLayout(size, theme);
  const row = Math.round(board.cell * 1.05);
  const top = board.height;
  const x0 = board.left;
  const half = Math.floor(board.width / 2);
  const y1 = top + Math.round(row * 0.6);
  const y2 = y1 + row;
  return {
    board,
    width: board.width,
    height: board.height + Math.round(row * 2.3),
    fontPx: Math.max(11, Math.round(board.cell * 0.45)),
    swatches: [
      { kind: 'node', side: 'black', at: { x: x0 + 0.5, y: y1 + 0.5 }, text: labels.black },
      { kind: 'node', side: 'white', at: { x: half + 0.5, y: y1 + 0.5 }, text: labels.white },
      { kind: 'node', side: 'black', at: { x: x0 + 0.5, y: y2 + 0.5 }, text: 'explicit node (its label)' },
      { kind: 'implicit', side: 'black', at: { x: half + 0.5, y: y2 + 0.5 }, text: 'implicit node' },
    ],
  };
}

export function renderThreatsWithLegend(snapshot: BoardSnapshot, overlays: readonly RealisationOverlay[], labels: LegendLabels, options: { readonly theme?: Theme } = {}): Buffer {
  checkSnapshot(snapshot);
  const theme = options.theme ?? defaultTheme;
  const legend = legendLayout(snapshot.size, labels, theme);
  const { board } = legend;
  return paintAndEncode(legend.width, legend.height, theme, (ctx) => {
    ctx.fillStyle = theme.sheet.background;
    ctx.fillRect(0, 0, legend.width, legend.height);
    paintPosition(ctx, board, theme, snapshot, false);
    paintOverlays(ctx, board, theme, overlays);
    ctx.fillStyle = theme.sheet.text;
    for (const s of legend.swatches) {
      if (s.kind === 'node') paintNodeMark(ctx, board, theme, s.at, s.side, 1, theme.realisations.nodeRadius);
      else paintImplicitMark(ctx, board, theme, s.at, s.side, theme.realisations.implicitHalf * 1.4);
      ctx.font = font(legend.fontPx, theme.font.family);
      ctx.fillStyle = theme.sheet.text;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(s.text, s.at.x + board.cell * 0.6, s.at.y);
    }
  });
}
