/**
 * Backtrack analysis of a lost game and synthesis of subgoals (the paper's "Automatic
 * acquisition of descriptions"). After the winner completes a five, walk back over the
 * winner's moves. At a winner's move p, look at the winner's realisations just after it;
 * if some set of them shares no node (explicit or implicit), no single defending move stops
 * them all, so the position one move earlier held a subgoal with p as a node. Take a minimal
 * such set in which p is a played stone of every member and synthesise that subgoal:
 *
 * 1. in each member, find the lines on which p is a played stone;
 * 2. downgrade them (un-play p: each count on them drops by one);
 * 3. make p an explicit node; a member's explicit node whose only line went through p
 *    becomes implicit, its pattern moving onto p;
 * 4. unite the downgraded members through p;
 * 5. comment p with 1 + the largest member comment; canonicalise.
 * Then keep walking back with the enlarged library until a move teaches nothing (and the
 * winner held no four or three before it, see below).
 *
 * The synthesis here works on the board rather than on symbols: the members' actual
 * patterns (windows) are carried over, p is taken off the board, and every spec of the new
 * description is measured on that board. Decisions where the paper is open (each is also in
 * docs/DESIGN.md, "Learning"):
 * - Members are realisations that carry a comment (a known way to win) and in which p is a
 *   stone of at least one pattern. A member in which p lies in some but not all of one node's
 *   patterns on a line is not used: un-playing p would leave that node with patterns of
 *   different counts, which no spec can say.
 * - Minimal means fewest members (two, then three, then four). Among sets of that size the
 *   one whose largest comment is smallest wins (the quickest win), then the one with fewest
 *   nodes in all, then the first in the order of the realisations' keys. The search is
 *   bounded (see candidateSets), so a crowded position cannot stall the analysis.
 * - Lines through p in one direction become one line of the new description. Where a node
 *   holds patterns of different counts on one line (p's own line in Fig. 6 holds its four
 *   and node 1's three), it keeps those with the most stones; the others stay described by
 *   the nodes whose patterns they are.
 * - Only p is commented; canonicalisation spreads the comment over p's symmetric images.
 * - A synthesis is kept only if the new subgoal is recognised in the position one move
 *   earlier with p among its nodes; otherwise the next candidate set is tried.
 * - The walk goes on while a move teaches something, new or already known (a known subgoal
 *   still lets the walk reach further back). A move that teaches nothing is passed over when
 *   it is forcing — it makes a four or a three, which the loser must answer, so the loser's
 *   last free choice lay further back — or forced, the block of the loser's four; or when the
 *   winner already held a realisation of two moves or fewer before it (the loser was
 *   answering a four elsewhere, or missed it: the game was lost earlier), the latter at most
 *   MAX_PASSED moves in a row; otherwise the walk stops.
 */
import type { Board } from '../rules/board.ts';
import { canonicalise } from '../notation/canonical.ts';
import type { Description, DescriptionNode, LineSpec } from '../notation/description.ts';
import { validateDescription } from '../notation/description.ts';
import type { Game } from '../rules/game.ts';
import { WINDOW } from '../rules/geometry.ts';
import { colOf, rowOf } from '../rules/point.ts';
import { destroyingPoints, movesToFive, quickest, type Realisation } from '../recognition/realisation.ts';
import { Recogniser } from '../recognition/recognise.ts';
import { compileSubgoal, type Subgoal } from '../recognition/subgoal.ts';
import { err, ok, problem, type Result } from '../rules/result.ts';
import { colourOf, opposite, stoneOf, type Colour, type Point, type Stone } from '../rules/types.ts';

/** The most members a set may have: sets of five or more threats do not occur in play. */
const MAX_MEMBERS = 4;
/** A realisation this quick (a four or a three) must be answered at once: the loser cannot leave it. */
const URGENT = 2;
/** Winner's moves in a row the walk may pass over without learning before it gives up. */
const MAX_PASSED = 2;

