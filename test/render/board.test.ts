import { describe, expect, it } from 'vitest';
import { renderBoard, checkSnapshot, paintPosition } from '../../src/render/board.ts';
import { renderHeatMap } from '../../src/render/heat.ts';
import { encodePng, newImage } from '../../src/render/paint.ts';
import { boardLayout, coordinateLabels, lineEnds, pointToPixel, pointsInView, starPoints, type Layout } from '../../src/render/layout.ts';
import { defaultTheme } from '../../src/render/theme.ts';
import { finished15, gameSnapshot, midgame19, points, setupSnapshot } from '../../src/render/samples.ts';
import type { BoardSnapshot } from '../../src/rules/snapshot.ts';
import { BLACK, EMPTY, WHITE } from '../../src/rules/types.ts';
import { decode, distance, hexToRgb, isWood, luminance, offset, type Decoded } from './png.ts';

const theme = defaultTheme;

/** Dark at every black stone's centre, light at every white one's, wood off the lines of every empty point. */
function expectPosition(image: Decoded, layout: Layout, snapshot: BoardSnapshot): void {
  const gridColour = hexToRgb(theme.grid.colour);
  const stars = new Set(starPoints(snapshot.size));
  for (const p of pointsInView(layout)) {
    const centre = pointToPixel(layout, p);
    const cell = snapshot.cells[p];
    if (cell === BLACK) expect(luminance(image.at(centre)), `black at ${p}`).toBeLessThan(70);
    else if (cell === WHITE) expect(luminance(image.at(centre)), `white at ${p}`).toBeGreaterThan(200);
    else {
      // A quarter cell off both lines is bare board; the intersection itself is a line.
      expect(isWood(image.at(offset(centre, layout.cell / 4, layout.cell / 4))), `wood by empty ${p}`).toBe(true);
      if (!stars.has(p)) expect(distance(image.at(centre), gridColour), `line at empty ${p}`).toBeLessThan(40);
    }
  }
}

