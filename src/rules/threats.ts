/**
 * Threats under the paper's rules (exact five; docs/DESIGN.md, "Board"), read off the board's
 * window counts. Written for the soundness solver (src/learning/solver.ts) and usable by tests and
 * benchmarks. Nothing here knows of descriptions or control streams: it is the independent
 * yardstick the recogniser's comments are checked against.
 *
 * Diagrams show one line, for the attacker `X` against the defender `O`; `.` is empty, `|` the
 * board's edge, `*` marks the points named. Every definition is in terms of *possible
 * 5-patterns* (windows with no defender stone and no attacker stone on a flanking point), so
 * "six is no five" is built in: in `XXX.XX` neither window through the gap is possible, and
 * the gap is no five point.
 *
 * **Five threat** (a four on the board): an empty point that completes a possible 5-pattern
 * holding four attacker stones; playing it makes exactly five.
 *
 *     OXXXX*     XX*XX     |XXXX*
 *
 * Two possible 5-patterns holding four stones on one line never share their empty point (the
 * one would flank the other with an attacker stone), so counting distinct points is right.
 *
 * Threat classes of a move, weakest first (`THREAT_CLASSES`):
 *
 * - `five`: the move completes a five.
 * - `open-four`: afterwards the attacker has two or more distinct five threats — a straight
 *   four `.XXXX.`, a split `X.XXX.X`, or a four on each of two lines (a double four). The
 *   defender can stop one; only a five of the defender's own can save them.
 * - `four`: exactly one five threat afterwards: the defender's answer is forced to its point.
 *
 *       *XXXX. → OXXXX*     X*XXX → the gap after play is the only point
 *
 * - `three`: no five threat afterwards, but an **open-four point** appears that was not there
 *   before: an empty point where the attacker's next move would be an `open-four`. That is
 *   exactly "a move after which the attacker could make an open four next move", and it
 *   covers the line shapes and the two-line one alike:
 *
 *       ..XXX..   |.XXX..   .XX.X.   .X.XX.   and a point that is a four on two lines
 *
 *   but not `OXXX..` (each of its fours has one completion point: a closed three). Each
 *   case is decided by counting windows, not by a table of shapes.
 * - `none`: anything else.
 *
 * **Defences of a three** (`threeDefences`): every empty point where a defender stone leaves
 * the attacker no open-four point. A defender stone can only hurt the attacker by lying in
 * one of their windows, so these are found among the empty points of the attacker's
 * three-stone windows; the rest of the board is tried by nobody because it changes nothing.
 * Computed, not tabulated, they come out as Allis's counts:
 *
 *     ..XXX..  → .*XXX*.     (the far points do not stop it: after `O.XXX..`, `X` at the
 *                             right end still makes `O.XXXX.` with two completion points)
 *     |.XXX..  → |*XXX**     O.XXX.. → O*XXX**     .XX.X. → *XX*X*
 *
 * Where no single point stops it (two threes at once) the list is empty.
 */
import type { Board } from './board.ts';
import { WINDOW } from './geometry.ts';
import { otherStone, type Point, type Stone } from './types.ts';

/** Points in a window: a module copy of WINDOW, since imported bindings are slow to read in hot loops under tsx. */
const SPAN = WINDOW;

export const THREAT_CLASSES = ['none', 'three', 'four', 'open-four', 'five'] as const;
export type ThreatClass = (typeof THREAT_CLASSES)[number];

/** Strength of a class: higher is stronger. */
export function threatRank(c: ThreatClass): number {
  return THREAT_CLASSES.indexOf(c);
}

/**
 * Scratch marks per point, shared by the functions below (none of them is re-entrant), so
 * the solver's inner loop allocates nothing but its answers. A stamp makes clearing free.
 */
interface Scratch {
  stamp: number;
  /** seen[p] === stamp: p has been recorded in this pass. */
  readonly seen: Int32Array;
  /** partner[p]: the first completion point found for a move at p. */
  readonly partner: Int32Array;
  /** multi[p] === stamp: a move at p has two distinct completion points. */
  readonly multi: Int32Array;
}

