import { describe, expect, it } from 'vitest';
import { analyseGame } from '../src/learning/analysis.ts';
import { Board } from '../src/rules/board.ts';
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { Game } from '../src/rules/game.ts';
import { parseGame } from '../src/rules/gameRecord.ts';
import { Library } from '../src/learning/library.ts';
import { fourMoves, Lookahead, quickSubgoals } from '../src/play/lookahead.ts';
import { createPlayer, explain, guardDepth, LEVELS } from '../src/play/player.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { Recogniser } from '../src/recognition/recognise.ts';
import { expectOk } from '../src/rules/result.ts';
import { solve } from '../src/learning/solver.ts';
import { BLACK, stoneOf, WHITE } from '../src/rules/types.ts';
import { fixture } from './support/fixtures.ts';
import { library } from './support/recognition.ts';

const RULE = ['(1) 1:5'];
// The paper's six subgoals (its listing), the rule of five first.
const PAPER = ['(1) 1:5', "(1) 2:4'", '(1, 1) 2:4, 4', "(1, 1) 3:3', 3'", '(1, 2-1) 4, 3-3:4', "(1, 2-1, 2) 4:3', 2'-4:2', 3'"];
const BOUNDS = { depth: 5, budget: 400, breadth: 10 };
const game = (path: string) => expectOk(parseGame(fixture(path)));
const names = (g: Game, ps: readonly number[]) => ps.map((p) => makePoint(g.size, p)).join(' ');

function searchAt(g: Game, lib: readonly string[]): Lookahead {
  const la = new Lookahead(library(lib), BOUNDS.depth);
  la.sync(g);
  la.startMove(10_000);
  return la;
}

describe('the look-ahead knows what the library knows', () => {
  it('finds a forced win in 3 of its own moves with the paper\'s six subgoals, and nothing with the rule of five alone', () => {
    // Black to move; j8 makes an open three on row 8 and on column j (the fixture's comment).
    const g = game('player/double-three.txt');
    const la = searchAt(g, PAPER);
    const line = la.forcedWin('black', BOUNDS);
    expect(line).toBeDefined();
    expect(line!.moves).toBe(3);
    expect(makePoint(g.size, line!.line[0].point)).toBe('j8');
    expect(line!.line[0].from?.subgoal.text).toBe("(1, 1) 3:3', 3'");
    // The solver agrees that j8 wins in 3 against any defence.
    const v = solve(g.board, BLACK, { maxAttackerMoves: 3, nodeBudget: 100_000, counterFours: true, firstMoves: [line!.line[0].point] });
    expect(v.result).toBe('win');
    // Knowing only fives, black sees no four to make and so no forced line.
    expect(searchAt(g, RULE).forcedWin('black', BOUNDS)).toBeUndefined();
    // The search leaves its board as it found it.
    expect(la.board.moves).toEqual(g.moves);
  });

  it('plays a line out: whatever white answers to j8, black wins in 3', () => {
    const g = game('player/double-three.txt');
    for (const answer of ['k8', 'g8', 'j9', 'j5', 'f8', 'a1']) {
      const h = g.clone();
      const black = createPlayer({ library: library(PAPER), level: 5, seed: 1 });
      // White blocks a five when black has one (the rule-of-five player does that first).
      const white = createPlayer({ library: library(RULE), level: 5, seed: 1 });
      expectOk(h.play(black.chooseMove(h)));
      expectOk(h.play(expectOk(parsePoint(h.size, answer))));
      let moves = 1;
      while (!h.isOver && moves < 3) {
        expectOk(h.play(black.chooseMove(h)));
        moves++;
        if (!h.isOver) expectOk(h.play(white.chooseMove(h)));
      }
      expect(h.status.kind === 'won' && h.status.winner, `after white ${answer}`).toBe('black');
    }
  });

  it('searches with the subgoals a line of its depth can finish, and its moves are nodes and fours', () => {
    const lib = library(PAPER);
    expect(quickSubgoals(lib, 2).map((s) => s.text)).toEqual(['(1) 1:5', "(1) 2:4'", '(1, 1) 2:4, 4']);
    // Fig. 6's node 2 wins in 3: (1, 2-1) 4, 3-3:4 is a subgoal of depth 3.
    expect(quickSubgoals(lib, 3).map((s) => s.text)).toEqual(['(1) 1:5', "(1) 2:4'", '(1, 1) 2:4, 4', "(1, 1) 3:3', 3'", '(1, 2-1) 4, 3-3:4']);
    // The fours of a colour are the empty points of its possible 5-patterns holding three stones.
    const b = Board.empty(15);
    for (const p of ['c3', 'd3', 'e3']) b.play(expectOk(parsePoint(15, p)), BLACK);
    b.play(expectOk(parsePoint(15, 'b3')), WHITE);
    expect(fourMoves(b, BLACK).map((p) => makePoint(15, p))).toEqual(['f3', 'g3']);
    expect(fourMoves(b, WHITE)).toEqual([]);
  });
});

