/**
 * A small line chart, for /stats: the bot's rating over its games (with its deviation as a
 * band), and the server's library growing from each source. A pure function of plain series,
 * drawn with node-canvas in the colours and font of the board's theme.
 *
 * Decisions:
 * - The x axis counts steps (games, subgoals learned), not days: a server plays in bursts.
 * - The y range covers every value and band with a margin, rounded to a tidy step, so a line
 *   never touches the frame; a flat series gets a range around it.
 */
import { createCanvas } from 'canvas';
import { encodePng } from './paint.ts';
import { defaultTheme } from './theme.ts';

export const LINE_CHART = {
  width: 640,
  height: 300,
  margin: { left: 64, right: 20, top: 40, bottom: 44 },
  background: '#f6f1e7',
  axis: '#1f1a14',
  grid: '#d8cfbf',
} as const;

export interface LineSeries {
  readonly label: string;
  /** CSS colour. */
  readonly colour: string;
  /** One value per step, from step 1. */
  readonly values: readonly number[];
  /** Half-widths of a shaded band around the line (a rating's deviation), one per value. */
  readonly band?: readonly number[];
}

export interface LineChartSpec {
  readonly title: string;
  /** What the x axis counts, e.g. "games". */
  readonly xLabel: string;
  readonly series: readonly LineSeries[];
  /** A dashed level to mark (a new player's rating). */
  readonly reference?: number;
}

/** The y range drawn: lowest and highest value with bands, widened to tidy steps. */
export function chartRange(spec: LineChartSpec): { low: number; high: number; step: number } {
  let low = Infinity;
  let high = -Infinity;
  for (const s of spec.series) {
    s.values.forEach((v, i) => {
      const b = s.band?.[i] ?? 0;
      low = Math.min(low, v - b);
      high = Math.max(high, v + b);
    });
  }
  if (spec.reference !== undefined) {
    low = Math.min(low, spec.reference);
    high = Math.max(high, spec.reference);
  }
  if (!Number.isFinite(low)) return { low: 0, high: 1, step: 1 };
  if (high - low < 1e-9) {
    low -= 1;
    high += 1;
  }
  const rough = (high - low) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
  return { low: Math.floor(low / step) * step, high: Math.ceil(high / step) * step, step };
}

/** Pixel of step n (1-based) of `steps` at value v, in a chart of that range. */
export function lineChartPixel(n: number, steps: number, v: number, range: { low: number; high: number }): { x: number; y: number } {
  const { width, height, margin } = LINE_CHART;
  const w = width - margin.left - margin.right;
  const h = height - margin.top - margin.bottom;
  const x = margin.left + (steps <= 1 ? w / 2 : ((n - 1) / (steps - 1)) * w);
  const y = margin.top + (1 - (v - range.low) / (range.high - range.low)) * h;
  return { x, y };
}

/** The PNG; undefined when no series has a value. */
/** One entry of a chart's legend: its colour, its words, and whether it is drawn as a line or a dot. */
export interface LegendEntry {
  readonly colour: string;
  readonly label: string;
  readonly mark: 'line' | 'dot';
}

type Context = ReturnType<ReturnType<typeof createCanvas>['getContext']>;

/**
 * Draws a chart's legend in the current font, each entry as wide as its label needs (`pad`
 * more, `gap` between): beside the title, right-aligned, when it fits there, else on a row of
 * its own under the title (a long title and its legend ran into each other). Shared by the
 * line charts here and /stats' loss chart (src/bot/chart.ts).
 */
