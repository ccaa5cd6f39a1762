/**
 * A game of Go-Moku: black moves first, players alternate, the first to make a line of
 * exactly five stones of their colour wins ("five and only five": six or more in a row is no
 * win and play goes on), and a full board with no five is a draw.
 */
import { Board } from './board.ts';
import { makePoint } from './point.ts';
import { err, ok, problem, type Result } from './result.ts';
import type { BoardSnapshot } from './snapshot.ts';
import { opposite, stoneOf, type Colour, type Point } from './types.ts';

export type GameStatus =
  | { readonly kind: 'playing' }
  | { readonly kind: 'won'; readonly winner: Colour; readonly five: readonly Point[] }
  | { readonly kind: 'draw' };

const PLAYING: GameStatus = { kind: 'playing' };

export class Game {
  readonly board: Board;
  private statuses: GameStatus[] = [PLAYING];

  private constructor(board: Board) {
    this.board = board;
  }

  static create(size: number): Game {
    return new Game(Board.empty(size));
  }

  get size(): number {
    return this.board.size;
  }

  get moves(): readonly Point[] {
    return this.board.moves;
  }

  get status(): GameStatus {
    return this.statuses[this.statuses.length - 1];
  }

  get isOver(): boolean {
    return this.status.kind !== 'playing';
  }

  /** The colour to move: black on even move counts. */
  get turn(): Colour {
    return this.board.stoneCount % 2 === 0 ? 'black' : 'white';
  }

  /** The colour that played the last move, if any. */
  get lastMover(): Colour | undefined {
    return this.board.stoneCount === 0 ? undefined : opposite(this.turn);
  }

  /**
   * Plays the side to move at p. A move after the game is over, on an occupied point or off
   * the board is refused and changes nothing.
   */
  play(p: Point): Result<GameStatus> {
    if (this.isOver) return err(problem('game-over', 'the game is over'));
    if (!Number.isInteger(p) || p < 0 || p >= this.board.points) {
      return err(problem('off-board', `point ${p} is off the ${this.size}×${this.size} board`));
    }
    if (!this.board.isEmpty(p)) {
      return err(problem('occupied', `${makePoint(this.size, p)} is already taken`));
    }
    const mover = this.turn;
    this.board.play(p, stoneOf(mover));
    const five = this.board.fiveThrough(p);
    let status: GameStatus = PLAYING;
    if (five !== undefined) status = { kind: 'won', winner: mover, five };
    else if (this.board.isFull()) status = { kind: 'draw' };
    this.statuses.push(status);
    return ok(status);
  }

  /** Takes back the last move; returns its point, or undefined at the start. */
  undo(): Point | undefined {
    if (this.board.stoneCount === 0) return undefined;
    this.statuses.pop();
    return this.board.undo();
  }

  clone(): Game {
    const g = new Game(this.board.clone());
    g.statuses = this.statuses.slice();
    return g;
  }

  snapshot(options: { moveNumbers?: boolean } = {}): BoardSnapshot {
    const base = this.board.snapshot();
    const moves = this.moves;
    const status = this.status;
    let moveNumbers: number[] | undefined;
    if (options.moveNumbers === true) {
      moveNumbers = new Array<number>(this.board.points).fill(0);
      moves.forEach((p, i) => (moveNumbers![p] = i + 1));
    }
    return {
      ...base,
      ...(moves.length > 0 ? { lastMove: moves[moves.length - 1] } : {}),
      ...(moveNumbers !== undefined ? { moveNumbers } : {}),
      ...(status.kind === 'won' ? { winningLine: status.five } : {}),
    };
  }
}

/** "black wins", "white wins", "draw" or "black to play" — the result line of a game. */
export function describeStatus(game: Game): string {
  const s = game.status;
  if (s.kind === 'won') {
    const five = s.five.map((p) => makePoint(game.size, p));
    return `${s.winner} wins with five at ${five.join(' ')}`;
  }
  if (s.kind === 'draw') return 'draw: the board is full';
  return `${game.turn} to play`;
}
