import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { analyseGame } from '../src/learning/analysis.ts';
import { Board } from '../src/rules/board.ts';
import { parsePoint } from '../src/rules/point.ts';
import { parseGameRecord, replayRecord, type GameRecord } from '../src/rules/gameRecord.ts';
import { Library, parseProvenance } from '../src/learning/library.ts';
import { seededRandom } from '../src/rules/random.ts';
import { Recogniser } from '../src/recognition/recognise.ts';
import type { Subgoal } from '../src/recognition/subgoal.ts';
import { expectOk } from '../src/rules/result.ts';
import { solve } from '../src/learning/solver.ts';
import { SYMMETRIES, transformPoint, translatePoint } from '../src/rules/symmetry.ts';
import { BLACK, otherStone, stoneOf, type Point, type Stone } from '../src/rules/types.ts';
import { runCli } from './support/cli.ts';
import { fixture, FIXTURES } from './support/fixtures.ts';
import { library } from './support/recognition.ts';
import { playSimpleGame } from './support/simplePlayers.ts';

const RULE = library(['(1) 1:5']);

function record(name: string): GameRecord {
  return expectOk(parseGameRecord(fixture(`games/learning/${name}.txt`)));
}

function learn(r: GameRecord, lib: readonly Subgoal[] = RULE): string[] {
  return expectOk(analyseGame(expectOk(replayRecord(r)), lib)).learned.map((l) => l.subgoal.text);
}

// Each fixture's comment says which of the paper's positions it rebuilds.
const CHAIN: [string, string[]][] = [
  ['open-four', ["(1) 2:4'"]],
  ['double-four', ['(1, 1) 2:4, 4']],
  ['double-open-three', ["(1) 2:4'", "(1, 1) 3:3', 3'"]],
  ['four-then-double-four', ['(1, 1) 2:4, 4', '(1, 2-1) 4, 3-3:4']],
  [
    'twin-threes',
    [
      "(1) 2:4'",
      "(1, 1) 3:3', 3'",
      "(1, 2-1, 2) 4:3', 2'-4:2', 3'",
      // One move further back, f8 had made two realisations of Fig. 5's subgoal (nodes d7 d8
      // and c6 f6) that share no node: the walk learns one more, five nodes long.
      "(1, 2-1, 3-2, 4-3, 5-4, 5) 3', 2'-2', 2'-5:2', 2'-2', 2'-2', 3'",
    ],
  ],
];

describe('backtrack analysis reproduces the paper\'s chain from (1) 1:5 alone', () => {
  it.each(CHAIN)('%s teaches %j, nearest the win first', (name, expected) => {
    expect(learn(record(name))).toEqual(expected);
  });

  it('with (1) 2:4\' already known, the double open three teaches it again as known, then (1, 1) 3:3\', 3\'', () => {
    const a = expectOk(analyseGame(expectOk(replayRecord(record('double-open-three'))), library(['(1) 1:5', "(1) 2:4'"])));
    expect(a.learned.map((l) => [l.subgoal.text, l.isNew])).toEqual([["(1) 2:4'", false], ["(1, 1) 3:3', 3'", true]]);
    expect(a.library.map((s) => s.text)).toEqual(['(1) 1:5', "(1) 2:4'", "(1, 1) 3:3', 3'"]);
  });

  it('refuses a game nobody won', () => {
    const r = analyseGame(expectOk(replayRecord(expectOk(parseGameRecord(fixture('games/draw-5x5.txt'))))), RULE);
    expect(r.ok || r.error.code).toBe('not-won');
  });

  const mapRecord = (r: GameRecord, f: (p: Point) => Point | undefined): GameRecord => ({ ...r, moves: r.moves.map((p) => f(p)!) });

  it.each(CHAIN)('%s teaches the same mirrored, rotated, translated and colour-swapped', (name, expected) => {
    const r = record(name);
    for (const t of SYMMETRIES) expect(learn(mapRecord(r, (p) => transformPoint(19, t, p))), `symmetry ${t}`).toEqual(expected);
    // Shifts that keep every pattern clear of the edge (an edge cuts windows and so changes the position).
    for (const [dc, dr] of [[2, 1], [-1, -1], [1, 2]]) {
      const moved = mapRecord(r, (p) => translatePoint(19, p, dc, dr));
      expect(moved.moves.every((p) => p !== undefined)).toBe(true);
      expect(learn(moved), `shift ${dc},${dr}`).toEqual(expected);
    }
    // Colour swap: black opens far away (s19), so that white plays the winner's moves.
    const s19 = 18 * 19 + 18;
    expect(learn({ ...r, moves: [s19, ...r.moves] })).toEqual(expected);
  });
});

