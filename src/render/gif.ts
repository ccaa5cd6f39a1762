/**
 * Replays: a game as an animated GIF, a pure function of a plain `ReplaySnapshot` and a theme.
 * Frame k is the position after k moves (frame 0 the empty board), so a game of n moves has
 * n + 1 frames; each marks its last move, the last frame highlights the five and is held
 * longer, and a frame on which a learned subgoal was recognised shows its realisation (discs
 * and squares, as /threats draws them) and is held long enough to look at.
 *
 * Why gifenc: a maintained, dependency-free encoder that takes indexed frames and a palette of
 * our choosing, which is what the two size decisions below need; node-canvas writes no GIF.
 *
 * Size (a replay must stay under a megabyte for a 150-move game):
 * - One global palette for the whole replay, quantised once from the final position with every
 *   overlay drawn on it, plus each mark colour of the theme given the weight of a large area so
 *   the quantiser keeps it: every frame maps the same pixel to the same index.
 * - Every frame after the first is only the rectangle that can have changed since the frame
 *   before (a cell round the new stone, the old last move, the marks shown or taken away, and
 *   the five), placed where it belongs; inside it, unchanged pixels are the transparent index,
 *   and frames are not disposed, so the viewer keeps what it showed. Reading back and mapping
 *   only that rectangle is also most of the time saved: a 150-move replay went from about
 *   0.9 s to the figure in docs/BENCHMARKS.md.
 */
import type { CanvasRenderingContext2D } from 'canvas';
import type { Palette } from 'gifenc';
import { createRequire } from 'node:module';
import type { RealisationOverlay } from '../rules/snapshot.ts';
import { BLACK, EMPTY, WHITE, type Cell, type Point } from '../rules/types.ts';
import { checkSnapshot, paintOverlays, paintPosition } from './board.ts';
import { boardLayout, pointToPixel, type Layout } from './layout.ts';
import { newImage } from './paint.ts';
import { defaultTheme, type Theme } from './theme.ts';

// See gifenc.d.ts for why require.
const { GIFEncoder, quantize } = createRequire(import.meta.url)('gifenc') as typeof import('gifenc');

/** A whole game, as the replay draws it. */
export interface ReplaySnapshot {
  readonly size: number;
  /** Every move, black first. */
  readonly moves: readonly Point[];
  /** The five that ended the game, highlighted on the last frame. */
  readonly winningLine?: readonly Point[];
  /** Realisations drawn on one frame each: `frame` k is the position after k moves. */
  readonly marks: readonly ReplayMark[];
}

export interface ReplayMark {
  readonly frame: number;
  readonly overlays: readonly RealisationOverlay[];
}

/** One colour index is kept for "unchanged since the last frame". */
const TRANSPARENT = 255;
/** Pixels each theme colour weighs in the quantiser's input, so a small mark keeps its colour. */
const KEY_WEIGHT = 4096;

