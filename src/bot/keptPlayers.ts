/**
 * Players a play worker keeps between questions, so a turn in a game goes on from the
 * recogniser and look-ahead that answered the last turn instead of recognising the whole
 * position again. Every turn and hint used to make a new player, whose recogniser and
 * look-ahead each scanned the position from the start: about a sixth of the workers' time
 * under the load benchmark (docs/BENCHMARKS.md, 2026-11-27, third pass). A kept player is
 * reseeded with the question's seed (`Player.reseed`), and then chooses what a new player with
 * that seed would: the answers do not depend on whether a player was kept.
 *
 * A player is kept for one library array (one server's library at one version: the worker
 * keeps one array per version, so a changed library is a new array and never meets an old
 * player) and one level. A question takes the kept player whose last position is nearest its
 * own — the fewest moves to take back and play — when that is within the recogniser's own
 * reach for following a game (`FOLLOW_REACH`); else a new one. At most `KEPT_PLAYERS` are kept,
 * the least recently used dropped.
 */
import { createPlayer, type Level, type Player } from '../play/player.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import type { Point } from '../rules/types.ts';

/** Players a worker keeps (each holds a recogniser and a look-ahead: a few MB with a large library). */
export const KEPT_PLAYERS = 16;

/** Moves taken back plus moves played within which a kept recogniser follows a game (play/lookahead.ts `follow`). */
const FOLLOW_REACH = 12;

interface Kept {
  readonly library: readonly Subgoal[];
  readonly level: Level;
  readonly player: Player;
  /** The position the player last answered about, black first. */
  moves: readonly Point[];
}

export interface TakenPlayer {
  readonly player: Player;
  /** Gives the player back, now at `moves`. */
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

  /** A player for `library` at `level`, seeded with `seed`, near the position `moves` if one is kept. */
  take(library: readonly Subgoal[], level: Level, seed: number, moves: readonly Point[]): TakenPlayer {
    let best = -1;
    let bestCost = FOLLOW_REACH + 1;
    this.#kept.forEach((k, i) => {
      if (k.library !== library || k.level !== level) return;
      const cost = distance(k.moves, moves);
      if (cost < bestCost) {
        best = i;
        bestCost = cost;
      }
    });
    let entry: Kept;
    if (best >= 0) {
      entry = this.#kept.splice(best, 1)[0];
      entry.player.reseed(seed);
    } else {
      entry = { library, level, player: createPlayer({ library, level, seed }), moves: [] };
    }
    return {
      player: entry.player,
      done: (after) => {
        entry.moves = after.slice();
        this.#kept.push(entry);
        while (this.#kept.length > this.#limit) this.#kept.shift();
      },
    };
  }
}

/** Moves to take back from `a` and to play to reach `b`. */
function distance(a: readonly Point[], b: readonly Point[]): number {
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return a.length - common + (b.length - common);
}
