/**
 * The seam where a player plugs in. Everything that plays games for the project — the
 * Gomocup brain (src/gomocup/protocol.ts), the match runner (src/gomocup/match.ts) and, later, the Discord
 * bot — asks a `MovePlayer` for moves and tells it when a game is over; nothing else about
 * the player is assumed. A player is built by a factory at the edge (src/cli/players.ts),
 * which is where its options (library file, level, seed, learning) are read.
 */
import type { Game } from '../rules/game.ts';
import type { Point } from '../rules/types.ts';

/**
 * What the caller knows about the time the player may use, in milliseconds, as the
 * Gomocup manager states it (`INFO timeout_turn`, `timeout_match`, `time_left`). Every
 * field is optional: absent means "not stated". The caller does not enforce these limits;
 * a referee such as the match runner does, by forfeiting a player that overruns.
 */
export interface MoveClock {
  readonly turnMs?: number;
  readonly matchMs?: number;
  readonly leftMs?: number;
}

export interface MovePlayer {
  /** A short name for tables and the Gomocup `ABOUT` reply. */
  readonly name: string;

  /**
   * The point the side to move (`game.turn`) should play. It is called only while the game
   * is being played (`!game.isOver`) and must return an empty point of the board. The
   * player may play and undo on `game` while it thinks but must leave it as it found it;
   * callers hand it a clone, so a player that breaks this hurts only itself.
   */
  chooseMove(game: Game, clock?: MoveClock): Point | Promise<Point>;

  /**
   * Told once per game when the game is finished with, so that a learning player can
   * analyse a loss (the paper's walk back from the opponent's five) and add what it learnt
   * to its library. `game` is a clone holding every move the caller knows. Its status may
   * still be `playing`: a Gomocup manager never sends the loser the winning move, it just
   * starts the next game or ends — so a player that wants to learn from such a game must
   * find the opponent's winning completion itself.
   */
  gameOver?(game: Game): void | Promise<void>;
}

/**
 * The empty point nearest the centre, ties broken by lowest point id: a legal move for any
 * position that is not full, used when a player has nothing better (an empty board) or has
 * failed. Returns undefined on a full board.
 */
export function nearestCentre(game: Game): Point | undefined {
  const size = game.size;
  const centre = (size - 1) / 2;
  let best: Point | undefined;
  let bestDistance = Infinity;
  for (let p = 0; p < size * size; p++) {
    if (!game.board.isEmpty(p)) continue;
    const dc = (p % size) - centre;
    const dr = Math.floor(p / size) - centre;
    const d = dc * dc + dr * dr;
    if (d < bestDistance) {
      best = p;
      bestDistance = d;
    }
  }
  return best;
}
