/**
 * The bot's avatar and app icon, drawn by the renderer from a position, like every other image:
 * a corner of a board with the game's one rule on it — five black stones in a row, held by the
 * winning line, among white stones that failed to stop them. Square, 512 pixels by default
 * (the developer portal asks for at least 512×512 for an app icon), so it stays legible when
 * Discord shrinks it to a 32-pixel circle: few, large stones, no text.
 *
 * `npx tsx src/render/avatarImage.ts` writes it to assets/avatar.png.
 */
import { parsePoint } from '../rules/point.ts';
import type { BoardSnapshot } from '../rules/snapshot.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../rules/types.ts';
import { paintPosition } from './board.ts';
import { cropLayout, type Layout } from './layout.ts';
import { encodePng, newImage } from './paint.ts';
import { defaultTheme, type Theme } from './theme.ts';

const SIZE = 15;
/** The part of the board in view: seven lines each way, the board going on beyond them. */
const BOX = { colMin: 4, colMax: 10, rowMin: 4, rowMax: 10 };

export function avatarSnapshot(): BoardSnapshot {
  const at = (t: string) => {
    const p = parsePoint(SIZE, t);
    if (!p.ok) throw new Error(`avatar: ${t}`);
    return p.value;
  };
  const cells = new Array<Cell>(SIZE * SIZE).fill(EMPTY);
  const five = ['f6', 'g7', 'h8', 'i9', 'j10'].map(at);
  for (const p of five) cells[p] = BLACK;
  for (const t of ['g9', 'i7', 'h9', 'f9', 'j7']) cells[at(t)] = WHITE;
  return { size: SIZE, cells, winningLine: five };
}

export function renderAvatar(px = 512, theme: Theme = defaultTheme): Buffer {
  const lines = BOX.colMax - BOX.colMin;
  // The largest cell that leaves a little wood beyond the outer lines, centred.
  const cell = Math.floor((px - 1) / (lines + 1.1));
  const crop = cropLayout(SIZE, BOX, theme, cell);
  const margin = Math.floor((px - lines * cell - 1) / 2);
  const layout: Layout = { ...crop, left: margin, top: margin, width: px, height: px };
  const { canvas, ctx } = newImage(px, px);
  paintPosition(ctx, layout, theme, avatarSnapshot(), false);
  // Drawn once and uploaded: libpng's adaptive filter makes this one 10% smaller, and time
  // does not matter here as it does for the bot's replies.
  return encodePng(canvas, { ...theme, pngFilter: 'adaptive' });
}
