/**
 * The fixed geometry of an N×N board: every window (five consecutive points on one line),
 * its two flanking points, and for each point the windows it lies in and the windows it
 * flanks. Built once per board size and shared by every board of that size, like the lookup
 * tables a strong engine builds at start-up.
 *
 * Window ids are grouped by direction, and within a direction ordered by their first point,
 * so iterating windows is deterministic.
 */
import { DIRECTIONS, type Point } from './types.ts';
import { onBoard, pointAt } from './point.ts';

export const WINDOW = 5;

export interface Geometry {
  readonly size: number;
  readonly points: number;
  readonly windowCount: number;
  /** windowPoints[w * 5 + i]: the i-th point of window w, from its start along its direction. */
  readonly windowPoints: Int16Array;
  /** windowFlanks[w * 2 + 0 | 1]: the point before the start and after the end, or -1 off the board. */
  readonly windowFlanks: Int16Array;
  readonly windowDirection: Uint8Array;
  /** Windows containing point p: pointWindows[pointWindowStart[p] .. pointWindowStart[p + 1]). */
  readonly pointWindowStart: Int32Array;
  readonly pointWindows: Int32Array;
  /** Windows flanked by point p, in the same CSR layout. */
  readonly pointFlankStart: Int32Array;
  readonly pointFlanks: Int32Array;
  /** step[d]: the change of point id for one step along direction d. */
  readonly step: readonly number[];
}

const cache = new Map<number, Geometry>();

export function geometry(size: number): Geometry {
  let g = cache.get(size);
  if (g === undefined) {
    g = buildGeometry(size);
    cache.set(size, g);
  }
  return g;
}

function buildGeometry(size: number): Geometry {
  const pts: number[] = [];
  const flanks: number[] = [];
  const dirs: number[] = [];
  for (let d = 0; d < 4; d++) {
    const [dc, dr] = DIRECTIONS[d];
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const endCol = col + dc * (WINDOW - 1);
        const endRow = row + dr * (WINDOW - 1);
        if (!onBoard(size, endCol, endRow)) continue;
        for (let i = 0; i < WINDOW; i++) pts.push(pointAt(size, col + dc * i, row + dr * i));
        const bc = col - dc;
        const br = row - dr;
        const ac = endCol + dc;
        const ar = endRow + dr;
        flanks.push(onBoard(size, bc, br) ? pointAt(size, bc, br) : -1);
        flanks.push(onBoard(size, ac, ar) ? pointAt(size, ac, ar) : -1);
        dirs.push(d);
      }
    }
  }
  const windowCount = dirs.length;
  const n = size * size;
  const containing: number[][] = Array.from({ length: n }, () => []);
  const flanked: number[][] = Array.from({ length: n }, () => []);
  for (let w = 0; w < windowCount; w++) {
    for (let i = 0; i < WINDOW; i++) containing[pts[w * WINDOW + i]].push(w);
    for (let i = 0; i < 2; i++) {
      const f = flanks[w * 2 + i];
      if (f >= 0) flanked[f].push(w);
    }
  }
  const csr = (lists: number[][]): [Int32Array, Int32Array] => {
    const start = new Int32Array(n + 1);
    for (let p = 0; p < n; p++) start[p + 1] = start[p] + lists[p].length;
    const flat = new Int32Array(start[n]);
    for (let p = 0; p < n; p++) flat.set(lists[p], start[p]);
    return [start, flat];
  };
  const [pointWindowStart, pointWindows] = csr(containing);
  const [pointFlankStart, pointFlanks] = csr(flanked);
  return {
    size,
    points: n,
    windowCount,
    windowPoints: Int16Array.from(pts),
    windowFlanks: Int16Array.from(flanks),
    windowDirection: Uint8Array.from(dirs),
    pointWindowStart,
    pointWindows,
    pointFlankStart,
    pointFlanks,
    step: DIRECTIONS.map(([dc, dr]) => dr * size + dc),
  };
}

/**
 * Calls `fn(p, d)` for every point p within `reach` steps of q along each direction d, q
 * itself excluded: the points whose windows in direction d a stone on q can touch.
 */
export function eachAlongLines(size: number, q: Point, reach: number, fn: (p: Point, d: number) => void): void {
  const col = q % size;
  const row = (q - col) / size;
  for (let d = 0; d < 4; d++) {
    const [dc, dr] = DIRECTIONS[d];
    for (let k = -reach; k <= reach; k++) {
      const c = col + dc * k;
      const r = row + dr * k;
      if (k !== 0 && c >= 0 && c < size && r >= 0 && r < size) fn(r * size + c, d);
    }
  }
}
