/**
 * The control-stream interpreter: given a board, a colour and a candidate point for the
 * stream's entry node (node 1 in the paper's scan), it scans the stream forward, making a
 * choice at each B, C and E element; when an element cannot be met it backscans to the last
 * choice and tries the next; after the last E it reports a realisation and backscans again,
 * so every realisation with that entry point is found. It is one loop over a program
 * counter, with a hard cap on steps.
 *
 * What a realisation is, exactly, is set out in docs/DESIGN.md ("Descriptions"):
 * - each explicit node is a distinct vacant point; the nodes of each line lie on one line
 *   of the board, and the lines through one node have distinct directions;
 * - on each of its lines a node with spec `n` (`n'`) lies in one (two) possible 5-patterns
 *   along that direction holding exactly n − 1 stones of the colour, and those patterns hold
 *   every other node of the line whose spec there is at least as high;
 * - no pattern holds an explicit node its line does not name, and the patterns of two
 *   different lines share no vacant point but explicit nodes on both.
 *
 * A `StreamMachine` is made once per stream and board and reused for every candidate, so a
 * run allocates nothing until it finds a realisation.
 */
import type { Board } from './board.ts';
import { DEFAULT_STEP_CAP, type ControlStream } from './controlStream.ts';
import { WINDOW } from './geometry.ts';
import { canMeet, specAtom, type ProfileTable } from './profile.ts';
import { BLACK, DIRECTIONS, type Direction, type Point, type Stone } from './types.ts';

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

/** Cover marks shared by every machine on one board: which line's patterns hold a vacant point. */
export class CoverMap {
  readonly marks: Int32Array;
  constructor(points: number) {
    this.marks = new Int32Array(points);
  }
}

export class StreamMachine {
  private readonly board: Board;
  private readonly stream: ControlStream;
  private readonly cover: Int32Array;
  private readonly k: number;
  // Static tables, from the stream.
  private readonly atoms: number[][];
  private readonly nodeLineIds: number[][];
  private readonly elAtom: Int32Array;
  private readonly lineNodes: number[][];
  private readonly lineNs: number[][];
  private readonly lineDashed: boolean[][];
  // Scan state.
  private readonly P: Int32Array;
  private readonly lineDir: Int8Array;
  private readonly usedDirs: Uint8Array;
  private readonly alt: Int32Array;
  private readonly pinned: number[][];
  private readonly eOptions: { picked: number[][]; vacant: number[] }[][];
  private readonly eGen: Float64Array;
  /** Bumped whenever an A-D element takes an alternative. */
  private generation = 0;
  private readonly eMarked: number[][];
  private readonly ePicked: number[][][];
  private readonly fits: number[] = [];
  private stone: Stone = BLACK;
  private profiles!: ProfileTable;
  private steps = 0;

  constructor(stream: ControlStream, board: Board, cover: CoverMap) {
    this.stream = stream;
    this.board = board;
    this.cover = cover.marks;
    const k = stream.nodes.length;
    this.k = k;
    this.atoms = stream.nodes.map((n) => n.specs.map(specAtom));
    this.nodeLineIds = stream.nodes.map((n) => n.lines.slice());
    this.elAtom = Int32Array.from(
      stream.elements.map((e) => {
        if (e.op === 'B' || e.op === 'C') {
          const n = stream.nodes[e.node - 1];
          return specAtom(n.specs[n.lines.indexOf(e.line)]);
        }
        return 0;
      }),
    );
    this.lineNodes = stream.lines.map((l) => l.nodes.slice());
    this.lineNs = stream.lines.map((l) => l.specs.map((s) => s.n));
    this.lineDashed = stream.lines.map((l) => l.specs.map((s) => s.dashed));
    this.P = new Int32Array(k + 1);
    this.lineDir = new Int8Array(stream.lines.length);
    this.usedDirs = new Uint8Array(k + 1);
    this.alt = new Int32Array(stream.elements.length);
    this.pinned = stream.nodes.map((n) => new Array<number>(n.lines.length).fill(-1));
    this.eOptions = stream.elements.map(() => []);
    this.eGen = new Float64Array(stream.elements.length).fill(-1);
    this.eMarked = stream.elements.map(() => []);
    this.ePicked = stream.elements.map(() => []);
  }

