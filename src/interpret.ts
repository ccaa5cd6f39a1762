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
 * Two checks run before the E elements to cut the search early, without changing what is
 * found or in which order: once a line has a direction (B, C, D), every placed node on it
 * must still have enough patterns along it (one, or two for `n'`) with the right number of
 * stones that hold its placed line-mates of at least its spec and no other placed explicit
 * node — the E element's own test, on the nodes placed so far.
 *
 * A `StreamMachine` is made once per stream (`machineFor` keeps one per stream) and reused for
 * every board and candidate; a run allocates nothing until it finds a realisation. Its
 * tables are typed arrays decoded from the stream once. Runs of different machines must not
 * nest when they share a `ScanScratch`.
 *
 * A run also logs what it read, for incremental recognition (recognise.ts): which atoms it
 * tested in which masks (point and direction), and through which points it looked along
 * which direction for possible windows holding how many stones. Nothing else about the board
 * decides a run: a candidate point it rejects as occupied has a zero mask, and the emptiness
 * of a pattern's points is part of its window's state (a stone there changes its count or
 * makes it impossible). So a run is sure to find the same realisations again after a move
 * that changed none of the atoms it tested and no window of a kind it looked for.
 */
import type { Board } from './board.ts';
import { DEFAULT_STEP_CAP, type ControlStream } from './controlStream.ts';
import { WINDOW, type Geometry } from './geometry.ts';
import { directionWindows, distinctDirections, specAtom, type DirectionWindows, type ProfileTable } from './profile.ts';
import { BLACK, type Direction, type Point, type Stone } from './types.ts';

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

/**
 * Per-board working memory for runs: the cover marks, and the log of what the last run read.
 * For a point p and direction d (pair `p * 4 + d`): `maskInterest` holds the atoms whose
 * presence in p's mask along d the run tested, `windowInterest` bit c (0-5) that it looked for
 * possible windows along d through p holding c stones, bit 6 that it asked whether such
 * windows are possible at all. `readPairs[0 .. readCount)` lists the pairs read.
 */
export class ScanScratch {
  readonly cover: Int32Array;
  readonly maskInterest: Uint16Array;
  readonly windowInterest: Uint8Array;
  readonly readPairs: Int32Array;
  readCount = 0;
  constructor(points: number, cover?: CoverMap) {
    this.cover = cover?.marks ?? new Int32Array(points);
    this.maskInterest = new Uint16Array(points * 4);
    this.windowInterest = new Uint8Array(points * 4);
    this.readPairs = new Int32Array(points * 4);
  }

  /** Forgets the log of the last run. */
  clearReads(): void {
    for (let i = 0; i < this.readCount; i++) {
      const pd = this.readPairs[i];
      this.maskInterest[pd] = 0;
      this.windowInterest[pd] = 0;
    }
    this.readCount = 0;
  }
}

/** Window interest: whether windows are possible at all, whatever they hold. */
export const ANY_POSSIBLE = 64;

const OP_A = 0;
const OP_B = 1;
const OP_C = 2;
const OP_D = 3;
const OP_E = 4;
const OP_CODES = { A: OP_A, B: OP_B, C: OP_C, D: OP_D, E: OP_E } as const;

/** Off the line: farther than any window reaches. */
const OFF = 99;

const machines = new WeakMap<ControlStream, StreamMachine>();

/** The machine of a stream, made on first use and kept as long as the stream is. */
export function machineFor(stream: ControlStream): StreamMachine {
  let m = machines.get(stream);
  if (m === undefined) machines.set(stream, (m = new StreamMachine(stream)));
  return m;
}

