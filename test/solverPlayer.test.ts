import { describe, expect, it } from 'vitest';
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { createNamedPlayer, playerNames } from '../src/cli/players.ts';
import { SolverPlayer } from '../src/cli/solverPlayer.ts';
import type { MovePlayer } from '../src/play/engine.ts';
import type { Game } from '../src/rules/game.ts';
import { gameFromStones } from '../src/gomocup/protocol.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { expectOk } from '../src/rules/result.ts';

function position(size: number, black: string, white: string): Game {
  const at = (s: string) => (s === '' ? [] : s.split(' ').map((t) => expectOk(parsePoint(size, t))));
  return expectOk(gameFromStones(size, at(black), at(white)));
}

const pt = (g: Game, p: number) => makePoint(g.size, p);

/** Plays the game on until it is over or `limit` moves have been made. */
function playOut(g: Game, black: MovePlayer, white: MovePlayer, limit: number): void {
  for (let i = 0; i < limit && !g.isOver; i++) {
    const p = (g.turn === 'black' ? black : white).chooseMove(g) as number;
    expectOk(g.play(p));
  }
}

// Black to move: c8 d8 and e6 e7 cross at e8, a double open three (a win in three), and
// white's stones are in the corners, out of the way.
const DOUBLE_THREE = ['c8 d8 e7 e6', 'a1 a15 o1 o15'] as const;

describe('tss, the solver as a player', () => {
  it('is registered as builtin:tss, with levels 1 to 5', () => {
    expect(playerNames).toContain('tss');
    const tss = expectOk(createNamedPlayer('tss', { learn: false, seed: 1 }));
    expect(tss.name).toBe('tss');
    expect(expectOk(createNamedPlayer('tss', { learn: false, seed: 1, level: 2 })).name).toBe('tss-2');
    const bad = createNamedPlayer('tss', { learn: false, seed: 1, level: 6 });
    expect(bad.ok).toBe(false);
  });

  it('finds the forced win and plays its first move', () => {
    const g = position(15, ...DOUBLE_THREE);
    const c = new SolverPlayer().choose(g);
    expect(c.reason).toBe('win');
    expect(c.moves).toBe(3);
    expect(pt(g, c.point)).toBe('e8');
  });

  it('wins the game from there against any of the defenders it meets', () => {
    for (const defender of [createGomokuaiPlayer(), new SolverPlayer()]) {
      const g = position(15, ...DOUBLE_THREE);
      // Three black moves and the two white replies between them.
      playOut(g, new SolverPlayer(), defender, 5);
      expect(g.status.kind === 'won' && g.status.winner, defender.name).toBe('black');
    }
  });

  it('completes its own five before blocking the opponent\'s', () => {
    // White to move: both sides have an open four; white makes five rather than block.
    const g = position(15, 'd4 e4 f4 g4 a1', 'd10 e10 f10 g10');
    expect(g.turn).toBe('white');
    const c = new SolverPlayer().choose(g);
    expect(c.reason).toBe('five');
    expect(['c10', 'h10']).toContain(pt(g, c.point));
  });

  it('blocks the opponent\'s four', () => {
    // White has a four d10–g10 closed at c10 by black; black has nothing of its own.
    const g = position(15, 'c10 a1 a3 o15', 'd10 e10 f10 g10');
    expect(g.turn).toBe('black');
    const c = new SolverPlayer().choose(g);
    expect(c.reason).toBe('block-five');
    expect(pt(g, c.point)).toBe('h10');
  });

  it('stops an open three at one of its ends', () => {
    const g = position(15, 'a1 a3 o15', 'e10 f10 g10');
    expect(g.turn).toBe('black');
    const c = new SolverPlayer().choose(g);
    expect(c.reason).toBe('defend');
    expect(['d10', 'h10']).toContain(pt(g, c.point));
  });

  it('plays positionally, and always the same move in the same position', () => {
    const g = position(19, 'j10', 'k11');
    const a = new SolverPlayer().choose(g);
    const b = new SolverPlayer().choose(g);
    expect(a.reason).toBe('positional');
    expect(b).toEqual(a);
    expect(g.board.isEmpty(a.point)).toBe(true);
  });
});
