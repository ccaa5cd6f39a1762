import { describe, expect, it } from 'vitest';
import { Game } from '../src/rules/game.ts';
import { parseGame } from '../src/rules/gameRecord.ts';
import { bestReply, createPlayer, explain, guardDepth, LEVELS, type BuildSide, type Level, type MoveChoice } from '../src/play/player.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { seededRandom } from '../src/rules/random.ts';
import { Recogniser } from '../src/recognition/recognise.ts';
import { fourMoves, Lookahead } from '../src/play/lookahead.ts';
import { opposite, stoneOf } from '../src/rules/types.ts';
import { expectOk } from '../src/rules/result.ts';
import { fixture } from './support/fixtures.ts';
import { library } from './support/recognition.ts';
import { simpleMove } from './support/simplePlayers.ts';
import { Library } from '../src/learning/library.ts';
import { solve } from '../src/learning/solver.ts';

const RULE = ['(1) 1:5'];
const LEARNED = ['(1) 1:5', "(1) 2:4'", '(1, 1) 2:4, 4', "(1, 1) 3:3', 3'", '(1, 2-1) 4, 3-3:4', "(1, 2-1, 2) 4:3', 2'-4:2', 3'"];
const game = (name: string) => expectOk(parseGame(fixture(`player/${name}.txt`)));
const pt = (g: Game, p: number) => makePoint(g.size, p);

