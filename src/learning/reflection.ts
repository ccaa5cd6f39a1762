/**
 * Reflection's one rule both learners share (the bot, src/bot/reflection.ts, and `gomoku brain
 * --learn`, src/cli/elcockPlayer.ts): the order a pass walks back through old games in. A pass
 * that runs out of time leaves the id of the game it did not reach; the next pass begins there,
 * goes on to the newest, then round from the oldest, so a long history is walked in turns and
 * no game waits for ever behind the older ones.
 */

/** `games` (oldest first) in the order a pass walks them, beginning at `resumeAt` if it is one of them. */
export function passOrder<T extends { readonly id: string }>(games: readonly T[], resumeAt: string | undefined): T[] {
  const from = Math.max(0, games.findIndex((g) => g.id === resumeAt));
  return [...games.slice(from), ...games.slice(0, from)];
}
