/**
 * The project's own player (src/play/player.ts) for the command line: `gomoku brain --player
 * elcock` and `builtin:elcock` in matches. Reads `--library FILE` (the rule of five is always
 * known), `--level 1..5` and `--seed`. With `--learn`, every game won with a five — those it
 * loses and those it wins — is analysed when the game is over and what it teaches is added to its library and merged into the file
 * (src/cli/learnedLibrary.ts: under a lock, atomically, with whatever other learners wrote
 * there meanwhile, which it then knows too), so it learns across a match. Each subgoal's
 * provenance names the game by an id unique across processes and runs (`learnedGameId`).
 * When the file cannot be written — it no longer parses, say — the player says so through
 * `report` (standard error: the brain's standard output is the protocol's), keeps what it
 * learned and tries again after the next game that teaches it something.
 *
 * Reflection (as the bot's, src/bot/reflection.ts): every game it learns from is kept beside
 * the library (gameLog.ts; in memory without a library file), and every `reflectEvery`
 * analysed games (10 by default; 0 never) it walks back again through all of them, oldest
 * first, with the library as it stands, for at most `reflectionBudgetMs` (10 s by default: a
 * Gomocup manager is waiting for the next game); the next pass begins where one ran out of
 * time. A lesson found so is provenanced to its game with `-reflected` after the id.
 */
import { INPUT_LIMITS, InputTooLarge, readFileBounded } from '../bot/io.ts';
import { analyseGame } from '../learning/analysis.ts';
import { passOrder } from '../learning/reflection.ts';
import type { MoveClock, MovePlayer } from '../play/engine.ts';
import type { Game } from '../rules/game.ts';
import { Library } from '../learning/library.ts';
import { createPlayer, type Level } from '../play/player.ts';
import { describeProblem, err, ok, problem, type Result } from '../rules/result.ts';
import { fiveThreats } from '../rules/threats.ts';
import { stoneOf, type Colour } from '../rules/types.ts';
import { gameLogFolder, keepGame, readGameLog, type LoggedGame } from './gameLog.ts';
import { learnedGameId, saveLearned } from './learnedLibrary.ts';
import type { PlayerOptions } from './playerFactory.ts';

const HEADER = ['subgoals learned in play by gomoku brain --learn'];
export const BRAIN_REFLECT_EVERY = 10;
export const BRAIN_REFLECTION_BUDGET_MS = 10_000;