export class StreamMachine {
  readonly stream: ControlStream;
  private readonly ownCover: CoverMap | undefined;
  private readonly k: number;
  private readonly n: number;
  private readonly entry: number;
  // Elements, decoded.
  private readonly elOp: Int8Array;
  private readonly elNode: Int32Array;
  private readonly elLine: Int32Array;
  private readonly elFrom: Int32Array;
  private readonly elAfter: Int32Array;
  private readonly elAtom: Int32Array;
  // Nodes (by label): lines through them and the atom each must meet, four slots each.
  private readonly nodeLineCount: Int8Array;
  private readonly nodeLineIds: Int32Array;
  private readonly nodeAtoms: Int32Array;
  /** Per node line slot: the atoms the line's other nodes need along it (see ProfileTable.near). */
  private readonly nodeNb: Int32Array;
  /** The OR of a node's atoms and its slots' neighbour atoms: all its mask tests look for these. */
  private readonly nodeNeed: Int32Array;
  // Lines: members in a flat list (ascending label), and per (line, label) membership.
  private readonly lineStart: Int32Array;
  private readonly lineLen: Int32Array;
  private readonly memNode: Int32Array;
  private readonly memN: Int32Array;
  private readonly memDashed: Uint8Array;
  private readonly memAtom: Int32Array;
  /** lineSpecN[line * (k + 1) + x]: node x's n on the line, or -1 when x is not on it. */
  private readonly lineSpecN: Int32Array;
  // Scan state.
  private readonly P: Int32Array;
  private readonly lineDir: Int8Array;
  private readonly usedDirs: Uint8Array;
  private readonly alt: Int32Array;
  private readonly eGen: Float64Array;
  /** Bumped whenever an A-D element takes an alternative. */
  private generation = 0;
  private readonly eMarked: number[][];
  /** Per E element: option count, each option's vacant mask and its choice per member. */
  private readonly eOptCount: Int32Array;
  private readonly eOptMask: number[][];
  private readonly eOptPick: number[][];
  /** Per E element: each member's choices (two window slots each, the second -1 for a single). */
  private readonly eChoices: number[][];
  private readonly eChoiceMask: number[][];
  private readonly eChoiceStart: Int32Array;
  private readonly eChoiceCount: Int32Array;
  /** Per E element: the option taken. */
  private readonly eTaken: Int32Array;
  // Per-run context.
  private board!: Board;
  private dw!: DirectionWindows;
  private masks!: Uint16Array;
  private near!: Uint16Array;
  private cover!: Int32Array;
  private scratch!: ScanScratch;
  private stone: Stone = BLACK;
  private steps = 0;
  /** Whether the last run was cut short by the step cap. */
  capped = false;
  private readonly fits = new Int32Array(WINDOW);
  private readonly wmask = new Int32Array(WINDOW);
  private readonly offs = new Int32Array(8);
  private readonly digits = new Int32Array(8);

  /** `board` and `cover` are optional: a run takes the board from its profile table. `cover` is used by `run`. */
  constructor(stream: ControlStream, _board?: Board, cover?: CoverMap) {
    this.stream = stream;
    this.ownCover = cover;
    const k = stream.nodes.length;
    const els = stream.elements;
    const n = els.length;
    const L = stream.lines.length;
    this.k = k;
    this.n = n;
    this.entry = stream.entry;
    this.elOp = Int8Array.from(els, (e) => OP_CODES[e.op]);
    this.elNode = Int32Array.from(els, (e) => ('node' in e ? e.node : 0));
    this.elLine = Int32Array.from(els, (e) => ('line' in e ? e.line : -1));
    this.elFrom = Int32Array.from(els, (e) => (e.op === 'C' ? e.from : 0));
    this.elAfter = Int32Array.from(els, (e) => (e.op === 'B' && e.after !== undefined ? e.after : -1));
    this.elAtom = Int32Array.from(els, (e) => {
      if (e.op === 'B' || e.op === 'C') {
        const nd = stream.nodes[e.node - 1];
        return specAtom(nd.specs[nd.lines.indexOf(e.line)]);
      }
      return 0;
    });
    this.nodeLineCount = new Int8Array(k + 1);
    this.nodeLineIds = new Int32Array((k + 1) * 4);
    this.nodeAtoms = new Int32Array((k + 1) * 4);
    this.nodeNb = new Int32Array((k + 1) * 4);
    this.nodeNeed = new Int32Array(k + 1);
    stream.nodes.forEach((nd, i) => {
      this.nodeLineCount[i + 1] = nd.lines.length;
      nd.lines.forEach((l, s) => {
        this.nodeLineIds[(i + 1) * 4 + s] = l;
        this.nodeAtoms[(i + 1) * 4 + s] = specAtom(nd.specs[s]);
        this.nodeNeed[i + 1] |= specAtom(nd.specs[s]);
        const line = stream.lines[l];
        line.nodes.forEach((x, m) => {
          if (x !== i + 1) this.nodeNb[(i + 1) * 4 + s] |= specAtom(line.specs[m]);
        });
        this.nodeNeed[i + 1] |= this.nodeNb[(i + 1) * 4 + s];
      });
    });
    this.lineStart = new Int32Array(L);
    this.lineLen = new Int32Array(L);
    const memCount = stream.lines.reduce((a, l) => a + l.nodes.length, 0);
    this.memNode = new Int32Array(memCount);
    this.memN = new Int32Array(memCount);
    this.memDashed = new Uint8Array(memCount);
    this.memAtom = new Int32Array(memCount);
    this.lineSpecN = new Int32Array(L * (k + 1)).fill(-1);
    let at = 0;
    stream.lines.forEach((l, li) => {
      this.lineStart[li] = at;
      this.lineLen[li] = l.nodes.length;
      l.nodes.forEach((x, m) => {
        this.memNode[at] = x;
        this.memN[at] = l.specs[m].n;
        this.memDashed[at] = l.specs[m].dashed ? 1 : 0;
        this.memAtom[at] = specAtom(l.specs[m]);
        this.lineSpecN[li * (k + 1) + x] = l.specs[m].n;
        at++;
      });
    });
    this.P = new Int32Array(k + 1).fill(-1);
    this.lineDir = new Int8Array(L).fill(-1);
    this.usedDirs = new Uint8Array(k + 1);
    this.alt = new Int32Array(n);
    this.eGen = new Float64Array(n).fill(-1);
    this.eMarked = els.map(() => []);
    this.eOptCount = new Int32Array(n);
    this.eOptMask = els.map(() => []);
    this.eOptPick = els.map(() => []);
    this.eChoices = els.map(() => []);
    this.eChoiceMask = els.map(() => []);
    this.eChoiceStart = new Int32Array(n * 8);
    this.eChoiceCount = new Int32Array(n * 8);
    this.eTaken = new Int32Array(n);
    if (k > 8) throw new RangeError('a stream may have at most 8 nodes');
  }

