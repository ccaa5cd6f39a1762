/**
 * The learning curve: the project's player starts from an empty library (the rule of five
 * only) and plays a long series against a fixed rotating mix of opponents, learning from
 * every game it loses — the paper's backtrack analysis (src/learning/analysis.ts) of the finished
 * game, each new subgoal added to its library (src/learning/library.ts) before the next game — and,
 * as the bot does, from every game it wins with a five (`learnFromWins`).
 *
 * Games are played by the match runner (src/gomocup/match.ts), engine against engine over the
 * Gomocup protocol in this process, refereed with exact five:
 * - the series goes in pairs: pair k is played against opponent k mod n (the mix, in order)
 *   from opening k (cycled), the learner black in the first game of the pair and white in
 *   the second, so an opening's luck cancels out within the pair;
 * - each game is a match of one game, so the learner learns from a loss before the next game
 *   starts; it learns from the finished game the referee holds (with the winning move), not
 *   from what a Gomocup brain is told: a manager never sends the loser the opponent's five;
 * - each game gets a fresh opponent engine (`create(pair)`, the same pair number for both
 *   games of a pair, so a seeded opponent may vary its seed by pair); the learner is one
 *   player across the whole series.
 *
 * What is reported: each game's result and the library size after it; per block of games
 * the loss rate and the library size; and, against a target opponent, the score over a
 * rolling window of the last games against it, with the first game of the series at which it
 * reached the target score. `evaluate` plays a library, frozen, against an opponent.
 */
import type { MovePlayer } from '../play/engine.ts';
import { analyseGame } from '../learning/analysis.ts';
import type { Description } from '../notation/description.ts';
import type { Game } from '../rules/game.ts';
import { GomocupSession } from './protocol.ts';
import { Library } from '../learning/library.ts';
import { playMatch, sessionChannel, type EngineSpec, type EngineStanding, type GameOutcome, type MatchReport, type Opening } from './match.ts';
import { createPlayer, type Level, type Player } from '../play/player.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import { opposite, type Colour } from '../rules/types.ts';

export interface CurveOpponent {
  readonly name: string;
  /** A fresh engine for pair `pair` (0-based) of the series or of an evaluation. */
  readonly create: (pair: number) => MovePlayer;
}

/** What the analysis of a lost game taught, or why it taught nothing. */
export type LossAnalysis =
  | { readonly learned: readonly { readonly subgoal: Description | Subgoal; readonly moveIndex: number }[] }
  | { readonly error: string };

/**
 * Analyses a lost game (finished with the winner's five) against the learner's library as it
 * stands, which it must not change. The default runs `analyseGame` in this process; a caller
 * may run it elsewhere, under a time limit, say.
 */
export type LossAnalyser = (game: Game, library: Library) => LossAnalysis | Promise<LossAnalysis>;

/**
 * `analyseGame` here and now. The analysis is the learner's code under test, not the
 * referee's: if it fails or throws, the loss teaches nothing and the series goes on, with
 * the reason kept in the game's record.
 */
