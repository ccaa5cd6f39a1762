/**
 * Where a member's games are when they have none in the channel they asked in: a /move sent in
 * the wrong channel was told only "no game here", though the game was one channel over.
 */
import type { BotProblem } from './problems.ts';
import type { BotStore, Seat } from './store.ts';

/** The no-game problem for this seat, naming the channels where the member has a game going, if any. */
export async function noGame(store: BotStore, seat: Seat): Promise<BotProblem> {
  const games = await store.guild(seat.guildId).games.list();
  const elsewhere = games
    .map((e) => e.value)
    .filter((g) => g.userId === seat.userId && g.channelId !== seat.channelId && g.finished === undefined)
    .map((g) => g.channelId)
    .sort();
  return elsewhere.length === 0 ? { code: 'no-game' } : { code: 'no-game', elsewhere };
}
