import { describe, expect, it } from 'vitest';
import { boardLayout, pointToPixel } from '../../src/render/layout.ts';
import { heatFromScores, renderHeatMap } from '../../src/render/heat.ts';
import { defaultTheme } from '../../src/render/theme.ts';
import { midgame19, points } from '../../src/render/samples.ts';
import { decode, distance, hexToRgb, isWood, offset } from './png.ts';

describe('renderHeatMap', () => {
  const snapshot = midgame19();
  const layout = boardLayout(19, defaultTheme);
  const [hot, warm, cold, ring] = points(19, 'k14 b2 s19 k14');
  const heat = heatFromScores([
    { point: hot, score: 400 },
    { point: warm, score: 150 },
    // Under the floor (a quarter of the best): not drawn.
    { point: cold, score: 40 },
  ]);

  it('keeps the points the player weighs above the floor, each as a share of the best', () => {
    expect(heat).toEqual([
      { point: hot, weight: 1 },
      { point: warm, weight: 0.375 },
    ]);
    expect(heatFromScores([])).toEqual([]);
  });

  it('tints the points it weighs, redder the more, leaves the rest bare, and rings the hint', async () => {
    const image = await decode(renderHeatMap(snapshot, heat, { ring }));
    const plain = await decode(renderHeatMap(snapshot, []));
    const at = (p: number) => offset(pointToPixel(layout, p), layout.cell / 4, layout.cell / 4);
    const redness = (c: [number, number, number]) => c[0] - c[2];
    // The best point is red: red far above green and blue.
    const h = image.at(at(hot));
    expect(h[0] - h[1]).toBeGreaterThan(60);
    // The lesser point is tinted towards yellow, less than the best.
    const w = image.at(at(warm));
    expect(distance(w, plain.at(at(warm)))).toBeGreaterThan(20);
    expect(h[1]).toBeLessThan(w[1]);
    expect(redness(h)).toBeGreaterThan(redness(plain.at(at(hot))));
    // A point under the floor is bare board.
    expect(isWood(image.at(at(cold)))).toBe(true);
    expect(image.at(at(cold))).toEqual(plain.at(at(cold)));
    // The ring, on the hinted point's circle.
    const c = pointToPixel(layout, ring);
    expect(distance(image.at({ x: c.x + layout.cell * 0.42, y: c.y }), hexToRgb(defaultTheme.heat.ring))).toBeLessThan(60);
  });
});
