import { describe, expect, it } from 'vitest';
import { CHART_HEIGHT, CHART_WIDTH, renderLearningCurve } from '../src/cli/curve.ts';
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { SolverPlayer } from '../src/cli/solverPlayer.ts';
import { analyseInProcess, curveBlocks, evaluate, evaluationGames, reflect, runLearningCurve, targetProgress, type CurveGame, type CurveOpponent } from '../src/gomocup/curve.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseGame } from '../src/learning/analysis.ts';
import { Library } from '../src/learning/library.ts';
import { Recogniser } from '../src/recognition/recognise.ts';
import { parseGame } from '../src/rules/gameRecord.ts';
import { expectOk } from '../src/rules/result.ts';
import { Game } from '../src/rules/game.ts';
import { generateOpenings, type Opening } from '../src/gomocup/match.ts';
import { decode } from './render/png.ts';

const opponents: CurveOpponent[] = [
  { name: 'gomokuai', create: () => createGomokuaiPlayer() },
  { name: 'tss', create: () => new SolverPlayer() },
];

function fakeGame(index: number, opponent: string, result: CurveGame['result'], librarySize: number): CurveGame {
  const learner = index % 2 === 0 ? 'black' : 'white';
  return { index, opponent, learner, result, moves: 30, learned: 0, reflected: 0, reflectionMs: 0, librarySize, learnerMeanMs: 1, opponentMeanMs: 1, analysisMs: 0, how: 'five', game: Game.create(15) };
}

