/**
 * Moves that have arrived and not yet been answered, per channel, so that a move is judged
 * against the moment it arrived.
 *
 * A game against the bot is found from the member alone, so its move claims the game's lock
 * the instant it arrives (service.ts). Once members play each other, /move must first read
 * storage to find which of the member's games it is for — and while it reads, another move of
 * that game may be played, after which this one would land on a position its sender never
 * saw. So each /move takes a claim synchronously on arrival, noting the claims of its channel
 * already open; claims of a channel find their games one at a time in arrival order (a
 * `KeyedLock` per channel: the lookups only, not the moves); and a move whose game one of
 * those earlier, still-open claims had found is refused, as a second move is in a game
 * against the bot.
 */
import { KeyedLock } from './lock.ts';

export interface Claim {
  readonly place: string;
  /** Claims of the same place open when this one arrived. */
  readonly before: readonly Claim[];
  /** The game it turned out to be for, once found; `who` made it. */
  target?: string;
  readonly who: string;
}

export class MoveClaims {
  readonly #open = new Map<string, Set<Claim>>();
  readonly #finding = new KeyedLock();

  /** Takes a claim in `place` (a server's channel) for member `who`; synchronous. */
  arrive(place: string, who: string): Claim {
    const open = this.#open.get(place) ?? new Set<Claim>();
    this.#open.set(place, open);
    const claim: Claim = { place, who, before: [...open] };
    open.add(claim);
    return claim;
  }

  /**
   * Finds the claim's game with `find` after every earlier claim of its place has found its
   * own; `targetOf` names the game found (undefined: none). Returns what was found and the
   * earlier open claim on the same game, if any.
   */
  find<T>(claim: Claim, find: () => Promise<T>, targetOf: (found: T) => string | undefined): Promise<{ found: T; crossed?: Claim }> {
    return this.#finding.run(claim.place, async () => {
      const found = await find();
      claim.target = targetOf(found);
      const crossed = claim.target === undefined ? undefined : claim.before.find((c) => c.target === claim.target);
      return { found, ...(crossed !== undefined ? { crossed } : {}) };
    });
  }

  /** The move has been answered (or refused). */
  finish(claim: Claim): void {
    const open = this.#open.get(claim.place);
    open?.delete(claim);
    if (open?.size === 0) this.#open.delete(claim.place);
  }
}