describe('renderBoard', () => {
  it('makes a PNG the size of the layout', async () => {
    const image = await decode(renderBoard(midgame19()));
    const layout = boardLayout(19, theme);
    expect([image.width, image.height]).toEqual([layout.width, layout.height]);
  });

  it('draws black stones dark, white stones light and empty points as bare board', async () => {
    const snapshot = midgame19();
    expectPosition(await decode(renderBoard(snapshot)), boardLayout(19, theme), snapshot);
  });

  it('draws each coordinate label where the layout puts it', async () => {
    for (const size of [5, 15, 19]) {
      const layout = boardLayout(size, theme);
      const image = await decode(renderBoard(setupSnapshot(size, '', '')));
      const half = Math.ceil(layout.coordinates!.fontPx / 2);
      for (const label of coordinateLabels(layout)) {
        let darkest = 255;
        for (let dy = -half; dy <= half; dy++) {
          for (let dx = -half; dx <= half; dx++) darkest = Math.min(darkest, luminance(image.at(offset(label, dx, dy))));
        }
        expect(darkest, `label ${label.text} at (${label.x}, ${label.y}) on ${size}×${size}`).toBeLessThan(90);
      }
    }
  });

  it('marks the last move with a ring in the last-move colour', async () => {
    const snapshot = midgame19();
    const layout = boardLayout(19, theme);
    const red = hexToRgb(theme.lastMove.colour);
    const centre = pointToPixel(layout, snapshot.lastMove!);
    const plain = await decode(renderBoard(snapshot));
    expect(distance(plain.at(offset(centre, layout.cell * theme.lastMove.radius, 0)), red)).toBeLessThan(40);
    const numbered = await decode(renderBoard(snapshot, { showMoveNumbers: true }));
    expect(distance(numbered.at(offset(centre, -layout.cell * theme.lastMove.numberedRadius, 0)), red)).toBeLessThan(40);
    // No ring on the move before.
    const before = points(19, 'c10')[0];
    const other = plain.at(offset(pointToPixel(layout, before), layout.cell * theme.lastMove.radius, 0));
    expect(distance(other, red)).toBeGreaterThan(100);
  });

  it('writes move numbers in a colour that contrasts with the stone', async () => {
    const snapshot = midgame19();
    const layout = boardLayout(19, theme);
    const image = await decode(renderBoard(snapshot, { showMoveNumbers: true }));
    const half = Math.floor(layout.cell * 0.2);
    for (const p of pointsInView(layout)) {
      const cell = snapshot.cells[p];
      if (cell === EMPTY) continue;
      const centre = pointToPixel(layout, p);
      let darkest = 255;
      let lightest = 0;
      for (let dy = -half; dy <= half; dy++) {
        for (let dx = -half; dx <= half; dx++) {
          const l = luminance(image.at(offset(centre, dx, dy)));
          darkest = Math.min(darkest, l);
          lightest = Math.max(lightest, l);
        }
      }
      if (cell === BLACK) expect(lightest, `digits on black ${p}`).toBeGreaterThan(200);
      else expect(darkest, `digits on white ${p}`).toBeLessThan(60);
    }
  });

  it('leaves numbers off unless asked, and when the snapshot has none', async () => {
    const snapshot = midgame19();
    const plain = renderBoard(snapshot);
    expect(renderBoard(snapshot, { showMoveNumbers: false }).equals(plain)).toBe(true);
    const bare: BoardSnapshot = { size: snapshot.size, cells: snapshot.cells, lastMove: snapshot.lastMove };
    expect(renderBoard(bare, { showMoveNumbers: true }).equals(plain)).toBe(true);
    expect(renderBoard(snapshot, { showMoveNumbers: true }).equals(plain)).toBe(false);
  });

  it('highlights the winning five along its length', async () => {
    const snapshot = finished15();
    const layout = boardLayout(15, theme);
    const image = await decode(renderBoard(snapshot));
    const fill = hexToRgb(theme.winningLine.fill);
    const five = snapshot.winningLine!;
    const [from, to] = lineEnds(15, five)!.map((p) => pointToPixel(layout, p));
    // Between each pair of neighbouring stones along the line.
    for (let i = 0; i < 4; i++) {
      const t = (i + 0.5) / 4;
      const between = { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t };
      expect(distance(image.at(between), fill), `between stones ${i} and ${i + 1}`).toBeLessThan(30);
    }
    for (const p of five) expect(luminance(image.at(pointToPixel(layout, p)))).toBeLessThan(70);
    // Nowhere else: a board with no winning line has no pixel of the highlight.
    const unwon: BoardSnapshot = { size: snapshot.size, cells: snapshot.cells, moveNumbers: snapshot.moveNumbers, lastMove: snapshot.lastMove };
    const plain = await decode(renderBoard(unwon));
    const mid = { x: (from.x + to.x) / 2 + layout.cell / 2, y: (from.y + to.y) / 2 + layout.cell / 2 };
    expect(distance(plain.at(mid), fill)).toBeGreaterThan(30);
  });

  it('stays within 150 KB for a 19×19 mid-game, numbered or not', () => {
    const snapshot = midgame19();
    expect(renderBoard(snapshot).length).toBeLessThanOrEqual(150 * 1024);
    expect(renderBoard(snapshot, { showMoveNumbers: true }).length).toBeLessThanOrEqual(150 * 1024);
  });

  it('renders every size from 5 to 19, stones in all four corners', async () => {
    for (let size = 5; size <= 19; size++) {
      const last = size - 1;
      const corners = [0, last, last * size, last * size + last];
      const snapshot = gameSnapshot(size, corners.map((p) => `${String.fromCharCode(97 + (p % size))}${Math.floor(p / size) + 1}`).join(' '));
      const layout = boardLayout(size, theme);
      const image = await decode(renderBoard(snapshot, { showMoveNumbers: true }));
      expect([image.width, image.height]).toEqual([layout.width, layout.height]);
      // Off the digits: a third of the radius up and left of each centre.
      const r = layout.cell * theme.stones.radius * 0.55;
      corners.forEach((p, i) => {
        const l = luminance(image.at(offset(pointToPixel(layout, p), -r, 0)));
        if (i % 2 === 0) expect(l, `black corner on ${size}×${size}`).toBeLessThan(80);
        else expect(l, `white corner on ${size}×${size}`).toBeGreaterThan(190);
      });
    }
  });

  it('draws the empty board of every size as wood and lines', async () => {
    for (const size of [5, 9, 15, 19]) {
      const snapshot = setupSnapshot(size, '', '');
      expectPosition(await decode(renderBoard(snapshot)), boardLayout(size, theme), snapshot);
    }
  });

  it('is deterministic: the same snapshot gives the same bytes', () => {
    const a = renderBoard(midgame19(), { showMoveNumbers: true });
    const b = renderBoard(midgame19(), { showMoveNumbers: true });
    expect(a.equals(b)).toBe(true);
    expect(renderBoard(finished15()).equals(renderBoard(finished15()))).toBe(true);
  });

  it('paints every pixel again on the image it keeps: after a busier board and a heat map, the same bytes as on a new image', () => {
    const onNewImage = (snapshot: BoardSnapshot, numbered: boolean) => {
      const layout = boardLayout(snapshot.size, theme);
      const { canvas, ctx } = newImage(layout.width, layout.height);
      paintPosition(ctx, layout, theme, snapshot, numbered);
      return encodePng(canvas, theme);
    };
    const empty: BoardSnapshot = { size: 19, cells: new Array<number>(19 * 19).fill(EMPTY) as BoardSnapshot['cells'] };
    renderBoard(midgame19(), { showMoveNumbers: true });
    expect(renderBoard(empty).equals(onNewImage(empty, false))).toBe(true);
    renderHeatMap(midgame19(), [{ point: 0, weight: 1 }], { ring: 0 });
    expect(renderBoard(empty).equals(onNewImage(empty, false))).toBe(true);
    expect(renderBoard(midgame19(), { showMoveNumbers: true }).equals(onNewImage(midgame19(), true))).toBe(true);
  });

  it('refuses a snapshot it cannot draw', () => {
    expect(() => checkSnapshot({ size: 19, cells: [] })).toThrow(RangeError);
    expect(() => renderBoard({ size: 4, cells: new Array(16).fill(EMPTY) })).toThrow(RangeError);
    expect(() => renderBoard({ size: 27, cells: new Array(27 * 27).fill(EMPTY) })).toThrow(RangeError);
  });
});

describe('PNG encoding', () => {
  // The theme's row filter (none) against libpng's default (adaptive): filters are lossless, so
  // the pixels must be the same; on the wood the unfiltered file is the smaller (theme.ts).
  it('gives the same pixels as the adaptive filter, in fewer bytes, on the mid-game board', async () => {
    const snapshot = midgame19();
    const plain = renderBoard(snapshot);
    const adaptive = renderBoard(snapshot, { theme: { ...theme, pngFilter: 'adaptive' } });
    expect(plain.length).toBeLessThan(adaptive.length);
    const [a, b] = await Promise.all([decode(plain), decode(adaptive)]);
    expect([a.width, a.height]).toEqual([b.width, b.height]);
    for (let y = 0.5; y < a.height; y += 7) for (let x = 0.5; x < a.width; x += 7) expect(a.at({ x, y })).toEqual(b.at({ x, y }));
  });
});
