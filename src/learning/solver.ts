/**
 * The soundness solver: a threat-space search in the spirit of Allis (1994), independent of
 * recognition, so that it can check what the recogniser and the learner claim. It imports the
 * board and src/rules/threats.ts only — no description, control stream or profile.
 *
 * `solve(board, attacker, { maxAttackerMoves: k, nodeBudget })` answers whether the attacker,
 * moving first, forces a five within k of their own moves. Moves are counted as the paper's
 * comments count them: the five-completing move counts, so a four already on the board wins
 * in 1, an open four played now wins in 2, and a double open three (`(1, 1) 3:3', 3'`) in 3.
 * To check a realisation's comment k, solve with its commented node as the only first move
 * (`firstMoves`): play starts there, as the comment says.
 *
 * ## The game it searches (threat classes and defences: src/rules/threats.ts)
 *
 * Attacker to move (an OR node), in this order:
 * 1. a five threat of their own: they make five — win;
 * 2. with no moves left — not a win;
 * 3. the defender has a five threat: the attacker must block it. Two or more cannot be
 *    blocked — not a win; one gives a single candidate, the blocking point, which must itself
 *    be a threat (below) for the line to go on;
 * 4. otherwise the candidates are the moves that make a four or a three (a three only with
 *    three or more moves left, since three → open four → five is the quickest it can win),
 *    open fours first, then other fours, then threes, each by point.
 *
 * Defender to move (an AND node), after the attacker's move:
 * 1. a five threat of the defender's: they make five — not a win;
 * 2. the attacker has five threats: the defender must play on one of them (each is tried;
 *    with two or more, the attacker completes another next move);
 * 3. the attacker has open-four points (a three): the defender tries every **defence** — every
 *    point after which no open-four point is left. When no single point does that (two
 *    threes at once), the defender tries every empty point of the threes' windows instead;
 * 4. otherwise the attacker's move threatened nothing and the defender would have a free
 *    move — not a win. (That happens only after a forced block, rule 3 above, or a first
 *    move given by `firstMoves`.) A defender five threat at this point (rule 1) cannot arise
 *    after attacker rule 3; the check is kept so that each node stands on its own.
 *
 * A defence may itself make a four for the defender (a counter-threat): the attacker must
 * then block it at once (attacker rule 3), and that block counts as a move. With the option
 * `counterFours`, the defender answering a three may also play **any** move that makes a four
 * of their own, anywhere on the board.
 *
 * ## What a `win` proves
 *
 * - With `counterFours: false` (the default, the paper's "defence that only blocks"): the
 *   attacker forces an exact five within `moves` moves against every defender who, at each
 *   turn, makes five if they can, else blocks the attacker's five threats, else plays a point
 *   that stops the attacker's three. Every such point is tried: which points stop a three is
 *   computed from the windows, not taken from a table, so no stopping move is missed. A
 *   defender move that stops nothing and makes no four only loses faster (the attacker plays
 *   an open four), so leaving it out loses nothing.
 * - With `counterFours: true`: the same against **any** defence at all, the real game. Besides
 *   the above, the only defender moves left out are ones that neither stop the three nor make
 *   a four; after one the attacker still has an open-four point and wins two moves later
 *   (a three is only played with three or more moves left, so the bound holds).
 *
 * - With `defenderThreats: false`: against a defender who only blocks — answers each threat at
 *   a point that stops it and never threatens. A four that a block happens to make for the
 *   defender is ignored (the attacker need not answer it, and the defender never completes
 *   it). This is the sense of a subgoal's comment, and what the learning tests check.
 *
 * `no-win` proves less: that no win within k exists among threat sequences (every attacker
 * move a four or a three). A quiet move can still win in the real game; the solver does not
 * look for one. `unknown` means the node budget ran out first.
 *
 * ## Search
 *
 * Iterative deepening on k = 1, 2, … so the first win found is the quickest; depth-first
 * within each pass. Results of attacker nodes are kept in a table keyed by a Zobrist hash
 * (keys from the seeded generator; 53 bits of key and 11 more checked, so a false hit needs
 * a 64-bit collision). A node is a position visited, attacker's or defender's; the search
 * gives up once it has visited more than `nodeBudget`, and `nodes` says how many it visited
 * (a node or two past the budget when it gives up; after a win, also the visits that replay
 * the main line). Everything is ordered by strength then by point, so two runs give the same answer, line
 * and node count.
 */
import type { Board } from '../rules/board.ts';
import { WINDOW } from '../rules/geometry.ts';
import { seededRandom } from '../rules/random.ts';
import { fiveThreatsIn, fourMovesIn, hasOpenFourPointIn, threeWindowPointsIn } from '../rules/threats.ts';
import { otherStone, type Point, type Stone } from '../rules/types.ts';

