/**
 * The player: chooses moves with what the library knows, the way the paper's program uses
 * recognised realisations "to attack and to defend". Its knowledge is the library plus the
 * rules — `(1) 1:5` is the only pattern it is born with — so a player with an empty library
 * is weak, and the members of a server make it strong by beating it.
 *
 * Move choice, in order:
 * 1. **Complete a five**: play the node of one of its own `(1) 1:5` realisations.
 * 2. **Stop the opponent's five**: play the node of the opponent's `(1) 1:5` realisation.
 * 3a. **Look ahead** (levels 3–5, src/play/lookahead.ts): a forced line of its own, found by a
 *    search whose threats are its realisations and whose moves are their commented nodes and
 *    fours, is played; else, if the opponent would have one were it their move, a candidate
 *    defence after which the search shows it gone. The opponent's lines are read one move
 *    deeper than its own (`guardDepth`); should none of its best-ranked defences hold, it
 *    tries its own fours that destroy one of their threats. Of the defences that hold (the
 *    two ends of an open three, say), it plays the one that leaves the opponent least to
 *    build: the least weight of learned realisations the opponent's best reply would make,
 *    step 5a's measure. Nothing here but the library.
 * 3b. **Attack when it wins the race**: play the commented node of its own realisation with
 *    the fewest moves to five, k, when the opponent's best realisation needs more than k
 *    moves. A plan of two moves is a four or an open four and cannot be interrupted; a plan of
 *    three or more begins with a three, which the opponent may answer with a four of their
 *    own (a *forcing four*: a move that gives them a `(1) 1:5` realisation) to win a tempo, so
 *    when they have one such a plan must be two moves ahead of theirs, not one.
 * 4. **Destroy the opponent's realisations**: if the opponent has realisations within the
 *    player's horizon, play a point that destroys all of the most urgent ones (an explicit or
 *    implicit node common to them) if there is one; otherwise the point that destroys the
 *    most urgent realisations, weighed by urgency, ties going to the one that also builds.
 * 5a. **Build what it has learned** (levels 3–5): of the quiet points near the stones, best
 *    positional value first (up to the level's `shapes`), the one where its own learned
 *    realisations after playing there, and the opponent's were the opponent to play there,
 *    weigh most together — each realisation of a learned subgoal 2^-k, k its moves to five,
 *    so the quickest count most. The rule of five's `(1) 1:5` is not counted (a four is the
 *    tactics above), so with nothing learned this step never fires. The paper's program plays
 *    to realise what it recognises and destroys what the opponent realises; this is both one
 *    move earlier: toward its own learned shapes, and on the opponent's best point for theirs.
 * 5b. **Positional play**: the point that builds most of its own possible 5-patterns and
 *    spoils most of the opponent's (each pattern through the point counts more the more
 *    stones it holds), among the points near the stones.
 *
 * Levels 1–5 (as the old Go programs had them): lower levels look less far — a realisation
 * needing more moves than the level's horizon is not acted on — and overlook each of the
 * opponent's realisations with some probability, and levels 3–5 look ahead 3, 4 and 5 of
 * their own moves (4, 5 and 6 of the opponent's) and weigh 12, 24 and 40 quiet points by what
 * they learned. Level 5 is the full player. Among positional moves within a small margin of
 * the best, one is drawn from the seeded generator, so games differ from seed to seed but one
 * seed always plays the same game.
 * The soundness solver is never used while playing.
 */
import type { MoveClock, MovePlayer } from './engine.ts';
import { nearestCentre } from './engine.ts';
import type { Game } from '../rules/game.ts';
import { WINDOW } from '../rules/geometry.ts';
import { Board } from '../rules/board.ts';
import { makePoint } from '../rules/point.ts';
import { seededRandom, type Random } from '../rules/random.ts';
import { follow, fourMoves, Lookahead, type ForcedLine } from './lookahead.ts';
import { commonDestroyers, destroyingPoints, movesToFive, quickest, type Realisation } from '../recognition/realisation.ts';
import type { Recogniser } from '../recognition/recognise.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import { RULE_OF_FIVE } from '../notation/libraryFile.ts';
import { opposite, stoneOf, type Colour, type Point, type Stone } from '../rules/types.ts';

export type Level = 1 | 2 | 3 | 4 | 5;

/** A player's seed when none is given: the paper's year. */
export const DEFAULT_SEED = 1968;