export interface LearnedSubgoal {
  readonly subgoal: Subgoal;
  /** 0-based index of the winner's move in the game that the subgoal was learned at. */
  readonly moveIndex: number;
  /** The move's point: a node of the subgoal in the position before it. */
  readonly point: Point;
  /** The realisations, just after the move, that it was synthesised from. */
  readonly members: readonly Realisation[];
  /** False when the same subgoal was already in the library. */
  readonly isNew: boolean;
}

/** What the walk did at one of the winner's moves, nearest the win first. */
export interface WalkStep {
  /** 0-based index of the winner's move. */
  readonly moveIndex: number;
  readonly point: Point;
  /**
   * `learned`: a subgoal was synthesised here. `passed`: nothing was, but the winner already
   * held an urgent realisation before this move (the loser had to answer something else or
   * missed it), so the walk went on. `stopped`: nothing was, and the walk ended here.
   */
  readonly outcome: 'learned' | 'passed' | 'stopped';
  /** With `passed` or `stopped`: why no subgoal came of this move. */
  readonly why?: string;
}

export interface Analysis {
  readonly winner: Colour;
  /** The walk, move by move, nearest the win first. */
  readonly walk: readonly WalkStep[];
  /** Nearest the win first. */
  readonly learned: readonly LearnedSubgoal[];
  /** The library after the analysis: the input plus every new subgoal. */
  readonly library: readonly Subgoal[];
}

/**
 * Analyses a finished game whose last move completed a five. The subgoals learned are the
 * winner's; the library is not changed (the result holds the enlarged one).
 */
export function analyseGame(game: Game, library: readonly Subgoal[]): Result<Analysis> {
  const status = game.status;
  if (status.kind !== 'won') {
    return err(problem('not-won', status.kind === 'draw' ? 'the game is a draw: no one won, so there is nothing to learn' : 'the game is not over: its last move does not complete a five'));
  }
  const winner = status.winner;
  const loser = opposite(winner);
  const stone = stoneOf(winner);
  const board = game.board.clone();
  const moves = board.moves.slice();
  // Off with the winning move: the position after it holds a five, not threats.
  board.undo();
  let lib = library.slice();
  const known = new Set(lib.map((s) => s.text));
  const recogniser = new Recogniser(board, lib);
  const learned: LearnedSubgoal[] = [];
  const walk: WalkStep[] = [];
  let passed = 0;
  for (let i = moves.length - 2; i >= 0; i--) {
    const p = moves[i];
    if (board.get(p) !== stone) {
      recogniser.undo();
      continue;
    }
    const after = recogniser.realisations(winner);
    recogniser.undo();
    const found = learnAt(board, p, stone, after);
    if ('why' in found) {
      // A forcing move — a four, or a three — leaves the loser one reply or a few: whatever
      // the winner won with was there before it or comes of later moves, and the loser's last
      // free choice lay further back. Walk on; this is no pass in the sense below, since no
      // lesson was missed here.
      const forcing = after.find((r) => (movesToFive(r) ?? Infinity) <= URGENT && holdsStone(r, p, board.geometry.windowPoints));
      if (forcing !== undefined) {
        walk.push({ moveIndex: i, point: p, outcome: 'passed', why: `${found.why}; the move makes ${forcing.subgoal.text} (five in ${movesToFive(forcing)}), which the loser must answer` });
        continue;
      }
      // Nor is a move the winner had to play: the block of the loser's four.
      if (recogniser.realisations(loser).some((r) => movesToFive(r) === 1 && destroyingPoints(r).includes(p))) {
        walk.push({ moveIndex: i, point: p, outcome: 'passed', why: `${found.why}; the move blocks the loser's four` });
        continue;
      }
      // The paper stops here. But if the winner already held an urgent realisation before
      // this move, the loser's last move was spent elsewhere (answering a four, or a mistake)
      // and the game was lost earlier: the lesson lies further back, so walk on.
      const urgent = urgentBefore(recogniser.realisations(winner));
      if (urgent !== undefined && passed < MAX_PASSED) {
        passed++;
        walk.push({ moveIndex: i, point: p, outcome: 'passed', why: `${found.why}; the winner already held ${urgent.subgoal.text} (five in ${movesToFive(urgent)})` });
        continue;
      }
      walk.push({ moveIndex: i, point: p, outcome: 'stopped', why: found.why });
      break;
    }
    passed = 0;
    walk.push({ moveIndex: i, point: p, outcome: 'learned' });
    const isNew = !known.has(found.subgoal.text);
    learned.push({ ...found, moveIndex: i, isNew });
    if (isNew) {
      known.add(found.subgoal.text);
      lib = [...lib, found.subgoal];
      recogniser.setLibrary(lib);
    }
  }
  return ok({ winner, walk, learned, library: lib });
}