/** Points in a window (a module copy: imported bindings are slow to read in hot loops under tsx). */
const SPAN = WINDOW;

export interface SolveOptions {
  /** k: the most attacker moves allowed, the five-completing move included (1 to 255). */
  readonly maxAttackerMoves: number;
  /** The most positions the search may visit before answering `unknown`. */
  readonly nodeBudget: number;
  /** Let the defender answer a three with any four of their own (the real game); default false. */
  readonly counterFours?: boolean;
  /**
   * False for the purest "defence that only blocks": the defender answers the attacker's
   * threats and never threatens — a four the defender's blocks happen to make is not a threat,
   * so the attacker need not answer it (nor can the defender win with it). This is the model
   * a subgoal's comment speaks of (the paper: play at the node wins whatever the defender's
   * blocking replies); default true.
   */
  readonly defenderThreats?: boolean;
  /**
   * With `firstMoves`: a first move that makes no four and no three may still win — it can set
   * up two threats of a threat (two double-three points, say) that one reply cannot both stop.
   * Then the defender gets a free reply, and every empty point of a possible attacker window
   * that holds a stone is tried (a reply anywhere else touches nothing the attacker can use);
   * after it the attacker must go on with fours and threes. Default false.
   */
  readonly quietFirstMove?: boolean;
  /**
   * Where play must start: the attacker's first move is one of these points (say, the node
   * of a realisation whose comment is being checked) instead of any threat. A first move
   * that neither makes five nor threatens wins nothing.

   */
  readonly firstMoves?: readonly Point[];
}

export type Verdict = 'win' | 'no-win' | 'unknown';

export interface SolveResult {
  readonly result: Verdict;
  /** With `win`: the fewest attacker moves that force the five. */
  readonly moves?: number;
  /**
   * With `win`: a main line, attacker and defender moves alternating from the attacker's
   * first to the five-completing move. At each defender turn it takes a defence that holds
   * out longest (the first by point among equals) when the budget left allows finding it.
   */
  readonly line?: readonly Point[];
  /** Positions visited. */
  readonly nodes: number;
}

/** Most moves a table entry can record. */
const MAX_MOVES = 255;

const FAIL = 0;
const WIN = 1;
const UNKNOWN = 2;
type Outcome = typeof FAIL | typeof WIN | typeof UNKNOWN;

export function solve(board: Board, attacker: Stone, options: SolveOptions): SolveResult {
  const k = options.maxAttackerMoves;
  if (!Number.isInteger(k) || k < 0 || k > MAX_MOVES) throw new RangeError(`maxAttackerMoves must be an integer from 0 to ${MAX_MOVES}`);
  if (!(options.nodeBudget >= 0)) throw new RangeError('nodeBudget must be a number ≥ 0');
  let first: Point[] | undefined;
  if (options.firstMoves !== undefined) {
    for (const p of options.firstMoves) {
      if (!Number.isInteger(p) || p < 0 || p >= board.points) throw new RangeError(`first move ${p} is off the board`);
    }
    first = [...new Set(options.firstMoves)].filter((p) => board.isEmpty(p)).sort((a, b) => a - b);
  }
  // A five on the board ends the game: there is nothing left to force.
  if (board.fives().length > 0) return { result: 'no-win', nodes: 0 };
  const search = new ThreatSpaceSearch(board, attacker, options.nodeBudget, options.counterFours ?? false, first, options.defenderThreats ?? true, options.quietFirstMove ?? false);
  for (let depth = 1; depth <= k; depth++) {
    const o = search.attackRoot(depth);
    if (o === UNKNOWN) return { result: 'unknown', nodes: search.nodes };
    if (o === WIN) {
      const line = search.mainLine(depth);
      return { result: 'win', moves: depth, ...(line !== undefined ? { line } : {}), nodes: search.nodes };
    }
  }
  return { result: 'no-win', nodes: search.nodes };
}

interface ZobristKeys {
  /** lo[p * 2 + s - 1], hi[…]: the two 32-bit halves of the key of a stone of colour s on p. */
  readonly lo: Int32Array;
  readonly hi: Int32Array;
}

const zobristCache = new Map<number, ZobristKeys>();

/** Keys for one board size, the same in every run (seeded by the size). */
function zobrist(points: number): ZobristKeys {
  let keys = zobristCache.get(points);
  if (keys === undefined) {
    const rnd = seededRandom(0x2b0b_1994 ^ points);
    const draw = (): number => Math.floor(rnd.next() * 4294967296) | 0;
    const lo = new Int32Array(points * 2);
    const hi = new Int32Array(points * 2);
    for (let i = 0; i < points * 2; i++) {
      lo[i] = draw();
      hi[i] = draw();
    }
    keys = { lo, hi };
    zobristCache.set(points, keys);
  }
  return keys;
}