describe('learning curve', () => {
  it('plays a short series in colour-swapped pairs, learns from the games won with a five and draws the chart', async () => {
    const seen: number[] = [];
    const curve = await runLearningCurve({ games: 12, size: 15, opponents, openings: generateOpenings(3, 6, 15), blockSize: 4, window: 2, date: '2026-11-21', onGame: (g) => seen.push(g.index) });
    expect(seen).toEqual([...Array(12).keys()]);
    expect(curve.games.map((g) => g.opponent)).toEqual(['gomokuai', 'gomokuai', 'tss', 'tss'].concat(['gomokuai', 'gomokuai', 'tss', 'tss'], ['gomokuai', 'gomokuai', 'tss', 'tss']));
    expect(curve.games.map((g) => g.learner)).toEqual(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'black' : 'white')));
    // Both games of a pair start from the same opening.
    for (let i = 0; i < 12; i += 2) expect(curve.games[i].game.moves.slice(0, 3)).toEqual(curve.games[i + 1].game.moves.slice(0, 3));

    const losses = curve.games.filter((g) => g.result === 'loss');
    expect(losses.length).toBeGreaterThan(0);
    // It learned something, from losses and from its own wins (never from a draw or a
    // forfeit), and the library only grows.
    expect(curve.library.size - 1).toBeGreaterThan(0);
    expect(curve.games.at(-1)!.librarySize).toBe(curve.library.size - 1);
    for (const g of curve.games) if (g.result === 'draw' || g.how !== 'five') expect(g.learned).toBe(0);
    expect(curve.games.some((g) => g.result === 'win' && g.learned > 0)).toBe(true);
    expect(curve.games.some((g) => g.result === 'loss' && g.learned > 0)).toBe(true);
    for (let i = 1; i < 12; i++) expect(curve.games[i].librarySize).toBe(curve.games[i - 1].librarySize + curve.games[i].learned);
    expect(curve.games.every((g) => g.reflected === 0)).toBe(true);
    expect(curve.library.entries.slice(1).every((e) => e.provenance?.date === '2026-11-21')).toBe(true);

    expect(curve.blocks.map((b) => b.games)).toEqual([4, 4, 4]);
    expect(curve.blocks.reduce((s, b) => s + b.losses, 0)).toBe(losses.length);
    expect(curve.blocks.at(-1)!.librarySize).toBe(curve.library.size - 1);

    const png = renderLearningCurve(curve);
    const image = await decode(png);
    expect([image.width, image.height]).toEqual([CHART_WIDTH, CHART_HEIGHT]);
    const small = await decode(renderLearningCurve(curve, { width: 480, height: 300 }));
    expect([small.width, small.height]).toEqual([480, 300]);

    // The learned library, frozen, still plays: a standing from the match runner.
    const standing = await evaluate(curve.library, opponents[0], { games: 2, size: 15, openings: generateOpenings(9, 1, 15) });
    expect(standing.games).toBe(2);
  });

  it('with seedEachGame, a frozen evaluation game depends on its opening, not on the games before it', async () => {
    // Level 2 draws among near-equal positional moves, so its generator decides games.
    const [a, b, c] = generateOpenings(5, 3, 15);
    const lastPair = async (first: Opening, seedEachGame: boolean) => {
      const report = await evaluationGames(Library.empty(), opponents[0], { games: 4, size: 15, openings: [first, c], level: 2, seedEachGame });
      return report.outcomes.slice(2).map((o) => o.game.moves.join(' '));
    };
    // One generator through the match: what came first moves the later games' draws.
    expect(await lastPair(a, false)).not.toEqual(await lastPair(b, false));
    expect(await lastPair(a, true)).toEqual(await lastPair(b, true));
  });

  it('with learnFromWins off, learns from its losses only (the paper\'s rule)', async () => {
    const curve = await runLearningCurve({ games: 6, size: 15, opponents, openings: generateOpenings(3, 3, 15), date: '2026-11-26', learnFromWins: false });
    expect(curve.games.some((g) => g.result === 'win')).toBe(true);
    for (const g of curve.games) if (g.result !== 'loss') expect(g.learned).toBe(0);
    expect(curve.library.size - 1).toBe(curve.games.reduce((s, g) => s + g.learned, 0));
  });

  it('ends the series after the game at which stop says so, with what it learned by then', async () => {
    const asked: number[] = [];
    const curve = await runLearningCurve({
      games: 40,
      size: 15,
      opponents,
      openings: generateOpenings(3, 20, 15),
      date: '2026-11-21',
      // Stop at the first library of two learned subgoals or more, or after six games.
      stop: (g, library) => {
        asked.push(g.index);
        return library.size - 1 >= 2 || g.index === 5;
      },
    });
    expect(asked).toEqual([...Array(curve.games.length).keys()]);
    expect(curve.games.length).toBeLessThanOrEqual(6);
    const last = curve.games.at(-1)!;
    expect(last.index === 5 || last.librarySize >= 2).toBe(true);
    // Every game before the last left stop answering false.
    for (const g of curve.games.slice(0, -1)) expect(g.librarySize >= 2 || g.index === 5).toBe(false);
    expect(curve.library.size - 1).toBe(last.librarySize);
  });

  it('walks back again through a game with what it has learned since, and learns what the game could not teach before', async () => {
    const dir = join(import.meta.dirname, 'fixtures', 'games', 'reflect');
    const game = expectOk(parseGame(readFileSync(join(dir, 'series-game-13.txt'), 'utf8')));
    const library = expectOk(Library.fromFile(readFileSync(join(dir, 'series-40-library.txt'), 'utf8')));
    const before = library.size;
    // The series analysed game 13 when its library was smaller, and what it taught then is
    // in this library; walked back again with all 36 subgoals it teaches two more.
    const added = await reflect([{ game, index: 12 }], library, analyseInProcess, '2026-11-28');
    expect(added).toBe(2);
    expect(library.size).toBe(before + 2);
    const entry = library.get("(1, 2-1, 3-2, 3) 5:3', 3-3, 2'-2', 3'")!;
    expect(library.entries.slice(before)).toContain(entry);
    expect(entry.provenance?.game).toBe('curve-13-reflected');
    // The lesson holds where the walk found it: the winner's realisation of it stands one
    // move before the move it was learned at, with that move as a node.
    const walked = expectOk(analyseGame(game, library.subgoals()));
    const lesson = walked.learned.find((l) => l.subgoal.text === entry.subgoal.text)!;
    const board = game.board.clone();
    while (board.moves.length > lesson.moveIndex) board.undo();
    expect(new Recogniser(board, [lesson.subgoal]).realisations(walked.winner).some((r) => r.nodes.includes(lesson.point))).toBe(true);
    // Reflecting again teaches nothing more: the library holds what the game can teach.
    expect(await reflect([{ game, index: 12 }], library, analyseInProcess, '2026-11-28')).toBe(0);
  });

  it('reflects right after every reflectEvery analysed games, as the bot does, and counts what reflection taught in the library sizes', async () => {
    const curve = await runLearningCurve({ games: 8, size: 15, opponents, openings: generateOpenings(3, 4, 15), date: '2026-11-28', reflectEvery: 2 });
    for (let i = 1; i < 8; i++) expect(curve.games[i].librarySize).toBe(curve.games[i - 1].librarySize + curve.games[i].reflected + curve.games[i].learned);
    // Games won with a five are analysed (the learner's losses and wins); the second, fourth, … of them is followed by a pass.
    let analysed = 0;
    const after: number[] = [];
    for (const g of curve.games) {
      if (g.how === 'five') analysed++;
      const reflects = g.how === 'five' && analysed % 2 === 0;
      if (reflects) after.push(g.index);
      else expect([g.reflected, g.reflectionMs]).toEqual([0, 0]);
      if (reflects) expect(g.reflectionMs).toBeGreaterThan(0);
    }
    expect(after.length).toBeGreaterThanOrEqual(2);
    await expect(runLearningCurve({ games: 2, size: 15, opponents, openings: [], reflectEvery: -1 })).rejects.toThrow(/reflectEvery/);
  });

  it('cuts blocks and follows the rolling score against the target', () => {
    const results: CurveGame['result'][] = ['loss', 'loss', 'win', 'draw', 'win', 'win', 'win', 'loss'];
    const games = results.map((r, i) => fakeGame(i, i % 4 < 2 ? 'gomokuai' : 'tss', r, i));
    const blocks = curveBlocks(games, 3);
    expect(blocks.map((b) => [b.first, b.games, b.losses, b.draws, b.librarySize])).toEqual([
      [0, 3, 2, 0, 2],
      [3, 3, 0, 1, 5],
      [6, 2, 1, 0, 7],
    ]);
    expect(blocks[0].lossRate).toBeCloseTo(2 / 3);
    expect(blocks[0].byOpponent).toEqual({ gomokuai: { games: 2, wins: 0, losses: 2, draws: 0 }, tss: { games: 1, wins: 1, losses: 0, draws: 0 } });
    // Against gomokuai: games 1, 2, 5, 6 (loss, loss, win, win); window 2.
    const t = targetProgress(games, 'gomokuai', 2, 80);
    expect(t.rolling).toEqual([
      [2, 0],
      [5, 50],
      [6, 100],
    ]);
    expect(t.reachedAt).toBe(6);
    expect(t.reachedAfterTargetGames).toBe(4);
    expect(t.best).toEqual({ score: 100, at: 6 });
    const never = targetProgress(games, 'tss', 2, 80);
    // Against tss: win, draw, win, loss → 75, 75, 50.
    expect(never.rolling.map((r) => r[1])).toEqual([75, 75, 50]);
    expect(never.reachedAt).toBeUndefined();
    expect(never.best).toEqual({ score: 75, at: 4 });
  });
});
