/**
 * The players the command line can run, by name: `gomoku brain --player NAME` and
 * `gomoku match --black builtin:NAME`. A factory reads the player's options and builds a
 * `MovePlayer`, or says why it cannot (a library file that does not parse, say) as a
 * `Problem`. To plug a new player in, add one entry here; the first entry is the default.
 */
import type { MovePlayer } from '../play/engine.ts';
import { err, ok, problem, type Result } from '../rules/result.ts';
import { createElcockPlayer } from './elcockPlayer.ts';
import { createGomokuaiPlayer } from './gomokuaiPlayer.ts';
import { createSolverPlayer } from './solverPlayer.ts';

export interface PlayerOptions {
  /** A library file of subgoal descriptions to recognise (and, with `learn`, to add to). */
  readonly library?: string;
  /** A strength setting; its meaning is the player's. */
  readonly level?: number;
  /** Analyse games won with a five (lost or won) and merge what is learnt into the library file (through `gameOver`). */
  readonly learn: boolean;
  /** Seed for the player's seeded generator (src/rules/random.ts), if it uses one. */
  readonly seed: number;
  /**
   * Where the player says what went wrong outside the game, such as a library file it could
   * not write (default: standard error, never standard output, which a brain's protocol owns).
   */
  readonly report?: (message: string) => void;
}

export type PlayerFactory = (options: PlayerOptions) => Result<MovePlayer>;

export const playerFactories: Readonly<Record<string, PlayerFactory>> = {
  // The project's player: recognises its library's subgoals, learns with --learn (the default).
  elcock: createElcockPlayer,
  // gomokuai has no library, levels or randomness, and learns nothing: it ignores them all.
  gomokuai: () => ok(createGomokuaiPlayer()),
  // The soundness solver as a threat-space player (src/cli/solverPlayer.ts); --level 1..5 sets its depth.
  tss: createSolverPlayer,
};

export const playerNames: readonly string[] = Object.keys(playerFactories);

export function createNamedPlayer(name: string, options: PlayerOptions): Result<MovePlayer> {
  const factory = Object.hasOwn(playerFactories, name) ? playerFactories[name] : undefined;
  if (factory === undefined) {
    return err(problem('unknown-player', `no player called "${name}" (players: ${playerNames.join(', ')})`));
  }
  return factory(options);
}
