/**
 * The control-stream interpreter: given a board, a colour and a candidate point for node 1,
 * it scans the stream forward, making a choice at each B, C and E element; when an element
 * cannot be met it backscans to the last choice and tries the next; after the last E it
 * reports a realisation and backscans again, so every realisation with that node 1 is found.
 * It is one loop over a program counter, with a hard cap on steps.
 *
 * What a realisation is, exactly, is set out in docs/DESIGN.md ("Descriptions"):
 * - each explicit node is a distinct vacant point; the nodes of each line lie on one line
 *   of the board, and the lines through one node have distinct directions;
 * - on each of its lines a node with spec `n` (`n'`) lies in one (two) possible 5-patterns
 *   along that direction holding exactly n − 1 stones of the colour, and those patterns hold
 *   every other node of the line whose spec there is at least as high;
 * - no pattern holds an explicit node its line does not name, and the patterns of two
 *   different lines share no vacant point but explicit nodes on both.
 */
import type { Board } from './board.ts';
import { DEFAULT_STEP_CAP, type ControlStream } from './controlStream.ts';
import { WINDOW } from './geometry.ts';
import { canMeet, specAtom, type ProfileTable } from './profile.ts';
import type { Direction, Point } from './types.ts';

/** The patterns a realisation uses on one of its lines. */
export interface RealisedLine {
  /** Index into the stream's lines. */
  readonly line: number;
  readonly direction: Direction;
  /** For each node on the line (ascending label), the window ids of its patterns. */
  readonly patterns: readonly { readonly node: number; readonly windows: readonly number[] }[];
}

export interface RawRealisation {
  /** nodes[0] is the point of node 1. */
  readonly nodes: readonly Point[];
  readonly lines: readonly RealisedLine[];
  /** Vacant points of the patterns other than the explicit nodes, ascending. */
  readonly implicit: readonly Point[];
}

export interface RunStats {
  steps: number;
  capped: boolean;
}

/** Scratch state reused across runs of streams on one board (no allocation per candidate). */
export class Interpreter {
  readonly board: Board;
  private readonly cover: Int32Array;

  constructor(board: Board) {
    this.board = board;
    this.cover = new Int32Array(board.points);
  }

