/**
 * Reading back the PNGs the renderer makes, so the tests look at pixels rather than at the
 * drawing calls.
 */
import { createCanvas, loadImage } from 'canvas';
import { expect } from 'vitest';
import type { Pixel } from '../../src/render/layout.ts';

export type Rgb = [number, number, number];

export interface Decoded {
  readonly width: number;
  readonly height: number;
  /** The colour of the pixel that holds an image coordinate (a `.5` centre or anything inside the pixel). */
  at(p: Pixel): Rgb;
}

export async function decode(png: Buffer): Promise<Decoded> {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  return {
    width: image.width,
    height: image.height,
    at: ({ x, y }) => {
      const px = Math.floor(x);
      const py = Math.floor(y);
      if (px < 0 || py < 0 || px >= image.width || py >= image.height) throw new RangeError(`(${x}, ${y}) is off the image`);
      const k = (py * image.width + px) * 4;
      return [data[k], data[k + 1], data[k + 2]];
    },
  };
}

export function hexToRgb(hex: string): Rgb {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (m === null) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
}

/** The largest difference in any channel. */
export function distance(a: Rgb, b: Rgb): number {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}

export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Wood: warm (red well above blue), and neither near black nor near white. */
export function isWood([r, g, b]: Rgb): boolean {
  return r >= 140 && r <= 250 && r - b >= 60 && g < r && g > b;
}

export function offset(p: Pixel, dx: number, dy: number): Pixel {
  return { x: p.x + dx, y: p.y + dy };
}