const scratches = new Map<number, Scratch>();

function scratch(points: number): Scratch {
  let s = scratches.get(points);
  if (s === undefined) {
    s = { stamp: 0, seen: new Int32Array(points), partner: new Int32Array(points), multi: new Int32Array(points) };
    scratches.set(points, s);
  }
  s.stamp++;
  if (s.stamp === 0x7fffffff) {
    s.seen.fill(0);
    s.multi.fill(0);
    s.stamp = 1;
  }
  return s;
}

const ascending = (a: number, b: number): number => a - b;

/**
 * The five threats of colour s (ascending), reading only the given windows. Like every
 * `…In` function here it trusts its list: each window must be a possible 5-pattern of s, and
 * every one the question needs must be there (here: all holding four stones). The solver
 * passes the windows it keeps; the plain-board functions below pass the board's.
 */

export function fiveThreatsIn(board: Board, s: Stone, windows: readonly number[]): Point[] {
  const pts = board.geometry.windowPoints;
  const out: Point[] = [];
  for (const w of windows) {
    if (board.stonesIn(w, s) !== SPAN - 1) continue;
    for (let i = 0; i < SPAN; i++) {
      const p = pts[w * SPAN + i];
      if (board.isEmpty(p) && !out.includes(p)) out.push(p);
    }
  }
  return out.sort(ascending);
}

/**
 * Moves of colour s that make a four, with how many distinct five threats each makes, read
 * from the windows holding three stones (the given list must include all of them). When s
 * already has a five threat the counts leave it out: they are what the move itself adds.
 */
export interface FourMoves {
  /** Every move that makes at least one five threat, ascending. */
  readonly fours: Point[];
  /** Those that make two or more (open-four points), ascending. */
  readonly openFours: Point[];
}

/** The two empty points of a window holding three stones (and no other colour's), in window order. */
function emptyPair(board: Board, pts: Int16Array, w: number): [Point, Point] {
  let a = -1;
  let b = -1;
  for (let i = 0; i < SPAN; i++) {
    const p = pts[w * SPAN + i];
    if (!board.isEmpty(p)) continue;
    if (a < 0) a = p;
    else b = p;
  }
  return [a, b];
}

export function fourMovesIn(board: Board, s: Stone, windows: readonly number[]): FourMoves {
  const sc = scratch(board.points);
  const pts = board.geometry.windowPoints;
  const fours: Point[] = [];
  const openFours: Point[] = [];
  for (const w of windows) {
    if (board.stonesIn(w, s) !== SPAN - 2) continue;
    const [a, b] = emptyPair(board, pts, w);
    // After s plays a, the window holds four and b completes it; and the other way round.
    note(sc, a, b, fours, openFours);
    note(sc, b, a, fours, openFours);
  }
  return { fours: fours.sort(ascending), openFours: openFours.sort(ascending) };
}

function note(sc: Scratch, move: Point, completion: Point, fours: Point[], openFours: Point[]): void {
  if (sc.seen[move] !== sc.stamp) {
    sc.seen[move] = sc.stamp;
    sc.partner[move] = completion;
    fours.push(move);
  } else if (sc.partner[move] !== completion && sc.multi[move] !== sc.stamp) {
    sc.multi[move] = sc.stamp;
    openFours.push(move);
  }
}

/** Whether colour s has an open-four point, from the windows holding three stones. */
export function hasOpenFourPointIn(board: Board, s: Stone, windows: readonly number[]): boolean {
  const sc = scratch(board.points);
  const pts = board.geometry.windowPoints;
  for (const w of windows) {
    if (board.stonesIn(w, s) !== SPAN - 2) continue;
    const [a, b] = emptyPair(board, pts, w);
    if (pairs(sc, a, b) || pairs(sc, b, a)) return true;
  }
  return false;
}

function pairs(sc: Scratch, move: Point, completion: Point): boolean {
  if (sc.seen[move] !== sc.stamp) {
    sc.seen[move] = sc.stamp;
    sc.partner[move] = completion;
    return false;
  }
  return sc.partner[move] !== completion;
}