describe('a move\'s work is bounded, not only its plays', () => {
  // Five stones of an opening: the series library's loose subgoals (patterns of one or two
  // stones) are realised thousands of ways here, and 200 plays once took 4.3 s.
  const lib = expectOk(Library.fromFile(fixture('libraries/series-159.txt'))).subgoals();
  const sparse = (): Game => {
    const g = Game.create(19);
    for (const t of ['m9', 'i9', 'm8', 'j13', 'k9']) expectOk(g.play(expectOk(parsePoint(19, t))));
    return g;
  };

  it('stops a search when the move\'s work is spent, and says the search was cut', () => {
    const la = new Lookahead(lib, 5);
    la.sync(sparse());
    la.startMove(500, 100_000);
    expect(la.forcedWin('black', { depth: 6, budget: 200, breadth: 10 })).toBeUndefined();
    expect(la.workSpent).toBe(true);
    expect(la.lastSearchCut).toBe(true);
    expect(la.playsLeft).toBe(0);
    // A new move starts its work afresh.
    la.startMove(500, 100_000);
    expect(la.workSpent).toBe(false);
    expect(la.playsLeft).toBe(500);
  });

  it('at level 5, whose plays tripled on 2026-11-29, the work still ends such a search first', () => {
    const rule = LEVELS[5];
    const bounds = { depth: guardDepth(5), budget: rule.budget, breadth: rule.breadth };
    const la = new Lookahead(lib, rule.depth);
    la.sync(sparse());
    la.startMove(rule.moveBudget, rule.work);
    expect(la.forcedWin('black', bounds)).toBeUndefined();
    expect(la.workSpent).toBe(true);
    expect(la.lastSearchCut).toBe(true);
    // Without the work bound the plays would not have stopped it: the search ends by itself
    // after fewer than a search's plays, past the work a level-5 move may take.
    const free = new Lookahead(lib, rule.depth);
    free.sync(sparse());
    free.startMove(rule.moveBudget);
    free.forcedWin('black', bounds);
    expect(free.workSpent).toBe(false);
    expect(rule.moveBudget - free.playsLeft).toBeLessThan(rule.budget);
  });

  it('without a bound on work, the same search goes on past it', () => {
    const la = new Lookahead(lib, 5);
    la.sync(sparse());
    la.startMove(500);
    la.forcedWin('black', { depth: 6, budget: 20, breadth: 10 });
    expect(la.workSpent).toBe(false);
    expect(la.playsLeft).toBe(480);
  });
});

