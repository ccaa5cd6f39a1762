/**
 * The picture beside /hint: where the bot would consider playing, as a heat map over the
 * board (src/render/heat.ts) from the player's own positional scores, the hint ringed.
 *
 * The scores are those of the player's positional rule, so they show how it weighs building
 * its own possible 5-patterns and spoiling the other side's; a hint that comes from a
 * realisation (a five, a block, a forced line) is ringed wherever the heat is.
 */
import { heatDrawing } from './picture.ts';
import { picture, type ReplyImage } from './reply.ts';
import type { Hinted } from './gameViews.ts';

export const HEAT_LEGEND = 'The picture: where I would consider playing for you, the redder the more (how much each point builds your possible fives and spoils mine); the blue ring is the hint.';

export function heatImage(h: Hinted): ReplyImage {
  const drawing = heatDrawing(h.game, h.considered, h.choice.point);
  return picture('hint.png', `Heat map of the ${h.stored.size}×${h.stored.size} board: ${drawing.args[1].length} point${drawing.args[1].length === 1 ? '' : 's'} considered, the hint ringed`, drawing);
}