interface LevelRule {
  /** The most moves to five a realisation may need to be acted on. */
  readonly horizon: number;
  /** Chance of overlooking each of the opponent's realisations (not fives). */
  readonly overlook: number;
  /** Margin, as a fraction of the best positional score, within which moves are drawn at random. */
  readonly margin: number;
  /** The look-ahead's depth in the searching side's moves (0: no look-ahead). */
  readonly depth: number;
  /** The most moves one search may play. */
  readonly budget: number;
  /** The most moves all the searches of one move may play together. */
  readonly moveBudget: number;
  /**
   * The most work all of one move's plays — its searches' and step 5a's — may take together
   * (Lookahead.startMove: steps of the recogniser's interpreter, ten for each realisation
   * listed). Over 40 games against tss (2026-11-28) the median level-5 move took 2.5
   * thousand steps, one in a hundred 0.5 million, the worst 2.4 million (4.3 s); 750 000
   * holds the worst near 0.75 s.
   */
  readonly work: number;
  /** The most moves the searching side tries at one turn. */
  readonly breadth: number;
  /** The most candidate defences checked against the opponent's forced line. */
  readonly defences: number;
  /** The most quiet points weighed by the learned realisations they make (step 5a; 0: none). */
  readonly shapes: number;
}

export const LEVELS: Readonly<Record<Level, LevelRule>> = {
  1: { horizon: 2, overlook: 0.5, margin: 0.35, depth: 0, budget: 0, moveBudget: 0, work: 0, breadth: 0, defences: 0, shapes: 0 },
  2: { horizon: 3, overlook: 0.3, margin: 0.25, depth: 0, budget: 0, moveBudget: 0, work: 0, breadth: 0, defences: 0, shapes: 0 },
  3: { horizon: 4, overlook: 0.15, margin: 0.15, depth: 3, budget: 60, moveBudget: 150, work: 225_000, breadth: 6, defences: 4, shapes: 12 },
  4: { horizon: 6, overlook: 0.05, margin: 0.08, depth: 4, budget: 120, moveBudget: 300, work: 450_000, breadth: 8, defences: 8, shapes: 24 },
  // Level 5's plays were 200 a search and 500 a move until 2026-11-29; three times as many,
  // within the same work, found the opponent's lines that the smaller budget ran out before
  // (DESIGN, "Bounds by level").
  5: { horizon: Infinity, overlook: 0, margin: 0.04, depth: 5, budget: 600, moveBudget: 1500, work: 750_000, breadth: 10, defences: 12, shapes: 40 },
};

/**
 * The depth at which a level reads the opponent's lines: one more than its own. A line the
 * opponent can start on their next move is checked a move further than the player would
 * attack with, because a defence judged at its own depth lets through the lines one move
 * longer (DESIGN, "The opponent's lines are read one move deeper"). 0 without a look-ahead.
 */
export function guardDepth(level: Level): number {
  const depth = LEVELS[level].depth;
  return depth === 0 ? 0 : depth + 1;
}

/** Why a move was chosen, in the paper's terms. */
export type Reason =
  | { readonly kind: 'five'; readonly realisation: Realisation }
  | { readonly kind: 'block-five'; readonly realisation: Realisation }
  | { readonly kind: 'attack'; readonly realisation: Realisation; readonly node: number; readonly moves: number }
  | { readonly kind: 'force'; readonly line: ForcedLine }
  | { readonly kind: 'refute'; readonly line: ForcedLine; readonly holding?: number }
  | { readonly kind: 'defend'; readonly destroyed: readonly Realisation[]; readonly threats: number }
  | { readonly kind: 'build'; readonly mine: BuildSide; readonly theirs: BuildSide }
  | { readonly kind: 'positional'; readonly score: number }
  | { readonly kind: 'opening' };

/** One side's learned realisations with a move at the point (step 5a): how many, and the quickest. */
export interface BuildSide {
  readonly count: number;
  readonly quickest?: Realisation;
}

export interface MoveChoice {
  readonly point: Point;
  readonly colour: Colour;
  readonly reason: Reason;
}

export interface PlayerConfig {
  readonly library: readonly Subgoal[];
  readonly level?: Level;
  readonly seed?: number;
  readonly name?: string;
  /** Called with each finished game (see MovePlayer.gameOver), e.g. to learn from a loss. */
  readonly onGameOver?: (game: Game) => void | Promise<void>;
}