  /**
   * Runs the stream with its entry node at `start` for the colour of `profiles`, calling
   * `emit` for every realisation found. Returns the steps taken and whether the cap cut it short.
   */
  run(profiles: ProfileTable, start: Point, emit: (r: RawRealisation) => void, cap = DEFAULT_STEP_CAP): RunStats {
    const scratch = new ScanScratch(profiles.board.points, this.ownCover);
    const steps = this.scan(profiles, start, scratch, (m) => emit(m.report()), cap);
    return { steps, capped: this.capped };
  }

  /**
   * The fast form of `run`: calls `found(this)` for every realisation, while the machine's
   * state describes it (`nodePoint`, `implicitPoints`, `report`), and logs what it reads in
   * `scratch`, which the caller clears. Returns the steps taken; `capped` tells whether the
   * cap cut the run short.
   */
  scan(profiles: ProfileTable, start: Point, scratch: ScanScratch, found: (m: StreamMachine) => void, cap = DEFAULT_STEP_CAP): number {
    const board = profiles.board;
    this.capped = false;
    if (!board.isEmpty(start)) return 0;
    this.board = board;
    this.dw = directionWindows(board.geometry);
    this.masks = profiles.masks;
    this.near = profiles.near;
    this.stone = profiles.stone;
    this.scratch = scratch;
    this.cover = scratch.cover;
    this.readMasks(start, this.nodeNeed[this.entry]);
    const P = this.P;
    // Clean already unless a callback threw in the last run; cheap to make sure.
    for (let x = 0; x <= this.k; x++) {
      P[x] = -1;
      this.usedDirs[x] = 0;
    }
    for (let l = 0; l < this.lineDir.length; l++) this.lineDir[l] = -1;
    const entry = this.entry;
    // The A element: the entry node's whole pattern entry, before any state is touched.
    P[entry] = start;
    const fits = this.nodeFits(entry);
    P[entry] = -1;
    if (!fits) return 1;
    this.steps = 0;
    const n = this.n;
    const elOp = this.elOp;
    const alt = this.alt;
    let pc = 0;
    alt[0] = 0;
    while (pc >= 0) {
      if (this.steps > cap) {
        this.capped = true;
        break;
      }
      if (pc === n) {
        found(this);
        pc--;
        this.retract(pc);
        continue;
      }
      const taken = this.attempt(pc, alt[pc], start);
      if (taken >= 0) {
        if (elOp[pc] !== OP_E) this.generation++;
        alt[pc] = taken + 1;
        pc++;
        if (pc < n) alt[pc] = 0;
      } else {
        pc--;
        if (pc >= 0) this.retract(pc);
      }
    }
    // Leave the state and the shared cover marks clean for the next run, even after the cap.
    for (; pc >= 0; pc--) this.retract(pc);
    return this.steps;
  }

  /** The point of node `label` in the realisation being reported. */
  nodePoint(label: number): Point {
    return this.P[label];
  }