/**
 * One search: its own copy of the board, the windows threats can use (possible 5-patterns
 * holding two or more stones) kept per colour as stones come and go, the position's hash and
 * the table of attacker-node results.
 */
class ThreatSpaceSearch {
  nodes = 0;
  private readonly board: Board;
  private readonly defender: Stone;
  /** live[s - 1]: the windows of colour s that threats can use, in no particular order. */
  private readonly live: [number[], number[]] = [[], []];
  /** livePos[w * 2 + s - 1]: index of w in live[s - 1], or -1. */
  private readonly livePos: Int32Array;
  private readonly keys: ZobristKeys;
  private hashLo = 0;
  private hashHi = 0;
  /**
   * Attacker-node results by hash: bits 16.. the check bits, 8..15 the fewest moves a win is
   * proven within (0 for none), 0..7 the most moves proven not to win within.
   */
  private readonly table = new Map<number, number>();
  /** Per-point marks for building candidate lists without duplicates. */
  private readonly mark: Int32Array;
  private stamp = 0;
  /** Visits allowed: the budget while searching; lifted while a proven line is replayed. */
  private limit: number;

  constructor(
    board: Board,
    private readonly attacker: Stone,
    private readonly budget: number,
    private readonly counterFours: boolean,
    /** The attacker's permitted first moves, ascending; undefined for any threat. */
    private readonly firstMoves: readonly Point[] | undefined,
    /** Whether the defender's own fives count (see SolveOptions.defenderThreats). */
    private readonly defenderThreats: boolean,
    /** Whether a first move that threatens nothing gets the defender a free reply (SolveOptions.quietFirstMove). */
    private readonly quietFirstMove: boolean,
  ) {
    this.board = board.clone();
    this.defender = otherStone(attacker);
    this.limit = budget;
    const g = this.board.geometry;
    this.livePos = new Int32Array(g.windowCount * 2).fill(-1);
    for (let w = 0; w < g.windowCount; w++) this.refreshWindow(w);
    this.keys = zobrist(g.points);
    for (let p = 0; p < g.points; p++) {
      const c = this.board.get(p);
      if (c !== 0) this.toggleHash(p, c);
    }
    this.mark = new Int32Array(g.points);
  }

  // --- attacker and defender nodes -------------------------------------------------------

  /**
   * The root: as `attack`, but with `firstMoves` the attacker's first move is taken from
   * them, and the answer, being about a restricted question, is not put in the table.
   */
  attackRoot(r: number): Outcome {
    const first = this.firstMoves;
    if (first === undefined) return this.attack(r);
    this.nodes++;
    const five = this.fives(this.attacker);
    if (first.some((p) => five.includes(p))) return WIN;
    if (r <= 1) return FAIL;
    for (const m of first) {
      this.play(m, this.attacker);
      const o = this.quietFirstMove && this.isQuiet() ? this.defendAnywhere(r - 1) : this.defend(r - 1);
      this.undo();
      if (o !== FAIL) return o;
    }
    return FAIL;
  }

  /** The attacker's last move left no five threat and no open-four point: nothing to block. */
  private isQuiet(): boolean {
    const a = this.attacker;
    return this.fives(a).length === 0 && fourMovesIn(this.board, a, this.live[a - 1]).openFours.length === 0;
  }

  /** After a quiet first move: every free defender reply that touches an attacker window must still lose within r. */
  private defendAnywhere(r: number): Outcome {
    this.nodes++;
    if (this.nodes > this.limit) return UNKNOWN;
    if (r < 3) return FAIL;
    return this.everyReplyLoses(this.emptyPointsOfWindows(this.nextStamp(), 1, SPAN), r);
  }

  /** WIN if the attacker still wins within r after each of the defender's replies; else the first other outcome. */
  private everyReplyLoses(replies: Iterable<Point>, r: number): Outcome {
    for (const d of replies) {
      this.play(d, this.defender);
      const o = this.attack(r);
      this.undo();
      if (o !== WIN) return o;
    }
    return WIN;
  }

