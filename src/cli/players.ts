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
import type { PlayerFactory, PlayerOptions } from './playerFactory.ts';

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