export function createElcockPlayer(options: PlayerOptions): Result<MovePlayer> {
  const level = options.level ?? 5;
  if (!Number.isInteger(level) || level < 1 || level > 5) return err(problem('bad-level', `level must be 1 to 5, not ${level}`));
  // What is learned is merged into the library file; with none, it would be learned and lost.
  if (options.learn && options.library === undefined) return err(problem('learn-needs-library', '--learn needs --library FILE: what the player learns is written there'));
  let library = Library.empty();
  if (options.library !== undefined) {
    let text: string | undefined;
    try {
      // Bounded as every file the tools read (src/bot/io.ts): /dev/zero must not hang a brain.
      text = readFileBounded(options.library, INPUT_LIMITS.library);
    } catch (e) {
      if (e instanceof InputTooLarge) return err(problem('library-unreadable', `${options.library} is too large for a library: ${e.message}`));
      // With --learn a library file that does not exist yet is simply empty.
      if (!options.learn || (e as NodeJS.ErrnoException).code !== 'ENOENT') {
        return err(problem('library-unreadable', `cannot read ${options.library}: ${(e as Error).message}`));
      }
    }
    if (text !== undefined) {
      const lib = Library.fromFile(text);
      // The message names the file, line and column once; they are not kept beside it to be named again.
      if (!lib.ok) return err(problem(lib.error.code, `${describeProblem(lib.error, options.library)} (${lib.error.code})`));
      library = lib.value;
    }
  }
  const report = options.report ?? ((message: string) => void process.stderr.write(`${message}\n`));
  const reflectEvery = options.reflectEvery ?? BRAIN_REFLECT_EVERY;
  if (!Number.isInteger(reflectEvery) || reflectEvery < 0) return err(problem('bad-reflect-every', `--reflect-every must be a whole number of games (0: never), not ${reflectEvery}`));
  const budgetMs = options.reflectionBudgetMs ?? BRAIN_REFLECTION_BUDGET_MS;
  let colour: Colour | undefined;
  // Learned subgoals the file does not hold yet (its last write failed).
  let unsaved = 0;
  // Games analysed in this process, and those kept when there is no library file to keep them beside.
  let analysed = 0;
  const inMemory: LoggedGame[] = [];
  // Where the last pass ran out of time: the id of the game the next one begins with.
  let resumeAt: string | undefined;
  const folder = options.library === undefined ? undefined : gameLogFolder(options.library);
  /** Walks back again through the kept games with the library as it stands; how many subgoals were new. */
  const reflect = (date: string): number => {
    const started = performance.now();
    const log = folder === undefined ? { games: inMemory, problems: [] } : readGameLog(folder);
    for (const p of log.problems) report(`${player.name} skipped a kept game it cannot read: ${p}`);
    const order = passOrder(log.games, resumeAt);
    resumeAt = undefined;
    let added = 0;
    let walked = 0;
    for (const { id, game } of order) {
      if (walked > 0 && performance.now() - started > budgetMs) {
        resumeAt = id;
        break;
      }
      walked++;
      const walk = analyseGame(game, library.subgoals());
      if (walk.ok) added += library.addLessons(walk.value.learned, `${id}-reflected`, date);
    }
    return added;
  };
  const player = createPlayer({
    library: library.subgoals(),
    level: level as Level,
    seed: options.seed,
    onGameOver: async (game) => {
      const gameId = learnedGameId(player.name);
      if (!options.learn || colour === undefined) return;
      const finished = withCompletion(game);
      // A loss teaches the opponent's winning line (the paper); a win, the player's own, which
      // its look-ahead may have found only by searching (docs/DESIGN.md, "learning from wins").
      if (finished.status.kind !== 'won') return;
      const analysis = analyseGame(finished, library.subgoals());
      if (!analysis.ok) return;
      const date = new Date().toISOString().slice(0, 10);
      let added = library.addLessons(analysis.value.learned, gameId, date);
      if (reflectEvery > 0) {
        if (folder === undefined) inMemory.push({ id: gameId, game: finished });
        else {
          const kept = await keepGame(folder, gameId, finished);
          if (!kept.ok) report(`${player.name} could not keep the game to walk back through later: ${kept.error.message}`);
        }
        analysed++;
        if (analysed % reflectEvery === 0) added += reflect(date);
      }
      if (added === 0 && unsaved === 0) return;
      player.setLibrary(library.subgoals());
      if (options.library === undefined) return;
      const saved = await saveLearned(options.library, library, HEADER);
      if (!saved.ok) {
        unsaved += added;
        report(`${player.name} could not save what it learned: ${describeProblem(saved.error)}. It keeps the ${unsaved} new subgoal(s) in memory and tries again after the next game that teaches it something.`);
        return;
      }
      unsaved = 0;
      library = saved.value;
      player.setLibrary(library.subgoals());
    },
  });
  const wrapped: MovePlayer = {
    name: player.name,
    chooseMove: (game: Game, clock?: MoveClock) => {
      colour = game.turn;
      return player.chooseMove(game, clock);
    },
    gameOver: async (game: Game) => {
      await player.gameOver(game);
      colour = undefined;
    },
  };
  return ok(wrapped);
}

/**
 * The game with its winning move when the caller did not send it: a Gomocup manager never
 * tells the loser the opponent's last move, so if the side to move can complete a five, it
 * is taken to have done so (which five-point it was does not matter: the analysis starts by
 * taking the winning move back).
 */
function withCompletion(game: Game): Game {
  if (game.status.kind !== 'playing') return game;
  const five = fiveThreats(game.board, stoneOf(game.turn));
  if (five.length === 0) return game;
  const g = game.clone();
  g.play(five[0]);
  return g;
}
