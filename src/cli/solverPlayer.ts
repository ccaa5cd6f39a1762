/**
 * The soundness solver (src/learning/solver.ts) as a threat-space player, `tss`: a sparring partner
 * that knows no subgoals but reads forcing lines. It is the "soundness solver as a
 * threat-space player", used by `npm run match` and the learning curve.
 *
 * Move choice, in order:
 * 1. **Five**: complete a five if it can.
 * 2. **Block a five**: play on the opponent's five threat (the first, by point, if there are
 *    several: the game is lost anyway).
 * 3. **Win**: if the solver proves a forced win for the side to move within `maxMoves` of
 *    its moves — with `counterFours`, so against any defence, the real game — play the first
 *    move of the proven line.
 * 4. **Defend**: if the solver proves a forced win for the opponent (as if the opponent were
 *    to move), try the points that could stop it — the moves of the opponent's proven line
 *    (theirs and the answers), the points that stop their threes, and their four and
 *    open-four points — best positional value first, and play the first after which the
 *    solver no longer proves the opponent a win. If none does, play the opponent's first move
 *    of the line (taking their point is the best guess left).
 * 5. **Positional**: the point with the best `positionalValue` (src/play/player.ts: what it
 *    builds of its own 5-patterns and spoils of the opponent's) among points within two
 *    steps of a stone; ties go to the lowest point id.
 *
 * It has no randomness: one position always gets the same move. A `win` from the solver is
 * proved, but `no-win` only means no threat sequence wins within the bound and `unknown`
 * that the node budget ran out — both are treated as "no forced win". The level (1–5) sets
 * the depth: `maxMoves = level + 2` (3 to 7 attacker moves); the default, level 4, searches 6.
 */
import { nearestCentre, type MovePlayer } from '../play/engine.ts';
import type { Game } from '../rules/game.ts';
import type { Board } from '../rules/board.ts';
import { positionalValue } from '../play/player.ts';
import { err, ok, problem, type Result } from '../rules/result.ts';
import { solve, type SolveResult } from '../learning/solver.ts';
import { fiveThreats, fours, openFourPoints, threeDefences } from '../rules/threats.ts';
import { otherStone, stoneOf, type Point, type Stone } from '../rules/types.ts';
import type { PlayerOptions } from './playerFactory.ts';

export interface SolverPlayerOptions {
  /** The most attacker moves a forced win may take, the five included (k of `solve`). */
  readonly maxMoves?: number;
  /** Positions each search of the side to move's own win may visit. */
  readonly nodeBudget?: number;
  /** Positions each check of a candidate defence may visit. */
  readonly defenceBudget?: number;
  /** The most candidate defences checked by the solver before falling back. */
  readonly maxDefences?: number;
  readonly name?: string;
}

/** Why a move was chosen, for tests and for reading a game. */
export type SolverReason = 'opening' | 'five' | 'block-five' | 'win' | 'defend' | 'defend-fallback' | 'positional';

export interface SolverChoice {
  readonly point: Point;
  readonly reason: SolverReason;
  /** With `win`, the number of moves to five; with `defend*`, the opponent's. */
  readonly moves?: number;
}

export const SOLVER_DEFAULTS = { maxMoves: 6, nodeBudget: 20_000, defenceBudget: 10_000, maxDefences: 12 } as const;

export class SolverPlayer implements MovePlayer {
  readonly name: string;
  private readonly maxMoves: number;
  private readonly nodeBudget: number;
  private readonly defenceBudget: number;
  private readonly maxDefences: number;

  constructor(options: SolverPlayerOptions = {}) {
    this.maxMoves = options.maxMoves ?? SOLVER_DEFAULTS.maxMoves;
    this.nodeBudget = options.nodeBudget ?? SOLVER_DEFAULTS.nodeBudget;
    this.defenceBudget = options.defenceBudget ?? SOLVER_DEFAULTS.defenceBudget;
    this.maxDefences = options.maxDefences ?? SOLVER_DEFAULTS.maxDefences;
    this.name = options.name ?? 'tss';
  }

  chooseMove(game: Game): Point {
    return this.choose(game).point;
  }

