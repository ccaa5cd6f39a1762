/**
 * What a player factory is given and what it gives: the options the command line reads for
 * any player, and the `MovePlayer` built from them or the `Problem` that stopped it. Each
 * factory (elcockPlayer.ts, solverPlayer.ts) and the list of them by name (players.ts) share
 * this, so the list can import the factories without the factories importing the list.
 */
import type { MovePlayer } from '../play/engine.ts';
import type { Result } from '../rules/result.ts';

export interface PlayerOptions {
  /** A library file of subgoal descriptions to recognise (and, with `learn`, to add to). */
  readonly library?: string;
  /** A strength setting; its meaning is the player's. */
  readonly level?: number;
  /** Analyse games won with a five (lost or won) and merge what is learnt into the library file (through `gameOver`). */
  readonly learn: boolean;
  /**
   * With `learn`: every this many analysed games, walk back again through the games learned
   * from, kept beside the library file (default 20; 0: never; elcockPlayer.ts).
   */
  readonly reflectEvery?: number;
  /** How long one such pass may run (default 10 s). */
  readonly reflectionBudgetMs?: number;
  /** Seed for the player's seeded generator (src/rules/random.ts), if it uses one. */
  readonly seed: number;
  /**
   * Where the player says what went wrong outside the game, such as a library file it could
   * not write (default: standard error, never standard output, which a brain's protocol owns).
   */
  readonly report?: (message: string) => void;
}

export type PlayerFactory = (options: PlayerOptions) => Result<MovePlayer>;
