/**
 * The /stats chart: how often the bot has lost, game after game. If it learns, the line
 * falls. A pure function of the finished games (oldest first), drawn with node-canvas.
 *
 * Decisions:
 * - The x axis counts decided games (expired ones are left out: nobody won them), not days:
 *   a server plays in bursts, and a game is the unit the bot learns from.
 * - Two lines: the loss rate over all games so far (steady) and over the last `WINDOW` games
 *   (how it is doing now). A dot marks each loss on the bottom edge. The recent line starts at
 *   game `WINDOW` + 1: before it, it is the overall line, and drawn there it only hid under it
 *   (the legend says where it starts); it is drawn over the overall line.
 * - A resignation is left out (memberStats.ts): nobody made a five, and counted as the bot's
 *   win it would bend the curve downwards for a reason that is not learning.
 */
import { createCanvas } from 'canvas';
import { defaultTheme, drawLegend, encodePng, type LegendEntry } from '../render/index.ts';
import type { Ending, Outcome } from './gameTerms.ts';

export const CHART = {
  width: 640,
  height: 300,
  margin: { left: 56, right: 20, top: 40, bottom: 44 },
  background: '#f6f1e7',
  axis: '#1f1a14',
  grid: '#d8cfbf',
  overall: '#1b5fc4',
  recent: '#e0660f',
  loss: '#b3261e',
} as const;

/** Games in the recent line. */
export const WINDOW = 10;

export interface ChartPoint {
  /** 1-based number of the decided game. */
  readonly game: number;
  /** Loss rate over all decided games so far, 0..1. */
  readonly overall: number;
  /** Loss rate over the last WINDOW decided games, 0..1. */
  readonly recent: number;
  readonly lost: boolean;
}

/** The numbers the chart draws. */
export function lossRates(history: readonly { readonly outcome: Outcome; readonly ending?: Ending }[]): ChartPoint[] {
  const decided = history.filter((h) => h.outcome !== 'abandoned' && h.ending !== 'resigned');
  const out: ChartPoint[] = [];
  let losses = 0;
  decided.forEach((h, i) => {
    if (h.outcome === 'bot-lost') losses++;
    const from = Math.max(0, i + 1 - WINDOW);
    const recentLosses = decided.slice(from, i + 1).filter((x) => x.outcome === 'bot-lost').length;
    out.push({ game: i + 1, overall: losses / (i + 1), recent: recentLosses / (i + 1 - from), lost: h.outcome === 'bot-lost' });
  });
  return out;
}

/** Pixel position of a point of the chart, for drawing and for tests reading the PNG. */
export function chartPixel(n: number, games: number, rate: number): { x: number; y: number } {
  const { width, height, margin } = CHART;
  const w = width - margin.left - margin.right;
  const h = height - margin.top - margin.bottom;
  const x = margin.left + (games <= 1 ? w / 2 : ((n - 1) / (games - 1)) * w);
  const y = margin.top + (1 - rate) * h;
  return { x, y };
}

/** The PNG; undefined when no game has been decided yet (there is nothing to draw). */
export function renderLossChart(history: readonly { readonly outcome: Outcome; readonly ending?: Ending }[]): Buffer | undefined {
  const points = lossRates(history);
  if (points.length === 0) return undefined;
  const { width, height, margin } = CHART;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d', { pixelFormat: 'RGB24' });
  const family = defaultTheme.font.family;
  ctx.fillStyle = CHART.background;
  ctx.fillRect(0, 0, width, height);

  const games = points.length;
  const left = margin.left;
  const right = width - margin.right;
  const top = margin.top;
  const bottom = height - margin.bottom;

  // Grid and axis labels.
  ctx.font = `12px "${family}"`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const pct of [0, 25, 50, 75, 100]) {
    const y = chartPixel(1, games, pct / 100).y;
    ctx.strokeStyle = CHART.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(left, Math.round(y) + 0.5);
    ctx.lineTo(right, Math.round(y) + 0.5);
    ctx.stroke();
    ctx.fillStyle = CHART.axis;
    ctx.fillText(`${pct}%`, left - 8, y);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const step = Math.max(1, Math.ceil(games / 10));
  for (let n = 1; n <= games; n += step) ctx.fillText(String(n), chartPixel(n, games, 0).x, bottom + 8);
  ctx.fillText('games', (left + right) / 2, bottom + 24);
  ctx.strokeStyle = CHART.axis;
  ctx.beginPath();
  ctx.moveTo(left + 0.5, top);
  ctx.lineTo(left + 0.5, bottom + 0.5);
  ctx.lineTo(right, bottom + 0.5);
  ctx.stroke();

  // Title and legend.
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.font = `bold 14px "${family}"`;
  const title = 'How often I lose';
  ctx.fillText(title, left, 18);
  const titleWidth = ctx.measureText(title).width;
  ctx.font = `12px "${family}"`;
  const legend: LegendEntry[] = [
    { colour: CHART.overall, label: 'all games', mark: 'line' },
    { colour: CHART.recent, label: games > WINDOW ? `last ${WINDOW}` : `last ${WINDOW} (drawn from game ${WINDOW + 1} on)`, mark: 'line' },
    { colour: CHART.loss, label: 'a loss', mark: 'dot' },
  ];
  drawLegend(ctx, { left, right, titleWidth, pad: 30, gap: 12, text: CHART.axis }, legend);

  const line = (colour: string, rate: (p: ChartPoint) => number, from: number) => {
    const shown = points.filter((p) => p.game >= from);
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = 3;
    ctx.beginPath();
    shown.forEach((p, i) => {
      const { x, y } = chartPixel(p.game, games, rate(p));
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    });
    ctx.stroke();
    for (const p of shown) {
      const { x, y } = chartPixel(p.game, games, rate(p));
      ctx.beginPath();
      ctx.arc(x, y, 4, 0, 2 * Math.PI);
      ctx.fill();
    }
  };
  line(CHART.overall, (p) => p.overall, 1);
  line(CHART.recent, (p) => p.recent, WINDOW + 1);

  ctx.fillStyle = CHART.loss;
  for (const p of points) {
    if (!p.lost) continue;
    const { x } = chartPixel(p.game, games, 0);
    ctx.beginPath();
    ctx.arc(x, bottom - 6, 3, 0, 2 * Math.PI);
    ctx.fill();
  }
  return encodePng(canvas, defaultTheme);
}