export function drawLegend(ctx: Context, at: { readonly left: number; readonly right: number; readonly titleWidth: number; readonly pad: number; readonly gap: number; readonly text: string }, entries: readonly LegendEntry[]): void {
  const widths = entries.map((e) => at.pad + ctx.measureText(e.label).width);
  const total = widths.reduce((a, b) => a + b, 0) + at.gap * (entries.length - 1);
  const besideTitle = at.left + at.titleWidth + 24 + total <= at.right;
  let x = besideTitle ? at.right - total : at.left;
  const y = besideTitle ? 17 : 33;
  entries.forEach((e, i) => {
    ctx.fillStyle = e.colour;
    if (e.mark === 'line') ctx.fillRect(x, y - 3, 18, 4);
    else {
      ctx.beginPath();
      ctx.arc(x + 9, y - 1, 3, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.fillStyle = at.text;
    ctx.fillText(e.label, x + 24, y);
    x += widths[i] + at.gap;
  });
}

export function renderLineChart(spec: LineChartSpec): Buffer | undefined {
  const steps = Math.max(0, ...spec.series.map((s) => s.values.length));
  if (steps === 0) return undefined;
  const { width, height, margin } = LINE_CHART;
  const range = chartRange(spec);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d', { pixelFormat: 'RGB24' });
  const family = defaultTheme.font.family;
  const left = margin.left;
  const right = width - margin.right;
  const top = margin.top;
  const bottom = height - margin.bottom;
  const at = (n: number, v: number) => lineChartPixel(n, steps, v, range);
  ctx.fillStyle = LINE_CHART.background;
  ctx.fillRect(0, 0, width, height);

  ctx.font = `12px "${family}"`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (let v = range.low; v <= range.high + range.step / 2; v += range.step) {
    const y = Math.round(at(1, v).y) + 0.5;
    ctx.strokeStyle = LINE_CHART.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(right, y);
    ctx.stroke();
    ctx.fillStyle = LINE_CHART.axis;
    ctx.fillText(String(Math.round(v * 100) / 100), left - 8, y);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const every = Math.max(1, Math.ceil(steps / 10));
  for (let n = 1; n <= steps; n += every) ctx.fillText(String(n), at(n, range.low).x, bottom + 8);
  ctx.fillText(spec.xLabel, (left + right) / 2, bottom + 24);
  ctx.strokeStyle = LINE_CHART.axis;
  ctx.beginPath();
  ctx.moveTo(left + 0.5, top);
  ctx.lineTo(left + 0.5, bottom + 0.5);
  ctx.lineTo(right, bottom + 0.5);
  ctx.stroke();

  if (spec.reference !== undefined) {
    const y = Math.round(at(1, spec.reference).y) + 0.5;
    ctx.strokeStyle = LINE_CHART.axis;
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(right, y);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.font = `bold 14px "${family}"`;
  ctx.fillStyle = LINE_CHART.axis;
  ctx.fillText(spec.title, left, 18);
  const titleWidth = ctx.measureText(spec.title).width;
  ctx.font = `12px "${family}"`;
  drawLegend(ctx, { left, right, titleWidth, pad: 40, gap: 0, text: LINE_CHART.axis }, spec.series.map((s) => ({ colour: s.colour, label: s.label, mark: 'line' })));

  for (const s of spec.series) {
    if (s.band !== undefined && s.values.length > 0) {
      ctx.globalAlpha = 0.18;
      ctx.fillStyle = s.colour;
      ctx.beginPath();
      s.values.forEach((v, i) => {
        const p = at(i + 1, v + (s.band?.[i] ?? 0));
        if (i === 0) ctx.moveTo(p.x, p.y);
        else ctx.lineTo(p.x, p.y);
      });
      for (let i = s.values.length - 1; i >= 0; i--) {
        const p = at(i + 1, s.values[i] - (s.band?.[i] ?? 0));
        ctx.lineTo(p.x, p.y);
      }
      ctx.closePath();
      ctx.fill();
      ctx.globalAlpha = 1;
    }
    ctx.strokeStyle = s.colour;
    ctx.fillStyle = s.colour;
    ctx.lineWidth = 3;
    ctx.beginPath();
    s.values.forEach((v, i) => {
      const p = at(i + 1, v);
      if (i === 0) ctx.moveTo(p.x, p.y);
      else ctx.lineTo(p.x, p.y);
    });
    ctx.stroke();
    if (s.values.length <= 60) {
      s.values.forEach((v, i) => {
        const p = at(i + 1, v);
        ctx.beginPath();
        ctx.arc(p.x, p.y, 3.5, 0, 2 * Math.PI);
        ctx.fill();
      });
    }
  }
  // The theme's PNG settings: unfiltered rows encode this chart in a fifth of the time, smaller.
  return encodePng(canvas, defaultTheme);
}