  /**
   * Runs the stream with its entry node at `start` for the colour of `profiles`, calling
   * `emit` for every realisation found. Returns the steps taken and whether the cap cut it short.
   */
  run(profiles: ProfileTable, start: Point, emit: (r: RawRealisation) => void, cap = DEFAULT_STEP_CAP): RunStats {
    const board = this.board;
    if (!board.isEmpty(start)) return { steps: 0, capped: false };
    const entry = this.stream.entry;
    // The A element: the entry node's whole pattern entry, before any state is touched.
    this.profiles = profiles;
    this.pinned[entry - 1].fill(-1);
    if (!canMeet(profiles.nodeMasks(start), this.atoms[entry - 1], this.pinned[entry - 1], 0)) return { steps: 1, capped: false };
    this.stone = profiles.stone;
    this.P.fill(-1);
    this.lineDir.fill(-1);
    this.usedDirs.fill(0);
    this.steps = 0;
    const els = this.stream.elements;
    const n = els.length;
    let capped = false;
    let pc = 0;
    this.alt[0] = 0;
    while (pc >= 0) {
      if (this.steps > cap) {
        capped = true;
        break;
      }
      if (pc === n) {
        emit(this.report());
        pc--;
        this.retract(pc);
        continue;
      }
      const taken = this.attempt(pc, this.alt[pc], start);
      if (taken >= 0) {
        if (this.stream.elements[pc].op !== 'E') this.generation++;
        this.alt[pc] = taken + 1;
        pc++;
        if (pc < n) this.alt[pc] = 0;
      } else {
        pc--;
        if (pc >= 0) this.retract(pc);
      }
    }
    // Leave the shared cover marks clean for the next run, even after the cap.
    for (let i = 0; i < n; i++) {
      const marked = this.eMarked[i];
      for (let t = 0; t < marked.length; t++) this.cover[marked[t]] = 0;
      marked.length = 0;
    }
    return { steps: this.steps, capped };
  }

  private isExplicit(p: Point): boolean {
    const P = this.P;
    for (let x = 1; x <= this.k; x++) if (P[x] === p) return true;
    return false;
  }

  private windowHas(w: number, p: Point): boolean {
    const wp = this.board.geometry.windowPoints;
    const base = w * WINDOW;
    for (let i = 0; i < WINDOW; i++) if (wp[base + i] === p) return true;
    return false;
  }

  /** Can node j still meet its whole entry, given the directions its lines have so far? */
  private nodeFits(j: number): boolean {
    const ids = this.nodeLineIds[j - 1];
    const pins = this.pinned[j - 1];
    for (let i = 0; i < ids.length; i++) pins[i] = this.lineDir[ids[i]];
    return canMeet(this.profiles.nodeMasks(this.P[j]), this.atoms[j - 1], pins, 0);
  }

  private attempt(pc: number, a: number, start: Point): number {
    const e = this.stream.elements[pc];
    const P = this.P;
    switch (e.op) {
      case 'A':
        if (a > 0) return -1;
        this.steps++;
        P[e.node] = start;
        return 0;
      case 'B': {
        const atom = this.elAtom[pc];
        const masks = this.profiles.masks;
        const base = P[e.node] * 4;
        const from = e.after !== undefined ? Math.max(a, this.lineDir[e.after] + 1) : a;
        for (let d = from; d < 4; d++) {
          this.steps++;
          if ((this.usedDirs[e.node] & (1 << d)) !== 0 || (masks[base + d] & atom) === 0) continue;
          this.lineDir[e.line] = d;
          this.usedDirs[e.node] |= 1 << d;
          if (this.nodeFits(e.node)) return d;
          this.lineDir[e.line] = -1;
          this.usedDirs[e.node] &= ~(1 << d);
        }
        return -1;
      }
      case 'C':
        return this.attemptC(pc, e.node, e.from, e.line, a);
      case 'D':
        return a > 0 ? -1 : this.attemptD(e.line);
      case 'E':
        return this.attemptE(pc, e.line, a);
    }
  }

  /** Candidates are the points 1..4 steps either way from the earlier node along the line, in that order: -4..-1, 1..4. */
  private attemptC(pc: number, node: number, from: number, line: number, a: number): number {
    const board = this.board;
    const g = board.geometry;
    const size = board.size;
    const d = this.lineDir[line];
    const [dc, dr] = DIRECTIONS[d];
    const f = this.P[from];
    const fc = f % size;
    const fr = (f - fc) / size;
    const atom = this.elAtom[pc];
    const masks = this.profiles.masks;
    const stone = this.stone;
    for (let i = a; i < 8; i++) {
      this.steps++;
      const t = i < 4 ? i - 4 : i - 3;
      const c = fc + dc * t;
      const r = fr + dr * t;
      if (c < 0 || c >= size || r < 0 || r >= size) continue;
      const q = r * size + c;
      if (!board.isEmpty(q) || (masks[q * 4 + d] & atom) === 0 || this.isExplicit(q)) continue;
      // Inside a possible 5-pattern through the earlier node.
      let shared = false;
      for (let x = g.pointWindowStart[q]; x < g.pointWindowStart[q + 1] && !shared; x++) {
        const w = g.pointWindows[x];
        if (g.windowDirection[w] === d && board.isPossible(w, stone) && this.windowHas(w, f)) shared = true;
      }
      if (!shared) continue;
      this.P[node] = q;
      this.usedDirs[node] = 1 << d;
      if (this.nodeFits(node)) return i;
      this.P[node] = -1;
      this.usedDirs[node] = 0;
    }
    return -1;
  }

