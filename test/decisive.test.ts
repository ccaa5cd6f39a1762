import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decisiveMove, formatTally, learnerMoveNumber, tally, type Decisive } from '../bench/decisive.ts';
import { solve } from '../src/learning/solver.ts';
import { Library } from '../src/learning/library.ts';
import { Game } from '../src/rules/game.ts';
import { parseGame } from '../src/rules/gameRecord.ts';
import { makePoint } from '../src/rules/point.ts';
import { expectOk } from '../src/rules/result.ts';
import { WHITE } from '../src/rules/types.ts';
import { FIXTURES } from './support/fixtures.ts';

// Two losses of the 170-subgoal series library against gomokuai (bench/frozen.ts --out,
// openings 4242, 2026-11-29), read back with the solver as judge at depth 9.
const record = (name: string) => readFileSync(join(FIXTURES, 'games', 'decisive', name), 'utf8');
const at = (p: number) => makePoint(19, p);
// The player's choice is printed beside the judge's reading; here it plays with the rule of five alone.
const library = Library.empty().subgoals();
// Each reading runs the solver over every move near the stones: read each fixture once.
const readings = new Map<string, Decisive | undefined>();
const read = (name: string) => {
  if (!readings.has(name)) readings.set(name, decisiveMove(name, record(name), library, 9, 200_000));
  return readings.get(name)!;
};

describe('bench/decisive.ts: where a lost game was decided', () => {
  it('finds the last learner move at which some move held, and which held — here not the one played', () => {
    const text = record('game-145-black-L.txt');
    const found = read('game-145-black-L.txt')!;
    expect(found.index + 1).toBe(17);
    expect(at(found.played)).toBe('n12');
    expect(found.held.map(at)).toEqual(['o8', 'h12']);
    // The judge's word, checked on the board: after o8 white has no forced win of 9 moves,
    // after the n12 played it has one.
    const moves = expectOk(parseGame(text)).moves;
    const after = (p: number) => {
      const game = Game.create(19);
      for (const m of moves.slice(0, 16)) game.play(m);
      game.play(p);
      return solve(game.board, WHITE, { maxAttackerMoves: 9, nodeBudget: 200_000, counterFours: true }).result;
    };
    expect(after(found.held[0])).not.toBe('win');
    expect(after(found.played)).toBe('win');
    // The player's choice there is black's, on a point empty before move 17.
    expect(found.choice.colour).toBe('black');
    expect(moves.slice(0, 16)).not.toContain(found.choice.point);
  });

  it('says when the move played held, so the game was lost later', () => {
    const found = read('game-100-white-L.txt')!;
    expect(found.index + 1).toBe(8);
    expect(found.held.map(at)).toEqual(['k12']);
    expect(found.played).toBe(found.held[0]);
  });

  it('counts the readings by the reason at the decisive move, the colour and the phase', () => {
    const black = read('game-145-black-L.txt')!;
    const white = read('game-100-white-L.txt')!;
    // Three opening stones: black's first move is move 5, white's move 4; game 145 was decided
    // at black's move 17, its seventh; game 100 at white's move 8, its third.
    expect([black.learner, black.learnerMove]).toEqual(['black', 7]);
    expect([white.learner, white.learnerMove]).toEqual(['white', 3]);
    expect(learnerMoveNumber(4, 4)).toBe(1);
    // A game where no move held counts among the games and on a line of its own.
    const t = tally([black, white, undefined]);
    expect(t.games).toBe(3);
    expect(Object.fromEntries(t.byReason)).toEqual({ [black.choice.reason.kind]: [1, 0], [white.choice.reason.kind]: [0, 1] });
    expect(t.noneHeld).toBe(1);
    expect(t.early).toBe(1);
    expect(t.lostLater).toBe(1);
    const text = formatTally(t);
    expect(text).toMatch(/^3 losses read/);
    expect(text).toContain(`no move of the learner's held: 1`);
    expect(text).toContain(`decided within the learner's first three moves: 1; the move played held (lost later): 1`);
  });

  it('names a record that is not one of bench/frozen.ts', () => {
    expect(() => decisiveMove('plain', '# size 19\nj10 k10\n', library, 9, 1000)).toThrow(/plain: not a record of bench\/frozen.ts --out/);
  });
});