  /**
   * Runs `stream` with node 1 at `node1` for the colour of `profiles`, calling `emit` for
   * every realisation found. Returns how many steps it took and whether the cap cut it short.
   */
  run(stream: ControlStream, profiles: ProfileTable, node1: Point, emit: (r: RawRealisation) => void, cap = DEFAULT_STEP_CAP): RunStats {
    const board = this.board;
    const g = board.geometry;
    const size = board.size;
    const stone = profiles.stone;
    const cover = this.cover;
    const els = stream.elements;
    const k = stream.nodes.length;
    const P = new Int32Array(k + 1).fill(-1);
    const lineDir = new Int8Array(stream.lines.length).fill(-1);
    const usedDirs = new Uint8Array(k + 1);
    const alt = new Int32Array(els.length);
    // Per-element scratch: C's candidate points, E's choices and what it marked.
    const cCands: (Int32Array | undefined)[] = new Array(els.length);
    const eChoices: (number[][][] | undefined)[] = new Array(els.length);
    const eTotal = new Int32Array(els.length);
    const eMarked: number[][] = els.map(() => []);
    const ePicked: number[][][] = els.map(() => []);
    const stats: RunStats = { steps: 0, capped: false };

    if (!board.isEmpty(node1)) return stats;

    const atomsOf = (node: number) => stream.nodes[node - 1].specs.map(specAtom);

    /** Direction of the line through a and b if they lie on one within a window's reach, else -1. */
    const directionBetween = (a: Point, b: Point): number => {
      const dc = (b % size) - (a % size);
      const dr = Math.floor(b / size) - Math.floor(a / size);
      if (Math.max(Math.abs(dc), Math.abs(dr)) >= WINDOW) return -1;
      if (dr === 0) return 0;
      if (dc === 0) return 1;
      if (dc === dr) return 2;
      if (dc === -dr) return 3;
      return -1;
    };

    const windowHas = (w: number, p: Point): boolean => {
      const base = w * WINDOW;
      for (let i = 0; i < WINDOW; i++) if (g.windowPoints[base + i] === p) return true;
      return false;
    };

    /** Can node j still meet its whole entry, given the directions its lines have so far? */
    const nodeFits = (j: number): boolean => {
      const n = stream.nodes[j - 1];
      const pinned = n.lines.map((l) => lineDir[l]);
      return canMeet(profiles.nodeMasks(P[j]), atomsOf(j), pinned, 0);
    };

    /** The pattern choices of each node on line h: single windows, or pairs for n'. */
    const choicesFor = (h: number): number[][][] | undefined => {
      const line = stream.lines[h];
      const d = lineDir[h];
      const out: number[][][] = [];
      for (let m = 0; m < line.nodes.length; m++) {
        const j = line.nodes[m];
        const spec = line.specs[m];
        const p = P[j];
        const fits: number[] = [];
        for (let i = g.pointWindowStart[p]; i < g.pointWindowStart[p + 1]; i++) {
          const w = g.pointWindows[i];
          if (g.windowDirection[w] !== d || !board.isPossible(w, stone) || board.stonesIn(w, stone) !== spec.n - 1) continue;
          let good = true;
          for (let x = 1; x <= k && good; x++) {
            if (x === j) continue;
            const xm = line.nodes.indexOf(x);
            if (xm >= 0) {
              if (line.specs[xm].n >= spec.n && !windowHas(w, P[x])) good = false;
            } else if (windowHas(w, P[x])) {
              good = false;
            }
          }
          if (good) fits.push(w);
        }
        const options: number[][] = [];
        if (spec.dashed) {
          for (let a = 0; a < fits.length; a++) for (let b = a + 1; b < fits.length; b++) options.push([fits[a], fits[b]]);
        } else {
          for (const w of fits) options.push([w]);
        }
        if (options.length === 0) return undefined;
        out.push(options);
      }
      return out;
    };

    const isExplicit = (p: Point): boolean => {
      for (let x = 1; x <= k; x++) if (P[x] === p) return true;
      return false;
    };

    /** Try alternative `a` (and later ones) of element pc; returns the one taken, or -1. */
    const attempt = (pc: number, a: number): number => {
      const e = els[pc];
      switch (e.op) {
        case 'A': {
          if (a > 0) return -1;
          P[1] = node1;
          return canMeet(profiles.nodeMasks(node1), atomsOf(1), stream.nodes[0].lines.map(() => -1), 0) ? 0 : -1;
        }
        case 'B': {
          const n = stream.nodes[e.node - 1];
          const atom = specAtom(n.specs[n.lines.indexOf(e.line)]);
          const masks = profiles.nodeMasks(P[e.node]);
          for (let d = a; d < 4; d++) {
            stats.steps++;
            if ((usedDirs[e.node] & (1 << d)) !== 0 || (masks[d] & atom) === 0) continue;
            lineDir[e.line] = d;
            usedDirs[e.node] |= 1 << d;
            if (nodeFits(e.node)) return d;
            lineDir[e.line] = -1;
            usedDirs[e.node] &= ~(1 << d);
          }
          return -1;
        }
        case 'C': {
          let cands = cCands[pc];
          if (a === 0 || cands === undefined) {
            const d = lineDir[e.line] as Direction;
            const from = P[e.from];
            const fc = from % size;
            const fr = Math.floor(from / size);
            const step = [[1, 0], [0, 1], [1, 1], [1, -1]][d];
            const list: number[] = [];
            for (let t = -(WINDOW - 1); t <= WINDOW - 1; t++) {
              if (t === 0) continue;
              const c = fc + step[0] * t;
              const r = fr + step[1] * t;
              if (c >= 0 && c < size && r >= 0 && r < size) list.push(r * size + c);
            }
            cands = Int32Array.from(list);
            cCands[pc] = cands;
          }
          const d = lineDir[e.line];
          const atom = specAtom(stream.nodes[e.node - 1].specs[stream.nodes[e.node - 1].lines.indexOf(e.line)]);
          for (let i = a; i < cands.length; i++) {
            stats.steps++;
            const q = cands[i];
            if (!board.isEmpty(q) || isExplicit(q)) continue;
            if ((profiles.masks[q * 4 + d] & atom) === 0) continue;
            // Inside a possible 5-pattern through the earlier node.
            let shared = false;
            for (let x = g.pointWindowStart[q]; x < g.pointWindowStart[q + 1] && !shared; x++) {
              const w = g.pointWindows[x];
              if (g.windowDirection[w] === d && board.isPossible(w, stone) && windowHas(w, P[e.from])) shared = true;
            }
            if (!shared) continue;
            P[e.node] = q;
            usedDirs[e.node] = 1 << d;
            if (nodeFits(e.node)) return i;
            P[e.node] = -1;
            usedDirs[e.node] = 0;
          }
          return -1;
        }
        case 'D': {
          if (a > 0) return -1;
          stats.steps++;
          const line = stream.lines[e.line];
          const placed = line.nodes.filter((x) => P[x] >= 0);
          const d = directionBetween(P[placed[0]], P[placed[1]]);
          if (d < 0) return -1;
          for (let m = 0; m < placed.length; m++) {
            for (let m2 = m + 1; m2 < placed.length; m2++) if (directionBetween(P[placed[m]], P[placed[m2]]) !== d) return -1;
          }
          for (const x of placed) {
            if ((usedDirs[x] & (1 << d)) !== 0) return -1;
            const spec = line.specs[line.nodes.indexOf(x)];
            if ((profiles.masks[P[x] * 4 + d] & specAtom(spec)) === 0) return -1;
          }
          lineDir[e.line] = d;
          for (const x of placed) usedDirs[x] |= 1 << d;
          for (const x of placed) {
            if (!nodeFits(x)) {
              lineDir[e.line] = -1;
              for (const y of placed) usedDirs[y] &= ~(1 << d);
              return -1;
            }
          }
          return 0;
        }
        case 'E': {
          if (a === 0) {
            const ch = choicesFor(e.line);
            eChoices[pc] = ch;
            eTotal[pc] = ch === undefined ? 0 : ch.reduce((t, o) => t * o.length, 1);
          }
          const ch = eChoices[pc];
          if (ch === undefined) return -1;
          const bit = 1 << e.line;
          for (let i = a; i < eTotal[pc]; i++) {
            stats.steps++;
            // Decode i as a mixed-radix number: one digit per node on the line.
            let rest = i;
            const picked: number[][] = [];
            for (let m = ch.length - 1; m >= 0; m--) {
              picked[m] = ch[m][rest % ch[m].length];
              rest = Math.floor(rest / ch[m].length);
            }
            const marked = eMarked[pc];
            marked.length = 0;
            let clash = false;
            for (const ws of picked) {
              for (const w of ws) {
                const base = w * WINDOW;
                for (let t = 0; t < WINDOW && !clash; t++) {
                  const p = g.windowPoints[base + t];
                  if (!board.isEmpty(p) || isExplicit(p)) continue;
                  const c = cover[p];
                  if ((c & ~bit) !== 0) clash = true;
                  else if (c === 0) {
                    cover[p] = bit;
                    marked.push(p);
                  }
                }
              }
            }
            if (!clash) {
              ePicked[pc] = picked;
              return i;
            }
            for (const p of marked) cover[p] = 0;
            marked.length = 0;
          }
          return -1;
        }
      }
    };

    /** Undo the effect of the alternative element pc took. */
    const retract = (pc: number): void => {
      const e = els[pc];
      switch (e.op) {
        case 'A':
          P[1] = -1;
          break;
        case 'B':
          usedDirs[e.node] &= ~(1 << lineDir[e.line]);
          lineDir[e.line] = -1;
          break;
        case 'C':
          P[e.node] = -1;
          usedDirs[e.node] = 0;
          break;
        case 'D': {
          const d = lineDir[e.line];
          for (const x of stream.lines[e.line].nodes) if (P[x] >= 0) usedDirs[x] &= ~(1 << d);
          lineDir[e.line] = -1;
          break;
        }
        case 'E':
          for (const p of eMarked[pc]) cover[p] = 0;
          eMarked[pc].length = 0;
          break;
      }
    };

    const report = (): void => {
      const implicit: number[] = [];
      const lines: RealisedLine[] = [];
      for (let pc = 0; pc < els.length; pc++) {
        const e = els[pc];
        if (e.op !== 'E') continue;
        implicit.push(...eMarked[pc]);
        const line = stream.lines[e.line];
        lines.push({
          line: e.line,
          direction: lineDir[e.line] as Direction,
          patterns: line.nodes.map((node, m) => ({ node, windows: ePicked[pc][m].slice() })),
        });
      }
      implicit.sort((x, y) => x - y);
      lines.sort((x, y) => x.line - y.line);
      emit({ nodes: Array.from(P.subarray(1)), lines, implicit });
    };

    // The interpreter loop: forward scan on success, backscan on failure.
    let pc = 0;
    alt[0] = 0;
    while (pc >= 0) {
      if (stats.steps > cap) {
        stats.capped = true;
        break;
      }
      if (pc === els.length) {
        report();
        pc--;
        retract(pc);
        continue;
      }
      const taken = attempt(pc, alt[pc]);
      if (taken >= 0) {
        alt[pc] = taken + 1;
        pc++;
        if (pc < els.length) alt[pc] = 0;
      } else {
        pc--;
        if (pc >= 0) retract(pc);
      }
    }
    // Leave the shared cover marks clean for the next run, even after the cap.
    for (let i = 0; i < els.length; i++) {
      if (els[i].op === 'E') {
        for (const p of eMarked[i]) cover[p] = 0;
        eMarked[i].length = 0;
      }
    }
    return stats;
  }
}
