/**
 * Look-ahead over what the library knows: a search for forced wins whose only knowledge of
 * threats is the subgoals the player has learned (and the rule of five it is born with).
 *
 * The paper's program recognises realisations and acts on the one nearest to five. That sees
 * one move deep: a sequence of fours and threes that ends in a realisation it knows goes
 * unseen until it is too late. This search plays such sequences out on a board, recognising
 * after every move, in the shape of a threat-space search (Allis 1994), but every threat in
 * it is a realisation of a learned subgoal:
 *
 * - **Attacker to move** (an OR node): with a `(1) 1:5` realisation it wins. If the defender
 *   has one, the attacker must play its node (two of them: the line fails). Otherwise it tries
 *   the commented nodes of its realisations that could finish in the moves left — quickest
 *   comment first — and the moves that make a `(1) 1:5` realisation (a four: the rule of five
 *   looked at one move ahead, the only thing the player knows without learning).
 * - **Defender to move** (an AND node), after an attacker's move: the move must have left the
 *   attacker a realisation needing at most two moves (a four or a three, in a player's words),
 *   or the defender has a free move and the line is no longer forced. The defender's answers
 *   are the points that destroy every attacker realisation that could finish in the moves
 *   left (its explicit and implicit nodes, the paper's definition), or failing one such point
 *   those that destroy the quickest ones; and every move that makes a four of the defender's
 *   own, which the attacker must answer. No answer at all: the attacker wins. Every answer is
 *   searched: a line is a win only if it wins against each.
 *
 * So with an empty library the search sees fours only (a VCF); once `(1) 2:4'` and
 * `(1, 1) 3:3', 3'` are learned it sees threes and double threes; every subgoal learned from
 * a loss is a new shape of threat it can play towards and see coming. There is no table of
 * threat shapes here and the soundness solver is never called.
 *
 * Only subgoals whose quickest comment fits the depth can matter to a search of that depth,
 * so the search keeps its own recogniser over that part of the library (`quickSubgoals`):
 * learned libraries hold mostly subgoals of five to seven moves, which the whole-board
 * recogniser of the player still sees.
 *
 * A search is bounded by a budget of plays, and a move's searches together by one of plays and
 * one of work (startMove); past either the answer is "no forced win found".
 * Deterministic: candidates are ordered by comment, then by point.
 */
import { Board } from '../rules/board.ts';
import type { Game } from '../rules/game.ts';
import { WINDOW } from '../rules/geometry.ts';
import { commonDestroyers, movesToFive, quickest, type Realisation } from '../recognition/realisation.ts';
import { Recogniser } from '../recognition/recognise.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import { opposite, stoneOf, type Colour, type Point, type Stone } from '../rules/types.ts';

export interface SearchBounds {
  /** The most moves of the attacker's a forced win may take, the five included. */
  readonly depth: number;
  /** The most moves one search may play before it gives up. */
  readonly budget: number;
  /** The most moves the attacker tries at one turn. */
  readonly breadth: number;
}

/** One move of a forced line: who plays it, and for the attacker what it makes. */
export interface LineStep {
  readonly point: Point;
  readonly colour: Colour;
  /** The realisation whose commented node the move is (attacker's moves, when it is one). */
  readonly from?: Realisation;
  /** The attacker's quickest realisation after this move (attacker's moves only). */
  readonly makes?: Realisation;
}

/** A forced win found by the search: the line, attacker's move first, one defence at each reply. */
export interface ForcedLine {
  readonly attacker: Colour;
  readonly line: readonly LineStep[];
  /** The attacker's moves in the line, the five included. */
  readonly moves: number;
}

/** Subgoals with a comment of at most `depth`: the only ones a search that deep can finish. */
export function quickSubgoals(library: readonly Subgoal[], depth: number): Subgoal[] {
  return library.filter((s) => s.description.nodes.some((n) => n.comment !== undefined && n.comment <= depth));
}

/** The empty points where a move by s makes a `(1) 1:5` realisation: a possible 5-pattern holding three of s. */
export function fourMoves(board: Board, s: Stone): Point[] {
  // The board counts its possible 5-patterns by stones held: most positions have none of three.
  if (board.possibleCount(s, WINDOW - 2) === 0) return [];
  const g = board.geometry;
  const seen = new Set<Point>();
  const n = g.windowCount;
  for (let w = 0; w < n; w++) {
    if (board.stonesIn(w, s) !== WINDOW - 2 || !board.isPossible(w, s)) continue;
    for (let i = 0; i < WINDOW; i++) {
      const p = g.windowPoints[w * WINDOW + i];
      if (board.isEmpty(p)) seen.add(p);
    }
  }
  return [...seen].sort((a, b) => a - b);
}

/** The realisations of one colour that carry a comment, with it. */
function commented(rs: readonly Realisation[]): Realisation[] {
  return rs.filter((r) => movesToFive(r) !== undefined);
}

