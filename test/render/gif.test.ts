// Replays as GIFs, read back with the tests' own GIF reader (test/support/gif.ts): frames,
// delays and the pixels a viewer would see, on a real 170-move game and on a small one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Game } from '../../src/rules/game.ts';
import { parseGame } from '../../src/rules/gameRecord.ts';
import { renderReplay, replayDelays, replayLayout, type ReplaySnapshot } from '../../src/render/gif.ts';
import { renderBoard, renderThreats } from '../../src/render/board.ts';
import { pointToPixel } from '../../src/render/layout.ts';
import { defaultTheme } from '../../src/render/theme.ts';
import { expectOk } from '../../src/rules/result.ts';
import { decodeGif, type Gif } from '../support/gif.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../../src/rules/types.ts';
import { decode, distance, hexToRgb, isWood, luminance } from './png.ts';

/** The most a pixel's colour moves when the frame is reduced to 255 colours (largest channel). */
const PALETTE_ERROR = 64;
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const long = expectOk(parseGame(read('../fixtures/games/replay/long-170.txt')));
const short = expectOk(parseGame(read('../fixtures/games/learning/double-open-three.txt')));

function replayOf(game: Game, moves = game.moves.length, marks: ReplaySnapshot['marks'] = []): ReplaySnapshot {
  const status = game.status;
  const end = moves === game.moves.length && status.kind === 'won' ? { winningLine: status.five } : {};
  return { size: game.size, moves: game.moves.slice(0, moves), marks, ...end };
}

/** On frame k: each of the first k moves a stone of its colour, the rest of the board bare. */
function expectPositionOn(gif: Gif, k: number, game: Game): void {
  const layout = replayLayout(game.size);
  const screen = gif.screen(k);
  const played = new Map(game.moves.slice(0, k).map((p, i) => [p, i % 2 === 0 ? 'black' : 'white']));
  for (let p = 0; p < game.size * game.size; p++) {
    const c = pointToPixel(layout, p);
    // Right of the centre: clear of the last-move ring, still on the stone.
    const lum = luminance(screen.at(c.x + layout.cell * 0.32, c.y - layout.cell * 0.08));
    const what = played.get(p);
    if (what === 'black') expect(lum, `black at ${p} on frame ${k}`).toBeLessThan(80);
    else if (what === 'white') expect(lum, `white at ${p} on frame ${k}`).toBeGreaterThan(190);
    else expect(isWood(screen.at(c.x + layout.cell / 4, c.y + layout.cell / 4)), `bare board by ${p} on frame ${k}`).toBe(true);
  }
}

