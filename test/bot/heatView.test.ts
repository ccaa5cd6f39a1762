/** The words beside /hint's heat map (src/bot/heatView.ts): what the picture shows, counted in good English. */
import { describe, expect, it } from 'vitest';
import type { Hinted } from '../../src/bot/gameViews.ts';
import { heatImage } from '../../src/bot/heatView.ts';
import { Game } from '../../src/rules/game.ts';
import { expectOk } from '../../src/rules/result.ts';

function hinted(points: readonly number[]): Hinted {
  const game = Game.create(15);
  expectOk(game.play(112));
  const considered = points.map((point, i) => ({ point, score: 10 - i }));
  // Only what heatImage reads: the board's size, the position, the points considered and the hint.
  return { stored: { size: 15 }, game, considered, choice: { point: points[0] } } as unknown as Hinted;
}

describe("/hint's heat map", () => {
  it('names the board and counts the points considered, one point in the singular', () => {
    expect(heatImage(hinted([113])).description).toBe('Heat map of the 15×15 board: 1 point considered, the hint ringed');
    expect(heatImage(hinted([113, 111, 97])).description).toBe('Heat map of the 15×15 board: 3 points considered, the hint ringed');
  });
});
