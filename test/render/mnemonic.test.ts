import { describe, expect, it } from 'vitest';
import { pointToPixel } from '../../src/render/layout.ts';
import { mnemonicBox, mnemonicLayout, renderMnemonic, renderMnemonicSheet, wrap } from '../../src/render/mnemonic.ts';
import { defaultTheme } from '../../src/render/theme.ts';
import { mnemonicSamples, overlay, points, setupSnapshot } from '../../src/render/samples.ts';
import { BLACK, WHITE } from '../../src/rules/types.ts';
import { decode, distance, hexToRgb, luminance } from './png.ts';

describe('mnemonicBox', () => {
  it('is the bounding box of the nodes, implicit nodes and stones, plus one line', () => {
    const snapshot = setupSnapshot(19, 'j10 k10', 'h12');
    const box = mnemonicBox(snapshot, overlay(19, 'black', 'l10', 'm10 i9'));
    // Columns h (7) to m (12), rows 9 to 12, each grown by one.
    expect(box).toEqual({ colMin: 6, colMax: 13, rowMin: 7, rowMax: 12 });
  });

  it('stops at the edge of the board', () => {
    const box = mnemonicBox(setupSnapshot(15, 'a1 b1 c1', ''), overlay(15, 'black', 'd1', 'e1'));
    expect(box).toEqual({ colMin: 0, colMax: 5, rowMin: 0, rowMax: 1 });
  });
});

describe('renderMnemonic', () => {
  const { snapshot, overlay: o } = mnemonicSamples()[3];

  it('is the crop, drawn small, with stones and markers where the layout says', async () => {
    const layout = mnemonicLayout(snapshot, o);
    const image = await decode(renderMnemonic(snapshot, o));
    expect([image.width, image.height]).toEqual([layout.width, layout.height]);
    expect(layout.cell).toBe(defaultTheme.mnemonic.cellPx);
    snapshot.cells.forEach((cell, p) => {
      if (cell === BLACK) expect(luminance(image.at(pointToPixel(layout, p)))).toBeLessThan(70);
      if (cell === WHITE) expect(luminance(image.at(pointToPixel(layout, p)))).toBeGreaterThan(200);
    });
    const colour = hexToRgb(defaultTheme.realisations[o.colour].colour);
    const r = defaultTheme.realisations;
    for (const p of o.nodes) {
      const c = pointToPixel(layout, p);
      expect(distance(image.at({ x: c.x - 0.7 * r.nodeRadius * layout.cell, y: c.y }), colour)).toBeLessThan(45);
    }
    for (const p of o.implicit) {
      const c = pointToPixel(layout, p);
      expect(distance(image.at({ x: c.x - r.implicitHalf * layout.cell, y: c.y - 0.8 * r.implicitHalf * layout.cell }), colour)).toBeLessThan(45);
    }
  });

  it('leaves off the last move and the winning five', () => {
    const marked = { ...snapshot, lastMove: points(19, 'j10')[0], winningLine: points(19, 'j10 k10') };
    expect(renderMnemonic(marked, o).equals(renderMnemonic(snapshot, o))).toBe(true);
  });

  it('takes a cell size', async () => {
    const image = await decode(renderMnemonic(snapshot, o, { cellPx: 16 }));
    expect(image.width).toBe(mnemonicLayout(snapshot, o, { cellPx: 16 }).width);
  });
});

describe('renderMnemonicSheet', () => {
  it('lays the mnemonics out under their titles, in one PNG, the same each time', async () => {
    const items = mnemonicSamples();
    const png = renderMnemonicSheet(items);
    const image = await decode(png);
    const s = defaultTheme.sheet;
    const widest = Math.max(...items.map((i) => mnemonicLayout(i.snapshot, i.overlay).width));
    const column = Math.max(s.minColumnPx, widest);
    expect(image.width).toBe(s.paddingPx + s.columns * (column + s.paddingPx));
    // Two rows of pictures, each under at least one line of title.
    const tallest = Math.max(...items.map((i) => mnemonicLayout(i.snapshot, i.overlay).height));
    expect(image.height).toBeGreaterThan(2 * tallest + 2 * s.titlePx);
    expect(distance(image.at({ x: 1, y: 1 }), hexToRgb(s.background))).toBeLessThan(3);
    expect(png.equals(renderMnemonicSheet(items))).toBe(true);
  });

  it('needs at least one item', () => {
    expect(() => renderMnemonicSheet([])).toThrow(RangeError);
  });
});

describe('wrap', () => {
  const mono = (t: string): number => t.length * 10;

  it('breaks at spaces to fit the width', () => {
    expect(wrap("(1, 2-1, 2) 4:3', 2'-4:2', 3'", 120, mono)).toEqual(['(1, 2-1, 2)', "4:3',", "2'-4:2', 3'"]);
  });

  it('breaks inside a word only when it alone is too wide', () => {
    expect(wrap('abcdefghij', 40, mono)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('', 40, mono)).toEqual(['']);
  });
});