  /** The implicit nodes of the realisation being reported, ascending. */
  implicitPoints(): Point[] {
    const out: number[] = [];
    for (let pc = 0; pc < this.n; pc++) if (this.elOp[pc] === OP_E) for (const p of this.eMarked[pc]) out.push(p);
    return sortPoints(out);
  }

  /**
   * The realisation being reported as numbers: its node points by label, then for each E
   * element each node's windows on that line (two slots, the second -1 for a single pattern).
   */
  signature(): number[] {
    const out: number[] = [];
    for (let x = 1; x <= this.k; x++) out.push(this.P[x]);
    for (let pc = 0; pc < this.n; pc++) {
      if (this.elOp[pc] !== OP_E) continue;
      const len = this.lineLen[this.elLine[pc]];
      const pick = this.eOptPick[pc];
      const choices = this.eChoices[pc];
      const o = this.eTaken[pc];
      for (let m = 0; m < len; m++) {
        const c = (this.eChoiceStart[pc * 8 + m] + pick[o * len + m]) * 2;
        out.push(choices[c], choices[c + 1]);
      }
    }
    return out;
  }

  /** Whether the realisation being reported has signature `sig`. */
  hasSignature(sig: readonly number[]): boolean {
    let at = 0;
    for (let x = 1; x <= this.k; x++) if (sig[at++] !== this.P[x]) return false;
    for (let pc = 0; pc < this.n; pc++) {
      if (this.elOp[pc] !== OP_E) continue;
      const len = this.lineLen[this.elLine[pc]];
      const pick = this.eOptPick[pc];
      const choices = this.eChoices[pc];
      const o = this.eTaken[pc];
      for (let m = 0; m < len; m++) {
        const c = (this.eChoiceStart[pc * 8 + m] + pick[o * len + m]) * 2;
        if (sig[at++] !== choices[c] || sig[at++] !== choices[c + 1]) return false;
      }
    }
    return at === sig.length;
  }

  /** The realisation being reported, as a plain object. */
  report(): RawRealisation {
    const lines: RealisedLine[] = [];
    for (let pc = 0; pc < this.n; pc++) {
      if (this.elOp[pc] !== OP_E) continue;
      const line = this.elLine[pc];
      const st = this.lineStart[line];
      const len = this.lineLen[line];
      const pick = this.eOptPick[pc];
      const choices = this.eChoices[pc];
      const o = this.eTaken[pc];
      const patterns: { node: number; windows: number[] }[] = [];
      for (let m = 0; m < len; m++) {
        const c = (this.eChoiceStart[pc * 8 + m] + pick[o * len + m]) * 2;
        patterns.push({ node: this.memNode[st + m], windows: choices[c + 1] >= 0 ? [choices[c], choices[c + 1]] : [choices[c]] });
      }
      lines.push({ line, direction: this.lineDir[line] as Direction, patterns });
    }
    // Insertion sort by line: a handful of lines.
    for (let i = 1; i < lines.length; i++) {
      const x = lines[i];
      let j = i - 1;
      for (; j >= 0 && lines[j].line > x.line; j--) lines[j + 1] = lines[j];
      lines[j + 1] = x;
    }
    const nodes: number[] = [];
    for (let x = 1; x <= this.k; x++) nodes.push(this.P[x]);
    return { nodes, lines, implicit: this.implicitPoints() };
  }

  /** Logs that the run tested `atoms` in p's mask along d. */
  private readMask(p: Point, d: number, atoms: number): void {
    const s = this.scratch;
    const pd = p * 4 + d;
    const had = s.maskInterest[pd];
    if ((had & atoms) === atoms) return;
    if (had === 0 && s.windowInterest[pd] === 0) s.readPairs[s.readCount++] = pd;
    s.maskInterest[pd] = had | atoms;
  }

  /** Logs that the run tested `atoms` in p's masks along every direction. */
  private readMasks(p: Point, atoms: number): void {
    for (let d = 0; d < 4; d++) this.readMask(p, d, atoms);
  }

  /** Logs that the run looked at the windows along d through p (`what`: window interest bits). */
  private readWindows(p: Point, d: number, what: number): void {
    const s = this.scratch;
    const pd = p * 4 + d;
    const had = s.windowInterest[pd];
    if ((had & what) === what) return;
    if (had === 0 && s.maskInterest[pd] === 0) s.readPairs[s.readCount++] = pd;
    s.windowInterest[pd] = had | what;
  }

  private isExplicit(p: Point): boolean {
    const P = this.P;
    for (let x = 1; x <= this.k; x++) if (P[x] === p) return true;
    return false;
  }

