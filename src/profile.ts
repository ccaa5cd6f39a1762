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
import type { Board } from './board.ts';
import { WINDOW } from './geometry.ts';
import type { LineSpec } from './description.ts';
import type { Point, Stone } from './types.ts';

/** The atom of a spec, or 0 for a spec no point can meet (n = 0: the node itself counts). */
export function specAtom(spec: LineSpec): number {
  if (spec.n < 1 || spec.n > WINDOW) return 0;
  return 1 << (2 * (spec.n - 1) + (spec.dashed ? 1 : 0));
}

/** The direction mask of one point: which atoms its possible 5-patterns along d meet. */
export function directionMask(board: Board, p: Point, s: Stone, d: number): number {
  const g = board.geometry;
  let counts = 0; // two bits per stone count k = 0..4, saturating at 2
  for (let i = g.pointWindowStart[p]; i < g.pointWindowStart[p + 1]; i++) {
    const w = g.pointWindows[i];
    if (g.windowDirection[w] !== d || !board.isPossible(w, s)) continue;
    const k = board.stonesIn(w, s);
    if (k >= WINDOW) continue;
    const shift = 2 * k;
    const c = (counts >> shift) & 3;
    if (c < 2) counts += 1 << shift;
  }
  let mask = 0;
  for (let k = 0; k < WINDOW; k++) {
    const c = (counts >> (2 * k)) & 3;
    if (c >= 1) mask |= 1 << (2 * k);
    if (c >= 2) mask |= 1 << (2 * k + 1);
  }
  return mask;
}

/**
 * Can `atoms` (one per line of a node) be met on distinct directions? `masks` are the node's
 * four direction masks; `pinned[i]` is the direction line i must take, or -1 if free; `used`
 * is a bit set of directions already taken by lines not in the list.
 */
export function canMeet(masks: ArrayLike<number>, atoms: readonly number[], pinned: readonly number[], used: number): boolean {
  // Pinned lines already own their directions: free lines must keep off them.
  let taken = used;
  for (let i = 0; i < atoms.length; i++) {
    const pin = pinned[i];
    if (pin < 0) continue;
    if ((masks[pin] & atoms[i]) === 0 || (taken & (1 << pin)) !== 0) return false;
    taken |= 1 << pin;
  }
  return meetFree(masks, atoms, pinned, taken, 0);
}

function meetFree(masks: ArrayLike<number>, atoms: readonly number[], pinned: readonly number[], used: number, i: number): boolean {
  if (i === atoms.length) return true;
  if (pinned[i] >= 0) return meetFree(masks, atoms, pinned, used, i + 1);
  const atom = atoms[i];
  if (atom === 0) return false;
  for (let d = 0; d < 4; d++) {
    if ((used & (1 << d)) !== 0 || (masks[d] & atom) === 0) continue;
    if (meetFree(masks, atoms, pinned, used | (1 << d), i + 1)) return true;
  }
  return false;
}

/**
 * The profiles of every point for one colour, kept up to date around each move: a move at q
 * changes only windows that contain q or that q flanks, and so only the masks of points on
 * the four lines through q within five steps.
 */
export class ProfileTable {
  readonly board: Board;
  readonly stone: Stone;
  /** masks[p * 4 + d]; 0 for an occupied point. */
  readonly masks: Uint16Array;
  /** union[p]: the OR of p's four direction masks. */
  readonly union: Uint16Array;

  constructor(board: Board, stone: Stone) {
    this.board = board;
    this.stone = stone;
    this.masks = new Uint16Array(board.points * 4);
    this.union = new Uint16Array(board.points);
    for (let p = 0; p < board.points; p++) this.refresh(p);
  }

  refresh(p: Point): void {
    const b = this.board;
    let u = 0;
    for (let d = 0; d < 4; d++) {
      const m = b.isEmpty(p) ? directionMask(b, p, this.stone, d) : 0;
      this.masks[p * 4 + d] = m;
      u |= m;
    }
    this.union[p] = u;
  }

  /** Refreshes every point whose windows a stone placed on, or taken from, q changes. */
  refreshAround(q: Point): void {
    const size = this.board.size;
    this.refresh(q);
    const col = q % size;
    const row = Math.floor(q / size);
    for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
      for (let k = -WINDOW; k <= WINDOW; k++) {
        if (k === 0) continue;
        const c = col + dc * k;
        const r = row + dr * k;
        if (c >= 0 && c < size && r >= 0 && r < size) this.refresh(r * size + c);
      }
    }
  }

  nodeMasks(p: Point): Uint16Array {
    return this.masks.subarray(p * 4, p * 4 + 4);
  }
}
