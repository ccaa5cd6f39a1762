/**
 * Players a play worker keeps between questions, so a turn in a game goes on from the
 * recogniser and look-ahead that answered the last turn instead of recognising the whole
 * position again (every turn and hint used to make a new player, whose recogniser and
 * look-ahead each scanned the position from the start). A kept player is reseeded with the
 * question's seed (`Player.reseed`), and then chooses what a new player with that seed would:
 * the answers do not depend on whether a player was kept.
 *
 * A player is kept for one library array (one server's library at one version: the worker
 * keeps one array per version, so a changed library is a new array and never meets an old
 * player) and one level. A question takes the kept player whose last position is nearest its
 * own — the fewest moves to take back and play — when that is within what the recogniser
 * follows rather than starting afresh (play/lookahead.ts `FOLLOW_REACH`); else a new one. At
 * most `KEPT_PLAYERS` are kept, the least recently used dropped.
 */
import { FOLLOW_REACH, movesApart } from '../play/lookahead.ts';
import { createPlayer, DEFAULT_SEED, type Level, type Player, type PlayerConfig } from '../play/player.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import type { Point } from '../rules/types.ts';
import type { NewPlayer } from './thinking.ts';

/** Players a worker keeps (16 with a 1000-subgoal library: about 5 MB of heap and 36 MB of typed arrays). */
export const KEPT_PLAYERS = 16;

interface Kept {
  readonly library: readonly Subgoal[];
  readonly level: Level;
  readonly player: Player;
  /** The position the player last answered about, black first. */
  moves: readonly Point[];
}

/** A question's players: `newPlayer` for thinking.ts, and `done` to give back what it made. */
export interface KeptAt {
  readonly newPlayer: NewPlayer;
  /** Keeps the player `newPlayer` gave, now at `moves`. */
  readonly done: (moves: readonly Point[]) => void;
}

export class KeptPlayers {
  /** Most recently used last. */
  readonly #kept: Kept[] = [];
  readonly #limit: number;

  constructor(limit = KEPT_PLAYERS) {
    this.#limit = limit;
  }

  /** How many are kept (for tests). */
  get size(): number {
    return this.#kept.length;
  }

  /**
   * For a question about the position `moves`: a `newPlayer` that gives the kept player for its
   * config's library and level nearest that position, reseeded with its config's seed, or a new
   * one; not kept again until `done`.
   */
  at(moves: readonly Point[]): KeptAt {
    let given: Kept | undefined;
    return {
      newPlayer: (config: PlayerConfig) => {
        given = this.#take(config, moves);
        return given.player;
      },
      done: (after) => {
        if (given === undefined) return;
        given.moves = after.slice();
        this.#kept.push(given);
        while (this.#kept.length > this.#limit) this.#kept.shift();
        given = undefined;
      },
    };
  }

  #take(config: PlayerConfig, moves: readonly Point[]): Kept {
    const level = config.level ?? 5;
    let best = -1;
    let bestCost = FOLLOW_REACH + 1;
    this.#kept.forEach((k, i) => {
      if (k.library !== config.library || k.level !== level) return;
      const cost = movesApart(k.moves, moves);
      if (cost < bestCost) {
        best = i;
        bestCost = cost;
      }
    });
    if (best < 0) return { library: config.library, level, player: createPlayer(config), moves: [] };
    const entry = this.#kept.splice(best, 1)[0];
    entry.player.reseed(config.seed ?? DEFAULT_SEED);
    return entry;
  }
}