describe('renderReplay', () => {
  it('has a frame per move and the empty board, each showing its position, looping for ever', () => {
    const gif = decodeGif(renderReplay(replayOf(short)));
    const layout = replayLayout(short.size);
    expect([gif.width, gif.height]).toEqual([layout.width, layout.height]);
    expect(gif.frames).toHaveLength(short.moves.length + 1);
    expect(gif.loops).toBe(0);
    for (let k = 0; k <= short.moves.length; k++) expectPositionOn(gif, k, short);
  });

  it('rings the last move on each frame, and highlights the five on the last, held longest', () => {
    const gif = decodeGif(renderReplay(replayOf(short)));
    const layout = replayLayout(short.size);
    const ring = hexToRgb(defaultTheme.lastMove.colour);
    const onRing = (p: number) => {
      const c = pointToPixel(layout, p);
      return { x: c.x, y: c.y - layout.cell * defaultTheme.lastMove.radius };
    };
    for (let k = 1; k <= short.moves.length; k++) {
      const at = onRing(short.moves[k - 1]);
      expect(distance(gif.screen(k).at(at.x, at.y), ring), `ring on frame ${k}`).toBeLessThan(40);
      if (k >= 2) {
        const before = onRing(short.moves[k - 2]);
        expect(distance(gif.screen(k).at(before.x, before.y), ring), `no ring left on frame ${k}`).toBeGreaterThan(80);
      }
    }
    const status = short.status;
    if (status.kind !== 'won') throw new Error('the fixture is won');
    const green = hexToRgb(defaultTheme.winningLine.fill);
    // Beside the five's first stone, on the side away from its shadow, the capsule shows.
    const [a, b] = status.five.map((p) => pointToPixel(layout, p));
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    let n = { x: -(b.y - a.y) / len, y: (b.x - a.x) / len };
    if (n.x + n.y > 0) n = { x: -n.x, y: -n.y };
    const mid = { x: a.x + n.x * layout.cell * 0.54, y: a.y + n.y * layout.cell * 0.54 };
    // The strip of capsule between stone and border is a few pixels: the nearest colour near there.
    const nearest = (k: number) => {
      let best = Infinity;
      for (let dy = -3; dy <= 3; dy++) for (let dx = -3; dx <= 3; dx++) best = Math.min(best, distance(gif.screen(k).at(mid.x + dx, mid.y + dy), green));
      return best;
    };
    const last = short.moves.length;
    expect(nearest(last)).toBeLessThan(30);
    expect(nearest(last - 1)).toBeGreaterThan(60);
    expect(gif.frames.map((f) => f.delayMs)).toEqual(replayDelays(replayOf(short)));
    expect(gif.frames[last].delayMs).toBe(defaultTheme.replay.lastMs);
    expect(gif.frames[1].delayMs).toBe(defaultTheme.replay.moveMs);
  });

  it('draws a learned realisation on the frame where it was recognised, held longer, and gone on the next', () => {
    // k10 (move 9) made the double open three: before it, black's (1, 1) 3:3', 3' at k10.
    const frame = 8;
    const node = short.moves[frame];
    const marks = [{ frame, overlays: [{ colour: 'black' as const, nodes: [node], implicit: [] }] }];
    const gif = decodeGif(renderReplay(replayOf(short, short.moves.length, marks)));
    const layout = replayLayout(short.size);
    const c = pointToPixel(layout, node);
    const blue = hexToRgb(defaultTheme.realisations.black.colour);
    const off = { x: c.x + layout.cell * 0.3, y: c.y };
    expect(distance(gif.screen(frame).at(off.x, off.y), blue)).toBeLessThan(40);
    expect(distance(gif.screen(frame - 1).at(off.x, off.y), blue)).toBeGreaterThan(80);
    expect(luminance(gif.screen(frame + 1).at(off.x, off.y))).toBeLessThan(80);
    expect(gif.frames[frame].delayMs).toBe(defaultTheme.replay.markedMs);
  });

  it('keeps a real 170-move game, and its first 150 moves, under a megabyte', () => {
    expect(long.moves.length).toBe(170);
    for (const moves of [150, 170]) {
      const bytes = renderReplay(replayOf(long, moves));
      expect(bytes.length, `${moves} moves`).toBeLessThan(1024 * 1024);
      const gif = decodeGif(bytes);
      expect(gif.frames).toHaveLength(moves + 1);
      if (moves === 170) expectPositionOn(gif, 170, long);
    }
  });

  it('shows on every frame what a still render of that position shows, within the error of the palette', async () => {
    // The GIF holds only the part of each frame that can have changed: this checks that nothing
    // that changed was left out, against the board renderer drawing each position whole.
    const frame = 8;
    const overlay = { colour: 'black' as const, nodes: [short.moves[frame]], implicit: [short.moves[frame + 1]] };
    const gif = decodeGif(renderReplay(replayOf(short, short.moves.length, [{ frame, overlays: [overlay] }])));
    const status = short.status;
    for (let k = 0; k <= short.moves.length; k++) {
      const cells = new Array<Cell>(short.size * short.size).fill(EMPTY);
      short.moves.slice(0, k).forEach((p, i) => (cells[p] = i % 2 === 0 ? BLACK : WHITE));
      const snapshot = { size: short.size, cells, ...(k > 0 ? { lastMove: short.moves[k - 1] } : {}), ...(k === short.moves.length && status.kind === 'won' ? { winningLine: status.five } : {}) };
      const still = await decode(k === frame ? renderThreats(snapshot, [overlay]) : renderBoard(snapshot));
      const screen = gif.screen(k);
      let worst = 0;
      for (let y = 0; y < gif.height; y++) for (let x = 0; x < gif.width; x++) worst = Math.max(worst, distance(screen.at(x, y), still.at({ x, y })));
      expect(worst, `frame ${k}`).toBeLessThan(PALETTE_ERROR);
    }
  });

  it('refuses a mark on a frame the game does not have', () => {
    expect(() => renderReplay(replayOf(short, short.moves.length, [{ frame: short.moves.length + 1, overlays: [] }]))).toThrow(RangeError);
  });
});
