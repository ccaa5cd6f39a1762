/**
 * Fixed benchmark positions, made by a documented generator so that anyone can rebuild them.
 * Players who never answer threats leave boards full of open threes and fours that no real
 * game has, so the generator plays like a careful beginner. From the seed, each move:
 * 1. blocks the opponent's five threat if there is one (a point completing their five);
 * 2. else, nine times in ten, blocks an opponent's open-four point (a point where the
 *    opponent would make two fives at once, `n'` with n = 4 in the paper's notation);
 * 3. else is drawn uniformly among the empty points within two steps (king-move distance)
 *    of a stone already played — the centre for the first move.
 * A move that would make five is redrawn, so the game runs as long as asked. The same seed
 * and length always give the same game.
 */
import { Game } from '../src/rules/game.ts';
import { pointAt } from '../src/rules/point.ts';
import { ProfileTable, specAtom } from '../src/recognition/profile.ts';
import { seededRandom, type Random } from '../src/rules/random.ts';
import { BLACK, WHITE } from '../src/rules/types.ts';

export function generateGame(seed: number, moves: number, size = 19): Game {
  const rnd = seededRandom(seed);
  const game = Game.create(size);
  const centre = pointAt(size, size >> 1, size >> 1);
  while (game.moves.length < moves) {
    const urgent = game.moves.length === 0 ? [] : threatsToBlock(game, rnd);
    const candidates = game.moves.length === 0 ? [centre] : urgent.length > 0 ? urgent : game.board.emptyNear(2);
    if (candidates.length === 0) break;
    let placed = false;
    for (const p of rnd.shuffle(candidates)) {
      const r = game.play(p);
      if (r.ok && r.value.kind === 'playing') {
        placed = true;
        break;
      }
      if (r.ok) game.undo();
    }
    if (!placed) break;
  }
  return game;
}

/** The opponent's five points, else (nine times in ten) their open-four points, ascending. */
function threatsToBlock(game: Game, rnd: Random): number[] {
  const opponent = game.turn === 'black' ? WHITE : BLACK;
  const table = new ProfileTable(game.board, opponent);
  const five = specAtom({ n: 5, dashed: false });
  const openFour = specAtom({ n: 4, dashed: true });
  const fives: number[] = [];
  const fours: number[] = [];
  for (let p = 0; p < game.board.points; p++) {
    if ((table.union[p] & five) !== 0) fives.push(p);
    else if ((table.union[p] & openFour) !== 0) fours.push(p);
  }
  if (fives.length > 0) return fives;
  return rnd.next() < 0.9 ? fours : [];
}


/** The three positions the recognition benchmarks use: opening, middle game, crowded end game. */
export const BENCH_POSITIONS = [
  { name: 'opening (12 moves)', seed: 1968, moves: 12 },
  { name: 'middle game (60 moves)', seed: 1968, moves: 60 },
  { name: 'end game (150 moves)', seed: 1968, moves: 150 },
] as const;

/**
 * The moves the re-recognition benchmarks play (each taken back after): every seventh empty
 * point of a 19×19 board, at most 40 of them, so that they spread over the board.
 */
export function reRecognitionMoves(board: { isEmpty(p: number): boolean }): number[] {
  const empties = Array.from({ length: 361 }, (_, p) => p).filter((p) => board.isEmpty(p));
  return empties.filter((_, i) => i % 7 === 0).slice(0, 40);
}
