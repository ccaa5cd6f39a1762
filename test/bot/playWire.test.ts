import { describe, expect, it } from 'vitest';
import { choiceFromWire, choiceToWire } from '../../src/bot/playWire.ts';
import { Library } from '../../src/learning/library.ts';
import { createPlayer, explain } from '../../src/play/player.ts';
import { parseGame } from '../../src/rules/gameRecord.ts';
import { expectOk } from '../../src/rules/result.ts';
import { fixture } from '../support/fixtures.ts';

describe('a move choice crossing from a play worker', () => {
  it('keeps how many defences held, so the bot can say why it chose this end of an open three', () => {
    const g = expectOk(parseGame(fixture('player/two-ends.txt')));
    const series = expectOk(Library.fromFile(fixture('libraries/series-187.txt'))).subgoals();
    const byText = new Map(series.map((s) => [s.text, s]));
    const c = createPlayer({ library: series, level: 5 }).choose(g);
    // Through a structured clone, as between worker threads.
    const back = choiceFromWire(structuredClone(choiceToWire(c)), (text) => byText.get(text)!);
    expect(back.reason.kind === 'refute' && back.reason.holding).toBe(2);
    expect(explain(back, g.size)).toBe(explain(c, g.size));
    expect(explain(back, g.size)).toMatch(/; of the 2 defences that hold, the one that leaves black least to build$/);
  });
});