/**
 * What the move at p teaches, with the board now one move before it (p empty), or undefined.
 * `after` are the winner's realisations just after p.
 */
function learnAt(before: Board, p: Point, stone: Stone, after: readonly Realisation[]): Omit<LearnedSubgoal, 'moveIndex' | 'isNew'> | { readonly why: string } {
  const g = before.geometry;
  const withComment = after.filter((r) => movesToFive(r) !== undefined);
  const candidates = withComment.filter((r) => usable(r, p, g.windowPoints));
  if (candidates.length < 2) return { why: `${candidates.length} of the winner's ${withComment.length} realisations after it hold the move as a stone` };
  let sets = 0;
  const failed = { split: 0, synthesis: 0, compile: 0, recognition: 0 };
  for (const set of candidateSets(candidates, before.points)) {
    sets++;
    const d = synthesise(before, p, stone, set);
    if (!d.ok) {
      if (d.error.code === 'split-line') failed.split++;
      else failed.synthesis++;
      continue;
    }
    const compiled = compileSubgoal(d.value);
    if (!compiled.ok) {
      failed.compile++;
      continue;
    }
    if (!recognisedWith(before, compiled.value, p, stone)) {
      failed.recognition++;
      continue;
    }
    return { subgoal: compiled.value, point: p, members: set };
  }
  if (sets === 0) return { why: `every set of its ${candidates.length} realisations holding the move shares a node` };
  return {
    why: `${sets} sets tried: ${failed.split} put nodes of one line more than four apart, ${failed.synthesis} gave no other valid description, ${failed.compile} did not compile, ${failed.recognition} were not recognised before the move`,
  };
}

/** The most urgent of the winner's realisations, if one needs URGENT moves or fewer. */
function urgentBefore(rs: readonly Realisation[]): Realisation | undefined {
  const best = quickest(rs);
  return best !== undefined && movesToFive(best)! <= URGENT ? best : undefined;
}

/** p is a stone in some pattern of r. */
function holdsStone(r: Realisation, p: Point, windowPoints: Int16Array): boolean {
  return r.lines.some((l) => l.patterns.some((pat) => pat.windows.some((w) => windowHas(windowPoints, w, p))));
}

/** p is a stone in some pattern of r, and in all or none of each node's patterns on a line. */
function usable(r: Realisation, p: Point, windowPoints: Int16Array): boolean {
  let touches = false;
  for (const l of r.lines) {
    for (const pat of l.patterns) {
      let inside = 0;
      for (const w of pat.windows) if (windowHas(windowPoints, w, p)) inside++;
      if (inside > 0 && inside < pat.windows.length) return false;
      if (inside > 0) touches = true;
    }
  }
  return touches;
}

function windowHas(windowPoints: Int16Array, w: number, p: Point): boolean {
  for (let i = 0; i < WINDOW; i++) if (windowPoints[w * WINDOW + i] === p) return true;
  return false;
}