  choose(game: Game): SolverChoice {
    const centre = nearestCentre(game);
    if (centre === undefined) throw new RangeError('tss asked to move on a full board');
    if (game.moves.length === 0) return { point: centre, reason: 'opening' };
    const board = game.board;
    const me = stoneOf(game.turn);
    const them = otherStone(me);

    const five = fiveThreats(board, me);
    if (five.length > 0) return { point: five[0], reason: 'five' };
    const theirFive = fiveThreats(board, them);
    if (theirFive.length > 0) return { point: theirFive[0], reason: 'block-five' };

    const mine = this.search(board, me, this.nodeBudget);
    if (mine.result === 'win' && mine.line !== undefined && mine.line.length > 0) {
      return { point: mine.line[0], reason: 'win', moves: mine.moves! };
    }
    const theirs = this.search(board, them, this.nodeBudget);
    if (theirs.result === 'win' && theirs.line !== undefined && theirs.line.length > 0) {
      return this.defend(board, me, theirs);
    }
    return { point: bestPositional(board, me) ?? centre, reason: 'positional' };
  }

  private search(board: Board, attacker: Stone, budget: number): SolveResult {
    return solve(board, attacker, { maxAttackerMoves: this.maxMoves, nodeBudget: budget, counterFours: true });
  }

  /** A point after which the opponent's forced win is no longer proved, or their first move. */
  private defend(board: Board, me: Stone, theirs: SolveResult): SolverChoice {
    const them = otherStone(me);
    const line = theirs.line!;
    const candidates = new Set<Point>([...line, ...threeDefences(board, them), ...openFourPoints(board, them), ...fours(board, them)]);
    const ranked = [...candidates]
      .filter((p) => board.isEmpty(p))
      .map((p) => ({ p, v: positionalValue(board, p, me) + (p === line[0] ? 1e6 : 0) }))
      .sort((a, b) => b.v - a.v || a.p - b.p)
      .slice(0, this.maxDefences);
    const work = board.clone();
    // The first candidate that leaves no proven win is played; failing that, the one that
    // puts the win furthest off (a search that ran out of budget counts as furthest).
    let fallback: { p: Point; moves: number } | undefined;
    for (const { p } of ranked) {
      work.play(p, me);
      const after = this.search(work, them, this.defenceBudget);
      work.undo();
      if (after.result === 'no-win') return { point: p, reason: 'defend', moves: theirs.moves! };
      const moves = after.result === 'unknown' ? Infinity : after.moves!;
      if (fallback === undefined || moves > fallback.moves) fallback = { p, moves };
    }
    if (fallback !== undefined && fallback.moves > theirs.moves!) return { point: fallback.p, reason: 'defend', moves: theirs.moves! };
    return { point: line[0], reason: 'defend-fallback', moves: theirs.moves! };
  }
}

/** The empty point within two steps of a stone with the best positional value for `me`, lowest id on ties. */
export function bestPositional(board: Board, me: Stone): Point | undefined {
  const size = board.size;
  let best: Point | undefined;
  let bestValue = -Infinity;
  for (let p = 0; p < board.points; p++) {
    if (!board.isEmpty(p) || !nearStone(board, size, p)) continue;
    const v = positionalValue(board, p, me);
    if (v > bestValue) {
      best = p;
      bestValue = v;
    }
  }
  return best;
}

function nearStone(board: Board, size: number, p: Point): boolean {
  const c = p % size;
  const r = (p - c) / size;
  for (let dr = -2; dr <= 2; dr++) {
    const rr = r + dr;
    if (rr < 0 || rr >= size) continue;
    for (let dc = -2; dc <= 2; dc++) {
      const cc = c + dc;
      if (cc >= 0 && cc < size && !board.isEmpty(rr * size + cc)) return true;
    }
  }
  return false;
}

/** `builtin:tss`: the level (1–5, default 4) sets the depth, level + 2 attacker moves; library, learning and seed are ignored. */
export function createSolverPlayer(options: PlayerOptions): Result<MovePlayer> {
  const level = options.level ?? 4;
  if (!Number.isInteger(level) || level < 1 || level > 5) return err(problem('bad-level', `level must be 1 to 5, not ${level}`));
  return ok(new SolverPlayer({ maxMoves: level + 2, name: level === 4 ? 'tss' : `tss-${level}` }));
}
