/**
 * Move time of the player (src/player.ts, level 5) on 19×19 with a 1000-subgoal library
 * (`benchLibrary(1000)`, bench/libraries.ts), the target being a median ≤ 20 ms and a
 * worst ≤ 200 ms per move.
 *
 * Each move is timed as it happens in a real game, `chooseMove` on the position the game has
 * reached — so the player's kept recogniser is brought up to date from its last position
 * (two stones later), as in play, and the first move of each game pays for recognising the
 * whole board from scratch. Games: the player against `gomokuai` from balanced openings
 * (`generateOpenings`, seed 1968), the player black in one game of each pair and white in
 * the other, played to the end or to 120 moves. One game is played first and not measured,
 * so the JIT has settled. Each row is one game, every move of the player one sample; the last
 * row takes every move of every game.
 */
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { Game } from '../src/game.ts';
import { generateOpenings, type Opening } from '../src/match.ts';
import { createPlayer } from '../src/player.ts';
import { expectOk } from '../src/result.ts';
import { median, type Measurement } from './harness.ts';
import { benchLibrary } from './libraries.ts';

const SIZE = 19;
const LIBRARY = 1000;
const GAMES = 4;
const MAX_MOVES = 120;
const TARGET_MEDIAN_MS = 20;
const TARGET_WORST_MS = 200;

/** The player's move times in one game, in microseconds. */
function timedGame(opening: Opening, playerIsBlack: boolean, seed: number, library: ReturnType<typeof benchLibrary>): { times: number[]; moves: number } {
  const player = createPlayer({ library, level: 5, seed, name: 'elcock-5' });
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
  const library = benchLibrary(LIBRARY);
  const openings = generateOpenings(1968, 1 + GAMES / 2, SIZE);
  timedGame(openings[0], true, 1, library); // warm-up, not measured
  const rows: Measurement[] = [];
  const all: number[] = [];
  for (let g = 0; g < GAMES; g++) {
    const opening = openings[1 + Math.floor(g / 2)];
    const black = g % 2 === 0;
    const { times, moves } = timedGame(opening, black, 1968 + g, library);
    all.push(...times);
    rows.push({
      name: `move, ${library.length} subgoals, game ${g + 1} (${black ? 'black' : 'white'})`,
      medianUs: median(times),
      worstUs: Math.max(...times),
      samples: times.length,
      inner: 1,
      note: `${times.length} moves timed, game of ${moves} moves, first move ${(times[0] / 1000).toFixed(1)} ms`,
    });
  }
  const medianMs = median(all) / 1000;
  const worstMs = Math.max(...all) / 1000;
  const verdict = medianMs <= TARGET_MEDIAN_MS && worstMs <= TARGET_WORST_MS ? 'meets' : 'misses';
  rows.push({
    name: `move, ${library.length} subgoals, all ${GAMES} games`,
    medianUs: median(all),
    worstUs: Math.max(...all),
    samples: all.length,
    inner: 1,
    note: `${verdict} the target (median ≤ ${TARGET_MEDIAN_MS} ms, worst ≤ ${TARGET_WORST_MS} ms)`,
  });
  return rows;
}