/** Positional weight of a possible 5-pattern holding k stones (k = 0..4). */
const BUILD = [1, 6, 36, 216, 1296];
/** Spoiling the opponent's pattern is worth a little less than building one's own. */
const SPOIL = [1, 5, 30, 180, 1080];

export class Player implements MovePlayer {
  readonly name: string;
  readonly level: Level;
  private library: readonly Subgoal[];
  private rnd: Random;
  private readonly onGameOver?: (game: Game) => void | Promise<void>;
  private recogniser?: Recogniser;
  private lookahead?: Lookahead;

  constructor(config: PlayerConfig) {
    this.library = config.library;
    this.level = config.level ?? 5;
    this.rnd = seededRandom(config.seed ?? DEFAULT_SEED);
    this.name = config.name ?? `elcock-${this.level}`;
    if (config.onGameOver !== undefined) this.onGameOver = config.onGameOver;
  }

  /**
   * Starts the generator again from `seed`, as a player made with that seed starts it; the
   * recogniser and look-ahead it keeps stay. A player kept through a game and reseeded before
   * each move chooses what a new player with that seed would (test/player.test.ts), without
   * recognising the whole position again: the bot's play workers keep players this way.
   */
  reseed(seed: number): void {
    this.rnd = seededRandom(seed);
  }

  /** Replaces the library (after learning); the next move recognises with it. */
  setLibrary(library: readonly Subgoal[]): void {
    this.library = library;
    if (this.recogniser !== undefined) this.recogniser.setLibrary(library);
    if (this.lookahead !== undefined) this.lookahead.setLibrary(library);
  }

  chooseMove(game: Game, _clock?: MoveClock): Point {
    return this.choose(game).point;
  }

  async gameOver(game: Game): Promise<void> {
    this.recogniser = undefined;
    this.lookahead = undefined;
    if (this.onGameOver !== undefined) await this.onGameOver(game);
  }

  /** A move for the side to move, with its reason. */
  choose(game: Game): MoveChoice {
    return this.decide(game, this.level, this.rnd);
  }

  /**
   * A suggestion for the human to move: the full player's choice (level 5), drawn from a
   * generator seeded by the position so the same position always gets the same hint.
   */
  hint(game: Game): MoveChoice {
    return this.decide(game, 5, seededRandom(game.moves.reduce((h, p) => (Math.imul(h, 31) + p + 1) >>> 0, 7)));
  }

  /**
   * What the positional rule (step 5) would weigh for the side to move: each vacant point near
   * the stones with its score, best first (ties by point). The same scores the rule picks from;
   * reading them chooses nothing and draws nothing from the generator. For the /hint heat map.
   */
  positionalScores(game: Game): { readonly point: Point; readonly score: number }[] {
    return rankedPoints(game.board, stoneOf(game.turn));
  }

  /** The realisations the player sees on the game's board, for both colours. */
  realisations(game: Game): { black: Realisation[]; white: Realisation[] } {
    const r = this.sync(game);
    return { black: r.realisations('black'), white: r.realisations('white') };
  }

  /** Brings the kept recogniser to the game's position: play on if the game went on, else start afresh. */
  private sync(game: Game): Recogniser {
    this.recogniser = follow(this.recogniser, game, this.library);
    return this.recogniser;
  }

  /** The look-ahead of the given depth, at the game's position. */
  private search(game: Game, depth: number): Lookahead {
    if (this.lookahead === undefined || this.lookahead.depth !== depth) this.lookahead = new Lookahead(this.library, depth);
    this.lookahead.sync(game);
    return this.lookahead;
  }