  /** How many steps along direction d b lies from a, or OFF when it is not on that line. */
  private lineOffset(a: Point, b: Point, d: number): number {
    const col = this.dw.col;
    const row = this.dw.row;
    const dc = col[b] - col[a];
    const dr = row[b] - row[a];
    switch (d) {
      case 0:
        return dr === 0 ? dc : OFF;
      case 1:
        return dc === 0 ? dr : OFF;
      case 2:
        return dc === dr ? dc : OFF;
      default:
        return dc === -dr ? dc : OFF;
    }
  }

  /**
   * Can node j still meet its whole entry, given the directions its lines have so far? Each
   * line needs its atom in j's mask along its direction, and the atoms of its other nodes in
   * j's neighbour mask there (a necessary condition: two nodes of a line share a pattern).
   */
  private nodeFits(j: number): boolean {
    const masks = this.masks;
    const near = this.near;
    const base = this.P[j] * 4;
    const cnt = this.nodeLineCount[j];
    let taken = 0;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let nFree = 0;
    for (let i = 0; i < cnt; i++) {
      const atom = this.nodeAtoms[j * 4 + i];
      const nb = this.nodeNb[j * 4 + i];
      const d = this.lineDir[this.nodeLineIds[j * 4 + i]];
      if (d >= 0) {
        if ((masks[base + d] & atom) === 0 || (near[base + d] & nb) !== nb || (taken & (1 << d)) !== 0) return false;
        taken |= 1 << d;
      } else {
        let a = 0;
        for (let dd = 0; dd < 4; dd++) if ((masks[base + dd] & atom) !== 0 && (near[base + dd] & nb) === nb) a |= 1 << dd;
        if (a === 0) return false;
        if (nFree === 0) a0 = a;
        else if (nFree === 1) a1 = a;
        else if (nFree === 2) a2 = a;
        else a3 = a;
        nFree++;
      }
    }
    if (nFree === 0) return true;
    return distinctDirections(a0 & ~taken, a1 & ~taken, a2 & ~taken, a3 & ~taken, nFree);
  }

  /**
   * Can every placed node on `line` (which has a direction) still find its patterns along it:
   * one (two for n') possible windows with n − 1 stones that hold its placed line-mates of at
   * least its spec and no other placed explicit node? With `placed` > 0, that node was just
   * placed on the line and the others were fine before: only it, and the nodes whose patterns
   * must hold it, are checked.
   */
  private lineFeasible(line: number, placed: number): boolean {
    const d = this.lineDir[line];
    const st = this.lineStart[line];
    const len = this.lineLen[line];
    const P = this.P;
    const k = this.k;
    const board = this.board;
    const stone = this.stone;
    const dwin = this.dw.windows;
    const doff = this.dw.offsets;
    const offs = this.offs;
    const placedN = placed > 0 ? this.lineSpecN[line * (k + 1) + placed] : 0;
    for (let m = 0; m < len; m++) {
      const j = this.memNode[st + m];
      const p = P[j];
      if (p < 0) continue;
      const nm = this.memN[st + m];
      if (placed > 0 && j !== placed && nm > placedN) continue;
      const need = this.memDashed[st + m] === 1 ? 2 : 1;
      if (nm >= 1) this.readWindows(p, d, 1 << (nm - 1));
      // Where the other placed nodes lie along the line from p, and whether p's patterns must hold them.
      for (let x = 1; x <= k; x++) offs[x - 1] = x === j || P[x] < 0 ? OFF : this.lineOffset(p, P[x], d);
      let count = 0;
      const base = (p * 4 + d) * WINDOW;
      for (let i = 0; i < WINDOW && count < need; i++) {
        const w = dwin[base + i];
        if (w < 0) break;
        if (!board.isPossible(w, stone) || board.stonesIn(w, stone) !== nm - 1) continue;
        const lo = -doff[base + i];
        const hi = lo + WINDOW - 1;
        let good = true;
        for (let x = 1; x <= k && good; x++) {
          if (x === j || P[x] < 0) continue;
          const t = offs[x - 1];
          const inside = t >= lo && t <= hi;
          const xn = this.lineSpecN[line * (k + 1) + x];
          if (xn >= 0) {
            if (xn >= nm && !inside) good = false;
          } else if (inside) {
            good = false;
          }
        }
        if (good) count++;
      }
      if (count < need) return false;
    }
    return true;
  }

