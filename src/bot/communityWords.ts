/**
 * Lines the bot's own replies (views.ts) borrow from the community features: where a learned
 * subgoal came from, for /library, and what a game did to ratings. Apart from
 * communityViews.ts so that views.ts and it need not import each other.
 */
import type { Provenance } from '../learning/library.ts';
import { BOT_PLAYER, importedFile, type LearnedOrigin } from './communityRecords.ts';
import { ratingText, type Rated } from './ratings.ts';
import type { Frontend } from './frontend.ts';

/**
 * A learned subgoal's provenance in /library, marked by where it came from. It is printed in
 * a code block, where Discord shows a mention as its raw id, so the players of a watched game
 * are not named here (its game id finds them).
 */
export function originWords(p: Provenance, origin: LearnedOrigin | undefined, reflected = false): string {
  const date = p.date.slice(0, 10);
  if (origin?.kind === 'pool') return `adopted ${date} from the shared pool · learned in ${origin.servers} server${origin.servers === 1 ? '' : 's'}`;
  // An imported subgoal without a provenance line of its own names the file and its line, and
  // whose game it was the file does not say (imports before 2026-12-03 stored no origin, but
  // their provenance says the same).
  const file = importedFile(p.game);
  if (file !== undefined && (origin === undefined || origin.kind === 'imported')) return `imported ${date} from ${file}, line ${p.move}`;
  const from = `learned ${date} from game ${p.game}, move ${p.move}`;
  const game = origin?.kind === 'win' ? 'my win' : origin?.kind === 'watched' ? 'watched' : origin?.kind === 'imported' ? 'imported' : 'my loss';
  // A lesson found by walking back again through an old game (reflection.ts) says so.
  return `${from} · ${game}${reflected ? ', looking back' : ''}`;
}

/** "Ratings: <@a> 1500? → 1662? (+162), me 1500? → 1338? (−162)." */
export function ratedLine(rated: Rated, f: Frontend): string {
  const one = (c: Rated['changes'][number]) => {
    const d = Math.round(c.after) - Math.round(c.before);
    const who = c.player === BOT_PLAYER ? 'me' : f.who(c.player);
    return `${who} ${Math.round(c.before)} → ${ratingText({ rating: c.after, rd: c.rd })} (${d >= 0 ? '+' : '−'}${Math.abs(d)})`;
  };
  return `Ratings: ${rated.changes.map(one).join(', ')}.`;
}