/**
 * The search for member sets is bounded, since a crowded position can hold hundreds of
 * realisations: members are taken quickest first (then fewest nodes, then by key), one per
 * distinct set of destroying points, at most MAX_CANDIDATES of them; the search stops after
 * WORK_BUDGET set intersections; and at most MAX_TRIES sets of the least size are tried for
 * synthesis. A move whose sets lie beyond these bounds teaches nothing.
 */
const MAX_CANDIDATES = 128;
const WORK_BUDGET = 300_000;
const MAX_TRIES = 24;

function byQuickest(a: Realisation, b: Realisation): number {
  return movesToFive(a)! - movesToFive(b)! || a.nodes.length - b.nodes.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Sets with no node common to all members, fewest members first, best first within a size. */
function* candidateSets(all: readonly Realisation[], points: number): Generator<Realisation[]> {
  const rs: Realisation[] = [];
  const seen = new Set<string>();
  for (const r of all.slice().sort(byQuickest)) {
    const key = destroyingPoints(r).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    rs.push(r);
    if (rs.length === MAX_CANDIDATES) break;
  }
  // Destroying points as bit sets, so an intersection is a few word operations.
  const words = Math.ceil(points / 32);
  const bits = rs.map((r) => {
    const b = new Uint32Array(words);
    for (const p of destroyingPoints(r)) b[p >>> 5] |= 1 << (p & 31);
    return b;
  });
  const scratch = Array.from({ length: MAX_MEMBERS + 1 }, () => new Uint32Array(words));
  let work = 0;
  for (let size = 2; size <= Math.min(MAX_MEMBERS, rs.length); size++) {
    const sets: number[][] = [];
    const pick: number[] = [];
    const walk = (from: number, depth: number): void => {
      for (let i = from; i < rs.length && work < WORK_BUDGET; i++) {
        work++;
        const next = scratch[depth + 1];
        let empty = true;
        for (let w = 0; w < words; w++) {
          next[w] = depth === 0 ? bits[i][w] : scratch[depth][w] & bits[i][w];
          if (next[w] !== 0) empty = false;
        }
        if (depth + 1 === size) {
          if (empty) sets.push([...pick, i]);
          continue;
        }
        // A smaller set already has no common node: any set holding it would not be minimal.
        if (empty) continue;
        pick.push(i);
        walk(i + 1, depth + 1);
        pick.pop();
      }
    };
    walk(0, 0);
    if (sets.length > 0) {
      const score = (set: number[]) => [Math.max(...set.map((i) => movesToFive(rs[i])!)), set.reduce((t, i) => t + rs[i].nodes.length, 0)];
      sets.sort((a, b) => {
        const sa = score(a);
        const sb = score(b);
        return sa[0] - sb[0] || sa[1] - sb[1] || compareKeys(a.map((i) => rs[i].key), b.map((i) => rs[i].key));
      });
      for (const set of sets.slice(0, MAX_TRIES)) yield set.map((i) => rs[i]);
      return;
    }
    if (work >= WORK_BUDGET) return;
  }
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** A line of the description under construction: its direction, and each node's windows. */
interface DraftLine {
  readonly direction: number;
  readonly windows: Map<Point, Set<number>>;
}

/**
 * The subgoal one move before p, from members realised just after it; `before` is the board
 * with p empty. An error when the union is not a valid description: `split-line` when the
 * members meet a line through p from either side, putting nodes of that line more than four
 * apart — a description's nodes on one line lie in one 5-pattern (the stream's E check), so
 * no description says that, and building a recogniser to find so is wasted; `no-description`
 * otherwise.
 */
export function synthesise(before: Board, p: Point, stone: Stone, members: readonly Realisation[]): Result<Description> {
  const wp = before.geometry.windowPoints;
  // Which member nodes stay explicit: those with a line that does not go through p.
  const staying = new Set<Point>([p]);
  for (const r of members) {
    r.nodes.forEach((x, idx) => {
      const label = idx + 1;
      const mine = r.lines.filter((l) => l.patterns.some((pat) => pat.node === label));
      const viaP = mine.filter((l) => l.patterns.some((pat) => pat.node === label && pat.windows.some((w) => windowHas(wp, w, p))));
      if (mine.length > viaP.length) staying.add(x);
    });
  }
  const lines: DraftLine[] = [];
  const lineFor = (direction: number, nodes: readonly Point[]): DraftLine => {
    // Lines in one direction through a common explicit node are one board line: merge them.
    let line = lines.find((l) => l.direction === direction && nodes.some((x) => l.windows.has(x)));
    if (line === undefined) lines.push((line = { direction, windows: new Map() }));
    return line;
  };
  for (const r of members) {
    for (const l of r.lines) {
      const throughP = l.patterns.some((pat) => pat.windows.some((w) => windowHas(wp, w, p)));
      const nodes = l.patterns.map((pat) => r.nodes[pat.node - 1]).filter((x) => staying.has(x));
      const line = lineFor(l.direction, throughP ? [p, ...nodes] : nodes);
      if (throughP && !line.windows.has(p)) line.windows.set(p, new Set());
      for (const pat of l.patterns) {
        const x = r.nodes[pat.node - 1];
        if (throughP) for (const w of pat.windows) if (windowHas(wp, w, p)) line.windows.get(p)!.add(w);
        if (!staying.has(x)) continue;
        if (!line.windows.has(x)) line.windows.set(x, new Set());
        for (const w of pat.windows) line.windows.get(x)!.add(w);
      }
    }
  }
  const apart = lines.find((l) => widest(before.size, [...l.windows.keys()]) >= WINDOW);
  if (apart !== undefined) return err(problem('split-line', 'the members put nodes of one line more than four apart'));
  // Explicit nodes: p first, then the others in point order (canonicalisation relabels).
  const points = [p, ...[...staying].filter((x) => x !== p).sort((a, b) => a - b)];
  const label = new Map(points.map((x, i) => [x, i + 1]));
  const specOf = (windows: Set<number>): LineSpec | undefined => {
    const counts = [...windows].filter((w) => before.isPossible(w, stone)).map((w) => before.stonesIn(w, stone));
    if (counts.length === 0) return undefined;
    const top = Math.max(...counts);
    const many = counts.filter((c) => c === top).length;
    return { n: top + 1, dashed: many >= 2 };
  };
  const nodes: DescriptionNode[] = [];
  for (const x of points) {
    const mine = lines.filter((l) => l.windows.has(x));
    const entries = [];
    for (const l of mine) {
      const spec = specOf(l.windows.get(x)!);
      if (spec === undefined) return err(problem('no-description', 'a node has no possible 5-pattern left on one of its lines'));
      const others = [...l.windows.keys()].filter((y) => y !== x).map((y) => label.get(y)!).sort((a, b) => a - b);
      entries.push({ others, spec });
    }
    nodes.push(x === p ? { lines: entries, comment: 1 + Math.max(...members.map((r) => movesToFive(r)!)) } : { lines: entries });
  }
  const d: Description = { nodes };
  const valid = validateDescription(d);
  if (!valid.ok) return err(problem('no-description', valid.error.message));
  return ok(canonicalise(d));
}

/** The most steps between two of the points, which lie on one line: four or fewer fit in a window. */
function widest(size: number, points: readonly Point[]): number {
  let most = 0;
  for (const a of points) {
    for (const b of points) most = Math.max(most, Math.abs(colOf(size, a) - colOf(size, b)), Math.abs(rowOf(size, a) - rowOf(size, b)));
  }
  return most;
}

/** Whether the board (p empty, as before the move) realises the subgoal with p as a node. */
function recognisedWith(before: Board, subgoal: Subgoal, p: Point, stone: Stone): boolean {
  const probe = new Recogniser(before.clone(), [subgoal]);
  const colour = colourOf(stone);
  return probe.realisations(colour).some((r) => r.nodes.includes(p));
}