  private decide(game: Game, level: Level, rnd: Random): MoveChoice {
    const me = game.turn;
    const them = opposite(me);
    if (game.moves.length === 0) {
      const centre = nearestCentre(game)!;
      return { point: centre, colour: me, reason: { kind: 'opening' } };
    }
    const rule = LEVELS[level];
    const r = this.sync(game);
    const mine = r.realisations(me).filter((x) => movesToFive(x) !== undefined);
    const theirs = r.realisations(them).filter((x) => movesToFive(x) !== undefined && (movesToFive(x) === 1 || rnd.next() >= rule.overlook));

    // 1. Complete a five.
    const five = mine.find((x) => movesToFive(x) === 1);
    if (five !== undefined) return { point: commentedNode(five), colour: me, reason: { kind: 'five', realisation: five } };
    // 2. Stop the opponent's five.
    const theirFive = theirs.find((x) => movesToFive(x) === 1);
    if (theirFive !== undefined) return { point: commentedNode(theirFive), colour: me, reason: { kind: 'block-five', realisation: theirFive } };

    // 3-4. Look ahead: a forced win of its own, else a defence against the opponent's.
    if (rule.depth > 0) {
      const found = this.lookAhead(game, level);
      if (found !== undefined) return found;
    }

    const myBest = quickest(mine.filter((x) => movesToFive(x)! <= rule.horizon));
    const theirBest = quickest(theirs.filter((x) => movesToFive(x)! <= rule.horizon));
    const kMine = myBest === undefined ? Infinity : movesToFive(myBest)!;
    const kTheirs = theirBest === undefined ? Infinity : movesToFive(theirBest)!;

    // 3. Attack when the race is won.
    const tempo = kMine >= 3 && canMakeFour(game.board, stoneOf(them)) ? 1 : 0;
    if (myBest !== undefined && kMine + tempo < kTheirs) {
      const node = commentedLabel(myBest);
      return { point: myBest.nodes[node - 1], colour: me, reason: { kind: 'attack', realisation: myBest, node, moves: kMine } };
    }

    // 4. Destroy the opponent's realisations.
    if (theirBest !== undefined) {
      const urgent = theirs.filter((x) => movesToFive(x)! <= rule.horizon);
      const point = this.defencePoint(game, urgent, rnd);
      const destroyed = urgent.filter((x) => destroyingPoints(x).includes(point));
      return { point, colour: me, reason: { kind: 'defend', destroyed, threats: urgent.length } };
    }

    // 5a. Build toward what it has learned.
    if (rule.shapes > 0) {
      const built = this.build(game, this.search(game, rule.depth), rule.shapes);
      if (built !== undefined) return built;
    }

    // 5b. Positional play.
    const { point, score } = this.positional(game, rule, rnd);
    return { point, colour: me, reason: { kind: 'positional', score } };
  }

  /**
   * The look-ahead (src/play/lookahead.ts): a forced win for the side to move, played; else, if
   * the opponent would have one were it their move, the first candidate defence after which
   * the search no longer finds it — candidates being the points of the opponent's threatening
   * realisations and of their line, and the side's own fours (a four gains a tempo), most
   * threats destroyed first. Undefined when neither side has a forced line, or no defence
   * was found (the caller then destroys what it can).
   */
  private lookAhead(game: Game, level: Level): MoveChoice | undefined {
    const rule = LEVELS[level];
    const deeper = guardDepth(level);
    const me = game.turn;
    const them = opposite(me);
    const la = this.search(game, rule.depth);
    la.startMove(rule.moveBudget, rule.work);
    const bounds = { depth: rule.depth, budget: rule.budget, breadth: rule.breadth };
    const mine = la.forcedWin(me, bounds);
    if (mine !== undefined) return { point: mine.line[0].point, colour: me, reason: { kind: 'force', line: mine } };
    const guard = { ...bounds, depth: deeper };
    const theirs = la.forcedWin(them, guard);
    if (theirs === undefined) return undefined;
    const threats = la.realisations(them).filter((r) => movesToFive(r)! <= deeper);
    const hits = new Map<Point, number>();
    for (const r of threats) for (const p of destroyingPoints(r)) hits.set(p, (hits.get(p) ?? 0) + 1);
    // Among defences that stop the line, one that also destroys the opponent's slower
    // realisations (beyond the search's depth, which it cannot play out) is worth more.
    const slower = new Map<Point, number>();
    for (const r of this.sync(game).realisations(them)) {
      const k = movesToFive(r);
      if (k === undefined || k <= deeper) continue;
      for (const p of destroyingPoints(r)) slower.set(p, (slower.get(p) ?? 0) + 1000 / 2 ** (k - deeper));
    }
    const fours = fourMoves(la.board, stoneOf(me));
    const candidates = new Set<Point>([...theirs.line.map((s) => s.point), ...hits.keys(), ...fours]);
    const board = la.board;
    const ranked = [...candidates]
      .filter((p) => board.isEmpty(p))
      .map((p) => ({ p, v: (hits.get(p) ?? 0) * 1e6 + (slower.get(p) ?? 0) * 1e3 + (p === theirs.line[0].point ? 1e5 : 0) + positionalValue(board, p, stoneOf(me)) }))
      .sort((a, b) => b.v - a.v || a.p - b.p);
    // The best `defences` of them, then its own fours ranked below those that destroy a
    // threat: a four the opponent must answer gains the tempo a plain block lacks, so it may
    // hold where the blocks that destroy more do not. Tried in that order.
    const tried = ranked.slice(0, rule.defences);
    for (const x of ranked.slice(rule.defences)) if (hits.has(x.p) && fours.includes(x.p)) tried.push(x);
    // A defence after which the search shows no line holds; one after which it only found
    // none before a bound cut it short is kept if nothing holds. Every candidate is checked
    // while the move's plays last, since the defences that hold are seldom alike: the wrong
    // end of an open three stops the line the search sees and leaves the opponent a better
    // position to build the next one from (DESIGN, "Of the defences that hold").
    let doubtful: Point | undefined;
    const holding: { p: Point; left: number | undefined }[] = [];
    for (const { p } of tried) {
      if (la.playsLeft === 0) break;
      la.play(p, me);
      const still = la.forcedWin(them, guard);
      const cut = la.lastSearchCut;
      const left = still === undefined && !cut ? bestReply(la, them, Math.min(REPLIES, rule.shapes)) : undefined;
      la.undo();
      if (still !== undefined) continue;
      if (!cut) holding.push({ p, left });
      else doubtful ??= p;
    }
    if (holding.length > 0) {
      // The least left to the opponent; ties to the better-ranked defence. A defence whose
      // replies the move's work cut short is not known to leave less: it is played only when
      // no holding defence was weighed in full.
      const weighed = holding.filter((h) => h.left !== undefined);
      const best = weighed.length === 0 ? holding[0] : weighed.reduce((a, b) => (b.left! < a.left! ? b : a));
      return { point: best.p, colour: me, reason: { kind: 'refute', line: theirs, holding: holding.length } };
    }
    if (doubtful === undefined) return undefined;
    return { point: doubtful, colour: me, reason: { kind: 'refute', line: theirs } };
  }