/** The GIF of a game: moves + 1 frames. */
export function renderReplay(replay: ReplaySnapshot, theme: Theme = defaultTheme): Buffer {
  const size = replay.size;
  checkSnapshot({ size, cells: new Array<Cell>(size * size).fill(EMPTY) });
  for (const m of replay.marks) {
    if (!Number.isInteger(m.frame) || m.frame < 0 || m.frame > replay.moves.length) throw new RangeError(`a mark on frame ${m.frame} of a ${replay.moves.length}-move game`);
  }
  const t = replayTheme(theme);
  const layout = boardLayout(size, t);
  const { ctx } = newImage(layout.width, layout.height);
  const last = replay.moves.length;
  const marksAt = new Map<number, RealisationOverlay[]>();
  for (const m of replay.marks) marksAt.set(m.frame, [...(marksAt.get(m.frame) ?? []), ...m.overlays]);

  const draw = (k: number, overlays: readonly RealisationOverlay[]): void => paintFrame(ctx, layout, t, replay, k, overlays);
  const { width, height } = layout;
  draw(last, replay.marks.flatMap((m) => m.overlays));
  const palette = paletteFor(ctx.getImageData(0, 0, width, height).data, t);
  const toIndex = paletteMap(palette.slice(0, TRANSPARENT));

  const gif = GIFEncoder({ initialCapacity: 1 << 18 });
  // What the viewer shows, as RGBA words: only the part a frame can have changed is compared.
  const screen = new Uint32Array(width * height);
  for (let k = 0; k <= last; k++) {
    const overlays = marksAt.get(k) ?? [];
    draw(k, overlays);
    const delay = k === last ? t.replay.lastMs : marksAt.has(k) ? t.replay.markedMs : t.replay.moveMs;
    if (k === 0) {
      const rgba = ctx.getImageData(0, 0, width, height).data;
      screen.set(new Uint32Array(rgba.buffer, rgba.byteOffset, width * height));
      gif.writeFrame(toIndex(rgba), width, height, { palette, delay, repeat: 0, dispose: 1 });
      continue;
    }
    const touched = [replay.moves[k - 1], ...(k >= 2 ? [replay.moves[k - 2]] : []), ...overlayPoints(overlays), ...overlayPoints(marksAt.get(k - 1) ?? []), ...(k === last ? (replay.winningLine ?? []) : [])];
    const box = boxAround(layout, touched);
    const rgba = ctx.getImageData(box.left, box.top, box.width, box.height).data;
    const pixels = new Uint32Array(rgba.buffer, rgba.byteOffset, box.width * box.height);
    const index = toIndex(rgba);
    for (let y = 0; y < box.height; y++) {
      for (let x = 0; x < box.width; x++) {
        const i = (box.top + y) * width + box.left + x;
        const j = y * box.width + x;
        if (pixels[j] === screen[i]) index[j] = TRANSPARENT;
        else screen[i] = pixels[j];
      }
    }
    const start = gif.bytesView().length;
    gif.writeFrame(index, box.width, box.height, { delay, transparent: true, transparentIndex: TRANSPARENT, dispose: 1 });
    placeFrame(gif.bytesView(), start, box.left, box.top);
  }
  gif.finish();
  return Buffer.from(gif.bytes());
}

/**
 * The pixels a change at these points can reach: a cell round each point every way. A stone
 * with its shadow reaches 0.58 of a cell, a point's markers 0.7, and the five's capsule, 0.62
 * to the side of its line, stays within a cell of the stones it joins.
 */