  private attempt(pc: number, a: number, start: Point): number {
    switch (this.elOp[pc]) {
      case OP_A:
        if (a > 0) return -1;
        this.steps++;
        this.P[this.elNode[pc]] = start;
        return 0;
      case OP_B:
        return this.attemptB(pc, a);
      case OP_C:
        return this.attemptC(pc, a);
      case OP_D:
        return a > 0 ? -1 : this.attemptD(this.elLine[pc]);
      default:
        return this.attemptE(pc, this.elLine[pc], a);
    }
  }

  private attemptB(pc: number, a: number): number {
    const node = this.elNode[pc];
    const line = this.elLine[pc];
    const atom = this.elAtom[pc];
    const masks = this.masks;
    const base = this.P[node] * 4;
    const after = this.elAfter[pc];
    const from = after >= 0 ? Math.max(a, this.lineDir[after] + 1) : a;
    for (let d = from; d < 4; d++) {
      this.steps++;
      if ((this.usedDirs[node] & (1 << d)) !== 0 || (masks[base + d] & atom) === 0) continue;
      this.lineDir[line] = d;
      this.usedDirs[node] |= 1 << d;
      if (this.nodeFits(node) && this.lineFeasible(line, node)) return d;
      this.lineDir[line] = -1;
      this.usedDirs[node] &= ~(1 << d);
    }
    return -1;
  }

  /**
   * Candidates are the points 1..4 steps either way from the earlier node f along the line, in
   * that order: -4..-1, 1..4, inside a possible 5-pattern through f — those in the run of
   * offsets its possible windows along the line cover. (An occupied point has a zero mask.)
   */
  private attemptC(pc: number, a: number): number {
    const node = this.elNode[pc];
    const line = this.elLine[pc];
    const board = this.board;
    const d = this.lineDir[line];
    const f = this.P[this.elFrom[pc]];
    const atom = this.elAtom[pc];
    const masks = this.masks;
    const stone = this.stone;
    const dwin = this.dw.windows;
    const doff = this.dw.offsets;
    const fbase = (f * 4 + d) * WINDOW;
    this.readWindows(f, d, ANY_POSSIBLE);
    let lo = 1;
    let hi = -1;
    for (let x = 0; x < WINDOW; x++) {
      const w = dwin[fbase + x];
      if (w < 0) break;
      if (!board.isPossible(w, stone)) continue;
      const first = -doff[fbase + x];
      if (first < lo) lo = first;
      if (first + WINDOW - 1 > hi) hi = first + WINDOW - 1;
    }
    const step = board.geometry.step[d];
    const bit = 1 << d;
    for (let i = a; i < 8; i++) {
      this.steps++;
      const t = i < 4 ? i - 4 : i - 3;
      if (t < lo || t > hi) continue;
      const q = f + t * step;
      this.readMask(q, d, atom);
      if ((masks[q * 4 + d] & atom) === 0 || this.isExplicit(q)) continue;
      this.P[node] = q;
      this.usedDirs[node] = bit;
      this.readMasks(q, this.nodeNeed[node]);
      if (this.nodeFits(node) && this.lineFeasible(line, node)) return i;
      this.P[node] = -1;
      this.usedDirs[node] = 0;
    }
    return -1;
  }