  /** A point destroying every most urgent realisation if one exists, else the most, by urgency. */
  private defencePoint(game: Game, urgent: readonly Realisation[], rnd: Random): Point {
    const kMin = Math.min(...urgent.map((x) => movesToFive(x)!));
    const mostUrgent = urgent.filter((x) => movesToFive(x) === kMin);
    const common = commonDestroyers(mostUrgent);
    const weight = new Map<Point, number>();
    for (const x of urgent) {
      const w = 1000 / 10 ** (movesToFive(x)! - kMin);
      for (const p of destroyingPoints(x)) weight.set(p, (weight.get(p) ?? 0) + w);
    }
    const candidates = common.length > 0 ? common : [...weight.keys()];
    // Among the candidates: most weight destroyed, then most positional value, then by point.
    let bestScore = -Infinity;
    let bestPoints: Point[] = [];
    const me = stoneOf(game.turn);
    for (const p of candidates.sort((a, b) => a - b)) {
      if (!game.board.isEmpty(p)) continue;
      const s = (weight.get(p) ?? 0) * 1e6 + positionalValue(game.board, p, me);
      if (s > bestScore) {
        bestScore = s;
        bestPoints = [p];
      } else if (s === bestScore) {
        bestPoints.push(p);
      }
    }
    return bestPoints.length > 0 ? rnd.pick(bestPoints) : nearestCentre(game)!;
  }

  /**
   * Step 5a: of the `shapes` points near the stones with the best positional value, the one
   * where the side's learned realisations after playing there plus the opponent's, were they
   * to play there, weigh most (2^-k each, k moves to five; `(1) 1:5` not counted); ties by
   * positional value, then point. Undefined when every candidate weighs the same — nothing
   * learned is within reach — and position decides. Each candidate is two plays and undos on
   * the look-ahead's recogniser, whose library is the subgoals a search of the level's depth
   * can finish (`quickSubgoals`; 329 of the 1000-subgoal fixture at depth 5): cheaper plays
   * than the whole library's — on it the level-5 median move was 62–66 ms, here 36 ms — and
   * the shapes the player can then play out.
   */
  private build(game: Game, la: Lookahead, shapes: number): MoveChoice | undefined {
    const me = game.turn;
    const them = opposite(me);
    const weigh = (p: Point, c: Colour) => weighPlay(la, p, c);
    let best: { p: Point; weight: number; mine: BuildSide; theirs: BuildSide } | undefined;
    let least = Infinity;
    for (const { point } of this.positionalScores(game).slice(0, shapes)) {
      // The move's work bounds this step too (LevelRule.work): what was weighed decides.
      if (la.workSpent) break;
      const mine = weigh(point, me);
      const theirs = weigh(point, them);
      const weight = mine.weight + theirs.weight;
      least = Math.min(least, weight);
      if (best === undefined || weight > best.weight) best = { p: point, weight, mine: mine.side, theirs: theirs.side };
    }
    if (best === undefined || best.weight === least) return undefined;
    return { point: best.p, colour: me, reason: { kind: 'build', mine: best.mine, theirs: best.theirs } };
  }

