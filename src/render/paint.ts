/**
 * Drawing on a canvas: the board's background, stones, numbers and markers. Everything here
 * takes its sizes from a layout and its looks from a theme. The parts that are the same in
 * every render (the empty board for a layout, a stone of each colour at a cell size) are drawn
 * once and kept, keyed by theme, so a render paints copies of them.
 */
import { Canvas as CanvasClass, createCanvas, type Canvas, type CanvasRenderingContext2D } from 'canvas';
import './fonts.ts';
import type { Colour } from '../rules/types.ts';
import {
  columnX,
  coordinateLabels,
  pointToPixel,
  rowY,
  starPoints,
  inView,
  type Layout,
  type Pixel,
} from './layout.ts';
import type { PngFilter, Theme, StoneStyle } from './theme.ts';
import { woodTexture } from './wood.ts';

/** A canvas the size of the layout, without alpha: the PNG comes out RGB, a quarter smaller. */
export function newImage(width: number, height: number): { canvas: Canvas; ctx: CanvasRenderingContext2D } {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d', { pixelFormat: 'RGB24' });
  return { canvas, ctx };
}

/** Images kept by size for `paintAndEncode`: a board of each size, a legend sheet or two. */
const KEPT_IMAGES = 6;
const keptImages = new Map<string, { canvas: Canvas; ctx: CanvasRenderingContext2D }>();

/**
 * Paints an image and encodes it, on an image of that size kept from the last time and painted
 * over: for the pictures drawn for nearly every reply (a board, a heat map, /threats). Making
 * the image each time — a surface allocated and cleared, then made again as RGB24 — was an
 * eighth of drawing a board, and its 1.8 MB outside the heap brought on collections. `paint`
 * must cover every pixel before anything else (the board's background, or the sheet's), so the
 * last picture leaves nothing behind; the context's state is saved before and restored after,
 * and its path, which the state does not hold, is begun afresh.
 */
export function paintAndEncode(width: number, height: number, theme: Pick<Theme, 'pngCompression' | 'pngFilter'>, paint: (ctx: CanvasRenderingContext2D) => void): Buffer {
  const key = `${width}x${height}`;
  const image = keptImages.get(key) ?? newImage(width, height);
  keptImages.delete(key);
  keptImages.set(key, image);
  for (const oldest of keptImages.keys()) {
    if (keptImages.size <= KEPT_IMAGES) break;
    keptImages.delete(oldest);
  }
  const { canvas, ctx } = image;
  ctx.save();
  ctx.beginPath();
  try {
    paint(ctx);
    return encodePng(canvas, theme);
  } finally {
    ctx.restore();
  }
}

/** libpng's filter flags, as node-canvas names them. */
const PNG_FILTERS: Readonly<Record<PngFilter, number>> = {
  none: CanvasClass.PNG_FILTER_NONE,
  sub: CanvasClass.PNG_FILTER_SUB,
  up: CanvasClass.PNG_FILTER_UP,
  average: CanvasClass.PNG_FILTER_AVG,
  paeth: CanvasClass.PNG_FILTER_PAETH,
  adaptive: CanvasClass.PNG_ALL_FILTERS,
};

export function encodePng(canvas: Canvas, theme: Pick<Theme, 'pngCompression' | 'pngFilter'>): Buffer {
  return canvas.toBuffer('image/png', { compressionLevel: theme.pngCompression, filters: PNG_FILTERS[theme.pngFilter] });
}

export function font(px: number, family: string, weight: 'normal' | 'bold' = 'normal'): string {
  return `${weight === 'bold' ? 'bold ' : ''}${px}px "${family}"`;
}

/**
 * A small cache per theme. Keys are strings built from the geometry that decides the pixels;
 * it forgets its oldest entry past `limit`, since crops of mnemonics come in many shapes.
 */
class PerTheme<T> {
  private readonly byTheme = new WeakMap<Theme, Map<string, T>>();
  constructor(private readonly limit: number) {}

  get(theme: Theme, key: string, make: () => T): T {
    let entries = this.byTheme.get(theme);
    if (entries === undefined) {
      entries = new Map();
      this.byTheme.set(theme, entries);
    }
    let value = entries.get(key);
    if (value === undefined) {
      value = make();
      if (entries.size >= this.limit) entries.delete(entries.keys().next().value as string);
      entries.set(key, value);
    }
    return value;
  }
}

const backgrounds = new PerTheme<Canvas>(48);
const stoneSprites = new PerTheme<{ canvas: Canvas; half: number }>(32);

function layoutKey(layout: Layout): string {
  const b = layout.box;
  const c = layout.coordinates;
  return [layout.size, layout.cell, b.colMin, b.colMax, b.rowMin, b.rowMax, layout.left, layout.top, layout.width, layout.height, c?.fontPx, c?.offsetPx].join(',');
}

