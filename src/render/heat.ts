/**
 * The /hint heat map, after the influence pictures of the old Go programs: the board with a
 * translucent square on each point the player would consider, warmer and more opaque the more
 * it weighs, and a ring on the point it suggests. A pure function of a snapshot, the weights
 * and a theme, like every image here.
 */
import type { BoardSnapshot } from '../rules/snapshot.ts';
import type { Point } from '../rules/types.ts';
import { checkSnapshot, paintPosition } from './board.ts';
import { boardLayout, inView, pointToPixel } from './layout.ts';
import { paintAndEncode } from './paint.ts';
import { defaultTheme, type Theme } from './theme.ts';

/** A point and how much the player weighs it, 0 to 1 (1: its best). */
export interface HeatPoint {
  readonly point: Point;
  readonly weight: number;
}

export interface HeatOptions {
  readonly theme?: Theme;
  /** The point suggested, ringed. */
  readonly ring?: Point;
}

/** Weights from scores: each over the best, those under the theme's floor left out. */
export function heatFromScores(scores: readonly { readonly point: Point; readonly score: number }[], theme: Theme = defaultTheme): HeatPoint[] {
  const top = Math.max(0, ...scores.map((s) => s.score));
  if (top === 0) return [];
  return scores.map((s) => ({ point: s.point, weight: s.score / top })).filter((h) => h.weight >= theme.heat.floor);
}

/** The colour of a weight, as a CSS rgba(). */
export function heatColour(weight: number, theme: Theme = defaultTheme): string {
  const h = theme.heat;
  const w = Math.min(1, Math.max(0, weight));
  const mix = (i: 0 | 1 | 2) => Math.round(h.low[i] + (h.high[i] - h.low[i]) * w);
  return `rgba(${mix(0)}, ${mix(1)}, ${mix(2)}, ${(h.maxAlpha * (0.35 + 0.65 * w)).toFixed(3)})`;
}

export function renderHeatMap(snapshot: BoardSnapshot, heat: readonly HeatPoint[], options: HeatOptions = {}): Buffer {
  checkSnapshot(snapshot);
  const theme = options.theme ?? defaultTheme;
  const layout = boardLayout(snapshot.size, theme);
  return paintAndEncode(layout.width, layout.height, theme, (ctx) => {
    paintPosition(ctx, layout, theme, snapshot, false);
    const half = layout.cell * 0.46;
    for (const { point, weight } of heat) {
      if (!inView(layout, point) || snapshot.cells[point] !== 0) continue;
      const c = pointToPixel(layout, point);
      ctx.fillStyle = heatColour(weight, theme);
      ctx.fillRect(c.x - half, c.y - half, 2 * half, 2 * half);
    }
    if (options.ring !== undefined && inView(layout, options.ring)) {
      const c = pointToPixel(layout, options.ring);
      ctx.strokeStyle = theme.heat.ring;
      ctx.lineWidth = Math.max(2, layout.cell * 0.1);
      ctx.beginPath();
      ctx.arc(c.x, c.y, layout.cell * 0.42, 0, Math.PI * 2);
      ctx.stroke();
    }
  });
}