  private attemptD(line: number): number {
    this.steps++;
    const P = this.P;
    const size = this.board.size;
    const nodes = this.lineNodes[line];
    let first = -1;
    let d = -1;
    for (const x of nodes) {
      if (P[x] < 0) continue;
      if (first < 0) {
        first = P[x];
        continue;
      }
      const dd = directionBetween(size, first, P[x]);
      if (dd < 0 || (d >= 0 && dd !== d)) return -1;
      d = dd;
    }
    if (d < 0) return -1;
    // Every pair must lie within one window's reach, not just each with the first.
    for (const x of nodes) {
      if (P[x] < 0) continue;
      for (const y of nodes) if (y > x && P[y] >= 0 && directionBetween(size, P[x], P[y]) !== d) return -1;
    }
    const masks = this.profiles.masks;
    for (let m = 0; m < nodes.length; m++) {
      const x = nodes[m];
      if (P[x] < 0) continue;
      if ((this.usedDirs[x] & (1 << d)) !== 0) return -1;
      const atom = specAtom({ n: this.lineNs[line][m], dashed: this.lineDashed[line][m] });
      if ((masks[P[x] * 4 + d] & atom) === 0) return -1;
    }
    this.lineDir[line] = d;
    for (const x of nodes) if (P[x] >= 0) this.usedDirs[x] |= 1 << d;
    for (const x of nodes) {
      if (P[x] >= 0 && !this.nodeFits(x)) {
        this.lineDir[line] = -1;
        for (const y of nodes) if (P[y] >= 0) this.usedDirs[y] &= ~(1 << d);
        return -1;
      }
    }
    return 0;
  }

  /** The pattern choices of each node on a line: single windows, or pairs for n'. */
  private choicesFor(line: number): number[][][] | undefined {
    const board = this.board;
    const g = board.geometry;
    const d = this.lineDir[line];
    const nodes = this.lineNodes[line];
    const ns = this.lineNs[line];
    const P = this.P;
    const k = this.k;
    const out: number[][][] = [];
    for (let m = 0; m < nodes.length; m++) {
      const j = nodes[m];
      const p = P[j];
      const fits = this.fits;
      fits.length = 0;
      for (let i = g.pointWindowStart[p]; i < g.pointWindowStart[p + 1]; i++) {
        const w = g.pointWindows[i];
        if (g.windowDirection[w] !== d || !board.isPossible(w, this.stone) || board.stonesIn(w, this.stone) !== ns[m] - 1) continue;
        let good = true;
        for (let x = 1; x <= k && good; x++) {
          if (x === j) continue;
          const xm = nodes.indexOf(x);
          if (xm >= 0) {
            if (ns[xm] >= ns[m] && !this.windowHas(w, P[x])) good = false;
          } else if (this.windowHas(w, P[x])) {
            good = false;
          }
        }
        if (good) fits.push(w);
      }
      const options: number[][] = [];
      if (this.lineDashed[line][m]) {
        for (let x = 0; x < fits.length; x++) for (let y = x + 1; y < fits.length; y++) options.push([fits[x], fits[y]]);
      } else {
        for (const w of fits) options.push([w]);
      }
      if (options.length === 0) return undefined;
      out.push(options);
    }
    return out;
  }

  /**
   * E's alternatives are the distinct sets of vacant points the line's pattern choices cover:
   * choices covering the same points give the same implicit nodes and meet the same other
   * lines, so only the first of them (in choice order) is tried.
   */
  private attemptE(pc: number, line: number, a: number): number {
    // Options depend only on where the nodes are and which way the lines run, which no E
    // changes: recompute them only when an earlier A-D element has moved on since.
    if (a === 0 && this.eGen[pc] !== this.generation) {
      this.eOptions[pc] = this.optionsFor(line);
      this.eGen[pc] = this.generation;
    }
    const options = this.eOptions[pc];
    const cover = this.cover;
    const bit = 1 << line;
    const marked = this.eMarked[pc];
    for (let i = a; i < options.length; i++) {
      this.steps++;
      const vacant = options[i].vacant;
      let clash = false;
      for (let t = 0; t < vacant.length; t++) {
        if ((cover[vacant[t]] & ~bit) !== 0) {
          clash = true;
          break;
        }
      }
      if (clash) continue;
      for (let t = 0; t < vacant.length; t++) {
        if (cover[vacant[t]] === 0) {
          cover[vacant[t]] = bit;
          marked.push(vacant[t]);
        }
      }
      this.ePicked[pc] = options[i].picked;
      return i;
    }
    return -1;
  }

