// The players a play worker keeps (src/bot/keptPlayers.ts): one is taken again for a question
// near the position it last answered, for the same library array and level only, and the
// least recently used goes past the limit. That a kept player answers as a new one does is
// test/bot/thinker.test.ts's and test/player.test.ts's.
import { describe, expect, it } from 'vitest';
import { KeptPlayers } from '../../src/bot/keptPlayers.ts';
import type { Level } from '../../src/play/player.ts';
import type { Subgoal } from '../../src/recognition/subgoal.ts';
import { library } from '../support/recognition.ts';

const PAPER = library(['(1) 1:5', "(1) 2:4'", '(1, 1) 2:4, 4', "(1, 1) 3:3', 3'"]);
const OTHER = library(['(1) 1:5', "(1) 2:4'"]);
const line = (n: number) => Array.from({ length: n }, (_, i) => 100 + i);

/** What thinking.ts does with a question's players: asks for one by its config, gives it back after. */
function take(kept: KeptPlayers, lib: readonly Subgoal[], level: Level, seed: number, moves: readonly number[]) {
  const at = kept.at(moves);
  return { player: at.newPlayer({ library: lib, level, seed }), done: at.done };
}

describe('kept players', () => {
  it('a question near the last position takes the same player back, reseeded', () => {
    const kept = new KeptPlayers();
    const first = take(kept, PAPER, 5, 1, line(10));
    first.done(line(11));
    // Two moves on, one taken back: within reach.
    const again = take(kept, PAPER, 5, 2, line(12));
    expect(again.player).toBe(first.player);
    again.done(line(12));
    expect(kept.size).toBe(1);
  });

  it('another library array, another level or a far position gets a new player', () => {
    const kept = new KeptPlayers();
    const a = take(kept, PAPER, 5, 1, line(10));
    a.done(line(10));
    expect(take(kept, OTHER, 5, 1, line(10)).player).not.toBe(a.player);
    expect(take(kept, PAPER, 3, 1, line(10)).player).not.toBe(a.player);
    // Thirteen moves away is past what a kept recogniser follows.
    expect(take(kept, PAPER, 5, 1, line(23)).player).not.toBe(a.player);
    // Not given back while another question has it: a second question meanwhile gets its own.
    const b = take(kept, PAPER, 5, 1, line(10));
    expect(b.player).toBe(a.player);
    expect(take(kept, PAPER, 5, 1, line(10)).player).not.toBe(a.player);
  });

  it('keeps at most its limit, dropping the least recently used', () => {
    // Three games far apart (no two within reach of each other).
    const game = (i: number) => Array.from({ length: 13 }, (_, k) => 20 * i + k);
    const kept = new KeptPlayers(2);
    const taken = [0, 1, 2].map((i) => take(kept, PAPER, 5, i, game(i)));
    for (const [i, t] of taken.entries()) t.done(game(i));
    expect(kept.size).toBe(2);
    expect(take(kept, PAPER, 5, 9, game(0)).player).not.toBe(taken[0].player);
    expect(take(kept, PAPER, 5, 9, game(1)).player).toBe(taken[1].player);
    expect(take(kept, PAPER, 5, 9, game(2)).player).toBe(taken[2].player);
  });
});