function boxAround(layout: Layout, points: readonly Point[]): { left: number; top: number; width: number; height: number } {
  const reach = layout.cell;
  let left = Infinity;
  let right = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  for (const p of points) {
    const c = pointToPixel(layout, p);
    left = Math.min(left, c.x - reach);
    right = Math.max(right, c.x + reach);
    top = Math.min(top, c.y - reach);
    bottom = Math.max(bottom, c.y + reach);
  }
  const x0 = Math.max(0, Math.floor(left));
  const y0 = Math.max(0, Math.floor(top));
  const x1 = Math.min(layout.width, Math.ceil(right));
  const y1 = Math.min(layout.height, Math.ceil(bottom));
  return { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}

function overlayPoints(overlays: readonly RealisationOverlay[]): Point[] {
  return overlays.flatMap((o) => [...o.nodes, ...o.implicit]);
}

/**
 * Moves the frame just written to (left, top). gifenc writes every frame at the origin; a frame
 * that is only the rectangle that changed is most of the replay's saving in size and time, so
 * its image descriptor's position is set here, after the graphic control extension gifenc
 * writes first (8 bytes). Checked, so that a gifenc writing otherwise fails loudly.
 */
function placeFrame(bytes: Uint8Array, start: number, left: number, top: number): void {
  const d = start + 8;
  if (bytes[start] !== 0x21 || bytes[start + 1] !== 0xf9 || bytes[d] !== 0x2c) throw new Error('gifenc wrote a frame in a layout this renderer does not know');
  bytes[d + 1] = left & 0xff;
  bytes[d + 2] = left >> 8;
  bytes[d + 3] = top & 0xff;
  bytes[d + 4] = top >> 8;
}

/** How long each frame of a replay shows, in ms: for readers of the GIF (tests, docs). */
export function replayDelays(replay: Pick<ReplaySnapshot, 'moves' | 'marks'>, theme: Theme = defaultTheme): number[] {
  const marked = new Set(replay.marks.map((m) => m.frame));
  const r = theme.replay;
  return Array.from({ length: replay.moves.length + 1 }, (_, k) => (k === replay.moves.length ? r.lastMs : marked.has(k) ? r.markedMs : r.moveMs));
}

/** The layout a replay of a board this size is drawn in. */
export function replayLayout(size: number, theme: Theme = defaultTheme): Layout {
  return boardLayout(size, replayTheme(theme));
}

function paintFrame(ctx: CanvasRenderingContext2D, layout: Layout, theme: Theme, replay: ReplaySnapshot, k: number, overlays: readonly RealisationOverlay[]): void {
  const cells = new Array<Cell>(replay.size * replay.size).fill(EMPTY);
  replay.moves.slice(0, k).forEach((p, i) => (cells[p] = i % 2 === 0 ? BLACK : WHITE));
  const end = k === replay.moves.length;
  paintPosition(
    ctx,
    layout,
    theme,
    {
      size: replay.size,
      cells,
      ...(k > 0 ? { lastMove: replay.moves[k - 1] } : {}),
      ...(end && replay.winningLine !== undefined ? { winningLine: replay.winningLine } : {}),
    },
    false,
  );
  if (overlays.length > 0) paintOverlays(ctx, layout, theme, overlays);
}

/**
 * Pixels to palette indices, the nearest colour by squared distance, remembered per 16-bit
 * colour for the whole replay. gifenc's applyPalette does the same but starts its memory
 * afresh on each call, and a replay calls it for every frame: most of its time went there.
 */
function paletteMap(colours: Palette): (rgba: Uint8ClampedArray) => Uint8Array {
  const memory = new Int16Array(1 << 16).fill(-1);
  const nearest = (r: number, g: number, b: number): number => {
    let best = 0;
    let bestDistance = Infinity;
    for (let i = 0; i < colours.length; i++) {
      const c = colours[i];
      const d = (c[0] - r) ** 2 + (c[1] - g) ** 2 + (c[2] - b) ** 2;
      if (d < bestDistance) {
        bestDistance = d;
        best = i;
      }
    }
    return best;
  };
  return (rgba) => {
    const out = new Uint8Array(rgba.length / 4);
    for (let i = 0, j = 0; j < out.length; i += 4, j++) {
      const r = rgba[i];
      const g = rgba[i + 1];
      const b = rgba[i + 2];
      const key = ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3);
      let index = memory[key];
      if (index < 0) index = memory[key] = nearest(r, g, b);
      out[j] = index;
    }
    return out;
  };
}

/** 255 colours for the frames (index 255 is transparency), the theme's marks among them. */
function paletteFor(rgba: Uint8ClampedArray, theme: Theme): Palette {
  const keys = [theme.lastMove.colour, theme.winningLine.border, theme.winningLine.fill, theme.realisations.black.colour, theme.realisations.white.colour, theme.realisations.implicitFill]
    .map(hexRgb)
    .filter((c): c is [number, number, number] => c !== undefined);
  const input = new Uint8ClampedArray(rgba.length + keys.length * KEY_WEIGHT * 4);
  input.set(rgba);
  let at = rgba.length;
  for (const [r, g, b] of keys) {
    for (let i = 0; i < KEY_WEIGHT; i++, at += 4) {
      input[at] = r;
      input[at + 1] = g;
      input[at + 2] = b;
      input[at + 3] = 255;
    }
  }
  const palette = quantize(input, TRANSPARENT);
  // The table is padded to 256 entries; the last is never a pixel's nearest colour.
  while (palette.length < TRANSPARENT) palette.push([0, 0, 0]);
  return [...palette, [255, 0, 255]];
}

function hexRgb(hex: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m === null ? undefined : [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
}

const replayThemes = new WeakMap<Theme, Theme>();

/** The theme with the replay's cell size, made once per theme so the renderer's caches hold. */
function replayTheme(theme: Theme): Theme {
  let t = replayThemes.get(theme);
  if (t === undefined) {
    t = theme.cellPx === theme.replay.cellPx ? theme : { ...theme, cellPx: theme.replay.cellPx };
    replayThemes.set(theme, t);
  }
  return t;
}