  private attemptD(line: number): number {
    this.steps++;
    const P = this.P;
    const st = this.lineStart[line];
    const len = this.lineLen[line];
    let first = -1;
    let d = -1;
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] < 0) continue;
      if (first < 0) {
        first = P[x];
        continue;
      }
      const dd = this.directionBetween(first, P[x]);
      if (dd < 0 || (d >= 0 && dd !== d)) return -1;
      d = dd;
    }
    if (d < 0) return -1;
    // Every pair must lie within one window's reach, not just each with the first.
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] < 0) continue;
      for (let m2 = m + 1; m2 < len; m2++) {
        const y = this.memNode[st + m2];
        if (P[y] >= 0 && this.directionBetween(P[x], P[y]) !== d) return -1;
      }
    }
    const masks = this.masks;
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] < 0) continue;
      if ((this.usedDirs[x] & (1 << d)) !== 0) return -1;
      if ((masks[P[x] * 4 + d] & this.memAtom[st + m]) === 0) return -1;
    }
    this.lineDir[line] = d;
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] >= 0) this.usedDirs[x] |= 1 << d;
    }
    let ok = true;
    for (let m = 0; m < len && ok; m++) {
      const x = this.memNode[st + m];
      if (P[x] >= 0 && !this.nodeFits(x)) ok = false;
    }
    if (ok && this.lineFeasible(line, 0)) return 0;
    this.lineDir[line] = -1;
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] >= 0) this.usedDirs[x] &= ~(1 << d);
    }
    return -1;
  }

  /** Direction of the line through a and b if they lie on one within a window's reach, else -1. */
  private directionBetween(a: Point, b: Point): number {
    const dc = this.dw.col[b] - this.dw.col[a];
    const dr = this.dw.row[b] - this.dw.row[a];
    if (Math.max(Math.abs(dc), Math.abs(dr)) >= WINDOW) return -1;
    if (dr === 0) return 0;
    if (dc === 0) return 1;
    if (dc === dr) return 2;
    if (dc === -dr) return 3;
    return -1;
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
      this.optionsFor(pc, line);
      this.eGen[pc] = this.generation;
    }
    const count = this.eOptCount[pc];
    const optMask = this.eOptMask[pc];
    const cover = this.cover;
    const bit = 1 << line;
    const marked = this.eMarked[pc];
    const step = this.board.geometry.step[this.lineDir[line]];
    const origin = this.P[this.memNode[this.lineStart[line]]];
    for (let i = a; i < count; i++) {
      this.steps++;
      const mask = optMask[i];
      let clash = false;
      for (let b = 0; b < 17 && !clash; b++) {
        if ((mask & (1 << b)) !== 0 && (cover[origin + (b - 8) * step] & ~bit) !== 0) clash = true;
      }
      if (clash) continue;
      for (let b = 0; b < 17; b++) {
        if ((mask & (1 << b)) === 0) continue;
        const p = origin + (b - 8) * step;
        if (cover[p] === 0) {
          cover[p] = bit;
          marked.push(p);
        }
      }
      this.eTaken[pc] = i;
      return i;
    }
    return -1;
  }

  /**
   * The pattern choices of each node on a line (single windows, or pairs for n'), and the
   * distinct vacant sets of their combinations. All the line's patterns lie on one board line
   * within four steps of its nodes, which lie within four steps of each other, so a vacant set
   * fits a bit mask of the 17 points from 8 steps before the first node to 8 after; masks make
   * the duplicates cheap to find.
   */
  private optionsFor(pc: number, line: number): void {
    const board = this.board;
    const stone = this.stone;
    const g = board.geometry;
    const wp = g.windowPoints;
    const dwin = this.dw.windows;
    const doff = this.dw.offsets;
    const d = this.lineDir[line];
    const st = this.lineStart[line];
    const len = this.lineLen[line];
    const P = this.P;
    const k = this.k;
    const origin = P[this.memNode[st]];
    const offs = this.offs;
    const fits = this.fits;
    const choices = this.eChoices[pc];
    choices.length = 0;
    const cStart = this.eChoiceStart;
    const cCount = this.eChoiceCount;
    this.eOptCount[pc] = 0;
    // choices[2c], choices[2c + 1] are choice c's windows, cmask[c] the vacant points they
    // cover, as bits at their offset + 8 from the origin.
    const cmask = this.eChoiceMask[pc];
    cmask.length = 0;
    let total = 1;
    for (let m = 0; m < len; m++) {
      const j = this.memNode[st + m];
      const p = P[j];
      const nm = this.memN[st + m];
      for (let x = 1; x <= k; x++) offs[x - 1] = x === j ? OFF : this.lineOffset(p, P[x], d);
      const tp = this.lineOffset(origin, p, d);
      if (nm >= 1) this.readWindows(p, d, 1 << (nm - 1));
      let nf = 0;
      const base = (p * 4 + d) * WINDOW;
      for (let i = 0; i < WINDOW; i++) {
        const w = dwin[base + i];
        if (w < 0) break;
        if (!board.isPossible(w, stone) || board.stonesIn(w, stone) !== nm - 1) continue;
        const lo = -doff[base + i];
        const hi = lo + WINDOW - 1;
        let good = true;
        for (let x = 1; x <= k && good; x++) {
          if (x === j) continue;
          const t = offs[x - 1];
          const inside = t >= lo && t <= hi;
          const xn = this.lineSpecN[line * (k + 1) + x];
          if (xn >= 0) {
            if (xn >= nm && !inside) good = false;
          } else if (inside) {
            good = false;
          }
        }
        if (good) fits[nf++] = i;
      }
      cStart[pc * 8 + m] = choices.length >> 1;
      // Each fitting window's vacant, non-explicit points, as bits at their offset + 8 from the origin.
      const wmask = this.wmask;
      for (let x = 0; x < nf; x++) {
        const w = dwin[base + fits[x]];
        const first = tp - doff[base + fits[x]];
        let mask = 0;
        for (let t = 0; t < WINDOW; t++) {
          const q = wp[w * WINDOW + t];
          if (board.isEmpty(q) && !this.isExplicit(q)) mask |= 1 << (first + t + 8);
        }
        wmask[x] = mask;
      }
      if (this.memDashed[st + m] === 1) {
        for (let x = 0; x < nf; x++) {
          for (let y = x + 1; y < nf; y++) {
            choices.push(dwin[base + fits[x]], dwin[base + fits[y]]);
            cmask.push(wmask[x] | wmask[y]);
          }
        }
      } else {
        for (let x = 0; x < nf; x++) {
          choices.push(dwin[base + fits[x]], -1);
          cmask.push(wmask[x]);
        }
      }
      const count = (choices.length >> 1) - cStart[pc * 8 + m];
      if (count === 0) return;
      cCount[pc * 8 + m] = count;
      total *= count;
    }
    // Combinations in order, the last node's choice changing fastest; keep the first of each vacant set.
    const optMask = this.eOptMask[pc];
    optMask.length = 0;
    const pick = this.eOptPick[pc];
    pick.length = 0;
    const digits = this.digits;
    for (let i = 0; i < total; i++) {
      let rest = i;
      for (let m = len - 1; m >= 0; m--) {
        const c = cCount[pc * 8 + m];
        digits[m] = rest % c;
        rest = (rest - digits[m]) / c;
      }
      let mask = 0;
      for (let m = 0; m < len; m++) mask |= cmask[cStart[pc * 8 + m] + digits[m]];
      if (optMask.includes(mask)) continue;
      optMask.push(mask);
      for (let m = 0; m < len; m++) pick.push(digits[m]);
    }
    this.eOptCount[pc] = optMask.length;
  }

  /** Undo the effect of the alternative element pc took. */
  private retract(pc: number): void {
    switch (this.elOp[pc]) {
      case OP_A:
        this.P[this.elNode[pc]] = -1;
        break;
      case OP_B: {
        const line = this.elLine[pc];
        this.usedDirs[this.elNode[pc]] &= ~(1 << this.lineDir[line]);
        this.lineDir[line] = -1;
        break;
      }
      case OP_C:
        this.P[this.elNode[pc]] = -1;
        this.usedDirs[this.elNode[pc]] = 0;
        break;
      case OP_D: {
        const line = this.elLine[pc];
        const d = this.lineDir[line];
        const st = this.lineStart[line];
        for (let m = 0; m < this.lineLen[line]; m++) {
          const x = this.memNode[st + m];
          if (this.P[x] >= 0) this.usedDirs[x] &= ~(1 << d);
        }
        this.lineDir[line] = -1;
        break;
      }
      default: {
        const marked = this.eMarked[pc];
        for (let t = 0; t < marked.length; t++) this.cover[marked[t]] = 0;
        marked.length = 0;
        break;
      }
    }
  }
}

