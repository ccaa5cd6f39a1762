/**
 * Pattern profiles: for a vacant point, a colour and a direction, which pattern specs the
 * point could meet on the line through it in that direction — the information the paper's
 * A-element checks ("check that mesh point 1 is a constituent of possible patterns meeting
 * the specifications 3', 2', 2' and 2' on different lines").
 *
 * A spec `n` (a possible 5-pattern through the point holding exactly n − 1 stones of the
 * colour) and `n'` (two such) are coded as one bit each, an *atom*:
 *   bit 2(n − 1)     — at least one such pattern on the line,
 *   bit 2(n − 1) + 1 — at least two.
 * A point's profile is one 10-bit mask per direction. Checking a node's whole entry is then
 * a matching of its specs onto distinct directions whose masks hold the spec's atom.
 */
import type { Board } from '../rules/board.ts';
import { eachAlongLines, WINDOW, type Geometry } from '../rules/geometry.ts';
import type { LineSpec } from '../notation/description.ts';
import type { Point, Stone } from '../rules/types.ts';

/** The atom of a spec, or 0 for a spec no point can meet (n = 0: the node itself counts). */
export function specAtom(spec: LineSpec): number {
  if (spec.n < 1 || spec.n > WINDOW) return 0;
  return 1 << (2 * (spec.n - 1) + (spec.dashed ? 1 : 0));
}

/**
 * The windows along each direction through each point, for a board geometry: the entry at
 * `((p * 4 + d) * WINDOW + i)` is the i-th such window in ascending window id (the order of
 * `pointWindows`), or -1; `offsets` holds p's place (0-4) in it. Built once per geometry.
 */
export interface DirectionWindows {
  readonly windows: Int32Array;
  readonly offsets: Int8Array;
  /** col[p], row[p]: a point's coordinates, so hot loops need no division. */
  readonly col: Int16Array;
  readonly row: Int16Array;
  /**
   * lineOf[p * 4 + d]: which board line along d holds p; posOf[p * 4 + d]: how many steps
   * along d p lies from a fixed end of it. Two points lie t steps apart along d exactly when
   * their lines agree and their positions differ by t.
   */
  readonly lineOf: Int16Array;
  readonly posOf: Int16Array;
}

const directionWindowCache = new WeakMap<Geometry, DirectionWindows>();

export function directionWindows(g: Geometry): DirectionWindows {
  let t = directionWindowCache.get(g);
  if (t !== undefined) return t;
  const windows = new Int32Array(g.points * 4 * WINDOW).fill(-1);
  const offsets = new Int8Array(g.points * 4 * WINDOW).fill(-1);
  const col = new Int16Array(g.points);
  const row = new Int16Array(g.points);
  const lineOf = new Int16Array(g.points * 4);
  const posOf = new Int16Array(g.points * 4);
  for (let p = 0; p < g.points; p++) {
    col[p] = p % g.size;
    row[p] = Math.floor(p / g.size);
    // Steps (1, 0), (0, 1), (1, 1), (1, -1): row, column, col - row and col + row stay put.
    lineOf[p * 4] = row[p];
    posOf[p * 4] = col[p];
    lineOf[p * 4 + 1] = col[p];
    posOf[p * 4 + 1] = row[p];
    lineOf[p * 4 + 2] = col[p] - row[p] + g.size;
    posOf[p * 4 + 2] = col[p];
    lineOf[p * 4 + 3] = col[p] + row[p];
    posOf[p * 4 + 3] = col[p];
    const fill = new Int32Array(4);
    for (let i = g.pointWindowStart[p]; i < g.pointWindowStart[p + 1]; i++) {
      const w = g.pointWindows[i];
      const d = g.windowDirection[w];
      const slot = (p * 4 + d) * WINDOW + fill[d]++;
      windows[slot] = w;
      for (let k = 0; k < WINDOW; k++) if (g.windowPoints[w * WINDOW + k] === p) offsets[slot] = k;
    }
  }
  t = { windows, offsets, col, row, lineOf, posOf };
  directionWindowCache.set(g, t);
  return t;
}