/** The empty board for a layout: wood, lines, star points and coordinates. */
export function paintBackground(ctx: CanvasRenderingContext2D, layout: Layout, theme: Theme): void {
  const background = backgrounds.get(theme, layoutKey(layout), () => {
    const { canvas, ctx: bg } = newImage(layout.width, layout.height);
    drawEmptyBoard(bg, layout, theme);
    return canvas;
  });
  ctx.drawImage(background, 0, 0);
}

function drawEmptyBoard(ctx: CanvasRenderingContext2D, layout: Layout, theme: Theme): void {
  const pattern = ctx.createPattern(woodTexture(theme.wood), 'repeat');
  ctx.fillStyle = pattern;
  ctx.fillRect(0, 0, layout.width, layout.height);

  const { box, cell, edges } = layout;
  const g = theme.grid;
  // Lines are filled rectangles on whole pixels, so they come out crisp at any width.
  const lw = g.lineWidthPx;
  const bw = g.borderWidthPx;
  const firstX = Math.floor(columnX(layout, box.colMin));
  const lastX = Math.floor(columnX(layout, box.colMax));
  const firstY = Math.floor(rowY(layout, box.rowMax));
  const lastY = Math.floor(rowY(layout, box.rowMin));
  // Where the board goes on beyond the view, lines run to the image's edge.
  const x0 = edges.left ? firstX : 0;
  const x1 = edges.right ? lastX + 1 : layout.width;
  const y0 = edges.top ? firstY : 0;
  const y1 = edges.bottom ? lastY + 1 : layout.height;
  ctx.fillStyle = g.colour;
  const thin = Math.floor((lw - 1) / 2);
  for (let col = box.colMin; col <= box.colMax; col++) {
    ctx.fillRect(Math.floor(columnX(layout, col)) - thin, y0, lw, y1 - y0);
  }
  for (let row = box.rowMin; row <= box.rowMax; row++) {
    ctx.fillRect(x0, Math.floor(rowY(layout, row)) - thin, x1 - x0, lw);
  }
  // The border grows outwards from the outer lines, so the outer intersections stay centred.
  const grow = bw - 1;
  const by0 = edges.top ? y0 - grow : y0;
  const by1 = edges.bottom ? y1 + grow : y1;
  const bx0 = edges.left ? x0 - grow : x0;
  const bx1 = edges.right ? x1 + grow : x1;
  if (edges.left) ctx.fillRect(firstX - grow, by0, bw, by1 - by0);
  if (edges.right) ctx.fillRect(lastX, by0, bw, by1 - by0);
  if (edges.top) ctx.fillRect(bx0, firstY - grow, bx1 - bx0, bw);
  if (edges.bottom) ctx.fillRect(bx0, lastY, bx1 - bx0, bw);

  const starRadius = Math.max(1.5, cell * g.starRadius);
  for (const p of starPoints(layout.size)) {
    if (!inView(layout, p)) continue;
    const { x, y } = pointToPixel(layout, p);
    ctx.beginPath();
    ctx.arc(x, y, starRadius, 0, Math.PI * 2);
    ctx.fill();
  }

  if (layout.coordinates !== null) {
    ctx.fillStyle = theme.coordinates.colour;
    ctx.font = font(layout.coordinates.fontPx, theme.font.family);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'alphabetic';
    // Centre what the eye sees: the x-height of lower-case letters, the height of digits.
    const letterHalf = ctx.measureText('x').actualBoundingBoxAscent / 2;
    const digitHalf = ctx.measureText('0').actualBoundingBoxAscent / 2;
    for (const label of coordinateLabels(layout)) {
      ctx.fillText(label.text, label.x, label.y + (label.kind === 'column' ? letterHalf : digitHalf));
    }
  }
}

/**
 * A stone of one colour drawn once on a transparent square with its shadow. The square's side
 * is odd, so its centre is the middle of a pixel, as a point's centre is, and a copy lands on
 * whole pixels: every stone of a colour is the same pixels.
 */
function stoneSprite(theme: Theme, cell: number, colour: Colour): { canvas: Canvas; half: number } {
  return stoneSprites.get(theme, `${cell},${colour}`, () => {
    const radius = cell * theme.stones.radius;
    const offset = cell * theme.stones.shadow.offset;
    const side = 2 * Math.ceil(radius * 1.1 + offset + 1) + 1;
    const c = side / 2;
    const canvas = createCanvas(side, side);
    const ctx = canvas.getContext('2d');

    const shadow = ctx.createRadialGradient(c + offset, c + offset, radius * 0.8, c + offset, c + offset, radius * 1.1);
    shadow.addColorStop(0, theme.stones.shadow.colour);
    shadow.addColorStop(1, 'rgba(0, 0, 0, 0)');
    ctx.fillStyle = shadow;
    ctx.beginPath();
    ctx.arc(c + offset, c + offset, radius * 1.1, 0, Math.PI * 2);
    ctx.fill();

    const style: StoneStyle = theme.stones[colour];
    const shade = ctx.createRadialGradient(c - radius * 0.35, c - radius * 0.4, radius * 0.05, c, c, radius);
    for (const [offset, colour] of style.shade) shade.addColorStop(offset, colour);
    ctx.fillStyle = shade;
    ctx.beginPath();
    ctx.arc(c, c, radius, 0, Math.PI * 2);
    ctx.fill();
    if (style.outline !== null) {
      ctx.strokeStyle = style.outline;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.arc(c, c, radius - 0.5, 0, Math.PI * 2);
      ctx.stroke();
    }
    return { canvas, half: c };
  });
}