/** Distinct nodes of the colour's `(1) 1:5` realisations: where it completes a five next move. */
function fivePoints(rs: readonly Realisation[]): Point[] {
  const out = new Set<Point>();
  for (const r of rs) if (movesToFive(r) === 1) out.add(r.nodes[r.comments.findIndex((c) => c === 1)]);
  return [...out].sort((a, b) => a - b);
}

/** A line found by the search, and the attacker's moves it takes (in the longest defence). */
interface Found {
  readonly line: LineStep[];
  readonly moves: number;
}

/** Most moves the defender's answers to one threat may number before the line counts as not forced. */
const MAX_ANSWERS = 8;
/** Most counter-fours of the defender's tried at one reply. */
const MAX_COUNTERS = 12;

/**
 * The search's own board and recogniser, kept in step with a game between searches (like the
 * player's), over the library's quick subgoals.
 */
export class Lookahead {
  private recogniser: Recogniser | undefined;
  private library: readonly Subgoal[];
  private plays = 0;
  private budget = 0;
  /** The most work the move may take (see startMove), and the recogniser's steps when it began. */
  private workBudget = Infinity;
  private stepsAtStart = 0;
  /** Realisations listed since the move began. */
  private listed = 0;
  private cut = false;

  constructor(library: readonly Subgoal[], readonly depth: number) {
    this.library = quickSubgoals(library, depth);
  }

  setLibrary(library: readonly Subgoal[]): void {
    this.library = quickSubgoals(library, this.depth);
    if (this.recogniser !== undefined) this.recogniser.setLibrary(this.library);
  }

  /** Brings the search's board to the game's position. */
  sync(game: Game): Recogniser {
    this.recogniser = follow(this.recogniser, game, this.library);
    return this.recogniser;
  }

  /** The board the searches play on (the game's position between searches). */
  get board(): Board {
    return this.recogniser!.board;
  }

  realisations(colour: Colour): Realisation[] {
    const live = this.recogniser!.live(colour);
    this.listed += live.length;
    return commented(live);
  }

  /**
   * Starts a move's thinking (after `sync`): every search and trial play until the next call
   * shares `budget` plays and `work` units of work, so that one move's work is bounded however
   * many searches it makes. Plays alone do not bound it. A play usually costs a few thousand
   * steps of the recogniser's interpreter and lists a few hundred realisations; but on a
   * sparse board a learned subgoal of five to seven nodes with patterns of one or two stones
   * is realised thousands of ways, and one move's 200 plays there took 2.4 million steps and
   * listed up to 11 700 realisations a play: 4.3 s (2026-11-28). A unit is an interpreter step;
   * a realisation listed counts ten (what it cost there, measured). Work is counted, not timed,
   * so a move is the same on a loaded machine.
   */
  startMove(budget: number, work = Infinity): void {
    this.plays = 0;
    this.budget = budget;
    this.workBudget = work;
    this.stepsAtStart = this.recogniser!.stats.steps;
    this.listed = 0;
  }

  /** Whether the budget is spent: the search's plays, or the move's work. */
  private get spent(): boolean {
    return this.plays >= this.budget || this.workSpent;
  }

  /** Whether the move's work (startMove) is spent. */
  get workSpent(): boolean {
    return this.recogniser!.stats.steps - this.stepsAtStart + 10 * this.listed >= this.workBudget;
  }

  /**
   * Whether the last `forcedWin` left something unsearched — the budget ran out, or a turn had
   * more moves than the bounds allow. Its "no forced win" then means "none found", not "none
   * within the library's knowledge and the depth"; a defence is trusted only without it.
   */
  get lastSearchCut(): boolean {
    return this.cut;
  }

  /** Plays left in the move's budget: none once its work is spent. */
  get playsLeft(): number {
    return this.spent ? 0 : this.budget - this.plays;
  }

  /**
   * A forced win for `attacker` from the synced position as if it were `attacker`'s turn,
   * within the bounds and what is left of the move's budget (at most `bounds.budget` plays of
   * it), or undefined. The board is left as it was.
   */
  forcedWin(attacker: Colour, bounds: SearchBounds): ForcedLine | undefined {
    const outer = this.budget;
    this.budget = Math.min(outer, this.plays + bounds.budget);
    this.cut = false;
    const found = this.attack(attacker, bounds.depth, bounds.breadth);
    this.budget = outer;
    if (found === undefined) return undefined;
    return { attacker, line: found.line, moves: found.moves };
  }

  /** Plays a move on the search's board (for a caller trying candidate moves); undo with `undo`. */
  play(p: Point, colour: Colour): void {
    this.plays++;
    this.recogniser!.play(p, stoneOf(colour));
  }

  undo(): void {
    this.recogniser!.undo();
  }

