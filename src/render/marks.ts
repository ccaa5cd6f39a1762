/**
 * Which markers go on which point when realisations are overlaid, and where each sits inside
 * the point's cell. Pure: the tests use it to know what to look for.
 *
 * Several realisations often share a point (an implicit node of one is an explicit node of
 * another, or two of one side's threats meet); see placeMarks for how they share it.
 */
import type { RealisationOverlay } from '../rules/snapshot.ts';
import type { Colour, Point } from '../rules/types.ts';
import type { Theme } from './theme.ts';

export type Mark =
  | { readonly kind: 'node'; readonly side: Colour; readonly label: number }
  | { readonly kind: 'implicit'; readonly side: Colour };

/**
 * Where a marker is drawn: its offset from the intersection in cells and its size. For a node
 * `size` is the disc's radius; for an implicit node, half the side of its square. Both in cells.
 */
export interface PlacedMark {
  readonly mark: Mark;
  readonly dx: number;
  readonly dy: number;
  readonly size: number;
}

/** The most explicit nodes one point shows; more are left off (a 3×3 grid is the legible limit). */
export const MAX_NODES_PER_POINT = 9;

/**
 * The markers on each point, in the order they are drawn. Explicit nodes come before implicit
 * ones (they carry the numbers), each in overlay order; a marker that says exactly what an
 * earlier one at the point says (same kind, side and label) is not repeated.
 */
export function marksByPoint(overlays: readonly RealisationOverlay[]): Map<Point, Mark[]> {
  const out = new Map<Point, Mark[]>();
  const seen = new Set<string>();
  const add = (p: Point, mark: Mark): void => {
    const key = `${p}:${mark.kind}:${mark.side}:${mark.kind === 'node' ? mark.label : ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    const list = out.get(p);
    if (list === undefined) out.set(p, [mark]);
    else list.push(mark);
  };
  for (const o of overlays) {
    o.nodes.forEach((p, i) => add(p, { kind: 'node', side: o.colour, label: i + 1 }));
  }
  for (const o of overlays) {
    for (const p of o.implicit) add(p, { kind: 'implicit', side: o.colour });
  }
  return new Map([...out.entries()].sort(([a], [b]) => a - b));
}

/**
 * Places the markers of one point, in drawing order. Explicit nodes are discs: one sits on the
 * intersection at full size; two sit side by side, up to four in a 2×2 grid and up to nine in
 * a 3×3 grid, smaller. An implicit node is a square: alone, a small one on the intersection;
 * with discs, a frame round them. A point can be an implicit node of both sides (markers of a
 * side and kind are merged), and then the second square is drawn larger, round the first.
 */
export function placeMarks(marks: readonly Mark[], sizes: Theme['realisations']): PlacedMark[] {
  const nodes = marks.filter((m) => m.kind === 'node').slice(0, MAX_NODES_PER_POINT);
  const implicit = marks.filter((m) => m.kind === 'implicit');
  const out: PlacedMark[] = [];
  const first = nodes.length > 0 ? sizes.implicitAround : sizes.implicitHalf;
  // Larger squares first, so the smaller ones (and the discs) are drawn over them.
  for (let i = implicit.length - 1; i >= 0; i--) {
    out.push({ mark: implicit[i], dx: 0, dy: 0, size: first + i * sizes.implicitStep });
  }
  const r = sizes.nodeRadius;
  if (nodes.length === 1) {
    out.push({ mark: nodes[0], dx: 0, dy: 0, size: r });
  } else if (nodes.length === 2) {
    nodes.forEach((mark, i) => out.push({ mark, dx: i === 0 ? -0.21 : 0.21, dy: 0, size: r * 0.75 }));
  } else if (nodes.length > 2) {
    const across = nodes.length <= 4 ? 2 : 3;
    const step = across === 2 ? 0.46 : 0.3;
    const size = r * (across === 2 ? 0.64 : 0.44);
    nodes.forEach((mark, i) => {
      const col = i % across;
      const row = Math.floor(i / across);
      out.push({ mark, dx: (col - (across - 1) / 2) * step, dy: (row - (across - 1) / 2) * step, size });
    });
  }
  return out;
}