describe('a defence the look-ahead proves', () => {
  it('stops a double open three before it is played when the library knows it, and not when it does not', () => {
    // The double-three fixture with colours swapped: white holds h8 i8 j6 j7 and threatens j8,
    // black (a15 b2 n2 b14 n14) is to move.
    const swapped = Game.create(15);
    for (const p of ['a15', 'h8', 'b2', 'i8', 'n2', 'j6', 'b14', 'j7', 'n14', 'o1']) expectOk(swapped.play(expectOk(parsePoint(15, p))));
    expect(swapped.turn).toBe('black');
    const knows = createPlayer({ library: library(PAPER), level: 5, seed: 2 }).choose(swapped);
    expect(knows.reason.kind).toBe('refute');
    const after = swapped.clone();
    expectOk(after.play(knows.point));
    expect(solve(after.board, WHITE, { maxAttackerMoves: 3, nodeBudget: 100_000, counterFours: true }).result).not.toBe('win');
    expect(explain(knows, 15)).toMatch(/^[a-o]\d+: stops white's forced line — white would play j8 \(node of `\(1, 1\) 3:3', 3'`\) and win in 3; of the 5 defences that hold, the one that leaves white least to build$/);
    // Knowing fives only, it sees nothing coming.
    const blind = createPlayer({ library: library(RULE), level: 5, seed: 2 }).choose(swapped);
    expect(blind.reason.kind).not.toBe('refute');
  });
});

describe('never the same loss twice', () => {
  const lost = game('games/learning/repeated-loss-gomokuai.txt');
  const OPENING = 10;

  function replay(lib: Library): Game {
    const g = Game.create(19);
    for (const p of lost.moves.slice(0, OPENING)) expectOk(g.play(p));
    const me = createPlayer({ library: lib.subgoals(), level: 5, seed: 1968 });
    const opponent = createGomokuaiPlayer();
    while (!g.isOver && g.moves.length < 120) expectOk(g.play(g.turn === 'black' ? me.chooseMove(g) : (opponent.chooseMove(g) as number)));
    return g;
  }

  it('the walk back goes on through white\'s second threat (move 20) to the lesson at move 16', () => {
    const a = expectOk(analyseGame(lost, Library.empty().subgoals()));
    expect(a.learned.map((l) => [l.moveIndex + 1, l.subgoal.text])).toEqual([
      [26, "(1) 2:4'"],
      [24, "(1, 1) 3:4, 3'"],
      [22, "(1, 2-1, 2) 4:4, 2'-4:2', 4"],
      [18, "(1, 1) 3:4, 3'"],
      [16, "(1, 2-1, 2) 4, 2'-4:2', 3'"],
    ]);
    const passed = a.walk.find((w) => w.outcome === 'passed')!;
    expect(passed.moveIndex + 1).toBe(20);
    expect(passed.why).toContain("the winner already held (1) 2:4'");
    // The lesson at n7 (move 16) is recognised before n7 is played, n7 a node, and its comment holds.
    const lesson = a.learned.at(-1)!;
    const before = Board.empty(19);
    for (const p of lost.moves.slice(0, lesson.moveIndex)) before.play(p, lost.board.get(p) as 1 | 2);
    const found = new Recogniser(before, [lesson.subgoal]).realisations('white').filter((r) => r.nodes.includes(lesson.point));
    expect(names(lost, [lesson.point])).toBe('n7');
    expect(found.length).toBeGreaterThan(0);
    const k = lesson.subgoal.description.nodes.find((n) => n.comment !== undefined)!.comment!;
    const v = solve(before, stoneOf('white'), { maxAttackerMoves: k, nodeBudget: 400_000, defenderThreats: false, quietFirstMove: true, firstMoves: [lesson.point] });
    expect(v.result).toBe('win');
  });

  it('after learning from the game, the player does not lose it again; before, it loses', () => {
    const again = replay(Library.empty());
    expect(again.status.kind === 'won' && again.status.winner).toBe('white');
    const lib = Library.empty();
    for (const l of expectOk(analyseGame(lost, lib.subgoals())).learned) expectOk(lib.add(l.subgoal));
    const taught = replay(lib);
    expect(names(taught, taught.moves.slice(0, lost.moves.length))).not.toBe(names(lost, lost.moves));
    expect(taught.status.kind === 'won' && taught.status.winner).not.toBe('white');
  });
});