  /**
   * The distinct vacant sets of a line's pattern choices. All the line's patterns lie on one
   * board line within four steps of its nodes, which lie within four steps of each other, so
   * a vacant set fits a bit mask of the 17 points from 8 steps before the first node to 8
   * after; masks make the duplicates cheap to find.
   */
  private optionsFor(line: number): { picked: number[][]; vacant: number[] }[] {
    const ch = this.choicesFor(line);
    if (ch === undefined) return [];
    const board = this.board;
    const size = board.size;
    const wp = board.geometry.windowPoints;
    const [dc, dr] = DIRECTIONS[this.lineDir[line]];
    const origin = this.P[this.lineNodes[line][0]];
    const oc = origin % size;
    const or = (origin - oc) / size;
    // Offset of a point on this line from the origin, in steps.
    const offset = (p: number): number => (dc !== 0 ? (p % size) - oc : (p - (p % size)) / size - or) * (dc !== 0 ? dc : dr);
    let total = 1;
    for (const o of ch) total *= o.length;
    const masks: number[] = [];
    const out: { picked: number[][]; vacant: number[] }[] = [];
    const digits = new Int32Array(ch.length);
    for (let i = 0; i < total; i++) {
      let rest = i;
      for (let m = ch.length - 1; m >= 0; m--) {
        digits[m] = rest % ch[m].length;
        rest = Math.floor(rest / ch[m].length);
      }
      let mask = 0;
      for (let m = 0; m < ch.length; m++) {
        for (const w of ch[m][digits[m]]) {
          for (let t = 0; t < WINDOW; t++) {
            const p = wp[w * WINDOW + t];
            if (board.isEmpty(p) && !this.isExplicit(p)) mask |= 1 << (offset(p) + 8);
          }
        }
      }
      if (masks.includes(mask)) continue;
      masks.push(mask);
      const vacant: number[] = [];
      for (let b = 0; b < 17; b++) {
        if ((mask & (1 << b)) === 0) continue;
        const t = b - 8;
        vacant.push((or + dr * t) * size + oc + dc * t);
      }
      vacant.sort((x, y) => x - y);
      out.push({ picked: ch.map((o, m) => o[digits[m]]), vacant });
    }
    return out;
  }

  /** Undo the effect of the alternative element pc took. */
  private retract(pc: number): void {
    const e = this.stream.elements[pc];
    switch (e.op) {
      case 'A':
        this.P[e.node] = -1;
        break;
      case 'B':
        this.usedDirs[e.node] &= ~(1 << this.lineDir[e.line]);
        this.lineDir[e.line] = -1;
        break;
      case 'C':
        this.P[e.node] = -1;
        this.usedDirs[e.node] = 0;
        break;
      case 'D': {
        const d = this.lineDir[e.line];
        for (const x of this.lineNodes[e.line]) if (this.P[x] >= 0) this.usedDirs[x] &= ~(1 << d);
        this.lineDir[e.line] = -1;
        break;
      }
      case 'E': {
        const marked = this.eMarked[pc];
        for (const p of marked) this.cover[p] = 0;
        marked.length = 0;
        break;
      }
    }
  }

  private report(): RawRealisation {
    const implicit: number[] = [];
    const lines: RealisedLine[] = [];
    const els = this.stream.elements;
    for (let pc = 0; pc < els.length; pc++) {
      const e = els[pc];
      if (e.op !== 'E') continue;
      implicit.push(...this.eMarked[pc]);
      const picked = this.ePicked[pc];
      lines.push({
        line: e.line,
        direction: this.lineDir[e.line] as Direction,
        patterns: this.lineNodes[e.line].map((node, m) => ({ node, windows: picked[m].slice() })),
      });
    }
    implicit.sort((x, y) => x - y);
    lines.sort((x, y) => x.line - y.line);
    return { nodes: Array.from(this.P.subarray(1)), lines, implicit };
  }
}

/** Direction of the line through a and b if they lie on one within a window's reach, else -1. */
function directionBetween(size: number, a: Point, b: Point): number {
  const dc = (b % size) - (a % size);
  const dr = Math.floor(b / size) - Math.floor(a / size);
  if (Math.max(Math.abs(dc), Math.abs(dr)) >= WINDOW) return -1;
  if (dr === 0) return 0;
  if (dc === 0) return 1;
  if (dc === dr) return 2;
  if (dc === -dr) return 3;
  return -1;
}

/** Convenience for one-off runs (tests, tools): a machine over a private cover map. */
export function runStream(stream: ControlStream, board: Board, profiles: ProfileTable, start: Point, emit: (r: RawRealisation) => void, cap = DEFAULT_STEP_CAP): RunStats {
  return new StreamMachine(stream, board, new CoverMap(board.points)).run(profiles, start, emit, cap);
}
