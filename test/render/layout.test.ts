import { describe, expect, it } from 'vitest';
import {
  boardLayout,
  boundingBox,
  cellFor,
  coordinateLabels,
  cropLayout,
  lineEnds,
  pointToPixel,
  pointsInView,
  starPoints,
} from '../../src/render/layout.ts';
import { defaultTheme } from '../../src/render/theme.ts';
import { makePoint, pointAt } from '../../src/rules/point.ts';
import { points } from '../../src/render/samples.ts';

describe('board layout', () => {
  it('puts a1 bottom left and the far corner top right', () => {
    const layout = boardLayout(19, defaultTheme);
    const a1 = pointToPixel(layout, points(19, 'a1')[0]);
    const s19 = pointToPixel(layout, points(19, 's19')[0]);
    expect(a1.x).toBeLessThan(s19.x);
    expect(a1.y).toBeGreaterThan(s19.y);
    expect(a1.x).toBe(s19.y);
    // The same margin on both sides.
    expect(layout.width - s19.x).toBe(a1.x);
  });

  it('puts j10 at the centre of 19×19 and h8 at the centre of 15×15', () => {
    for (const [size, centre] of [
      [19, 'j10'],
      [15, 'h8'],
    ] as const) {
      const layout = boardLayout(size, defaultTheme);
      const p = pointToPixel(layout, points(size, centre)[0]);
      expect(p.x).toBe(layout.width / 2);
      expect(p.y).toBe(layout.height / 2);
    }
  });

  it('spaces neighbouring points one cell apart, on pixel centres', () => {
    const layout = boardLayout(19, defaultTheme);
    const [j10, k10, j11] = points(19, 'j10 k10 j11').map((p) => pointToPixel(layout, p));
    expect(k10.x - j10.x).toBe(layout.cell);
    expect(j10.y - j11.y).toBe(layout.cell);
    expect(j10.x % 1).toBe(0.5);
  });

  it('gives small boards larger cells, and 15 and 19 the theme cell', () => {
    expect(cellFor(19, defaultTheme)).toBe(defaultTheme.cellPx);
    expect(cellFor(15, defaultTheme)).toBe(defaultTheme.cellPx);
    expect(cellFor(5, defaultTheme)).toBeGreaterThan(defaultTheme.cellPx);
  });

  it('keeps every point and label inside the image for every size', () => {
    for (let size = 5; size <= 19; size++) {
      const layout = boardLayout(size, defaultTheme);
      const radius = layout.cell * defaultTheme.stones.radius;
      for (const p of pointsInView(layout)) {
        const { x, y } = pointToPixel(layout, p);
        expect(x - radius).toBeGreaterThan(0);
        expect(y + radius).toBeLessThan(layout.height);
      }
      const font = layout.coordinates!.fontPx;
      for (const label of coordinateLabels(layout)) {
        expect(label.x - font).toBeGreaterThanOrEqual(0);
        expect(label.x + font).toBeLessThanOrEqual(layout.width);
        expect(label.y - font / 2).toBeGreaterThanOrEqual(0);
        expect(label.y + font / 2).toBeLessThanOrEqual(layout.height);
      }
    }
  });
});

describe('coordinate labels', () => {
  const layout = boardLayout(19, defaultTheme);
  const labels = coordinateLabels(layout);

  it('name columns a to s with no letter skipped, on top and bottom, each over its line', () => {
    const columns = labels.filter((l) => l.kind === 'column');
    expect(columns).toHaveLength(38);
    expect([...new Set(columns.map((l) => l.text))].join('')).toBe('abcdefghijklmnopqrs');
    for (const l of columns) {
      const col = l.text.charCodeAt(0) - 97;
      expect(l.x).toBe(pointToPixel(layout, pointAt(19, col, 0)).x);
    }
    const ys = new Set(columns.map((l) => l.y));
    expect(ys.size).toBe(2);
  });

  it('number rows from 1 at the bottom, on left and right, each beside its line', () => {
    const rows = labels.filter((l) => l.kind === 'row');
    expect(rows).toHaveLength(38);
    for (const l of rows) {
      const row = Number(l.text) - 1;
      expect(l.y).toBe(pointToPixel(layout, pointAt(19, 0, row)).y);
    }
    const one = rows.find((l) => l.text === '1')!;
    const nineteen = rows.find((l) => l.text === '19')!;
    expect(one.y).toBeGreaterThan(nineteen.y);
    expect(new Set(rows.map((l) => l.x)).size).toBe(2);
  });

  it('sit outside the stones of the outer lines', () => {
    const radius = layout.cell * defaultTheme.stones.radius;
    const a1 = pointToPixel(layout, pointAt(19, 0, 0));
    const left = labels.find((l) => l.kind === 'row' && l.text === '1' && l.x < a1.x)!;
    expect(a1.x - left.x).toBeGreaterThan(radius + layout.coordinates!.fontPx / 2);
  });
});

describe('star points', () => {
  it('are the nine 4-4, side and centre points on 19×19', () => {
    expect(starPoints(19).map((p) => makePoint(19, p)).sort()).toEqual(['d10', 'd16', 'd4', 'j10', 'j16', 'j4', 'p10', 'p16', 'p4']);
  });

  it('are the five of a Go-Moku board on 15×15', () => {
    expect(starPoints(15).map((p) => makePoint(15, p)).sort()).toEqual(['d12', 'd4', 'h8', 'l12', 'l4']);
  });

  it('stay on the board for every size', () => {
    for (let size = 5; size <= 19; size++) {
      for (const p of starPoints(size)) expect(p).toBeLessThan(size * size);
    }
  });
});

describe('crops', () => {
  it('grow the bounding box by the margin and stop at the board', () => {
    expect(boundingBox(19, points(19, 'j10 l12'), 1)).toEqual({ colMin: 8, colMax: 12, rowMin: 8, rowMax: 12 });
    expect(boundingBox(19, points(19, 'a1 b2'), 1)).toEqual({ colMin: 0, colMax: 2, rowMin: 0, rowMax: 2 });
    expect(boundingBox(9, [], 1)).toEqual({ colMin: 0, colMax: 8, rowMin: 0, rowMax: 8 });
  });

  it('know which board edges they show', () => {
    const layout = cropLayout(19, boundingBox(19, points(19, 'a1 b2'), 1), defaultTheme);
    expect(layout.edges).toEqual({ left: true, right: false, top: false, bottom: true });
    expect(layout.coordinates).toBeNull();
    const a1 = pointToPixel(layout, points(19, 'a1')[0]);
    const c3 = pointToPixel(layout, points(19, 'c3')[0]);
    expect(c3.x - a1.x).toBe(2 * defaultTheme.mnemonic.cellPx);
    expect(a1.y - c3.y).toBe(2 * defaultTheme.mnemonic.cellPx);
  });
});

describe('lineEnds', () => {
  it('finds the two ends of a five in any order', () => {
    expect(lineEnds(15, points(15, 'f6 d4 h8 e5 g7'))).toEqual(points(15, 'd4 h8'));
    expect(lineEnds(15, points(15, 'h4 h8 h6 h5 h7'))).toEqual(points(15, 'h4 h8'));
    expect(lineEnds(15, [])).toBeNull();
  });
});