/**
 * The realisation a run reported with signature `sig` (StreamMachine.signature) and implicit
 * nodes `implicit`, as `report` gave it then: the signature holds everything else.
 */
export function rawFromSignature(stream: ControlStream, g: Geometry, sig: readonly number[], implicit: readonly Point[]): RawRealisation {
  const k = stream.nodes.length;
  const nodes = sig.slice(0, k);
  const lines: RealisedLine[] = [];
  let at = k;
  for (const e of stream.elements) {
    if (e.op !== 'E') continue;
    const patterns = stream.lines[e.line].nodes.map((node) => {
      const w1 = sig[at++];
      const w2 = sig[at++];
      return { node, windows: w2 >= 0 ? [w1, w2] : [w1] };
    });
    lines.push({ line: e.line, direction: g.windowDirection[patterns[0].windows[0]] as Direction, patterns });
  }
  lines.sort((x, y) => x.line - y.line);
  return { nodes, lines, implicit };
}

/** Sorts a short list of point ids ascending, in place (insertion sort: no comparator call per step). */
export function sortPoints(a: number[]): number[] {
  for (let i = 1; i < a.length; i++) {
    const x = a[i];
    let j = i - 1;
    for (; j >= 0 && a[j] > x; j--) a[j + 1] = a[j];
    a[j + 1] = x;
  }
  return a;
}

/** Convenience for one-off runs (tests, tools): a machine over a private cover map. */
export function runStream(stream: ControlStream, board: Board, profiles: ProfileTable, start: Point, emit: (r: RawRealisation) => void, cap = DEFAULT_STEP_CAP): RunStats {
  return new StreamMachine(stream, board, new CoverMap(board.points)).run(profiles, start, emit, cap);
}
