/**
 * The board's wood, made by the project: a straight-grained texture generated from a seed the
 * first time a spec is asked for, then kept. Every render after that only paints it.
 *
 * The grain is laid out across the width as a run of growth rings of random width, each a
 * light band that darkens towards its late-wood edge; broad bands of lighter and darker wood
 * sit over that, and the whole pattern drifts sideways a few whole pixels down the height, so
 * the lines wander a little as real grain does. Drifting by whole pixels keeps most rows
 * identical to the row above, which is what lets a PNG of the board stay small.
 */
import { createCanvas, type Canvas } from 'canvas';
import { seededRandom } from '../rules/random.ts';
import type { WoodSpec } from './theme.ts';

const made = new WeakMap<WoodSpec, Canvas>();

/** The texture for a spec, generated on first use. */
export function woodTexture(spec: WoodSpec): Canvas {
  let canvas = made.get(spec);
  if (canvas === undefined) {
    canvas = generate(spec);
    made.set(spec, canvas);
  }
  return canvas;
}

/** A smooth 1-D value noise in [0, 1] with a period of 256 units. */
function valueNoise(random: () => number): (t: number) => number {
  const knots = Array.from({ length: 256 }, random);
  return (t) => {
    const i = Math.floor(t);
    const f = t - i;
    const a = knots[i & 255];
    const b = knots[(i + 1) & 255];
    return a + (b - a) * f * f * (3 - 2 * f);
  };
}

function generate(spec: WoodSpec): Canvas {
  const { widthPx: width, heightPx: height } = spec;
  const random = seededRandom(spec.seed);
  const noise = valueNoise(() => random.next());
  const drift = Math.ceil(spec.driftPx);
  const across = width + drift + 1;

  // Darkness of the grain at each column, before the drift.
  const grain = new Float32Array(across);
  for (let x = 0; x < across; ) {
    // Rings come in runs of narrow and wide, as growth years do.
    const ringWidth = 4 + 14 * Math.pow(random.next(), 1.5) * (0.4 + noise(x / 60));
    const strength = 0.25 + 0.75 * random.next();
    const sharpness = 2 + 8 * random.next();
    const end = Math.min(across, x + Math.max(1, Math.floor(ringWidth)));
    for (let i = x; i < end; i++) {
      const r = (i - x + 0.5) / ringWidth;
      grain[i] = Math.max(grain[i], strength * Math.pow(r, sharpness));
    }
    x = end;
  }
  const brightness = new Float32Array(across);
  for (let i = 0; i < across; i++) {
    brightness[i] = 1 + spec.bands * 2 * (0.7 * noise(i / 140 + 40) + 0.3 * noise(i / 35 + 90) - 0.5);
  }

  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(width, height);
  const data = image.data;
  const [lr, lg, lb] = spec.light;
  const [dr, dg, db] = spec.dark;
  for (let y = 0; y < height; y++) {
    const shift = Math.round(drift * noise(y / 160 + 7));
    for (let x = 0; x < width; x++) {
      const d = grain[x + shift] * spec.grain;
      const b = brightness[x + shift];
      const k = (y * width + x) * 4;
      data[k] = (lr + (dr - lr) * d) * b;
      data[k + 1] = (lg + (dg - lg) * d) * b;
      data[k + 2] = (lb + (db - lb) * d) * b;
      data[k + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
  return canvas;
}