/** The board just before move `index` of a record. */
function boardBefore(r: GameRecord, index: number): Board {
  const b = Board.empty(r.size);
  for (let i = 0; i < index; i++) b.play(r.moves[i], i % 2 === 0 ? BLACK : otherStone(BLACK));
  return b;
}

/**
 * How a comment is checked: play starts at the commented node (which may threaten nothing at
 * once, if it sets up threats that one reply cannot all stop) against a defence that only
 * blocks, as the paper's comments mean (src/learning/solver.ts, `defenderThreats`, `quietFirstMove`).
 */
const COMMENT_CHECK = { nodeBudget: 400_000, defenderThreats: false, quietFirstMove: true } as const;

function defenderHasNoFour(b: Board, defender: Stone): boolean {
  return b.possibleCount(defender, 3) === 0 && b.possibleCount(defender, 4) === 0;
}

describe('every synthesised subgoal, where it was learned', () => {
  it.each(CHAIN.map(([n]) => n))('%s: is recognised with p among its nodes, and the solver confirms its comment from p', (name) => {
    const r = record(name);
    const a = expectOk(analyseGame(expectOk(replayRecord(r)), RULE));
    const winner = stoneOf(a.winner);
    for (const l of a.learned) {
      const b = boardBefore(r, l.moveIndex);
      const rec = new Recogniser(b, [l.subgoal]);
      const found = rec.realisations(a.winner).filter((x) => x.nodes.includes(l.point));
      expect(found.length, l.subgoal.text).toBeGreaterThan(0);
      const k = l.subgoal.description.nodes.find((n) => n.comment !== undefined)!.comment!;
      expect(defenderHasNoFour(b, otherStone(winner))).toBe(true);
      const verdict = solve(b, winner, { ...COMMENT_CHECK, maxAttackerMoves: k, firstMoves: [l.point] });
      expect(verdict.result, `${l.subgoal.text} from move ${l.moveIndex + 1}`).toBe('win');
      expect(verdict.moves).toBeLessThanOrEqual(k);
    }
  });
});

describe('learning from many seeded games', () => {
  it('every subgoal learned is sound by the solver wherever it is later recognised', () => {
    const rnd = seededRandom(1965);
    const lib = Library.empty();
    let games = 0;
    let learnedCount = 0;
    let checked = 0;
    const unknown: string[] = [];
    for (let g = 0; g < 24; g++) {
      const game = playSimpleGame(rnd, 15, 0.4 + rnd.next() * 0.5, 0.4 + rnd.next() * 0.5);
      games++;
      // Check the subgoals learned so far on every position of this game, for both sides.
      if (lib.size > 1 && checked < 150) {
        const board = Board.empty(15);
        const rec = new Recogniser(board, lib.subgoals().slice(1));
        for (let i = 0; i < game.moves.length - 1 && checked < 150; i++) {
          rec.play(game.moves[i], i % 2 === 0 ? BLACK : otherStone(BLACK));
          for (const colour of ['black', 'white'] as const) {
            const attacker = stoneOf(colour);
            // Only with the attacker to move, and a defender with no four to play.
            if (stoneOf(i % 2 === 0 ? 'white' : 'black') !== attacker) continue;
            if (!defenderHasNoFour(board, otherStone(attacker))) continue;
            for (const real of rec.realisations(colour)) {
              real.comments.forEach((k, idx) => {
                if (k === undefined || checked >= 150) return;
                checked++;
                const v = solve(board, attacker, { ...COMMENT_CHECK, maxAttackerMoves: k, firstMoves: [real.nodes[idx]] });
                if (v.result === 'unknown') unknown.push(real.subgoal.text);
                else expect(v.result, `${real.subgoal.text} at node ${idx + 1}, game ${g}, move ${i + 1}`).toBe('win');
              });
            }
          }
        }
      }
      if (game.status.kind !== 'won') continue;
      const a = expectOk(analyseGame(game, lib.subgoals()));
      for (const l of a.learned) {
        if (expectOk(lib.add(l.subgoal, { game: `seeded-${g}`, move: l.moveIndex + 1, date: '2026-11-21' }))) learnedCount++;
      }
    }
    expect(games).toBe(24);
    expect(learnedCount).toBeGreaterThanOrEqual(3);
    expect(checked).toBeGreaterThan(20);
    expect(unknown.length).toBeLessThanOrEqual(checked / 10);
  });
});