  private positional(game: Game, rule: LevelRule, rnd: Random): { point: Point; score: number } {
    const board = game.board;
    const me = stoneOf(game.turn);
    const scored: { p: Point; s: number }[] = [];
    for (const p of board.emptyNear(2)) scored.push({ p, s: positionalValue(board, p, me) });
    if (scored.length === 0) {
      const p = nearestCentre(game)!;
      return { point: p, score: 0 };
    }
    const top = Math.max(...scored.map((x) => x.s));
    const near = scored.filter((x) => x.s >= top * (1 - rule.margin));
    const pick = rnd.pick(near);
    return { point: pick.p, score: pick.s };
  }
}

/**
 * One pass over c's learned realisations with a stone of c at p (played and taken back on the
 * look-ahead's recogniser): their weight, 2^-k each with k the moves to five, `(1) 1:5` not
 * counted; how many; and the quickest. Step 5a's measure. A realisation is its subgoal and
 * signature, so it outlives the undo.
 */
function weighPlay(la: Lookahead, p: Point, c: Colour): { weight: number; side: BuildSide } {
  la.play(p, c);
  let weight = 0;
  let count = 0;
  let first: Realisation | undefined;
  for (const r of la.realisations(c)) {
    if (r.subgoal.text === RULE_OF_FIVE) continue;
    const k = movesToFive(r)!;
    weight += 2 ** -k;
    count++;
    if (first === undefined || k < movesToFive(first)!) first = r;
  }
  la.undo();
  return { weight, side: first === undefined ? { count: 0 } : { count, quickest: first } };
}

/** Replies weighed when choosing between defences that hold (capped by the level's `shapes`). */
const REPLIES = 20;

/**
 * What c could build next on the look-ahead's board, by what the library knows: the most
 * step-5a weight (weighPlay) among c's `replies` points of best positional value near the
 * stones. Undefined when the move's work is spent before every reply is weighed: the most
 * among the replies weighed so far is not what c could build, only a floor of it.
 */
export function bestReply(la: Lookahead, c: Colour, replies: number): number | undefined {
  let most = 0;
  for (const { point } of rankedPoints(la.board, stoneOf(c)).slice(0, replies)) {
    if (la.workSpent) return undefined;
    most = Math.max(most, weighPlay(la, point, c).weight);
  }
  return most;
}

/** The vacant points near the stones by positional value for s, best first (ties by point): step 5's scores. */
function rankedPoints(board: Board, s: Stone): { readonly point: Point; readonly score: number }[] {
  return board
    .emptyNear(2)
    .map((point) => ({ point, score: positionalValue(board, point, s) }))
    .sort((a, b) => b.score - a.score || a.point - b.point);
}

export function createPlayer(config: PlayerConfig): Player {
  return new Player(config);
}

/** The label of the node with the smallest comment (the quickest start). */
function commentedLabel(r: Realisation): number {
  let best = 1;
  let k = Infinity;
  r.comments.forEach((c, i) => {
    if (c !== undefined && c < k) {
      k = c;
      best = i + 1;
    }
  });
  return best;
}

function commentedNode(r: Realisation): Point {
  return r.nodes[commentedLabel(r) - 1];
}

/**
 * Whether s has a move that makes a four: a point where play would give s a `(1) 1:5`
 * realisation, i.e. a possible 5-pattern already holding three of s's stones.
 */
export function canMakeFour(board: Board, s: Stone): boolean {
  return board.possibleCount(s, WINDOW - 2) > 0;
}

/** What play at p builds for `me` and spoils for the opponent, over the 5-patterns through p. */
export function positionalValue(board: Board, p: Point, me: Stone): number {
  const g = board.geometry;
  const them = (3 - me) as Stone;
  let v = 0;
  for (let i = g.pointWindowStart[p]; i < g.pointWindowStart[p + 1]; i++) {
    const w = g.pointWindows[i];
    if (board.isPossible(w, me)) v += BUILD[Math.min(4, board.stonesIn(w, me))];
    if (board.isPossible(w, them)) v += SPOIL[Math.min(4, board.stonesIn(w, them))];
  }
  return v;
}