  /** Whether the attacker, to move, forces a five within r moves. */
  attack(r: number): Outcome {
    this.nodes++;
    if (this.fives(this.attacker).length > 0) return WIN;
    if (r <= 1) return FAIL;
    const known = this.probe(r);
    if (known !== undefined) return known;
    if (this.nodes > this.limit) return UNKNOWN;
    for (const m of this.threatMoves(r)) {
      this.play(m, this.attacker);
      const o = this.defend(r - 1);
      this.undo();
      if (o === WIN) {
        this.store(r, WIN);
        return WIN;
      }
      if (o === UNKNOWN) return UNKNOWN;
    }
    this.store(r, FAIL);
    return FAIL;
  }

  /** Whether every defence, the defender to move, leaves the attacker a win within r moves. */
  private defend(r: number): Outcome {
    this.nodes++;
    if (this.nodes > this.limit) return UNKNOWN;
    const replies = this.defences(r);
    if (replies === undefined) return FAIL;
    return this.everyReplyLoses(replies, r);
  }

  /** The attacker's candidates, strongest first, then by point (attacker rules 3 and 4). */
  private threatMoves(r: number): Point[] {
    const blocks = this.defenderThreats ? this.fives(this.defender) : [];
    if (blocks.length >= 2) return [];
    if (blocks.length === 1) return blocks;
    const a = this.attacker;
    const { fours, openFours } = fourMovesIn(this.board, a, this.live[a - 1]);
    if (openFours.length > 0) return openFours;
    if (r < 3) return [];
    // A three raises some window from two stones to three (a window that already held three
    // would have given an open-four point above), so its candidates lie in two-stone windows.
    const stamp = this.nextStamp();
    for (const p of fours) this.mark[p] = stamp;
    return fours.concat(this.emptyPointsOfWindows(stamp, SPAN - 3, SPAN - 3));
  }

  /**
   * The empty points of the attacker's live windows holding `least` to `most` of its stones,
   * each once and ascending, skipping points already marked with `stamp`.
   */
  private emptyPointsOfWindows(stamp: number, least: number, most: number): Point[] {
    const a = this.attacker;
    const out: Point[] = [];
    const pts = this.board.geometry.windowPoints;
    for (const w of this.live[a - 1]) {
      const stones = this.board.stonesIn(w, a);
      if (stones < least || stones > most) continue;
      for (let i = 0; i < SPAN; i++) {
        const p = pts[w * SPAN + i];
        if (this.mark[p] !== stamp && this.board.isEmpty(p)) {
          this.mark[p] = stamp;
          out.push(p);
        }
      }
    }
    return out.sort((x, y) => x - y);
  }

  /** The defender's replies (defender rules 1–4), or undefined when the attacker has lost the thread. */
  private defences(r: number): Point[] | undefined {
    const a = this.attacker;
    const d = this.defender;
    if (this.defenderThreats && this.fives(d).length > 0) return undefined;
    const forced = this.fives(a);
    if (forced.length > 0) return forced;
    if (r < 2) return undefined;
    const open = fourMovesIn(this.board, a, this.live[a - 1]).openFours;
    if (open.length === 0) return undefined;
    const touched = threeWindowPointsIn(this.board, a, this.live[a - 1], open);
    const stops = touched.filter((p) => {
      this.play(p, d);
      const still = hasOpenFourPointIn(this.board, a, this.live[a - 1]);
      this.undo();
      return !still;
    });
    const replies = stops.length > 0 ? stops : touched;
    if (!this.counterFours) return replies;
    const counter = fourMovesIn(this.board, d, this.live[d - 1]).fours.filter((p) => !replies.includes(p));
    return replies.concat(counter).sort((x, y) => x - y);
  }

  private fives(s: Stone): Point[] {
    // The board's histogram says at once whether there is any four to look for.
    if (this.board.possibleCount(s, SPAN - 1) === 0) return [];
    return fiveThreatsIn(this.board, s, this.live[s - 1]);
  }


  // --- the main line ---------------------------------------------------------------------

  /**
   * Replays the proof of a win within r from the root. Attacker moves are the first that win
   * at the depth the table proves; replaying them meets only positions the proof visited, so
   * the budget is lifted for it. Defender moves hold out longest, which is searched for within
   * what is left of the budget (when that runs out a defence counts as holding out the full
   * bound, which the proof guarantees).
   */
  mainLine(r: number): Point[] | undefined {
    const line: Point[] = [];
    this.limit = Infinity;
    const done = this.attackLine(r, line, this.firstMoves);
    this.limit = this.budget;
    return done ? line : undefined;
  }