export function analyseInProcess(game: Game, library: Library): LossAnalysis {
  try {
    const a = analyseGame(game, library.subgoals());
    return a.ok ? { learned: a.value.learned } : { error: a.error.message };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export interface CurveOptions {
  /** Games in the series, unless `stop` ends it sooner (an odd count plays the last pair's first game only). */
  readonly games: number;
  readonly size: number;
  /** The mix, in rotation: pair k is played against opponents[k mod n]. */
  readonly opponents: readonly CurveOpponent[];
  /** Opening k starts pair k (cycled); empty, every game starts on an empty board. */
  readonly openings: readonly Opening[];
  /** The learner's level; 5 (the full player) by default. */
  readonly level?: Level;
  /** The learner's seed; 1968 by default. */
  readonly seed?: number;
  /** Games per block of the report; 20 by default. */
  readonly blockSize?: number;
  /** The opponent whose rolling score is followed; the first opponent by default. */
  readonly target?: string;
  /** Games against the target in the rolling window; 20 by default. */
  readonly window?: number;
  /** The score (percent, draws half) the rolling window must reach; 80 by default. */
  readonly targetScore?: number;
  /** The library to start from; empty (the rule of five) by default. It is not changed. */
  readonly library?: Library;
  /** The longest a move may take before the engine forfeits (ms); 60 000 by default. */
  readonly timeoutMs?: number;
  /** The date written in each learned subgoal's provenance; today by default. */
  readonly date?: string;
  /**
   * Whether the learner also walks back through the games it wins with a five, remembering
   * its own winning lines as subgoals (the bot's rule, docs/DESIGN.md); true by default.
   */
  readonly learnFromWins?: boolean;
  /** How a lost game is analysed; `analyseInProcess` by default. */
  readonly analyse?: LossAnalyser;
  /**
   * Every this many analysed games, right after the last of them is learned from, the learner
   * walks back again through every game it has analysed so far, oldest first, with the library
   * as it now stands, and keeps what they teach that it did not know (`reflect`) — as the bot
   * does (src/bot/reflection.ts); 0, by default, never. A walk back goes as far as the library
   * lets it recognise the winner's earlier threats, so a game analysed when the library was
   * small stopped short of lessons it can teach now.
   */
  readonly reflectEvery?: number;
  /** Called after each game of the series, once the learner has learned from it, with its library then. */
  readonly onGame?: (game: CurveGame, library: Library) => void;
  /** Called after `onGame`; true ends the series after this game (a library size or a time budget reached). */
  readonly stop?: (game: CurveGame, library: Library) => boolean;
}

export type CurveResult = 'win' | 'loss' | 'draw';

export interface CurveGame {
  /** 0-based index in the series. */
  readonly index: number;
  readonly opponent: string;
  readonly learner: Colour;
  readonly result: CurveResult;
  /** Moves in the game, opening stones included. */
  readonly moves: number;
  /** New subgoals learned from this game (0 unless it was analysed). */
  readonly learned: number;
  /** New subgoals learned by walking back again through the games analysed so far, just after this one (`reflectEvery`). */
  readonly reflected: number;
  /** Time that reflection took, ms (0 when there was none after this game). */
  readonly reflectionMs: number;
  /** Learned subgoals in the library after this game (the rule of five not counted). */
  readonly librarySize: number;
  /** The learner's mean time per move in this game, ms. */
  readonly learnerMeanMs: number;
  /** The opponent's mean time per move in this game, ms. */
  readonly opponentMeanMs: number;
  /** Time spent analysing the game after a loss, ms (0 otherwise). */
  readonly analysisMs: number;
  /** How the game ended: a five, a full board or a forfeit. */
  readonly how: GameOutcome['how'];
  /** The game as the referee finished it (the opening's stones first). */
  readonly game: Game;
  /** Set when the analysis of a lost game failed, threw or was given up: why. The game taught nothing. */
  readonly analysisError?: string;
}

export interface OpponentTally {
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
}

export interface CurveBlock {
  /** 0-based index of the block's first game. */
  readonly first: number;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  /** losses / games. */
  readonly lossRate: number;
  /** Learned subgoals in the library at the end of the block. */
  readonly librarySize: number;
  readonly byOpponent: Readonly<Record<string, OpponentTally>>;
}

export interface TargetProgress {
  readonly name: string;
  readonly window: number;
  readonly score: number;
  /** The 1-based series game at which the rolling score first reached `score`, if it did. */
  readonly reachedAt?: number;
  /** Games against the target played by then. */
  readonly reachedAfterTargetGames?: number;
  /** The best rolling score over the series and the 1-based series game where it was first seen. */
  readonly best?: { readonly score: number; readonly at: number };
  /** Rolling score after each game against the target once a window is full: [series game (1-based), score %]. */
  readonly rolling: readonly (readonly [number, number])[];
}

export interface LearningCurve {
  readonly size: number;
  readonly opponents: readonly string[];
  readonly games: readonly CurveGame[];
  readonly blocks: readonly CurveBlock[];
  readonly target: TargetProgress;
  /** The library at the end of the series. */
  readonly library: Library;
  readonly ms: number;
}

const LEARNER = 'learner';

/** A player as a builtin engine: each connection a fresh Gomocup session over `player()`. */
export function engineOf(name: string, player: () => MovePlayer): EngineSpec {
  return { name, connect: () => sessionChannel(new GomocupSession({ player: player() })) };
}

export async function runLearningCurve(options: CurveOptions): Promise<LearningCurve> {
  if (options.opponents.length === 0) throw new RangeError('the mix needs at least one opponent');
  const started = performance.now();
  const blockSize = options.blockSize ?? 20;
  const library = (options.library ?? Library.empty()).clone();
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  const learner: Player = createPlayer({ library: library.subgoals(), level: options.level ?? 5, seed: options.seed ?? 1968, name: LEARNER });
  const learnerSpec = engineOf(LEARNER, () => learner);
  const games: CurveGame[] = [];
  const analyse = options.analyse ?? analyseInProcess;
  const reflectEvery = options.reflectEvery ?? 0;
  if (!Number.isInteger(reflectEvery) || reflectEvery < 0) throw new RangeError('reflectEvery must be a whole number ≥ 0');
  // The games analysed so far, won with a five, for reflection.
  const analysedGames: { readonly game: Game; readonly index: number }[] = [];
  for (let index = 0; index < options.games; index++) {
    const pair = Math.floor(index / 2);
    const opponent = options.opponents[pair % options.opponents.length];
    const opening = options.openings.length === 0 ? [] : options.openings[pair % options.openings.length];
    const learnerColour: Colour = index % 2 === 0 ? 'black' : 'white';
    const them = engineOf(opponent.name, () => opponent.create(pair));
    // One game per match: black is the first engine, so the pair's second game swaps them.
    const report = await playMatch(learnerColour === 'black' ? learnerSpec : them, learnerColour === 'black' ? them : learnerSpec, {
      size: options.size,
      games: 1,
      openings: [opening],
      timeoutMs: options.timeoutMs ?? 60_000,
    });
    const o = report.outcomes[0];
    const result: CurveResult = o.winner === undefined ? 'draw' : o.winner === learnerColour ? 'win' : 'loss';
    let learned = 0;
    let analysisError: string | undefined;
    const analysisStarted = performance.now();
    const analysed = o.how === 'five' && (result === 'loss' || (result === 'win' && (options.learnFromWins ?? true)));
    if (analysed) {
      analysedGames.push({ game: o.game, index });
      const analysis = await analyse(o.game, library);
      if ('error' in analysis) {
        analysisError = analysis.error;
      } else {
        learned = library.addLessons(analysis.learned, `curve-${index + 1}`, date);
      }
      if (learned > 0) learner.setLibrary(library.subgoals());
    }
    const analysisMs = analysed ? performance.now() - analysisStarted : 0;
    let reflected = 0;
    let reflectionMs = 0;
    if (analysed && reflectEvery > 0 && analysedGames.length % reflectEvery === 0) {
      const reflectionStarted = performance.now();
      reflected = await reflect(analysedGames, library, analyse, date);
      if (reflected > 0) learner.setLibrary(library.subgoals());
      reflectionMs = performance.now() - reflectionStarted;
    }
    const mean = (times: readonly number[]) => (times.length === 0 ? 0 : times.reduce((sum, t) => sum + t, 0) / times.length);
    const game: CurveGame = {
      index,
      opponent: opponent.name,
      learner: learnerColour,
      result,
      moves: o.game.moves.length,
      learned,
      reflected,
      reflectionMs,
      librarySize: library.size - 1,
      learnerMeanMs: mean(o.moveMs[learnerColour]),
      opponentMeanMs: mean(o.moveMs[opposite(learnerColour)]),
      analysisMs,
      how: o.how,
      game: o.game,
      ...(analysisError !== undefined ? { analysisError } : {}),
    };
    games.push(game);
    options.onGame?.(game, library);
    if (options.stop?.(game, library) === true) break;
  }
  const target = options.target ?? options.opponents[0].name;
  return {
    size: options.size,
    opponents: options.opponents.map((o) => o.name),
    games,
    blocks: curveBlocks(games, blockSize),
    target: targetProgress(games, target, options.window ?? 20, options.targetScore ?? 80),
    library,
    ms: performance.now() - started,
  };
}

/**
 * Walks back again through games already analysed, oldest first, each against the library as
 * it stands then (so a lesson from one helps the next), adding what they teach that the library
 * lacks; the provenance names the game (`<series>-<game number>-reflected`) and says it was
 * learned on reflection. Returns how many subgoals were new. A game whose analysis fails now
 * teaches nothing now, as before.
 */
export async function reflect(games: readonly { readonly game: Game; readonly index: number }[], library: Library, analyse: LossAnalyser, date: string, series = 'curve'): Promise<number> {
  let added = 0;
  for (const { game, index } of games) {
    const analysis = await analyse(game, library);
    if (!('error' in analysis)) added += library.addLessons(analysis.learned, `${series}-${index + 1}-reflected`, date);
  }
  return added;
}

function tally(games: readonly CurveGame[]): OpponentTally {
  return {
    games: games.length,
    wins: games.filter((g) => g.result === 'win').length,
    losses: games.filter((g) => g.result === 'loss').length,
    draws: games.filter((g) => g.result === 'draw').length,
  };
}

/** The series cut into blocks of `blockSize` games (the last may be shorter). */
export function curveBlocks(games: readonly CurveGame[], blockSize: number): CurveBlock[] {
  const blocks: CurveBlock[] = [];
  for (let first = 0; first < games.length; first += blockSize) {
    const block = games.slice(first, first + blockSize);
    const byOpponent: Record<string, OpponentTally> = {};
    for (const name of [...new Set(block.map((g) => g.opponent))]) byOpponent[name] = tally(block.filter((g) => g.opponent === name));
    const t = tally(block);
    blocks.push({ first, ...t, lossRate: t.losses / t.games, librarySize: block[block.length - 1].librarySize, byOpponent });
  }
  return blocks;
}

/** Points for a game: 1 a win, ½ a draw. */
function points(r: CurveResult): number {
  return r === 'win' ? 1 : r === 'draw' ? 0.5 : 0;
}

/** The rolling score against `name` over its last `window` games, and when it first reached `score`. */
export function targetProgress(games: readonly CurveGame[], name: string, window: number, score: number): TargetProgress {
  const against = games.filter((g) => g.opponent === name);
  const rolling: [number, number][] = [];
  let reachedAt: number | undefined;
  let reachedAfterTargetGames: number | undefined;
  let best: { score: number; at: number } | undefined;
  for (let i = window - 1; i < against.length; i++) {
    const last = against.slice(i + 1 - window, i + 1);
    const s = (100 * last.reduce((sum, g) => sum + points(g.result), 0)) / window;
    const at = against[i].index + 1;
    rolling.push([at, s]);
    if (best === undefined || s > best.score) best = { score: s, at };
    if (reachedAt === undefined && s >= score) {
      reachedAt = at;
      reachedAfterTargetGames = i + 1;
    }
  }
  return {
    name,
    window,
    score,
    rolling,
    ...(reachedAt !== undefined ? { reachedAt, reachedAfterTargetGames } : {}),
    ...(best !== undefined ? { best } : {}),
  };
}

export interface EvaluationOptions {
  readonly games: number;
  readonly size: number;
  readonly openings: readonly Opening[];
  readonly level?: Level;
  readonly seed?: number;
  readonly timeoutMs?: number;
  /**
   * Start the player's generator again from `seed` before every game, so that a game depends
   * only on its opening, its colour and the library, not on the games before it. Off by
   * default (the official figures were measured with one generator running through the
   * match). On, two variants of the player compared game by game differ only in the games
   * where one of their decisions differs: with one generator, a different decision in one
   * game moves the positional draws of every later game (bench/frozen.ts `--seed-each-game`).
   */
  readonly seedEachGame?: boolean;
}

/**
 * The player with `library`, frozen (it learns nothing), against `opponent` in colour-swapped
 * pairs: the player's standing (score, mean length, time per move) from the match runner.
 */
export async function evaluate(library: Library, opponent: CurveOpponent, options: EvaluationOptions): Promise<EngineStanding> {
  return (await evaluationGames(library, opponent, options)).standings[0];
}

/** `evaluate`'s games, every one of them: the learner plays as `learner` (`LEARNER`). */
export function evaluationGames(library: Library, opponent: CurveOpponent, options: EvaluationOptions): Promise<MatchReport> {
  const subgoals = library.subgoals();
  const seed = options.seed ?? 1968;
  const player = engineOf(LEARNER, () => {
    // The player's own hook, called once a game is finished with (GomocupSession's RESTART).
    const made: Player = createPlayer({ library: subgoals, level: options.level ?? 5, seed, name: LEARNER, onGameOver: options.seedEachGame ? () => made.reseed(seed) : undefined });
    return made;
  });
  let pair = 0;
  return playMatch(player, engineOf(opponent.name, () => opponent.create(pair++)), {
    size: options.size,
    games: options.games,
    openings: options.openings,
    timeoutMs: options.timeoutMs ?? 60_000,
  });
}
