// The slow, obviously-correct matcher that the control-stream interpreter is checked against.
// It shares nothing with the compiler, the interpreter, the profiles or the board's window
// tables: it takes every window from a brute-force scan of the picture, tries every
// assignment of vacant points to nodes near node 1, and checks the definition of a
// realisation in docs/DESIGN.md directly, by enumerating every choice of directions and
// patterns. Only for tests.
import type { BoardPicture } from '../../src/rules/boardText.ts';
import type { Description, LineSpec } from '../../src/notation/description.ts';
import { BLACK, EMPTY, type Stone } from '../../src/rules/types.ts';
import { bruteWindows, type BruteWindow } from './bruteForce.ts';

interface RefLine {
  nodes: number[];
  spec: Map<number, LineSpec>;
}

function linesOf(d: Description): RefLine[] {
  const out: RefLine[] = [];
  const shared = new Map<string, RefLine>();
  d.nodes.forEach((node, i) => {
    for (const entry of node.lines) {
      const members = [i + 1, ...entry.others].sort((a, b) => a - b);
      if (members.length === 1) {
        out.push({ nodes: members, spec: new Map([[i + 1, entry.spec]]) });
        continue;
      }
      const key = members.join(',');
      let line = shared.get(key);
      if (line === undefined) {
        line = { nodes: members, spec: new Map() };
        shared.set(key, line);
        out.push(line);
      }
      line.spec.set(i + 1, entry.spec);
    }
  });
  return out;
}

function directionOf(size: number, a: number, b: number): number {
  const dc = (b % size) - (a % size);
  const dr = Math.floor(b / size) - Math.floor(a / size);
  if (dr === 0) return 0;
  if (dc === 0) return 1;
  if (dc === dr) return 2;
  if (dc === -dr) return 3;
  return -1;
}

function windowDirection(size: number, w: BruteWindow): number {
  return directionOf(size, w.points[0], w.points[1]);
}

function product<T>(lists: T[][]): T[][] {
  let acc: T[][] = [[]];
  for (const l of lists) acc = acc.flatMap((prefix) => l.map((x) => [...prefix, x]));
  return acc;
}

/**
 * Every realisation of `d` for colour `stone` on the picture, as strings
 * "node points | implicit points", node tuples taken least over `automorphisms`. With
 * `node1Points`, only those points are tried as node 1.
 */
export function referenceRealisations(
  pic: BoardPicture,
  d: Description,
  stone: Stone,
  automorphisms: readonly (readonly number[])[],
  node1Points?: readonly number[],
): Set<string> {
  const { size, cells } = pic;
  const windows = bruteWindows(pic).filter((w) => (stone === BLACK ? w.possibleBlack : w.possibleWhite));
  const stonesIn = (w: BruteWindow) => (stone === BLACK ? w.black : w.white);
  const lines = linesOf(d);
  const k = d.nodes.length;

  // Place nodes breadth first from node 1, each next to a placed node it shares a line with.
  const order: number[] = [1];
  const parent = new Map<number, number>();
  for (let i = 0; i < order.length; i++) {
    for (const l of lines) {
      if (!l.nodes.includes(order[i])) continue;
      for (const j of l.nodes) {
        if (!order.includes(j)) {
          order.push(j);
          parent.set(j, order[i]);
        }
      }
    }
  }
  if (order.length !== k) return new Set();

  const found = new Set<string>();
  const phi = new Array<number>(k + 1).fill(-1);

  const check = (): void => {
    // Directions: fixed by the points for shared lines; any of four for a line of its own.
    const dirOptions: number[][] = lines.map((l) => {
      if (l.nodes.length === 1) return [0, 1, 2, 3];
      const d0 = directionOf(size, phi[l.nodes[0]], phi[l.nodes[1]]);
      for (const a of l.nodes) for (const b of l.nodes) if (a !== b && directionOf(size, phi[a], phi[b]) !== d0) return [];
      return d0 < 0 ? [] : [d0];
    });
    for (const dirs of product(dirOptions)) {
      let distinct = true;
      for (let i = 1; i <= k && distinct; i++) {
        const mine = lines.map((l, li) => (l.nodes.includes(i) ? dirs[li] : -1)).filter((x) => x >= 0);
        if (new Set(mine).size !== mine.length) distinct = false;
      }
      if (!distinct) continue;
      // Pattern choices for every (line, node on it).
      const slots: { line: number; options: BruteWindow[][] }[] = [];
      let dead = false;
      lines.forEach((l, li) => {
        for (const i of l.nodes) {
          const spec = l.spec.get(i)!;
          const fits = windows.filter(
            (w) =>
              w.points.includes(phi[i]) &&
              windowDirection(size, w) === dirs[li] &&
              stonesIn(w) === spec.n - 1 &&
              l.nodes.every((j) => j === i || l.spec.get(j)!.n < spec.n || w.points.includes(phi[j])) &&
              phi.every((p, y) => y === 0 || l.nodes.includes(y) || !w.points.includes(p)),
          );
          const options: BruteWindow[][] = [];
          if (spec.dashed) {
            for (let a = 0; a < fits.length; a++) for (let b = a + 1; b < fits.length; b++) options.push([fits[a], fits[b]]);
          } else {
            for (const w of fits) options.push([w]);
          }
          if (options.length === 0) dead = true;
          slots.push({ line: li, options });
        }
      });
      if (dead) continue;
      for (const choice of product(slots.map((s) => s.options))) {
        const vacantOf = lines.map(() => new Set<number>());
        choice.forEach((ws, si) => {
          for (const w of ws) for (const p of w.points) if (cells[p] === EMPTY && !phi.includes(p)) vacantOf[slots[si].line].add(p);
        });
        let clash = false;
        for (let a = 0; a < lines.length && !clash; a++) {
          for (let b = a + 1; b < lines.length && !clash; b++) {
            for (const p of vacantOf[a]) if (vacantOf[b].has(p)) clash = true;
          }
        }
        if (clash) continue;
        const implicit = new Set<number>();
        vacantOf.forEach((s) => s.forEach((p) => implicit.add(p)));
        let nodes = phi.slice(1);
        for (const sigma of automorphisms) {
          const image = new Array<number>(k);
          sigma.forEach((to, from) => (image[to - 1] = phi[from + 1]));
          const i = image.findIndex((x, j) => x !== nodes[j]);
          if (i >= 0 && image[i] < nodes[i]) nodes = image;
        }
        found.add(`${nodes.join(',')}|${[...implicit].sort((a, b) => a - b).join(',')}`);
      }
    }
  };

  const place = (idx: number): void => {
    if (idx === order.length) {
      check();
      return;
    }
    const j = order[idx];
    const from = phi[parent.get(j)!];
    const fc = from % size;
    const fr = Math.floor(from / size);
    for (let dr = -4; dr <= 4; dr++) {
      for (let dc = -4; dc <= 4; dc++) {
        if ((dr === 0 && dc === 0) || !(dr === 0 || dc === 0 || Math.abs(dr) === Math.abs(dc))) continue;
        const c = fc + dc;
        const r = fr + dr;
        if (c < 0 || c >= size || r < 0 || r >= size) continue;
        const q = r * size + c;
        if (cells[q] !== EMPTY || phi.includes(q)) continue;
        phi[j] = q;
        place(idx + 1);
        phi[j] = -1;
      }
    }
  };

  for (const p of node1Points ?? Array.from({ length: size * size }, (_, q) => q)) {
    if (cells[p] !== EMPTY) continue;
    phi[1] = p;
    place(1);
    phi[1] = -1;
  }
  return found;
}