  private attackLine(bound: number, line: Point[], first?: readonly Point[]): boolean {
    const five = this.fives(this.attacker).filter((p) => first === undefined || first.includes(p));
    if (five.length > 0) {
      line.push(five[0]);
      return true;
    }
    // Replay at the depth the proof was made, where the same candidates failed or won (the
    // restricted root is not in the table; its depth is the one the root search found).
    const r = first !== undefined ? bound : Math.min(bound, this.provenWin() ?? bound);
    for (const m of first ?? this.threatMoves(r)) {

      this.play(m, this.attacker);
      let done: boolean | undefined;
      if (this.defend(r - 1) === WIN) {
        line.push(m);
        done = this.defendLine(r - 1, line);
      }
      this.undo();
      if (done !== undefined) return done;
    }
    return false;
  }

  private defendLine(r: number, line: Point[]): boolean {
    const replies = this.defences(r) ?? [];
    let best = -1;
    let bestDepth = 0;
    for (const d of replies) {
      this.play(d, this.defender);
      const depth = this.winDepth(r);
      this.undo();
      if (depth > bestDepth) {
        best = d;
        bestDepth = depth;
      }
    }
    if (best < 0) return false;
    line.push(best);
    this.play(best, this.defender);
    const done = this.attackLine(bestDepth, line);
    this.undo();
    return done;
  }

  /** The fewest moves the attacker, to move, needs here, known to be at most r. */
  private winDepth(r: number): number {
    const lifted = this.limit;
    this.limit = this.budget;
    let depth = r;
    for (let j = 1; j < r; j++) {
      const o = this.attack(j);
      if (o === FAIL) continue;
      if (o === WIN) depth = j;
      break;
    }
    this.limit = lifted;
    return depth;
  }

  // --- board, hash and table ---------------------------------------------------------------

  private play(p: Point, s: Stone): void {
    this.board.play(p, s);
    this.toggleHash(p, s);
    this.refreshAround(p);
  }

  private undo(): void {
    const p = this.board.moves[this.board.moves.length - 1];
    this.toggleHash(p, this.board.get(p) as Stone);
    this.board.undo();
    this.refreshAround(p);
  }

  private toggleHash(p: Point, s: Stone): void {
    this.hashLo ^= this.keys.lo[p * 2 + s - 1];
    this.hashHi ^= this.keys.hi[p * 2 + s - 1];
  }

  /** A stone on p changes the windows through p and the windows p flanks; nothing else. */
  private refreshAround(p: Point): void {
    const g = this.board.geometry;
    for (let i = g.pointWindowStart[p]; i < g.pointWindowStart[p + 1]; i++) this.refreshWindow(g.pointWindows[i]);
    for (let i = g.pointFlankStart[p]; i < g.pointFlankStart[p + 1]; i++) this.refreshWindow(g.pointFlanks[i]);
  }

  private refreshWindow(w: number): void {
    for (let slot = 0; slot < 2; slot++) {
      const s = (slot + 1) as Stone;
      const list = this.live[slot];
      const want = this.board.stonesIn(w, s) >= 2 && this.board.isPossible(w, s);
      const at = this.livePos[w * 2 + slot];
      if (want && at < 0) {
        this.livePos[w * 2 + slot] = list.length;
        list.push(w);
      } else if (!want && at >= 0) {
        const last = list.pop()!;
        if (last !== w) {
          list[at] = last;
          this.livePos[last * 2 + slot] = at;
        }
        this.livePos[w * 2 + slot] = -1;
      }
    }
  }

  private nextStamp(): number {
    if (++this.stamp === 0x7fffffff) {
      this.mark.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  private tableKey(): number {
    return (this.hashHi & 0x1fffff) * 4294967296 + (this.hashLo >>> 0);
  }

  private probe(r: number): Outcome | undefined {
    const v = this.table.get(this.tableKey());
    if (v === undefined || v >>> 16 !== this.hashHi >>> 21) return undefined;
    const win = (v >>> 8) & 0xff;
    if (win !== 0 && win <= r) return WIN;
    if ((v & 0xff) >= r) return FAIL;
    return undefined;
  }

  /** The fewest moves a win is proven within here, from the table. */
  private provenWin(): number | undefined {
    const v = this.table.get(this.tableKey());
    if (v === undefined || v >>> 16 !== this.hashHi >>> 21) return undefined;
    const win = (v >>> 8) & 0xff;
    return win === 0 ? undefined : win;
  }

  private store(r: number, o: typeof WIN | typeof FAIL): void {
    const key = this.tableKey();
    const check = this.hashHi >>> 21;
    const old = this.table.get(key);
    let win = 0;
    let fail = 0;
    if (old !== undefined && old >>> 16 === check) {
      win = (old >>> 8) & 0xff;
      fail = old & 0xff;
    }
    if (o === WIN) win = win === 0 ? r : Math.min(win, r);
    else fail = Math.max(fail, r);
    this.table.set(key, (check << 16) | (win << 8) | fail);
  }
}