/**
 * The possible windows along d through p for colour s, by how many stones they hold: bit
 * `5 * c + b` is set when the window starting b - 4 steps from p along d (so that it covers
 * offsets b - 4 … b) is possible and holds c stones (c = 0 … 5).
 */
export function windowSet(board: Board, p: Point, s: Stone, d: number): number {
  const t = directionWindows(board.geometry);
  const base = (p * 4 + d) * WINDOW;
  let set = 0;
  for (let i = 0; i < WINDOW; i++) {
    const w = t.windows[base + i];
    if (w < 0) break;
    if (!board.isPossible(w, s)) continue;
    set |= 1 << (5 * board.stonesIn(w, s) + 4 - t.offsets[base + i]);
  }
  return set;
}

/** The direction mask a window set gives: atom 2(n - 1) for one window with n - 1 stones, 2(n - 1) + 1 for two. */
export function maskOfWindowSet(set: number): number {
  let mask = 0;
  for (let c = 0; c < WINDOW; c++) {
    const g = (set >> (5 * c)) & 31;
    if (g === 0) continue;
    mask |= 1 << (2 * c);
    if ((g & (g - 1)) !== 0) mask |= 1 << (2 * c + 1);
  }
  return mask;
}

/**
 * Can a point carry a node's whole entry? Reading its four masks at `masks[base .. base +
 * 3]`, with a set of atoms per line of the node: can the first `count` sets each be met,
 * every atom of the set (and not 0), on a direction of its own?
 */
export function canMeetAll(masks: ArrayLike<number>, base: number, atoms: ArrayLike<number>, count: number): boolean {
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  let a3 = 0;
  for (let i = 0; i < count; i++) {
    let a = 0;
    const at = atoms[i];
    if (at === 0) return false;
    for (let d = 0; d < 4; d++) if ((masks[base + d] & at) === at) a |= 1 << d;
    if (a === 0) return false;
    if (i === 0) a0 = a;
    else if (i === 1) a1 = a;
    else if (i === 2) a2 = a;
    else a3 = a;
  }
  return distinctDirections(a0, a1, a2, a3, count);
}

/** Can the first n of four direction sets each give a different direction? */
export function distinctDirections(a0: number, a1: number, a2: number, a3: number, n: number): boolean {
  for (let d0 = 0; d0 < 4; d0++) {
    if ((a0 & (1 << d0)) === 0) continue;
    if (n === 1) return true;
    const u0 = 1 << d0;
    for (let d1 = 0; d1 < 4; d1++) {
      if ((a1 & ~u0 & (1 << d1)) === 0) continue;
      if (n === 2) return true;
      const u1 = u0 | (1 << d1);
      for (let d2 = 0; d2 < 4; d2++) {
        if ((a2 & ~u1 & (1 << d2)) === 0) continue;
        if (n === 3 || (a3 & ~(u1 | (1 << d2))) !== 0) return true;
      }
    }
  }
  return n === 0;
}

/**
 * The profiles of every point for one colour, kept up to date around each move: a move at q
 * changes only windows that contain q or that q flanks, and those lie on the four lines
 * through q; so only q's masks and, for a point on one of those lines within five steps, its
 * mask along that line can change.
 *
 * Beside the masks, each point keeps its window set per direction (`windowSet`): which
 * possible windows through it hold how many stones, for the interpreter's pattern checks.
 *
 * And for the interpreter's C element, which looks along a line for a point to place a node
 * on, each board line keeps bit boards by atom (`lineAtoms`): which of its points have the
 * atom in their mask along the line, and which have it in the OR of their masks along the
 * other three directions (`others`), where the node's other lines must be met. The points
 * within four steps of a node that carry a node's atoms are then a few ANDs away, not eight
 * point-by-point tests.
 */
