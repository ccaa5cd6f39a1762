// Two simple seeded players for learning tests: they complete a five, block the opponent's
// five, and otherwise play near the stones, making open fours when they see them and blocking
// the opponent's sometimes. They use the threat classifier only, never descriptions.
import { Game } from '../../src/rules/game.ts';
import type { Random } from '../../src/rules/random.ts';
import { fiveThreats, openFourPoints } from '../../src/rules/threats.ts';
import { stoneOf, opposite, type Point } from '../../src/rules/types.ts';

export function simpleMove(game: Game, rnd: Random, care: number): Point {
  const me = stoneOf(game.turn);
  const them = stoneOf(opposite(game.turn));
  if (game.moves.length === 0) return Math.floor((game.size * game.size) / 2);
  const win = fiveThreats(game.board, me);
  if (win.length > 0) return win[0];
  const block = fiveThreats(game.board, them);
  if (block.length > 0) return rnd.pick(block);
  const attack = openFourPoints(game.board, me);
  if (attack.length > 0 && rnd.next() < 0.8) return rnd.pick(attack);
  const defend = openFourPoints(game.board, them);
  if (defend.length > 0 && rnd.next() < care) return rnd.pick(defend);
  return rnd.pick(game.board.emptyNear(1));
}

/** Plays a whole game between two simple players (care = chance of blocking an open three). */
export function playSimpleGame(rnd: Random, size: number, careBlack: number, careWhite: number, maxMoves = 200): Game {
  const game = Game.create(size);
  while (!game.isOver && game.moves.length < maxMoves) {
    game.play(simpleMove(game, rnd, game.turn === 'black' ? careBlack : careWhite));
  }
  return game;
}
