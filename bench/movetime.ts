/**
 * Move time of the player (src/play/player.ts) on 19×19 with the project's own 1000-subgoal learned
 * library (bench/fixtures/learned-library.txt, the one the recognition suite uses), at levels
 * 5, 4 and 3 — the levels that look ahead (src/play/lookahead.ts). Issue 25's target, for level 5:
 * median ≤ 50 ms and worst ≤ 1 s a move; lower levels faster.
 *
 * Each move is timed as it happens in a real game, `chooseMove` on the position the game has
 * reached — so the player's kept recognisers are brought up to date from its last position
 * (two stones later), as in play, and the first move of each game pays for recognising the
 * whole board from scratch. Games: the player against `gomokuai` from balanced openings
 * (`generateOpenings`, seed 1968), the player black in one game of each pair and white in
 * the other, played to the end or to 120 moves. One game is played first and not measured,
 * so the JIT has settled. Each row is one level's games, every move of the player a sample.
 *
 * A last row times level 5 with the library a learning series actually learned
 * (test/fixtures/libraries/series-159.txt): its subgoals of five to seven nodes with patterns
 * of one or two stones are realised thousands of ways on a sparse board, which the
 * 1000-subgoal library's are not, so its worst moves are the openings' first moves (4.3 s
 * before a move's work was bounded, 2026-11-28, after the first of the openings below). Its
 * samples: the first move after each of 20 openings (`generateOpenings(777)`, those of
 * bench/frozen.ts's comparisons), by the side to move, then the same 4 games.
 */
import { fileURLToPath } from 'node:url';
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { Game } from '../src/rules/game.ts';
import { generateOpenings, type Opening } from '../src/gomocup/match.ts';
import { createPlayer, type Level } from '../src/play/player.ts';
import type { Subgoal } from '../src/recognition/subgoal.ts';
import { expectOk } from '../src/rules/result.ts';
import { median, type Measurement } from './harness.ts';
import { learnedLibrary } from './recognition.ts';

const SIZE = 19;
const GAMES = 4;
const MAX_MOVES = 120;
const TARGET_MEDIAN_MS = 50;
const TARGET_WORST_MS = 1000;

/** The player's move times in one game, in microseconds. */
function timedGame(opening: Opening, playerIsBlack: boolean, seed: number, library: readonly Subgoal[], level: Level): { times: number[]; moves: number } {
  const player = createPlayer({ library, level, seed, name: `elcock-${level}` });
  const opponent = createGomokuaiPlayer();
  const game = Game.create(SIZE);
  for (const p of opening) expectOk(game.play(p));
  const times: number[] = [];
  while (!game.isOver && game.moves.length < MAX_MOVES) {
    const mine = (game.turn === 'black') === playerIsBlack;
    let p: number;
    if (mine) {
      const t0 = process.hrtime.bigint();
      p = player.chooseMove(game);
      times.push(Number(process.hrtime.bigint() - t0) / 1000);
    } else {
      p = opponent.chooseMove(game) as number;
    }
    expectOk(game.play(p));
  }
  return { times, moves: game.moves.length };
}

export function benchMoveTime(): Measurement[] {
  const library = learnedLibrary();
  const openings = generateOpenings(1968, 1 + GAMES / 2, SIZE);
  timedGame(openings[0], true, 1, library, 5); // warm-up, not measured
  const rows: Measurement[] = [];
  for (const level of [5, 4, 3] as const) {
    const all: number[] = [];
    let moves = 0;
    for (let g = 0; g < GAMES; g++) {
      const played = timedGame(openings[1 + Math.floor(g / 2)], g % 2 === 0, 1968 + g, library, level);
      all.push(...played.times);
      moves += played.moves;
    }
    const verdict = level === 5 ? `; ${targetVerdict(all)}` : '';
    rows.push(timesRow(`move, level ${level}, ${library.length - 1} learned subgoals, ${GAMES} games`, all, `${all.length} moves timed in games of ${moves} moves in all${verdict}`));
  }
  rows.push(seriesRow());
  return rows;
}

/** Whether move times in microseconds meet issue 25's level-5 target. */
function targetVerdict(all: readonly number[]): string {
  const ok = median(all) / 1000 <= TARGET_MEDIAN_MS && Math.max(...all) / 1000 <= TARGET_WORST_MS;
  return `${ok ? 'meets' : 'misses'} the target (median ≤ ${TARGET_MEDIAN_MS} ms, worst ≤ ${TARGET_WORST_MS} ms)`;
}

/** A row of move times in microseconds, each a sample. */
function timesRow(name: string, all: readonly number[], note: string): Measurement {
  return { name, medianUs: median(all), worstUs: Math.max(...all), samples: all.length, inner: 1, note };
}

const SERIES_LIBRARY = fileURLToPath(new URL('../test/fixtures/libraries/series-159.txt', import.meta.url));
const SPARSE_OPENINGS = 20;

/** Level 5 with a series' library: each opening's first learner move, then the usual games. */
function seriesRow(): Measurement {
  const library = learnedLibrary(SERIES_LIBRARY);
  const all: number[] = [];
  for (const opening of generateOpenings(777, SPARSE_OPENINGS, SIZE)) {
    const game = Game.create(SIZE);
    for (const p of opening) expectOk(game.play(p));
    const player = createPlayer({ library, level: 5, seed: 1968, name: 'elcock-5' });
    const t0 = process.hrtime.bigint();
    player.chooseMove(game);
    all.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  const openings = generateOpenings(1968, 1 + GAMES / 2, SIZE);
  for (let g = 0; g < GAMES; g++) all.push(...timedGame(openings[1 + Math.floor(g / 2)], g % 2 === 0, 1968 + g, library, 5).times);
  return timesRow(`move, level 5, the series' ${library.length - 1} learned subgoals, ${SPARSE_OPENINGS} openings' first moves and ${GAMES} games`, all, `${all.length} moves timed; ${targetVerdict(all)}`);
}