export class ProfileTable {
  readonly board: Board;
  readonly stone: Stone;
  /** masks[p * 4 + d]; 0 for an occupied point. */
  readonly masks: Uint16Array;
  /** union[p]: the OR of p's four direction masks. */
  readonly union: Uint16Array;
  /** others[p * 4 + d]: the OR of p's masks along the three directions other than d. */
  readonly others: Uint16Array;
  /** windows[p * 4 + d]: p's window set along d (`windowSet`); 0 for an occupied point. */
  readonly windows: Int32Array;
  /**
   * lineAtoms[((d * 2 + kind) * ATOMS + a) * lineCount + line]: the points of board line
   * `line` along d (DirectionWindows.lineOf) whose mask along d (kind 0), or whose `others`
   * along d (kind 1), holds atom bit a, as bit `posOf + LINE_SHIFT` each. See `candidates`.
   */
  readonly lineAtoms: Int32Array;
  /** Board lines per direction, as lineAtoms counts them. */
  readonly lineCount: number;
  /**
   * lineEmpty[d * lineCount + line]: the vacant points of a board line along d, as bit
   * `posOf + EMPTY_SHIFT` each: shifted right by a point's position, bit t + 8 is the point t
   * steps from it (t = -8 … 8), the reach of a line's patterns around its first node.
   */
  readonly lineEmpty: Int32Array;
  private readonly dw: DirectionWindows;

  constructor(board: Board, stone: Stone) {
    this.board = board;
    this.stone = stone;
    this.masks = new Uint16Array(board.points * 4);
    this.union = new Uint16Array(board.points);
    this.others = new Uint16Array(board.points * 4);
    this.windows = new Int32Array(board.points * 4);
    this.dw = directionWindows(board.geometry);
    this.lineCount = 2 * board.size;
    this.lineAtoms = new Int32Array(8 * ATOMS * this.lineCount);
    this.lineEmpty = new Int32Array(4 * this.lineCount);
    this.refreshAll();
  }

  /**
   * Recomputes every point's masks. The window sets are gathered window by window (each
   * possible window sets its bit at its five points) rather than point by point, which
   * would visit every window five times; the rest follows point by point as in `refresh`.
   */
  refreshAll(): void {
    const b = this.board;
    const g = b.geometry;
    const sets = this.windows;
    sets.fill(0);
    for (let w = 0; w < g.windowCount; w++) {
      if (!b.isPossible(w, this.stone)) continue;
      const base = 5 * b.stonesIn(w, this.stone) + WINDOW - 1;
      const d = g.windowDirection[w];
      for (let i = 0; i < WINDOW; i++) sets[g.windowPoints[w * WINDOW + i] * 4 + d] |= 1 << (base - i);
    }
    for (let p = 0; p < b.points; p++) {
      const empty = b.isEmpty(p);
      for (let d = 0; d < 4; d++) {
        if (!empty) sets[p * 4 + d] = 0;
        this.setMask(p, d, maskOfWindowSet(sets[p * 4 + d]));
        this.setEmpty(p, d, empty);
      }
      this.setOthers(p);
    }
  }

  /** Recomputes p's masks and window sets. */
  refresh(p: Point): void {
    const empty = this.board.isEmpty(p);
    for (let d = 0; d < 4; d++) {
      this.setDirection(p, d);
      this.setEmpty(p, d, empty);
    }
    this.setOthers(p);
  }

  /** Sets or clears p's bit in the vacant points of its line along d. */
  private setEmpty(p: Point, d: number, empty: boolean): void {
    const at = d * this.lineCount + this.dw.lineOf[p * 4 + d];
    const bit = 1 << (this.dw.posOf[p * 4 + d] + EMPTY_SHIFT);
    this.lineEmpty[at] = empty ? this.lineEmpty[at] | bit : this.lineEmpty[at] & ~bit;
  }

  /** Recomputes p's mask and window set along d alone (p's other directions are unchanged). */
  refreshDirection(p: Point, d: number): void {
    this.setDirection(p, d);
    this.setOthers(p);
  }

  private setDirection(p: Point, d: number): void {
    const b = this.board;
    const i = p * 4 + d;
    const set = b.isEmpty(p) ? windowSet(b, p, this.stone, d) : 0;
    this.windows[i] = set;
    this.setMask(p, d, maskOfWindowSet(set));
  }

  /** Sets p's mask along d, and its bit boards. */
  private setMask(p: Point, d: number, mask: number): void {
    const i = p * 4 + d;
    const was = this.masks[i];
    if (mask === was) return;
    this.masks[i] = mask;
    this.flipLineAtoms(p, d, 0, mask ^ was);
  }