/** The reason for a move in the paper's words, e.g. "plays node 1 of `(1) 2:4'`, five in 2". */
/**
 * The choice's reason in the paper's terms. `advice`: the move is suggested to the side to move
 * (a hint), so its line reads "after my X you play Y" — the opponent's reply is the bot's.
 */
export function explain(choice: MoveChoice, size: number, advice = false): string {
  const at = (p: Point) => makePoint(size, p);
  const nodes = (r: Realisation) => r.nodes.map(at).join(' ');
  const other = opposite(choice.colour);
  const reason = choice.reason;
  switch (reason.kind) {
    case 'opening':
      return `${at(choice.point)}: opens at the centre`;
    case 'five':
      return `${at(choice.point)}: completes a five`;
    case 'block-five':
      return `${at(choice.point)}: stops ${other}'s five (destroys ${other}'s realisation of \`${reason.realisation.subgoal.text}\` at ${nodes(reason.realisation)})`;
    case 'attack': {
      const others = reason.realisation.nodes.length > 1 ? ` (nodes ${nodes(reason.realisation)})` : '';
      return `${at(choice.point)}: plays node ${reason.node} of \`${reason.realisation.subgoal.text}\`${others}, five in ${reason.moves}`;
    }
    case 'defend': {
      const list = reason.destroyed.slice(0, 3).map((r) => `\`${r.subgoal.text}\` at ${nodes(r)}`);
      const more = reason.destroyed.length > 3 ? ` and ${reason.destroyed.length - 3} more` : '';
      const all = reason.destroyed.length === reason.threats ? '' : ` (${reason.threats - reason.destroyed.length} other threat${reason.threats - reason.destroyed.length === 1 ? '' : 's'} left)`;
      return `${at(choice.point)}: destroys ${other}'s realisation${reason.destroyed.length === 1 ? '' : 's'} of ${list.join(', ')}${more}${all}`;
    }
    case 'force': {
      const [first, reply, next] = reason.line.line;
      const why = first.from !== undefined ? `plays node ${first.from.nodes.indexOf(first.point) + 1} of \`${first.from.subgoal.text}\`` : first.makes !== undefined ? `makes \`${first.makes.subgoal.text}\`` : 'threatens';
      const [replier, mover] = advice ? ['my', 'you'] : ['your', 'I'];
      const then = reply !== undefined && next !== undefined ? `: after ${replier} ${at(reply.point)} ${mover} play ${at(next.point)}${next.makes !== undefined ? `, making \`${next.makes.subgoal.text}\`` : ''}` : '';
      return `${at(choice.point)}: ${why}, five in ${reason.line.moves}${then}`;
    }
    case 'refute': {
      const first = reason.line.line[0];
      const made = first.from !== undefined ? ` (node of \`${first.from.subgoal.text}\`)` : first.makes !== undefined ? `, making \`${first.makes.subgoal.text}\`,` : '';
      const among = reason.holding !== undefined && reason.holding > 1 ? `; of the ${reason.holding} defences that hold, the one that leaves ${other} least to build` : '';
      return `${at(choice.point)}: stops ${other}'s forced line — ${other} would play ${at(first.point)}${made} and win in ${reason.line.moves}${among}`;
    }
    case 'build': {
      const side = (b: BuildSide, whose: string) =>
        `${b.count} realisation${b.count === 1 ? '' : 's'} of ${whose} subgoals, the quickest \`${b.quickest!.subgoal.text}\` at ${nodes(b.quickest!)}, five in ${movesToFive(b.quickest!)}`;
      const theirs = reason.theirs.quickest === undefined ? '' : `there ${other} would have had ${side(reason.theirs, 'its')}`;
      if (reason.mine.quickest === undefined) return `${at(choice.point)}: takes ${other}'s best point by what it has learned — ${theirs}`;
      return `${at(choice.point)}: builds toward what it has learned — after it, ${side(reason.mine, 'its')}${theirs === '' ? '' : `; and ${theirs}`}`;
    }
    case 'positional':
      return `${at(choice.point)}: builds its own 5-patterns and spoils ${other}'s (by position: no learned realisation to act on)`;
  }
}
