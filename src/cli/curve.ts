/**
 * The learning curve as a chart (node-canvas, so it lives at the edge, not in src/): the loss
 * rate per block of games as bars and the score against the target opponent over its rolling
 * window as a dashed line, both on the left axis in percent, with the target score marked;
 * the library size (learned subgoals) after each game as a line on the right axis.
 */
import { createCanvas, type CanvasRenderingContext2D } from 'canvas';
import type { LearningCurve } from '../gomocup/curve.ts';
// The renderer's index registers the board font (assets/fonts) before any canvas is made.
import { defaultTheme } from '../render/index.ts';

export interface ChartOptions {
  readonly width?: number;
  readonly height?: number;
  readonly title?: string;
}

export const CHART_WIDTH = 960;
export const CHART_HEIGHT = 540;

const FONT = defaultTheme.font.family;
const COLOURS = {
  background: '#ffffff',
  frame: '#444444',
  grid: '#e4e4e4',
  text: '#222222',
  loss: '#e07b6f',
  lossEdge: '#b04a3e',
  library: '#1f5fbf',
  target: '#2e8b3e',
} as const;

/** A round step for about `count` ticks up to `max`. */
function niceStep(max: number, count: number): number {
  const raw = Math.max(max, 1) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

export function renderLearningCurve(curve: LearningCurve, options: ChartOptions = {}): Buffer {
  const width = options.width ?? CHART_WIDTH;
  const height = options.height ?? CHART_HEIGHT;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d', { pixelFormat: 'RGB24' });
  ctx.fillStyle = COLOURS.background;
  ctx.fillRect(0, 0, width, height);

  const left = 78;
  const right = width - 84;
  const top = 92;
  const bottom = height - 62;
  const plotW = right - left;
  const plotH = bottom - top;
  const games = Math.max(1, curve.games.length);
  const x = (game: number) => left + (game / games) * plotW;
  const yPercent = (p: number) => bottom - (p / 100) * plotH;
  const maxLibrary = Math.max(1, ...curve.games.map((g) => g.librarySize));
  const libraryStep = niceStep(maxLibrary, 5);
  const libraryTop = Math.ceil(maxLibrary / libraryStep) * libraryStep;
  const yLibrary = (n: number) => bottom - (n / libraryTop) * plotH;

  const text = (s: string, px: number, at: [number, number], align: 'left' | 'right' | 'center' = 'left', colour: string = COLOURS.text, weight = '') => {
    ctx.font = `${weight}${px}px "${FONT}"`;
    ctx.fillStyle = colour;
    ctx.textAlign = align;
    ctx.textBaseline = 'middle';
    ctx.fillText(s, at[0], at[1]);
  };

  // Title.
  const title = options.title ?? `Learning curve: ${curve.games.length} games on ${curve.size}×${curve.size} against ${curve.opponents.join(', ')}`;
  text(title, 18, [width / 2, 24], 'center', COLOURS.text, 'bold ');

  // Grid and left axis (percent).
  ctx.lineWidth = 1;
  for (let p = 0; p <= 100; p += 20) {
    ctx.strokeStyle = COLOURS.grid;
    line(ctx, left, yPercent(p), right, yPercent(p));
    text(`${p}`, 13, [left - 8, yPercent(p)], 'right');
  }
  // Right axis (library size).
  for (let n = 0; n <= libraryTop; n += libraryStep) text(`${n}`, 13, [right + 8, yLibrary(n)], 'left', COLOURS.library);
  // Bottom axis (games).
  const gameStep = niceStep(games, 10);
  for (let g = 0; g <= games; g += gameStep) {
    ctx.strokeStyle = COLOURS.frame;
    line(ctx, x(g), bottom, x(g), bottom + 5);
    text(`${g}`, 13, [x(g), bottom + 16], 'center');
  }
  text('games played', 14, [(left + right) / 2, bottom + 40], 'center');
  verticalText(ctx, '% of games (loss rate per block; rolling score)', 14, left - 50, (top + bottom) / 2, COLOURS.text);
  verticalText(ctx, 'learned subgoals in the library', 14, right + 56, (top + bottom) / 2, COLOURS.library);

  // Loss rate per block: bars.
  for (const b of curve.blocks) {
    const x0 = x(b.first) + 1.5;
    const x1 = x(b.first + b.games) - 1.5;
    const y = yPercent(100 * b.lossRate);
    ctx.fillStyle = COLOURS.loss;
    ctx.fillRect(x0, y, x1 - x0, bottom - y);
    ctx.strokeStyle = COLOURS.lossEdge;
    ctx.strokeRect(x0, y, x1 - x0, bottom - y);
  }

  // The target score, and the rolling score against the target.
  ctx.strokeStyle = COLOURS.target;
  ctx.lineWidth = 1;
  ctx.setLineDash([2, 4]);
  line(ctx, left, yPercent(curve.target.score), right, yPercent(curve.target.score));
  text(`${curve.target.score}%`, 12, [right - 4, yPercent(curve.target.score) - 9], 'right', COLOURS.target);
  if (curve.target.rolling.length > 0) {
    ctx.setLineDash([8, 5]);
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    curve.target.rolling.forEach(([at, score], i) => (i === 0 ? ctx.moveTo(x(at), yPercent(score)) : ctx.lineTo(x(at), yPercent(score))));
    ctx.stroke();
  }
  ctx.setLineDash([]);

  // Library size after each game: a step line.
  ctx.strokeStyle = COLOURS.library;
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  ctx.moveTo(x(0), yLibrary(0));
  let last = 0;
  curve.games.forEach((g, i) => {
    ctx.lineTo(x(i + 1), yLibrary(last));
    ctx.lineTo(x(i + 1), yLibrary(g.librarySize));
    last = g.librarySize;
  });
  ctx.stroke();

  // Frame.
  ctx.lineWidth = 1;
  ctx.strokeStyle = COLOURS.frame;
  ctx.strokeRect(left, top, plotW, plotH);

  // Legend.
  const legendY = 58;
  let lx = left;
  const blockSize = curve.blocks.length > 0 ? curve.blocks[0].games : 0;
  ctx.fillStyle = COLOURS.loss;
  ctx.fillRect(lx, legendY - 7, 22, 14);
  ctx.strokeStyle = COLOURS.lossEdge;
  ctx.strokeRect(lx, legendY - 7, 22, 14);
  lx += 28;
  const lossLabel = `loss rate per ${blockSize} games`;
  text(lossLabel, 13, [lx, legendY]);
  lx += measure(ctx, lossLabel, 13) + 24;
  ctx.strokeStyle = COLOURS.target;
  ctx.lineWidth = 2.5;
  ctx.setLineDash([8, 5]);
  line(ctx, lx, legendY, lx + 26, legendY);
  ctx.setLineDash([]);
  lx += 32;
  const targetLabel = `score v ${curve.target.name}, last ${curve.target.window} games`;
  text(targetLabel, 13, [lx, legendY], 'left', COLOURS.target);
  lx += measure(ctx, targetLabel, 13) + 24;
  ctx.strokeStyle = COLOURS.library;
  line(ctx, lx, legendY, lx + 26, legendY);
  lx += 32;
  text('library size (right axis)', 13, [lx, legendY], 'left', COLOURS.library);
  ctx.lineWidth = 1;

  return canvas.toBuffer('image/png');
}

function line(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
}

function measure(ctx: CanvasRenderingContext2D, s: string, px: number): number {
  ctx.font = `${px}px "${FONT}"`;
  return ctx.measureText(s).width;
}

function verticalText(ctx: CanvasRenderingContext2D, s: string, px: number, cx: number, cy: number, colour: string): void {
  ctx.save();
  ctx.translate(cx, cy);
  ctx.rotate(-Math.PI / 2);
  ctx.font = `${px}px "${FONT}"`;
  ctx.fillStyle = colour;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(s, 0, 0);
  ctx.restore();
}