describe('move choice', () => {
  it('completes a five when it can, before blocking the opponent\'s', () => {
    const g = game('complete-five');
    const c = createPlayer({ library: library(RULE) }).choose(g);
    expect(['c8', 'h8']).toContain(pt(g, c.point));
    expect(c.reason.kind).toBe('five');
    expect(explain(c, g.size)).toMatch(/^(c8|h8): completes a five$/);
  });

  it('blocks a four, even with nothing but the rule of five', () => {
    const g = game('block-four');
    const c = createPlayer({ library: library(RULE) }).choose(g);
    expect(pt(g, c.point)).toBe('k4');
    expect(c.reason.kind).toBe('block-five');
    expect(explain(c, g.size)).toBe("k4: stops white's five (destroys white's realisation of `(1) 1:5` at k4)");
  });

  it('blocks an open three once (1) 2:4\' is known, at every level from 3 up, having seen the line it stops', () => {
    const g = game('open-three');
    for (const level of [3, 4, 5] as const) {
      for (let seed = 0; seed < 5; seed++) {
        const c = createPlayer({ library: library(["(1) 1:5", "(1) 2:4'"]), level, seed }).choose(g);
        // The look-ahead finds white's open four and keeps the first defence that stops it.
        expect(c.reason.kind).toBe('refute');
        // Destroying both of white's (1) 2:4' realisations means playing at f7 or j7.
        expect(['f7', 'j7']).toContain(pt(g, c.point));
        // Both ends hold; it says so, and which it chose by what white could build after it.
        expect(c.reason.kind === 'refute' && c.reason.holding).toBe(2);
        expect(explain(c, g.size)).toMatch(/^(f7|j7): stops white's forced line — white would play (f7|j7) \(node of `\(1\) 2:4'`\) and win in 2; of the 2 defences that hold, the one that leaves white least to build$/);
      }
    }
    // Levels 1 and 2 have no look-ahead: they destroy what they recognise.
    const c = createPlayer({ library: library(["(1) 1:5", "(1) 2:4'"]), level: 2, seed: 0 }).choose(g);
    expect(c.reason.kind).toBe('defend');
    expect(explain(c, g.size)).toMatch(/destroys white's realisations? of `\(1\) 2:4'` at (f7|j7)(, `\(1\) 2:4'` at (f7|j7))?$/);
  });

  it('with a learned library it plays the double three and wins the game', () => {
    const g = game('double-three');
    const player = createPlayer({ library: library(LEARNED), seed: 3 });
    const first = player.choose(g);
    expect(pt(g, first.point)).toBe('j8');
    // The look-ahead proves it: no single answer stops both open threes.
    expect(first.reason.kind).toBe('force');
    expect(explain(first, g.size)).toBe("j8: plays node 1 of `(1, 1) 3:3', 3'`, five in 3");
    // Play it out against a defender that blocks fives and open threes whenever it can.
    const rnd = seededRandom(5);
    let blackMoves = 0;
    while (!g.isOver && blackMoves < 6) {
      if (g.turn === 'black') {
        expectOk(g.play(player.chooseMove(g)));
        blackMoves++;
      } else {
        expectOk(g.play(simpleMove(g, rnd, 1)));
      }
    }
    expect(g.status.kind === 'won' && g.status.winner).toBe('black');
    expect(blackMoves).toBeLessThanOrEqual(3);
  });

  it('of the defences that hold, plays the one that leaves the opponent least to build: the right end of an open three', () => {
    const g = game('two-ends');
    const series = expectOk(Library.fromFile(fixture('libraries/series-187.txt'))).subgoals();
    const c = createPlayer({ library: series, level: 5 }).choose(g);
    expect(c.reason.kind === 'refute' && c.reason.holding).toBe(2);
    expect(pt(g, c.point)).toBe('o8');
    expect(explain(c, g.size)).toBe("o8: stops black's forced line — black would play k8 (node of `(1) 2:4'`) and win in 2; of the 2 defences that hold, the one that leaves black least to build");
    // The soundness solver, as judge only: after k8 black forces a five with fours and threes; after o8 it does not.
    const judged = (at: string) => {
      const after = g.clone();
      expectOk(after.play(expectOk(parsePoint(19, at))));
      return solve(after.board, stoneOf('black'), { maxAttackerMoves: 9, nodeBudget: 200_000, counterFours: true }).result;
    };
    expect(judged('k8')).toBe('win');
    expect(judged('o8')).not.toBe('win');
  });

  it('reads a defence\'s replies cut short by the move\'s work as unknown, not as leaving nothing to build', () => {
    const g = game('two-ends');
    const series = expectOk(Library.fromFile(fixture('libraries/series-187.txt'))).subgoals();
    const la = new Lookahead(series, LEVELS[5].depth);
    la.sync(g);
    const stones = la.board.stoneCount;
    la.startMove(10_000);
    const full = bestReply(la, 'black', 20);
    expect(full).toBeGreaterThan(0);
    // Work for a single interpreter step: spent before the first reply is weighed. A floor of
    // 0 would read as the lightest reply of all, and the defence as the best.
    la.startMove(10_000, 1);
    expect(bestReply(la, 'black', 20)).toBeUndefined();
    expect(la.board.stoneCount).toBe(stones);
    la.startMove(10_000);
    expect(bestReply(la, 'black', 20)).toBe(full);
  });

  it('reads the opponent\'s lines one move deeper than its own: at level 3 it stops a line of 4', () => {
    const g = expectOk(parseGame(fixture('reasons/guard.txt')));
    const subgoals = library(LEARNED);
    const la = new Lookahead(subgoals, LEVELS[3].depth);
    la.sync(g);
    la.startMove(10_000);
    const bounds = (depth: number) => ({ depth, budget: LEVELS[3].budget, breadth: LEVELS[3].breadth });
    expect(la.forcedWin('white', bounds(LEVELS[3].depth))).toBeUndefined();
    expect(la.forcedWin('white', bounds(guardDepth(3)))?.moves).toBe(4);
    const c = createPlayer({ library: subgoals, level: 3, seed: 1 }).choose(g);
    expect(c.reason.kind).toBe('refute');
    expect(explain(c, g.size)).toBe("g7: stops white's forced line — white would play g7 (node of `(1, 1) 3:3', 3'`) and win in 4; of the 4 defences that hold, the one that leaves white least to build");
    la.play(c.point, 'black');
    expect(la.forcedWin('white', bounds(guardDepth(3)))).toBeUndefined();
    expect(la.lastSearchCut).toBe(false);
  });

  it('when none of its best-ranked defences holds, it tries its own fours that destroy a threat', () => {
    const g = expectOk(parseGame(fixture('reasons/tempo-four.txt')));
    const subgoals = library(LEARNED);
    const c = createPlayer({ library: subgoals, level: 4, seed: 1 }).choose(g);
    expect(explain(c, g.size)).toBe("f13: stops white's forced line — white would play h14 (node of `(1, 1) 2:4, 4`) and win in 2");
    const la = new Lookahead(subgoals, LEVELS[4].depth);
    la.sync(g);
    la.startMove(10_000);
    expect(fourMoves(la.board, stoneOf('black'))).toContain(c.point);
    la.play(c.point, 'black');
    expect(la.forcedWin('white', { depth: guardDepth(4), budget: LEVELS[4].budget, breadth: LEVELS[4].breadth })).toBeUndefined();
  });

  it('opens at the centre and plays near the stones when it knows nothing to do', () => {
    const g = Game.create(19);
    const p = createPlayer({ library: library(RULE) });
    const c = p.choose(g);
    expect(pt(g, c.point)).toBe('j10');
    expectOk(g.play(c.point));
    expectOk(g.play(expectOk(parsePoint(19, 'k11'))));
    const d = p.choose(g);
    expect(d.reason.kind).toBe('positional');
    expect(Math.abs((d.point % 19) - 9)).toBeLessThanOrEqual(3);
  });
});

describe('building toward what it has learned (step 5a)', () => {
  // Black holds a two (j10 k10) and h8; white's closed three k11 l12 m13 is no realisation of
  // anything yet, so neither side has one to act on: a quiet move.
  const quiet = () => {
    const g = Game.create(19);
    for (const t of ['j10', 'k11', 'k10', 'l12', 'h8', 'm13']) expectOk(g.play(expectOk(parsePoint(19, t))));
    return g;
  };

  it('with the paper\'s six subgoals it plays toward their realisations; with the rule of five alone, by position', () => {
    const g = quiet();
    const learned = createPlayer({ library: library(LEARNED), level: 5, seed: 1 }).choose(g);
    expect(learned.reason.kind).toBe('build');
    expect(explain(learned, g.size)).toBe(
      "j9: builds toward what it has learned — after it, 28 realisations of its subgoals, the quickest `(1, 2-1, 2) 4:3', 2'-4:2', 3'` at h7 h10, five in 4",
    );
    const rule = createPlayer({ library: library(RULE), level: 5, seed: 1 }).choose(g);
    expect(rule.reason.kind).toBe('positional');
    expect(['n14', 'o15']).toContain(pt(g, rule.point));
  });

  it('takes the other side\'s best point when it has nothing of its own to build', () => {
    const g = expectOk(parseGame(fixture('reasons/build-deny.txt')));
    const c = createPlayer({ library: library(LEARNED), level: 5, seed: 1 }).choose(g);
    expect(c.reason.kind).toBe('build');
    expect(explain(c, g.size)).toBe(
      "j9: takes black's best point by what it has learned — there black would have had 28 realisations of its subgoals, the quickest `(1, 2-1, 2) 4:3', 2'-4:2', 3'` at h7 h10, five in 4",
    );
    expect(createPlayer({ library: library(RULE), level: 5, seed: 1 }).choose(g).reason.kind).toBe('positional');
  });

  it('what it names is on the board with the move, its own or the other side\'s, and the rule of five alone never builds (seeded games)', () => {
    const lib = library(LEARNED);
    const learnedOf = (board: Game['board'], colour: 'black' | 'white') =>
      new Recogniser(board, lib).realisations(colour).filter((r) => r.subgoal.text !== '(1) 1:5' && r.comments.some((c) => c !== undefined));
    const quickestK = (r: { comments: readonly (number | undefined)[] }) => Math.min(...r.comments.filter((c): c is number => c !== undefined));
    const check = (board: Game['board'], colour: 'black' | 'white', side: BuildSide) => {
      const found = learnedOf(board, colour);
      expect(found.length).toBe(side.count);
      if (side.quickest === undefined) return;
      expect(found.map((r) => r.key)).toContain(side.quickest.key);
      for (const r of found) expect(quickestK(r)).toBeGreaterThanOrEqual(quickestK(side.quickest));
    };
    let built = 0;
    for (let seed = 0; seed < 4; seed++) {
      const g = Game.create(15);
      const learner = createPlayer({ library: lib, seed, level: 5 });
      const plain = createPlayer({ library: library(RULE), seed: seed + 50, level: 5 });
      while (!g.isOver && g.moves.length < 60) {
        const player = g.moves.length % 2 === 0 ? learner : plain;
        const choice = player.choose(g);
        if (player === plain) expect(choice.reason.kind).not.toBe('build');
        if (choice.reason.kind === 'build') {
          built++;
          const reason = choice.reason;
          expect(reason.mine.quickest !== undefined || reason.theirs.quickest !== undefined).toBe(true);
          const theirs = g.board.clone();
          theirs.play(choice.point, stoneOf(opposite(choice.colour)));
          check(theirs, opposite(choice.colour), reason.theirs);
          expectOk(g.play(choice.point));
          check(g.board.clone(), choice.colour, reason.mine);
        } else {
          expectOk(g.play(choice.point));
        }
      }
    }
    expect(built).toBeGreaterThan(3);
  });

  it('levels 1 and 2 do not weigh what they learned; 3 to 5 weigh more points the higher the level', () => {
    expect(LEVELS[1].shapes).toBe(0);
    expect(LEVELS[2].shapes).toBe(0);
    expect(LEVELS[3].shapes).toBeLessThan(LEVELS[4].shapes);
    expect(LEVELS[4].shapes).toBeLessThan(LEVELS[5].shapes);
    const g = quiet();
    for (const level of [1, 2] as const) expect(createPlayer({ library: library(LEARNED), level, seed: 1 }).choose(g).reason.kind).not.toBe('build');
  });
});

describe('explanations', () => {
  it('every reason names realisations that are really on the board (seeded games)', () => {
    const lib = library(LEARNED);
    let named = 0;
    for (let seed = 0; seed < 6; seed++) {
      const g = Game.create(15);
      const players = { black: createPlayer({ library: lib, seed, level: 5 }), white: createPlayer({ library: lib, seed: seed + 100, level: 3 }) };
      while (!g.isOver && g.moves.length < 80) {
        const choice: MoveChoice = players[g.turn].choose(g);
        const reason = choice.reason;
        const cited = reason.kind === 'defend' ? reason.destroyed : 'realisation' in reason ? [reason.realisation] : [];
        if (cited.length > 0) {
          const truth = new Recogniser(g.board.clone(), lib);
          for (const [i, r] of cited.entries()) {
            expect(truth.realisations(r.colour).map((x) => x.key)).toContain(r.key);
            // A defence names its first three realisations and counts the rest.
            if (i >= 3) continue;
            const text = explain(choice, g.size);
            // "completes a five" says all there is to say; every other reason cites the realisation.
            if (reason.kind !== 'five') {
              expect(text).toContain(r.subgoal.text);
              for (const n of r.nodes) expect(text).toContain(makePoint(g.size, n));
            }
            named++;
          }
          if (reason.kind === 'defend') for (const r of reason.destroyed) expect([...r.nodes, ...r.implicit]).toContain(choice.point);
          if (reason.kind === 'attack') expect(reason.realisation.nodes[reason.node - 1]).toBe(choice.point);
        }
        expectOk(g.play(choice.point));
      }
    }
    expect(named).toBeGreaterThan(10);
  });
});

describe('determinism, randomness and levels', () => {
  function selfPlay(seed: number, level: Level, moves: number): number[] {
    const g = Game.create(15);
    const p = createPlayer({ library: library(LEARNED), seed, level });
    while (!g.isOver && g.moves.length < moves) expectOk(g.play(p.chooseMove(g)));
    return g.moves.slice();
  }

  it('plays the same game for the same seed, and other games for other seeds', () => {
    expect(selfPlay(11, 5, 30)).toEqual(selfPlay(11, 5, 30));
    const games = new Set([1, 2, 3, 4].map((s) => selfPlay(s, 5, 30).join(',')));
    expect(games.size).toBeGreaterThan(1);
  });

  it('a player kept through a game and reseeded before each move chooses what a new one with that seed does', () => {
    const lib = library(LEARNED);
    for (let game = 0; game < 3; game++) {
      const g = Game.create(15);
      const kept = createPlayer({ library: lib, level: 5, seed: 0 });
      const rnd = seededRandom(game);
      while (!g.isOver && g.moves.length < 50) {
        const seed = 1000 * game + g.moves.length;
        kept.reseed(seed);
        const a = kept.choose(g);
        const b = createPlayer({ library: lib, level: 5, seed }).choose(g);
        expect([a.point, explain(a, 15)]).toEqual([b.point, explain(b, 15)]);
        expect(kept.hint(g).point).toBe(createPlayer({ library: lib, level: 5, seed }).hint(g).point);
        // The kept player's own move, or another one: it follows either way.
        expectOk(g.play(g.moves.length % 3 === 0 ? simpleMove(g, rnd, 1) : a.point));
      }
    }
  });

  it('lower levels look less far and overlook threats more often', () => {
    expect(LEVELS[1].horizon).toBeLessThan(LEVELS[5].horizon);
    const g = game('open-three');
    const blocks = (level: Level) =>
      Array.from({ length: 20 }, (_, seed) => createPlayer({ library: library(["(1) 1:5", "(1) 2:4'"]), level, seed }).choose(g)).filter((c) => c.reason.kind === 'defend' || c.reason.kind === 'refute').length;
    expect(blocks(5)).toBe(20);
    expect(blocks(1)).toBeLessThan(20);
  });

  it('the hint for a position is the full player\'s choice and always the same', () => {
    const g = game('double-three');
    const p = createPlayer({ library: library(LEARNED), level: 1, seed: 9 });
    const h = p.hint(g);
    expect(pt(g, h.point)).toBe('j8');
    expect(p.hint(g).point).toBe(h.point);
  });
});

describe('positionalScores (the /hint heat map)', () => {
  // Twelve moves of a real opening, where the player's choice is positional.
  const opening = (): Game => {
    const g = Game.create(19);
    for (const t of ['j10', 'k11', 'k10', 'j11', 'l11', 'i9', 'h10', 'l10', 'm12', 'k9', 'j8', 'n13']) expectOk(g.play(expectOk(parsePoint(19, t))));
    return g;
  };

  it('are the scores the positional rule picks from: the choice is among the best, with its own score', () => {
    for (let seed = 0; seed < 6; seed++) {
      const g = opening();
      const player = createPlayer({ library: library(RULE), level: 5, seed });
      const scores = player.positionalScores(g);
      const choice = player.choose(g);
      expect(choice.reason.kind).toBe('positional');
      const mine = scores.find((s) => s.point === choice.point);
      expect(mine?.score).toBe(choice.reason.kind === 'positional' ? choice.reason.score : NaN);
      expect(mine!.score).toBeGreaterThanOrEqual(scores[0].score * (1 - LEVELS[5].margin));
      // Best first, each a vacant point within two lines of a stone.
      for (let i = 1; i < scores.length; i++) expect(scores[i - 1].score).toBeGreaterThanOrEqual(scores[i].score);
      for (const s of scores) expect(g.board.isEmpty(s.point)).toBe(true);
    }
  });

  it('choose nothing: a player asked for them first makes the same moves', () => {
    for (let seed = 0; seed < 6; seed++) {
      const asked = createPlayer({ library: library(LEARNED), level: 3, seed });
      const plain = createPlayer({ library: library(LEARNED), level: 3, seed });
      const a = opening();
      const b = opening();
      for (let n = 0; n < 6; n++) {
        asked.positionalScores(a);
        const x = asked.choose(a);
        const y = plain.choose(b);
        expect(x.point).toBe(y.point);
        expectOk(a.play(x.point));
        expectOk(b.play(y.point));
      }
    }
  });
});