/**
 * The empty points of colour s's three-stone windows that hold one of the given open-four
 * points: the only places where a stone of the other colour can change them. Ascending.
 */
export function threeWindowPointsIn(board: Board, s: Stone, windows: readonly number[], openFours: readonly Point[]): Point[] {
  const pts = board.geometry.windowPoints;
  const out: Point[] = [];
  for (const w of windows) {
    if (board.stonesIn(w, s) !== SPAN - 2) continue;
    let holds = false;
    for (let i = 0; i < SPAN && !holds; i++) holds = openFours.includes(pts[w * SPAN + i]);
    if (!holds) continue;
    for (let i = 0; i < SPAN; i++) {
      const p = pts[w * SPAN + i];
      if (board.isEmpty(p) && !out.includes(p)) out.push(p);
    }
  }
  return out.sort(ascending);
}

// ---------------------------------------------------------------------------------------
// The same questions asked of a plain board (every window scanned): for tests, benchmarks
// and the player. Functions that try a move play it and take it back; the board ends as it
// began.

/** Possible 5-patterns of s with at least two stones: every window a threat can use. */
function threatWindows(board: Board, s: Stone): number[] {
  return board.possibleWindows(s, 2);
}

/** Points where s completes a five now, ascending. */
export function fiveThreats(board: Board, s: Stone): Point[] {
  return fiveThreatsIn(board, s, board.possibleWindows(s, SPAN - 1));
}

/** Moves where s makes a four (a new five threat), ascending. */
export function fours(board: Board, s: Stone): Point[] {
  return fourMovesIn(board, s, board.possibleWindows(s, SPAN - 2)).fours;
}

/** Open-four points of s: moves after which s has two or more five threats they did not have. */
export function openFourPoints(board: Board, s: Stone): Point[] {
  return fourMovesIn(board, s, board.possibleWindows(s, SPAN - 2)).openFours;
}

/** Moves where s makes a three: no four, and an open-four point appears that was not there. */
export function threes(board: Board, s: Stone): Point[] {
  const before = openFourPoints(board, s);
  const four = new Set(fours(board, s));
  const candidates = new Set<Point>();
  const pts = board.geometry.windowPoints;
  // A three raises some window from two stones to three; no other move can make one.
  for (const w of threatWindows(board, s)) {
    if (board.stonesIn(w, s) !== SPAN - 3) continue;
    for (let i = 0; i < SPAN; i++) {
      const p = pts[w * SPAN + i];
      if (board.isEmpty(p) && !four.has(p)) candidates.add(p);
    }
  }
  const out: Point[] = [];
  for (const p of candidates) {
    board.play(p, s);
    const after = openFourPoints(board, s);
    board.undo();
    if (after.some((q) => !before.includes(q))) out.push(p);
  }
  return out.sort(ascending);
}

/**
 * The defences of s's threes: empty points where the other colour leaves s no open-four
 * point. Empty when s has no three, or when no single point stops all of them.
 */
export function threeDefences(board: Board, s: Stone): Point[] {
  const open = openFourPoints(board, s);
  if (open.length === 0) return [];
  const d = otherStone(s);
  const out: Point[] = [];
  for (const p of threeWindowPointsIn(board, s, board.possibleWindows(s, SPAN - 2), open)) {
    board.play(p, d);
    if (openFourPoints(board, s).length === 0) out.push(p);
    board.undo();
  }
  return out;
}

/** The class of a move by s at the empty point p (see the module comment). */
export function threatClass(board: Board, s: Stone, p: Point): ThreatClass {
  const threatsBefore = fiveThreats(board, s);
  if (threatsBefore.includes(p)) return 'five';
  const before = openFourPoints(board, s);
  board.play(p, s);
  const made = fiveThreats(board, s).filter((q) => !threatsBefore.includes(q)).length;
  const after = made > 0 ? [] : openFourPoints(board, s);
  board.undo();
  if (made >= 2) return 'open-four';
  if (made === 1) return 'four';
  return after.some((q) => !before.includes(q)) ? 'three' : 'none';
}