  /** The attacker x to move with movesLeft moves: a winning line and its length in x's moves, or undefined. */
  private attack(x: Colour, movesLeft: number, breadth: number): Found | undefined {
    const y = opposite(x);
    const mine = this.realisations(x);
    const five = fivePoints(mine);
    if (movesLeft >= 1 && five.length > 0) return { line: [{ point: five[0], colour: x }], moves: 1 };
    if (movesLeft <= 1) return undefined;
    if (this.spent) return this.giveUp();
    const theirFives = fivePoints(this.realisations(y));
    if (theirFives.length >= 2) return undefined;
    let candidates: Point[];
    const source = new Map<Point, Realisation>();
    if (theirFives.length === 1) {
      candidates = theirFives;
    } else {
      // Commented nodes that can finish in time, quickest first; then the fours.
      const byComment = new Map<Point, number>();
      for (const r of mine) {
        r.comments.forEach((c, i) => {
          if (c === undefined || c > movesLeft) return;
          const p = r.nodes[i];
          if (c < (byComment.get(p) ?? Infinity)) {
            byComment.set(p, c);
            source.set(p, r);
          }
        });
      }
      for (const p of fourMoves(this.board, stoneOf(x))) if (!byComment.has(p)) byComment.set(p, 3.5);
      if (byComment.size > breadth) this.cut = true;
      candidates = [...byComment.entries()]
        .sort((a, b) => a[1] - b[1] || a[0] - b[0])
        .slice(0, breadth)
        .map((e) => e[0]);
    }
    for (const p of candidates) {
      if (this.spent) return this.giveUp();
      this.play(p, x);
      const after = quickest(this.realisations(x));
      const rest = this.defend(x, movesLeft - 1, breadth);
      this.undo();
      if (rest !== undefined) {
        const from = source.get(p);
        return { line: [{ point: p, colour: x, ...(from !== undefined ? { from } : {}), ...(after !== undefined ? { makes: after } : {}) }, ...rest.line], moves: 1 + rest.moves };
      }
    }
    return undefined;
  }

  private giveUp(): undefined {
    this.cut = true;
    return undefined;
  }

  /** The defender y = opposite(x) to move, x having movesLeft moves. A line if every answer loses, with x's moves in the longest. */
  private defend(x: Colour, movesLeft: number, breadth: number): Found | undefined {
    const y = opposite(x);
    const theirs = this.realisations(y);
    if (fivePoints(theirs).length > 0) return undefined;
    const mine = this.realisations(x).filter((r) => movesToFive(r)! <= movesLeft);
    const fives = fivePoints(mine);
    let answers: Point[];
    let kMin = 1;
    if (fives.length > 0) {
      answers = fives;
    } else {
      kMin = Math.min(...mine.map((r) => movesToFive(r)!));
      // A move that leaves nothing needing two moves or fewer gives the defender a free move.
      if (!(kMin <= 2)) return undefined;
      answers = commonDestroyers(mine);
      if (answers.length === 0) answers = commonDestroyers(mine.filter((r) => movesToFive(r) === kMin));
      if (answers.length > MAX_ANSWERS) return this.giveUp();
    }
    const counters = fourMoves(this.board, stoneOf(y)).filter((p) => !answers.includes(p));
    if (counters.length > MAX_COUNTERS) return this.giveUp();
    const replies = [...answers, ...counters];
    // No answer at all: the quickest realisation runs its course.
    if (replies.length === 0) return { line: [], moves: kMin };
    let shown: LineStep[] | undefined;
    let longest = 0;
    for (const q of replies) {
      if (this.spent) return this.giveUp();
      this.play(q, y);
      const rest = this.attack(x, movesLeft, breadth);
      this.undo();
      if (rest === undefined) return undefined;
      shown ??= [{ point: q, colour: y }, ...rest.line];
      longest = Math.max(longest, rest.moves);
    }
    return { line: shown!, moves: longest };
  }
}

/** Moves taken back plus moves played within which `follow` goes on from a kept recogniser rather than starting afresh. */
export const FOLLOW_REACH = 12;

/** The moves in common at the start of two move lists. */
export function commonStart(a: readonly Point[], b: readonly Point[]): number {
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common;
}

/** Moves to take back from `a` and to play to reach `b`. */
export function movesApart(a: readonly Point[], b: readonly Point[]): number {
  const common = commonStart(a, b);
  return a.length - common + (b.length - common);
}

/**
 * A recogniser over `library` at the game's position: `kept` brought up to date by taking
 * back and playing moves when that is cheaper than starting afresh, else a new one.
 */
export function follow(kept: Recogniser | undefined, game: Game, library: readonly Subgoal[]): Recogniser {
  const moves = game.moves;
  if (kept !== undefined && kept.board.size === game.size) {
    const common = commonStart(kept.board.moves, moves);
    if (kept.board.moves.length - common + (moves.length - common) <= FOLLOW_REACH) {
      while (kept.board.moves.length > common) kept.undo();
      for (let i = common; i < moves.length; i++) kept.play(moves[i], game.board.get(moves[i]) as Stone);
      return kept;
    }
  }
  const board = Board.empty(game.size);
  for (const p of moves) board.play(p, game.board.get(p) as Stone);
  return new Recogniser(board, library);
}
