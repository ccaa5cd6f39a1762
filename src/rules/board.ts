/**
 * The Go-Moku board: stones on an N×N mesh and, kept up to date on every play and undo, the
 * state of every window — how many black and white stones it holds and whether a stone of
 * either colour sits on a flanking point. From that state a window is a *possible 5-pattern*
 * for colour c when it holds no stone of the other colour and no stone of c flanks it (see
 * docs/DESIGN.md, "Board"). Recognition of subgoals is built on these counts.
 *
 * A board knows nothing of turns or game results; `Game` adds the rules of play.
 */
import { geometry, WINDOW, type Geometry } from './geometry.ts';
import type { BoardSnapshot } from './snapshot.ts';
import { BLACK, DIRECTIONS, EMPTY, WHITE, type Cell, type Direction, type Point, type Stone } from './types.ts';

/** Histogram slot: possible 5-patterns of a colour holding k stones (k = 0..5). */
const HIST = WINDOW + 1;

export class Board {
  readonly size: number;
  readonly geometry: Geometry;
  private readonly cells: Uint8Array;
  /** stones[w * 2 + s - 1]: stones of colour s in window w. */
  private readonly stones: Uint8Array;
  /** flanks[w * 2 + s - 1]: flanking points of window w holding a stone of colour s. */
  private readonly flanks: Uint8Array;
  /** hist[(s - 1) * 6 + k]: how many possible 5-patterns of colour s hold exactly k stones. */
  private readonly hist: Int32Array;
  private readonly placed: Point[] = [];

  private constructor(size: number) {
    this.size = size;
    this.geometry = geometry(size);
    this.cells = new Uint8Array(this.geometry.points);
    this.stones = new Uint8Array(this.geometry.windowCount * 2);
    this.flanks = new Uint8Array(this.geometry.windowCount * 2);
    this.hist = new Int32Array(2 * HIST);
    // On an empty board every window is possible for both colours, with no stones.
    this.hist[0] = this.geometry.windowCount;
    this.hist[HIST] = this.geometry.windowCount;
  }

  static empty(size: number): Board {
    return new Board(size);
  }

  clone(): Board {
    const b = new Board(this.size);
    b.cells.set(this.cells);
    b.stones.set(this.stones);
    b.flanks.set(this.flanks);
    b.hist.set(this.hist);
    b.placed.push(...this.placed);
    return b;
  }

  get points(): number {
    return this.geometry.points;
  }

  get(p: Point): Cell {
    return this.cells[p] as Cell;
  }

  isEmpty(p: Point): boolean {
    return this.cells[p] === EMPTY;
  }

  /** Stones in the order they were placed. */
  get moves(): readonly Point[] {
    return this.placed;
  }

  get stoneCount(): number {
    return this.placed.length;
  }

  isFull(): boolean {
    return this.placed.length === this.geometry.points;
  }

  /** Places a stone. Placing on an occupied point is a programming error: `Game` checks first. */
  play(p: Point, s: Stone): void {
    if (this.cells[p] !== EMPTY) throw new RangeError(`point ${p} is occupied`);
    this.update(p, s, 1);
    this.cells[p] = s;
    this.placed.push(p);
  }

  /** Takes back the last stone placed and returns its point. */
  undo(): Point {
    const p = this.placed.pop();
    if (p === undefined) throw new RangeError('nothing to undo');
    const s = this.cells[p] as Stone;
    this.cells[p] = EMPTY;
    this.update(p, s, -1);
    return p;
  }

  private update(p: Point, s: Stone, delta: 1 | -1): void {
    const g = this.geometry;
    const slot = s - 1;
    for (let i = g.pointWindowStart[p]; i < g.pointWindowStart[p + 1]; i++) {
      const w = g.pointWindows[i];
      this.unrecord(w);
      this.stones[w * 2 + slot] += delta;
      this.record(w);
    }
    for (let i = g.pointFlankStart[p]; i < g.pointFlankStart[p + 1]; i++) {
      const w = g.pointFlanks[i];
      this.unrecord(w);
      this.flanks[w * 2 + slot] += delta;
      this.record(w);
    }
  }

  private unrecord(w: number): void {
    const b = this.stones[w * 2];
    const wh = this.stones[w * 2 + 1];
    if (wh === 0 && this.flanks[w * 2] === 0) this.hist[b]--;
    if (b === 0 && this.flanks[w * 2 + 1] === 0) this.hist[HIST + wh]--;
  }