  /** Brings p's union and `others` (and their bit boards) up to date with its masks. */
  private setOthers(p: Point): void {
    const i = p * 4;
    const m0 = this.masks[i];
    const m1 = this.masks[i + 1];
    const m2 = this.masks[i + 2];
    const m3 = this.masks[i + 3];
    this.union[p] = m0 | m1 | m2 | m3;
    for (let d = 0; d < 4; d++) {
      const o = othersOf(m0, m1, m2, m3, d);
      const was = this.others[i + d];
      if (o === was) continue;
      this.others[i + d] = o;
      this.flipLineAtoms(p, d, 1, o ^ was);
    }
  }

  /** Flips p's bit in the bit boards of the atoms in `flips`, along d, of one kind. */
  private flipLineAtoms(p: Point, d: number, kind: number, flips: number): void {
    const line = this.dw.lineOf[p * 4 + d];
    const bit = 1 << (this.dw.posOf[p * 4 + d] + LINE_SHIFT);
    const base = (d * 2 + kind) * ATOMS;
    for (let f = flips; f !== 0; f &= f - 1) this.lineAtoms[(base + lowestBit(f)) * this.lineCount + line] ^= bit;
  }

  /**
   * The points within four steps of f along d whose mask along d holds every atom of
   * `along` and whose masks along the other directions, together, hold every atom of
   * `others`: bit t + 4 for the point t steps from f (t = -4 … 4). f itself is bit 4.
   */
  candidates(f: Point, d: number, along: number, others: number): number {
    const line = this.dw.lineOf[f * 4 + d];
    const shift = this.dw.posOf[f * 4 + d];
    const L = this.lineCount;
    const atoms = this.lineAtoms;
    let c = NEAR;
    for (let m = along; m !== 0; m &= m - 1) c &= atoms[(d * 2 * ATOMS + lowestBit(m)) * L + line] >>> shift;
    for (let m = others; m !== 0; m &= m - 1) c &= atoms[((d * 2 + 1) * ATOMS + lowestBit(m)) * L + line] >>> shift;
    return c & NEAR;
  }

  /** Refreshes every mask and window set that a stone placed on, or taken from, q can change. */
  refreshAround(q: Point): void {
    this.refresh(q);
    eachAlongLines(this.board.size, q, WINDOW, (p, d) => this.refreshDirection(p, d));
  }
}

/** Of a point's four direction masks m0 … m3, the OR of the three along directions other than d (ProfileTable.others). */
export function othersOf(m0: number, m1: number, m2: number, m3: number, d: number): number {
  return (d === 0 ? 0 : m0) | (d === 1 ? 0 : m1) | (d === 2 ? 0 : m2) | (d === 3 ? 0 : m3);
}

/** Atom bits in a mask: specs 1 … 5, single and dashed. */
export const ATOMS = 2 * WINDOW;

/** Where a point's bit sits in a line bit board: its position along the line, plus this. */
export const LINE_SHIFT = WINDOW - 1;

/** Where a point's bit sits in lineEmpty: its position along the line, plus this. */
export const EMPTY_SHIFT = 2 * (WINDOW - 1);

/** The nine points within four steps of a point along a line, as `candidates` gives them. */
export const NEAR = (1 << (2 * WINDOW - 1)) - 1;

/**
 * The points a window set's possible windows cover along its line, as `candidates` numbers
 * them (bit t + 4 for t steps from the point): a window starting b − 4 steps away covers
 * bits b … b + 4. 0 when no window is possible.
 */
export function reachOfWindows(set: number): number {
  const starts = possibleStarts(set);
  return starts | (starts << 1) | (starts << 2) | (starts << 3) | (starts << 4);
}

/** The window set's windows of any count, as a 5-bit set of start offsets (bit b: starting b - 4 steps from p). */
function possibleStarts(set: number): number {
  return (set | (set >> 5) | (set >> 10) | (set >> 15) | (set >> 20) | (set >> 25)) & 31;
}

/** Index of the lowest set bit; -1 for 0. */
export function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Index of the highest set bit; -1 for 0. */
export function highestBit(x: number): number {
  return 31 - Math.clz32(x);
}