describe('the Library', () => {
  it('keeps one entry per canonical form, the rule first, with provenance through a file round trip', () => {
    const lib = Library.empty();
    const [a, b] = library(["(1) 2:4'", '(1, 1) 2:4, 4']);
    expect(expectOk(lib.add(a, { game: 'g1', move: 7, date: '2026-11-21' }))).toBe(true);
    expect(expectOk(lib.add(a))).toBe(false);
    expect(expectOk(lib.add(b.description, { game: 'g2', move: 9, date: '2026-11-20' }))).toBe(true);
    const text = lib.toFile(['test']);
    const back = expectOk(Library.fromFile(text));
    expect(back.entries.map((e) => [e.subgoal.text, e.provenance])).toEqual([
      ['(1) 1:5', undefined],
      ["(1) 2:4'", { game: 'g1', move: 7, date: '2026-11-21' }],
      ['(1, 1) 2:4, 4', { game: 'g2', move: 9, date: '2026-11-20' }],
    ]);
    expect(parseProvenance('learned from x, move 3, 2026-01-02')).toEqual({ game: 'x', move: 3, date: '2026-01-02' });
  });

  it('merges two libraries, adding up the stats of shared entries', () => {
    const a = Library.empty();
    const b = Library.empty();
    const [x, y] = library(["(1) 2:4'", "(1, 1) 3:3', 3'"]);
    a.add(x);
    b.add(x);
    b.add(y);
    a.note(x.text, { recognised: 2, played: 1, won: 1 });
    b.note(x.text, { recognised: 1 });
    const m = a.merge(b);
    expect(m.entries.map((e) => e.subgoal.text)).toEqual(['(1) 1:5', "(1) 2:4'", "(1, 1) 3:3', 3'"]);
    expect(m.get(x.text)!.stats).toEqual({ recognised: 3, played: 1, won: 1 });
    expect(a.size).toBe(2);
  });

  it('prints the paper\'s grouped listing', () => {
    const lib = Library.empty();
    for (const s of library(["(1, 1) 3:3', 3'", '(1, 2-1) 4, 3-3:4', "(1) 2:4'", '(1, 1) 2:4, 4', "(1, 2-1, 2) 4:3', 2'-4:2', 3'"])) lib.add(s);
    const lines = lib.listing().trimEnd().split('\n');
    expect(lines[0]).toBe('(1) 1:5');
    expect(lines[1].trim()).toBe("2:4'");
    expect(lines[2]).toBe('(1, 1) 2:4, 4');
    expect(lines[3].trim()).toBe("3:3', 3'");
    expect(lines[4]).toBe('(1, 2-1) 4, 3-3:4');
    expect(lines[5]).toBe("(1, 2-1, 2) 4:3', 2'-4:2', 3'");
  });
});