  private record(w: number): void {
    const b = this.stones[w * 2];
    const wh = this.stones[w * 2 + 1];
    if (wh === 0 && this.flanks[w * 2] === 0) this.hist[b]++;
    if (b === 0 && this.flanks[w * 2 + 1] === 0) this.hist[HIST + wh]++;
  }

  /** Stones of colour s in window w. */
  stonesIn(w: number, s: Stone): number {
    return this.stones[w * 2 + s - 1];
  }

  /** Whether window w is a possible 5-pattern for colour s. */
  isPossible(w: number, s: Stone): boolean {
    const other = s === BLACK ? WHITE : BLACK;
    return this.stones[w * 2 + other - 1] === 0 && this.flanks[w * 2 + s - 1] === 0;
  }

  /** How many possible 5-patterns of colour s hold exactly k stones. */
  possibleCount(s: Stone, k: number): number {
    return this.hist[(s - 1) * HIST + k];
  }

  /** Every possible 5-pattern of colour s holding at least `minStones` stones, in window order. */
  possibleWindows(s: Stone, minStones = 0): number[] {
    const out: number[] = [];
    const n = this.geometry.windowCount;
    for (let w = 0; w < n; w++) {
      if (this.stones[w * 2 + s - 1] >= minStones && this.isPossible(w, s)) out.push(w);
    }
    return out;
  }

  /** The possible 5-patterns of colour s through point p, in window order. */
  possibleWindowsThrough(p: Point, s: Stone): number[] {
    const g = this.geometry;
    const out: number[] = [];
    for (let i = g.pointWindowStart[p]; i < g.pointWindowStart[p + 1]; i++) {
      const w = g.pointWindows[i];
      if (this.isPossible(w, s)) out.push(w);
    }
    return out;
  }

  /** Points of window w, from its start along its direction. */
  windowPoints(w: number): Point[] {
    const base = w * WINDOW;
    return Array.from(this.geometry.windowPoints.subarray(base, base + WINDOW));
  }

  /**
   * The five through p when the stone on p is part of a line of exactly five stones of its
   * colour (a win), else undefined. A run of six or more is no five.
   */
  fiveThrough(p: Point): Point[] | undefined {
    const s = this.cells[p];
    if (s === EMPTY) return undefined;
    for (let d = 0; d < 4; d++) {
      const run = this.runThrough(p, d as Direction);
      if (run.length === WINDOW) return run;
    }
    return undefined;
  }

  /** The maximal run of same-coloured stones through p along direction d, in line order. */
  runThrough(p: Point, d: Direction): Point[] {
    const s = this.cells[p];
    const [dc, dr] = DIRECTIONS[d];
    const size = this.size;
    const col = p % size;
    const row = Math.floor(p / size);
    let back = 0;
    while (this.sameAt(col - dc * (back + 1), row - dr * (back + 1), s)) back++;
    let fwd = 0;
    while (this.sameAt(col + dc * (fwd + 1), row + dr * (fwd + 1), s)) fwd++;
    const run: Point[] = [];
    for (let k = -back; k <= fwd; k++) run.push((row + dr * k) * size + col + dc * k);
    return run;
  }

  private sameAt(col: number, row: number, s: number): boolean {
    const size = this.size;
    return col >= 0 && col < size && row >= 0 && row < size && this.cells[row * size + col] === s;
  }

  /** Every point where the stone lies in a five, for either colour (normally empty or one line). */
  fives(): Point[][] {
    const found: Point[][] = [];
    const n = this.geometry.windowCount;
    for (let w = 0; w < n; w++) {
      for (const s of [BLACK, WHITE] as const) {
        if (this.stones[w * 2 + s - 1] === WINDOW && this.isPossible(w, s)) found.push(this.windowPoints(w));
      }
    }
    return found;
  }

  /** Empty points within `radius` king steps of some stone, ascending. */
  emptyNear(radius: number): Point[] {
    const size = this.size;
    const mark = new Uint8Array(this.points);
    for (const q of this.placed) {
      const c = q % size;
      const r = (q - c) / size;
      for (let dr = -radius; dr <= radius; dr++) {
        for (let dc = -radius; dc <= radius; dc++) {
          const cc = c + dc;
          const rr = r + dr;
          if (cc >= 0 && cc < size && rr >= 0 && rr < size) mark[rr * size + cc] = 1;
        }
      }
    }
    const out: Point[] = [];
    for (let p = 0; p < this.points; p++) if (mark[p] === 1 && this.cells[p] === EMPTY) out.push(p);
    return out;
  }

  snapshot(): BoardSnapshot {
    return { size: this.size, cells: Array.from(this.cells) as Cell[] };
  }
}
