// Pictures kept by drawing (src/bot/picture.ts DrawnPictures): a drawing asked for again is not
// drawn again, two asks at once share one drawing, one drawn beforehand (with a turn or a hint,
// in a play worker) is kept, a failure is not kept, and the bound holds.
import { describe, expect, it } from 'vitest';
import { draw, DrawnPictures, type Drawing } from '../../src/bot/picture.ts';
import { midgame19 } from '../../src/render/samples.ts';

const board = (numbered: boolean): Drawing => ({ kind: 'board', args: [midgame19(), { showMoveNumbers: numbered }] });

describe('DrawnPictures', () => {
  it('draws a drawing once, and gives the same bytes as drawing it', async () => {
    const drawn = new DrawnPictures();
    let calls = 0;
    const make = async (d: Drawing) => {
      calls++;
      return draw(d);
    };
    const [a, b] = await Promise.all([drawn.get(board(false), make), drawn.get(board(false), make)]);
    const c = await drawn.get(board(false), make);
    expect(calls).toBe(1);
    expect(a.equals(draw(board(false)))).toBe(true);
    expect(b).toBe(a);
    expect(c).toBe(a);
    // Another drawing (its arguments differ) is drawn.
    const numbered = await drawn.get(board(true), make);
    expect(calls).toBe(2);
    expect(numbered.equals(a)).toBe(false);
  });

  it('keeps a picture drawn beforehand, and never replaces one it holds', async () => {
    const drawn = new DrawnPictures();
    const never = () => Promise.reject(new Error('drawn again'));
    const png = draw(board(false));
    drawn.keep(board(false), png);
    expect(await drawn.get(board(false), never)).toBe(png);
    drawn.keep(board(false), Buffer.from('another'));
    expect(await drawn.get(board(false), never)).toBe(png);
  });

  it('does not keep a drawing that failed', async () => {
    const drawn = new DrawnPictures();
    await expect(drawn.get(board(false), () => Promise.reject(new Error('worker lost')))).rejects.toThrow('worker lost');
    const png = await drawn.get(board(false), async (d) => draw(d));
    expect(png.subarray(0, 4).toString('hex')).toBe('89504e47');
  });

  it('keeps at most its bound, dropping the least recently asked for', async () => {
    const drawn = new DrawnPictures(250);
    let calls = 0;
    const make = async () => {
      calls++;
      return Buffer.alloc(100);
    };
    const other = (n: number): Drawing => ({ kind: 'board', args: [{ ...midgame19(), lastMove: n }, {}] });
    await drawn.get(other(1), make);
    await drawn.get(other(2), make);
    await drawn.get(other(1), make); // 1 is now the most recent
    await drawn.get(other(3), make); // 300 bytes: over the bound, so 2 goes
    expect(calls).toBe(3);
    await drawn.get(other(1), make);
    await drawn.get(other(3), make);
    expect(calls).toBe(3);
    await drawn.get(other(2), make);
    expect(calls).toBe(4);
  });
});