export function paintStone(ctx: CanvasRenderingContext2D, layout: Layout, theme: Theme, at: Pixel, colour: Colour): void {
  const sprite = stoneSprite(theme, layout.cell, colour);
  ctx.drawImage(sprite.canvas, at.x - sprite.half, at.y - sprite.half);
}

/** Text centred on a point, by the height of its digits. */
export function paintCentredText(ctx: CanvasRenderingContext2D, text: string, at: Pixel, px: number, family: string, colour: string): void {
  ctx.font = font(px, family, 'bold');
  ctx.fillStyle = colour;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  const half = ctx.measureText('0').actualBoundingBoxAscent / 2;
  ctx.fillText(text, at.x, at.y + half);
}

export function paintMoveNumber(ctx: CanvasRenderingContext2D, layout: Layout, theme: Theme, at: Pixel, n: number, colour: Colour): void {
  const text = String(n);
  const m = theme.moveNumbers;
  const px = Math.round(layout.cell * m.size * (text.length >= 3 ? m.shrink3 : 1));
  paintCentredText(ctx, text, at, px, theme.font.family, theme.stones[colour].text);
}

export function paintLastMove(ctx: CanvasRenderingContext2D, layout: Layout, theme: Theme, at: Pixel, numbered: boolean): void {
  const l = theme.lastMove;
  ctx.strokeStyle = l.colour;
  ctx.lineWidth = Math.max(1.5, layout.cell * l.width);
  ctx.beginPath();
  ctx.arc(at.x, at.y, layout.cell * (numbered ? l.numberedRadius : l.radius), 0, Math.PI * 2);
  ctx.stroke();
}

/** A capsule from one end of the winning five to the other, drawn under the stones. */
export function paintWinningLine(ctx: CanvasRenderingContext2D, layout: Layout, theme: Theme, from: Pixel, to: Pixel): void {
  const w = theme.winningLine;
  const half = layout.cell * w.halfWidth;
  ctx.lineCap = 'round';
  ctx.strokeStyle = w.border;
  ctx.lineWidth = 2 * half;
  stroke(ctx, from, to);
  ctx.strokeStyle = w.fill;
  ctx.lineWidth = 2 * (half - w.borderPx);
  stroke(ctx, from, to);
  ctx.lineCap = 'butt';
}

function stroke(ctx: CanvasRenderingContext2D, from: Pixel, to: Pixel): void {
  ctx.beginPath();
  ctx.moveTo(from.x, from.y);
  ctx.lineTo(to.x, to.y);
  ctx.stroke();
}

/** An explicit node: a disc of the given radius (in cells) in the side's colour, with its label. */
export function paintNodeMark(
  ctx: CanvasRenderingContext2D,
  layout: Layout,
  theme: Theme,
  at: Pixel,
  side: Colour,
  label: number,
  size: number,
): void {
  const r = theme.realisations;
  const radius = layout.cell * size;
  ctx.fillStyle = r.halo;
  ctx.beginPath();
  ctx.arc(at.x, at.y, radius + Math.max(1, radius * 0.12), 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = r[side].colour;
  ctx.beginPath();
  ctx.arc(at.x, at.y, radius, 0, Math.PI * 2);
  ctx.fill();
  const text = String(label);
  const px = Math.max(7, Math.round(radius * r.labelSize * (text.length >= 2 ? 0.85 : 1)));
  paintCentredText(ctx, text, at, px, theme.font.family, r[side].text);
}

/** An implicit node (a defender's answer): a light square, `size` cells from centre to side, edged in the side's colour. */
export function paintImplicitMark(ctx: CanvasRenderingContext2D, layout: Layout, theme: Theme, at: Pixel, side: Colour, size: number): void {
  const r = theme.realisations;
  const half = layout.cell * size;
  const width = Math.max(1.5, layout.cell * r.implicitWidth);
  ctx.fillStyle = r.implicitFill;
  ctx.fillRect(at.x - half, at.y - half, 2 * half, 2 * half);
  ctx.strokeStyle = r[side].colour;
  ctx.lineWidth = width;
  ctx.strokeRect(at.x - half, at.y - half, 2 * half, 2 * half);
}
