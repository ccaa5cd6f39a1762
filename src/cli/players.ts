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
  // gomokuai has no library, levels or randomness, and learns nothing: options for them are
  // refused rather than ignored, so nobody believes it read a library or learns.
  gomokuai: (o) => refuseOptions('gomokuai', o, ['library', 'level', 'learn', 'reflectEvery']) ?? ok(createGomokuaiPlayer()),
  // The soundness solver as a threat-space player (src/cli/solverPlayer.ts); --level 1..5 sets
  // its depth. It reads no library and learns nothing.
  tss: (o) => refuseOptions('tss', o, ['library', 'learn', 'reflectEvery']) ?? createSolverPlayer(o),
};

const OPTION_FLAGS = { library: '--library', level: '--level', learn: '--learn', reflectEvery: '--reflect-every' } as const;

/** The problem naming the options given that `player` has no use for, or undefined if none was. */
function refuseOptions(player: string, o: PlayerOptions, unused: readonly (keyof typeof OPTION_FLAGS)[]): Result<MovePlayer> | undefined {
  const given = unused.filter((k) => (k === 'learn' ? o.learn : o[k] !== undefined)).map((k) => OPTION_FLAGS[k]);
  if (given.length === 0) return undefined;
  return err(problem('unsupported-option', `the ${player} player takes no ${given.join(', ')}: ${player === 'tss' ? 'it reads no library and learns nothing' : 'it has no library or levels and learns nothing'}`));
}

export const playerNames: readonly string[] = Object.keys(playerFactories);

export function createNamedPlayer(name: string, options: PlayerOptions): Result<MovePlayer> {
  const factory = Object.hasOwn(playerFactories, name) ? playerFactories[name] : undefined;
  if (factory === undefined) {
    return err(problem('unknown-player', `no player called "${name}" (players: ${playerNames.join(', ')})`));
  }
  return factory(options);
}