describe('gomoku analyse and gomoku library', () => {
  const games = join(FIXTURES, 'games', 'learning');

  it('analyse prints what a game teaches, one a line, nearest the win first', async () => {
    const r = await runCli(['analyse', '--game', join(games, 'four-then-double-four.txt')]);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual(['(1, 1) 2:4, 4', '(1, 2-1) 4, 3-3:4']);
    const j = await runCli(['analyse', '--game', join(games, 'open-four.txt'), '--json']);
    expect(JSON.parse(j.out)).toEqual([{ subgoal: "(1) 2:4'", move: 7, point: 'm10', new: true }]);
  });

  it('analyse --walk prints each winner\'s move looked at, with what it taught or why not', async () => {
    const r = await runCli(['analyse', '--game', join(games, 'repeated-loss-gomokuai.txt'), '--walk']);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual(['26 o4 learned', '24 n3 learned', '22 q6 learned', '20 p6 passed', '18 p5 learned', '16 n7 learned', '14 n5 passed', '12 m5 stopped']);
    expect(lines[4]).toBe("18 p5 learned: (1, 1) 3:4, 3' (known)");
    expect(lines[3]).toMatch(/the winner already held \(1\) 2:4' \(five in 2\)$/);
    // n5 makes an open three: white had to answer it, so the walk looks further back.
    expect(lines[6]).toBe("14 n5 passed: every set of its 8 realisations holding the move shares a node; the move makes (1) 2:4' (five in 2), which the loser must answer");
    expect(lines[7]).toBe("12 m5 stopped: 0 of the winner's 0 realisations after it hold the move as a stone");
  });

  it('analyse --write adds to a library file that library then lists', async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'gomoku-lib-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'lib.txt');
    for (const g of readdirSync(games).sort()) expect((await runCli(['analyse', '--game', join(games, g), '--library', file, '--write'])).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/# learned from double-four\.txt, move 13, \d{4}-\d{2}-\d{2}\n\(1, 1\) 2:4, 4/);
    const listing = await runCli(['library', '--library', file]);
    // Fig. 5's pattern list, under its node list (another fixture may teach a subgoal with the same node list, listed first).
    expect(listing.out).toMatch(/^\(1, 2-1, 2\) (.*\n {12})*4:3', 2'-4:2', 3'$/m);
    expect(listing.out.split('\n')[0]).toBe('(1) 1:5');
  });

  it('analyse names the problem in a bad game file', async () => {
    const r = await runCli(['analyse', '--game', join(FIXTURES, 'games', 'bad-occupied.txt')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/line 3, column 1/);
    expect((await runCli(['analyse', '--game', join(FIXTURES, 'games', 'overline-six.txt')])).err).toContain('not over');
  });
});

describe('a walk back that stops where no description can say the lesson', () => {
  it('names the split line at the move it cannot learn from, after learning the four subgoals behind it', () => {
    const r = record('split-line');
    const game = expectOk(replayRecord(r));
    const a = expectOk(analyseGame(game, RULE));
    expect(a.learned.map((l) => [l.moveIndex, l.subgoal.text])).toEqual([
      [24, "(1) 2:4'"],
      [22, "(1, 1) 3:3', 3'"],
      [20, "(1, 2-1, 2) 4:3', 2'-4:2', 3'"],
      [18, "(1, 2-1, 3-2, 3) 5:4, 2'-2', 2'-2', 3'"],
    ]);
    const split = a.walk.find((w) => w.moveIndex === 16)!;
    expect(game.board.moves[16]).toBe(expectOk(parsePoint(19, 'k10')));
    expect(split.why).toBe("24 sets tried: 24 put nodes of one line more than four apart, 0 gave no other valid description, 0 did not compile, 0 were not recognised before the move; the move makes (1) 2:4' (five in 2), which the loser must answer");
    // k10 is an open three that white had to answer, and the threes and fours before it too:
    // the walk passes over them, learning nothing more, to l10, which threatens nothing.
    expect(a.walk.slice(4).map((w) => [w.moveIndex, w.outcome])).toEqual([
      [16, 'passed'],
      [14, 'passed'],
      [12, 'passed'],
      [10, 'passed'],
      [8, 'passed'],
      [6, 'stopped'],
    ]);
    expect(a.learned).toHaveLength(4);
    // The three the split begins with: j10 k10 l10 are black's once k10 is played.
    for (const t of ['j10', 'l10']) expect(game.board.get(expectOk(parsePoint(19, t)))).toBe(BLACK);
  });
});

describe('a walk back that passes over the winner\'s forcing moves', () => {
  it('passes over a four, which leaves one reply, to the new lesson behind it', () => {
    // A loss of bench/repeats.ts that taught only known subgoals while the walk stopped at
    // black's four e8: the subgoal black won with stood before it, built by g13.
    const r = expectOk(parseGameRecord(fixture('games/walk/four-passed.txt')));
    const lib = expectOk(Library.fromFile(fixture('games/walk/four-passed-library.txt'))).subgoals();
    const a = expectOk(analyseGame(expectOk(replayRecord(r)), lib));
    const at = (i: number) => a.walk.find((w) => w.moveIndex === i)!;
    expect(r.moves[38]).toBe(expectOk(parsePoint(19, 'e8')));
    expect(at(38).outcome).toBe('passed');
    expect(at(38).why).toMatch(/the move makes \(1\) 1:5 \(five in 1\), which the loser must answer$/);
    expect(a.learned.map((l) => [l.moveIndex + 1, l.subgoal.text, l.isNew])).toEqual([
      [45, "(1) 2:4'", false],
      [43, "(1, 1) 3:4, 3'", false],
      [41, "(1, 2-1, 2) 4:4, 2'-4:2', 4", false],
      [37, "(1, 2/3-1/3, 2-1/2, 3) 5:4, 1'-5:1', 4-5:1', 4", true],
    ]);
    // The new lesson holds where it was learned: recognised before g13 with g13 a node, and
    // black wins from g13 within its comment, white only blocking.
    const lesson = a.learned.at(-1)!;
    expect(lesson.point).toBe(expectOk(parsePoint(19, 'g13')));
    const b = boardBefore(r, lesson.moveIndex);
    expect(new Recogniser(b, [lesson.subgoal]).realisations('black').some((x) => x.nodes.includes(lesson.point))).toBe(true);
    const verdict = solve(b, BLACK, { ...COMMENT_CHECK, maxAttackerMoves: 5, firstMoves: [lesson.point] });
    expect(verdict.result).toBe('win');
  });

  it('passes over the winner\'s block of the loser\'s four to the new lesson behind it', () => {
    // A loss of bench/repeats.ts that taught only known subgoals while the walk stopped at
    // o14, where black had to block white's four n13.
    const r = expectOk(parseGameRecord(fixture('games/walk/block-passed.txt')));
    const lib = expectOk(Library.fromFile(fixture('games/walk/block-passed-library.txt'))).subgoals();
    const a = expectOk(analyseGame(expectOk(replayRecord(r)), lib));
    const o14 = a.walk.find((w) => w.moveIndex === 78)!;
    expect(r.moves[78]).toBe(expectOk(parsePoint(19, 'o14')));
    expect([o14.outcome, o14.why]).toEqual(['passed', "1 of the winner's 3 realisations after it hold the move as a stone; the move blocks the loser's four"]);
    const lesson = a.learned.at(-1)!;
    expect([lesson.moveIndex + 1, lesson.subgoal.text, lesson.isNew]).toEqual([77, "(1, 2-1, 3-2, 3) 4, 2'-2', 3-5:3, 3'", true]);
    const b = boardBefore(r, lesson.moveIndex);
    expect(new Recogniser(b, [lesson.subgoal]).realisations('black').some((x) => x.nodes.includes(lesson.point))).toBe(true);
    expect(solve(b, BLACK, { ...COMMENT_CHECK, maxAttackerMoves: 5, firstMoves: [lesson.point] }).result).toBe('win');
  });
});

describe('a crowded analysis stays bounded', () => {
  it('analyses a game whose walk back learns ever bigger subgoals (a learning-curve game that once hung)', () => {
    const game = expectOk(replayRecord(expectOk(parseGameRecord(fixture('games/crowded/curve-game-2.txt')))));
    const lib = expectOk(Library.fromFile(fixture('games/crowded/curve-game-2-library.txt')));
    const a = expectOk(analyseGame(game, lib.subgoals()));
    expect(a.learned.length).toBeGreaterThanOrEqual(4);
    // Every subgoal learned compiles within the interpreter's limits.
    for (const l of a.learned) expect(l.subgoal.description.nodes.length).toBeLessThanOrEqual(8);
  });
});
