import { describe, expect, it } from 'vitest';
import { renderBoard, renderThreats } from '../../src/render/board.ts';
import { boardLayout, pointToPixel, type Layout } from '../../src/render/layout.ts';
import { marksByPoint, placeMarks } from '../../src/render/marks.ts';
import { defaultTheme } from '../../src/render/theme.ts';
import { midgame19, midgame19Overlays, overlay, points } from '../../src/render/samples.ts';
import type { RealisationOverlay } from '../../src/rules/snapshot.ts';
import { decode, distance, hexToRgb, type Decoded } from './png.ts';

const theme = defaultTheme;

/** Every marker placed for these overlays shows its side's colour where it is drawn. */
function expectMarks(image: Decoded, layout: Layout, overlays: readonly RealisationOverlay[]): number {
  let checked = 0;
  for (const [p, marks] of marksByPoint(overlays)) {
    const centre = pointToPixel(layout, p);
    for (const { mark, dx, dy, size } of placeMarks(marks, theme.realisations)) {
      const x = centre.x + dx * layout.cell;
      const y = centre.y + dy * layout.cell;
      const colour = hexToRgb(theme.realisations[mark.side].colour);
      // A disc, left of its label; a square, on its left side above the middle.
      const at =
        mark.kind === 'node'
          ? { x: x - 0.7 * size * layout.cell, y }
          : { x: x - size * layout.cell, y: y - 0.8 * size * layout.cell };
      expect(distance(image.at(at), colour), `${mark.kind} of ${mark.side} at ${p}`).toBeLessThan(45);
      checked++;
    }
  }
  return checked;
}

describe('marksByPoint and placeMarks', () => {
  it('number explicit nodes 1, 2, 3 in node order and list implicit nodes after them', () => {
    const marks = marksByPoint([overlay(19, 'black', 'j10 k11 l12', 'm13'), overlay(19, 'white', 'm13', '')]);
    const [j10, k11, l12, m13] = points(19, 'j10 k11 l12 m13');
    expect(marks.get(j10)).toEqual([{ kind: 'node', side: 'black', label: 1 }]);
    expect(marks.get(k11)).toEqual([{ kind: 'node', side: 'black', label: 2 }]);
    expect(marks.get(l12)).toEqual([{ kind: 'node', side: 'black', label: 3 }]);
    expect(marks.get(m13)).toEqual([
      { kind: 'node', side: 'white', label: 1 },
      { kind: 'implicit', side: 'black' },
    ]);
  });

  it('merge markers that say the same thing', () => {
    const marks = marksByPoint([overlay(19, 'black', 'j10', 'k10'), overlay(19, 'black', 'j10', 'k10')]);
    expect([...marks.values()].flat()).toHaveLength(2);
  });

  it('keep a shared point legible: a frame round the discs, discs side by side', () => {
    const placed = placeMarks(
      [
        { kind: 'node', side: 'black', label: 1 },
        { kind: 'node', side: 'white', label: 2 },
        { kind: 'implicit', side: 'black' },
      ],
      theme.realisations,
    );
    expect(placed.map((m) => m.mark.kind)).toEqual(['implicit', 'node', 'node']);
    const [frame, a, b] = placed;
    expect(frame.size).toBe(theme.realisations.implicitAround);
    expect(a.dx).toBeLessThan(0);
    expect(b.dx).toBeGreaterThan(0);
    for (const disc of [a, b]) expect(Math.abs(disc.dx) + disc.size).toBeLessThanOrEqual(frame.size);
  });

  it('uses distinct colours for the two sides', () => {
    expect(distance(hexToRgb(theme.realisations.black.colour), hexToRgb(theme.realisations.white.colour))).toBeGreaterThan(100);
  });
});

describe('renderThreats', () => {
  it('draws the board and then every marker in its side colour, shared points included', async () => {
    const snapshot = midgame19();
    const overlays = midgame19Overlays();
    const layout = boardLayout(19, theme);
    const image = await decode(renderThreats(snapshot, overlays));
    expect([image.width, image.height]).toEqual([layout.width, layout.height]);
    // Fifteen markers: no two say the same thing.
    expect(expectMarks(image, layout, overlays)).toBe(15);
  });

  it('labels a node with its number in the label colour', async () => {
    const layout = boardLayout(19, theme);
    const snapshot = midgame19();
    const lone = [overlay(19, 'black', 'n5 q5', '')];
    const image = await decode(renderThreats(snapshot, lone));
    for (const p of lone[0].nodes) {
      const centre = pointToPixel(layout, p);
      let white = 0;
      for (let dy = -4; dy <= 4; dy++) for (let dx = -3; dx <= 3; dx++) if (distance(image.at({ x: centre.x + dx, y: centre.y + dy }), [255, 255, 255]) < 40) white++;
      expect(white).toBeGreaterThan(3);
    }
  });

  it('with no overlays is the board', () => {
    expect(renderThreats(midgame19(), []).equals(renderBoard(midgame19()))).toBe(true);
  });

  it('stays within 150 KB and is deterministic', () => {
    const a = renderThreats(midgame19(), midgame19Overlays());
    expect(a.length).toBeLessThanOrEqual(150 * 1024);
    expect(a.equals(renderThreats(midgame19(), midgame19Overlays()))).toBe(true);
  });
});
