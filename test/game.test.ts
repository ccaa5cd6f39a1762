import { describe, expect, it } from 'vitest';
import { Game, describeStatus } from '../src/rules/game.ts';
import { parseGame } from '../src/rules/gameRecord.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { expectOk } from '../src/rules/result.ts';
import { fixture } from './support/fixtures.ts';

const five = (g: Game): string[] => {
  const s = g.status;
  return s.kind === 'won' ? s.five.map((p) => makePoint(g.size, p)) : [];
};

describe('the rules (game fixtures)', () => {
  it('black wins with an exact five on a row', () => {
    const g = expectOk(parseGame(fixture('games/black-five-row.txt')));
    expect(g.status.kind).toBe('won');
    expect(g.status.kind === 'won' && g.status.winner).toBe('black');
    expect(five(g)).toEqual(['g10', 'h10', 'i10', 'j10', 'k10']);
    expect(describeStatus(g)).toBe('black wins with five at g10 h10 i10 j10 k10');
  });

  it('six in a row is no win: the game goes on', () => {
    const g = expectOk(parseGame(fixture('games/overline-six.txt')));
    expect(g.status.kind).toBe('playing');
    expect(g.turn).toBe('white');
    expect(g.board.runThrough(expectOk(parsePoint(19, 'f10')), 0)).toHaveLength(6);
  });

  it('a five flanked by an opponent stone wins', () => {
    const g = expectOk(parseGame(fixture('games/five-flanked-by-white.txt')));
    expect(five(g)).toEqual(['c10', 'd10', 'e10', 'f10', 'g10']);
  });

  it('wins on the rising diagonal from the corner of a 15×15 board', () => {
    const g = expectOk(parseGame(fixture('games/edge-diagonal-five.txt')));
    expect(g.size).toBe(15);
    expect(five(g)).toEqual(['a1', 'b2', 'c3', 'd4', 'e5']);
  });

  it('white wins on the falling diagonal at the board edge', () => {
    const g = expectOk(parseGame(fixture('games/falling-diagonal-white.txt')));
    expect(g.status.kind === 'won' && g.status.winner).toBe('white');
    expect(five(g).sort()).toEqual(['o5', 'p4', 'q3', 'r2', 's1'].sort());
  });

  it('a full 5×5 board with no five is a draw', () => {
    const g = expectOk(parseGame(fixture('games/draw-5x5.txt')));
    expect(g.moves).toHaveLength(25);
    expect(g.status.kind).toBe('draw');
    expect(describeStatus(g)).toBe('draw: the board is full');
  });
});

describe('Game', () => {
  it('black moves first and the sides alternate', () => {
    const g = Game.create(15);
    expect(g.turn).toBe('black');
    expectOk(g.play(0));
    expect(g.turn).toBe('white');
    expect(g.lastMover).toBe('black');
  });

  it('refuses occupied points, points off the board and moves after the end, changing nothing', () => {
    const g = expectOk(parseGame(fixture('games/black-five-row.txt')));
    const before = g.snapshot();
    const after = g.play(0);
    expect(after.ok || after.error.code).toBe('game-over');
    expect(g.snapshot()).toEqual(before);

    const h = Game.create(9);
    expectOk(h.play(40));
    for (const [p, code] of [[40, 'occupied'], [81, 'off-board'], [-1, 'off-board'], [1.5, 'off-board']] as const) {
      const r = h.play(p);
      expect(r.ok || r.error.code).toBe(code);
    }
    expect(h.moves).toEqual([40]);
    expect(h.turn).toBe('white');
  });

  it('undo takes back the winning move and reopens the game', () => {
    const g = expectOk(parseGame(fixture('games/black-five-row.txt')));
    expect(g.undo()).toBe(expectOk(parsePoint(19, 'i10')));
    expect(g.status.kind).toBe('playing');
    expect(g.turn).toBe('black');
  });

  it('snapshots carry the last move, move numbers and the winning line', () => {
    const g = expectOk(parseGame(fixture('games/black-five-row.txt')));
    const s = g.snapshot({ moveNumbers: true });
    expect(s.lastMove).toBe(expectOk(parsePoint(19, 'i10')));
    expect(s.moveNumbers?.[expectOk(parsePoint(19, 'j10'))]).toBe(1);
    expect(s.moveNumbers?.[expectOk(parsePoint(19, 'j11'))]).toBe(2);
    expect(s.winningLine).toHaveLength(5);
  });
});
