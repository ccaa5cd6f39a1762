import { describe, expect, it } from 'vitest';
import { CHART, chartPixel, lossRates, renderLossChart, WINDOW } from '../../src/bot/chart.ts';
import { memberLines, memberResults, resignations } from '../../src/bot/memberStats.ts';
import type { Ending, Outcome } from '../../src/bot/gameTerms.ts';
import { statsView } from '../../src/bot/views.ts';
import { discordFrontend as f } from '../../src/bot/words.ts';
import { decode, distance, hexToRgb } from '../render/png.ts';

/** Games in the order they ended: member, outcome for the bot, and how. */
const games = (list: [string, Outcome, Ending][]) => list.map(([userId, outcome, ending], i) => ({ userId, outcome, ending, endedAt: 1000 + i }));

describe('member results', () => {
  const history = games([
    ['ann', 'bot-lost', 'five'],
    ['ann', 'bot-lost', 'five'],
    ['bo', 'bot-won', 'resigned'],
    ['ann', 'bot-won', 'five'],
    ['ann', 'bot-lost', 'five'],
    ['ann', 'bot-lost', 'five'],
    ['ann', 'bot-lost', 'five'],
    ['bo', 'bot-lost', 'five'],
    ['bo', 'abandoned', 'expired'],
    ['cy', 'draw', 'full-board'],
    ['ann', 'bot-won', 'resigned'],
  ]);

  it('count wins, losses, resignations and draws apart, and the best streak of wins in a row', () => {
    expect(memberResults(history)).toEqual([
      { userId: 'ann', wins: 5, losses: 1, resigned: 1, draws: 0, bestStreak: 3 },
      { userId: 'bo', wins: 1, losses: 0, resigned: 1, draws: 0, bestStreak: 1 },
      { userId: 'cy', wins: 0, losses: 0, resigned: 0, draws: 1, bestStreak: 0 },
    ]);
    expect(resignations(history)).toBe(2);
    expect(memberLines(memberResults(history), f)).toEqual([
      '**Members** (wins against me, losses, best streak of wins):',
      '<@ann>: 5 wins, 1 loss, 1 resigned, best streak 3',
      '<@bo>: 1 win, 0 losses, 1 resigned, best streak 1',
      '<@cy>: 0 wins, 0 losses, 1 draw, best streak 0',
    ]);
  });

  it('leave resignations out of the loss chart, and say them apart in /stats', () => {
    // Nine games decided by a five or a full board: six member wins, two bot wins, a draw.
    expect(lossRates(history).map((p) => p.lost)).toEqual([true, true, false, true, true, true, true, false]);
    const s = statsView({ games: 11, botWon: 1, botLost: 6, draws: 1, abandoned: 1, resigned: 2, learned: 0, history, members: memberResults(history) }, f);
    expect(s.text.split('\n').slice(1, 3)).toEqual([
      'Finished games: 11 — members won 6, I won 1, 1 draw, 2 resigned (counted apart: no five, nothing learned) (and 1 expired).',
      'I lost 75% of the games decided by a five or a full board.',
    ]);
  });
});

describe('the loss chart', () => {
  it(`draws the last-${WINDOW} line from game ${WINDOW + 1}, over the overall line, and a legend for the loss dots`, async () => {
    // Twelve decided games: the member won the first six, the bot the next six.
    const history = games(Array.from({ length: 12 }, (_, i) => ['ann', i < 6 ? 'bot-lost' : 'bot-won', 'five'] as [string, Outcome, Ending]));
    const rates = lossRates(history);
    const image = await decode(renderLossChart(history)!);
    const orange = hexToRgb(CHART.recent);
    const blue = hexToRgb(CHART.overall);
    // Game 10: only the overall line (the recent one would be the same point).
    expect(distance(image.at(chartPixel(10, 12, rates[9].overall)), blue)).toBeLessThan(40);
    // Games 11 and 12: the recent line, apart from the overall one.
    for (const n of [11, 12]) {
      expect(rates[n - 1].recent).not.toBe(rates[n - 1].overall);
      expect(distance(image.at(chartPixel(n, 12, rates[n - 1].recent)), orange), `game ${n}`).toBeLessThan(40);
      expect(distance(image.at(chartPixel(n, 12, rates[n - 1].overall)), blue), `game ${n}`).toBeLessThan(40);
    }
    // The legend: a red dot for a loss, in the title row, as the dots on the bottom edge are.
    const loss = hexToRgb(CHART.loss);
    let found = false;
    for (let x = CHART.width / 2; x < CHART.width && !found; x++) if (distance(image.at({ x, y: 16.5 }), loss) < 30) found = true;
    expect(found).toBe(true);
  });
});
