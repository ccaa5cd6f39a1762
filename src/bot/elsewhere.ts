/**
 * Where a member's games are when they have none in the channel they asked in: a /move sent in
 * the wrong channel was told only "no game here", though the game was one channel over.
 */
import type { BotProblem } from './problems.ts';
import type { BotStore, Seat } from './store.ts';

/** The no-game problem for this seat, naming the channels where the member has a game going, if any. */
export async function noGame(store: BotStore, seat: Seat): Promise<BotProblem> {
  const memory = store.guild(seat.guildId);
  const [games, versus] = await Promise.all([memory.games.list(), memory.versus.list()]);
  const elsewhere = games
    .map((e) => e.value)
    .filter((g) => g.userId === seat.userId && g.channelId !== seat.channelId && g.finished === undefined)
    .map((g) => g.channelId)
    .sort();
  // A game against another member here is not one against the bot: say so, rather than that
  // the member has no game at all (/hint and /threats are for games against the bot).
  const member = versus
    .map((e) => e.value)
    .filter((g) => g.channelId === seat.channelId && g.finished === undefined && (g.black === seat.userId || g.white === seat.userId))
    .map((g) => (g.black === seat.userId ? g.white : g.black))
    .sort();
  return { code: 'no-game', ...(elsewhere.length > 0 ? { elsewhere } : {}), ...(member.length > 0 ? { against: member } : {}) };
}
