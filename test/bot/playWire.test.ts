import { describe, expect, it } from 'vitest';
import { choiceFromWire, choiceToWire } from '../../src/bot/playWire.ts';
import { Library } from '../../src/learning/library.ts';
import { createPlayer, explain } from '../../src/play/player.ts';
import { parseGame } from '../../src/rules/gameRecord.ts';
import { expectOk } from '../../src/rules/result.ts';
import { fixture } from '../support/fixtures.ts';

/** The level-5 player's choice on a fixture with the series library, before and after a structured clone, as between worker threads. */
function throughWire(name: string) {
  const g = expectOk(parseGame(fixture(`player/${name}.txt`)));
  const series = expectOk(Library.fromFile(fixture('libraries/series-187.txt'))).subgoals();
  const byText = new Map(series.map((s) => [s.text, s]));
  const c = createPlayer({ library: series, level: 5 }).choose(g);
  const back = choiceFromWire(structuredClone(choiceToWire(c)), (text) => byText.get(text)!);
  return { size: g.size, c, back };
}

describe('a move choice crossing from a play worker', () => {
  it('keeps how many defences held, so the bot can say why it chose this end of an open three', () => {
    const { size, c, back } = throughWire('two-ends');
    expect(back.reason.kind === 'refute' && back.reason.holding).toBe(2);
    expect(explain(back, size)).toBe(explain(c, size));
    expect(explain(back, size)).toMatch(/; of the 2 defences that hold, the one that leaves black least to build$/);
  });

  it('keeps how many of them still held a move deeper', () => {
    const { size, c, back } = throughWire('deeper');
    expect(back.reason.kind === 'refute' && [back.reason.holding, back.reason.deeper]).toEqual([3, 1]);
    expect(explain(back, size)).toBe(explain(c, size));
  });
});
