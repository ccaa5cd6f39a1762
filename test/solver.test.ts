import { describe, expect, it } from 'vitest';
import { Board } from '../src/rules/board.ts';
import { boardFromPicture, parseBoardText, type BoardPicture } from '../src/rules/boardText.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { seededRandom } from '../src/rules/random.ts';
import { expectOk } from '../src/rules/result.ts';
import { solve, type SolveOptions, type SolveResult } from '../src/learning/solver.ts';
import { SYMMETRIES, swapColours, transformPicture } from '../src/rules/symmetry.ts';
import { fiveThreats, fours, openFourPoints, threatClass, threeDefences, threes } from '../src/rules/threats.ts';
import { BLACK, EMPTY, WHITE, otherStone, type Cell, type Point, type Stone } from '../src/rules/types.ts';
import { fixture } from './support/fixtures.ts';

const picture = (name: string): BoardPicture => expectOk(parseBoardText(fixture(`solver/${name}.txt`)));
const board = (name: string): Board => boardFromPicture(picture(name));
const names = (size: number, ps: readonly Point[] | undefined): string[] => (ps ?? []).map((p) => makePoint(size, p));
const at = (size: number, ...ps: string[]): Point[] => ps.map((p) => expectOk(parsePoint(size, p)));

const BUDGET = 200_000;
const run = (b: Board, s: Stone, k: number, extra: Partial<SolveOptions> = {}): SolveResult =>
  solve(b, s, { maxAttackerMoves: k, nodeBudget: BUDGET, ...extra });

/** An 11×11 board holding one line of stones along row 5, from a5; the rest empty. */
function row(text: string): Board {
  const size = 11;
  const cells = text.replace(/\s/g, '').padEnd(size, '.');
  const lines = Array.from({ length: size }, (_, r) => (r === size - 5 ? cells : '.'.repeat(size)));
  return boardFromPicture(expectOk(parseBoardText(lines.join('\n'))));
}

// ---------------------------------------------------------------------------------------
// An independent checker of claimed wins. It shares no code with the solver or the board's
// window tables: fives are found by walking runs of stones on a plain array of cells, and the
// defender may play every empty point. The solver is used only as an oracle for the
// attacker's next move; whatever it suggests, the checker itself decides whether every
// defence is met, so a wrong suggestion can only make a check fail, never pass.

const STEPS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
] as const;

interface Position {
  readonly size: number;
  readonly cells: Cell[];
}

/** Whether s playing the empty point p makes a run of exactly five. */
function makesFive(pos: Position, p: Point, s: Stone): boolean {
  const { size, cells } = pos;
  const c0 = p % size;
  const r0 = Math.floor(p / size);
  const same = (c: number, r: number): boolean => c >= 0 && c < size && r >= 0 && r < size && cells[r * size + c] === s;
  for (const [dc, dr] of STEPS) {
    let n = 1;
    for (let k = 1; same(c0 + dc * k, r0 + dr * k); k++) n++;
    for (let k = 1; same(c0 - dc * k, r0 - dr * k); k++) n++;
    if (n === 5) return true;
  }
  return false;
}

function emptyPoints(pos: Position): Point[] {
  const out: Point[] = [];
  pos.cells.forEach((c, p) => c === EMPTY && out.push(p));
  return out;
}

function fivePoints(pos: Position, s: Stone): Point[] {
  return emptyPoints(pos).filter((p) => makesFive(pos, p, s));
}

/** Whether a stone of s on p gives s a five point (on a line through p: nowhere else changed). */
function makesFivePoint(pos: Position, p: Point, s: Stone): boolean {
  const { size, cells } = pos;
  cells[p] = s;
  let found = false;
  for (const [dc, dr] of STEPS) {
    for (let k = -4; k <= 4 && !found; k++) {
      const c = (p % size) + dc * k;
      const r = Math.floor(p / size) + dr * k;
      if (c < 0 || c >= size || r < 0 || r >= size || cells[r * size + c] !== EMPTY) continue;
      found = makesFive(pos, r * size + c, s);
    }
  }
  cells[p] = EMPTY;
  return found;
}

type Oracle = (pos: Position, attacker: Stone, r: number) => Point | undefined;

function solverOracle(extra: Partial<SolveOptions>): Oracle {
  return (pos, attacker, r) => {
    const res = run(boardFromPicture({ size: pos.size, cells: pos.cells }), attacker, r, extra);
    return res.result === 'win' ? res.line?.[0] : undefined;
  };
}

/**
 * Whether the attacker, to move, makes five within r moves against every defence — where,
 * with `anyDefence` false, defences that give the defender a five point are left out (the
 * solver's default model, a defence that only blocks).
 */
function forcedWin(pos: Position, a: Stone, r: number, oracle: Oracle, anyDefence: boolean): boolean {
  if (fivePoints(pos, a).length > 0) return true;
  if (r <= 1) return false;
  const m = oracle(pos, a, r);
  if (m === undefined || pos.cells[m] !== EMPTY) return false;
  pos.cells[m] = a;
  const ok = everyDefenceLoses(pos, a, r - 1, oracle, anyDefence);
  pos.cells[m] = EMPTY;
  return ok;
}

function everyDefenceLoses(pos: Position, a: Stone, r: number, oracle: Oracle, anyDefence: boolean): boolean {
  const d = otherStone(a);
  if (fivePoints(pos, d).length > 0) return false;
  // A defender move off the attacker's five points leaves one of them, and r ≥ 1 makes it.
  const threats = fivePoints(pos, a);
  const replies = threats.length > 0 ? threats : emptyPoints(pos).filter((p) => anyDefence || !makesFivePoint(pos, p, d));
  for (const p of replies) {
    pos.cells[p] = d;
    const ok = forcedWin(pos, a, r, oracle, anyDefence);
    pos.cells[p] = EMPTY;
    if (!ok) return false;
  }
  return true;
}

/** The main line is legal, alternates, and its last move makes exactly five. */
function expectLineMakesFive(pic: BoardPicture, a: Stone, res: SolveResult): void {
  const line = res.line ?? [];
  expect(line.length % 2).toBe(1);
  expect((line.length + 1) / 2).toBeLessThanOrEqual(res.moves!);
  const pos: Position = { size: pic.size, cells: pic.cells.slice() };
  line.forEach((p, i) => {
    expect(pos.cells[p]).toBe(EMPTY);
    const s = i % 2 === 0 ? a : otherStone(a);
    if (i === line.length - 1) expect(makesFive(pos, p, s)).toBe(true);
    else expect(makesFive(pos, p, s)).toBe(false);
    pos.cells[p] = s;
  });
}

function verifyWin(pic: BoardPicture, a: Stone, res: SolveResult, extra: Partial<SolveOptions> = {}): boolean {
  expectLineMakesFive(pic, a, res);
  return forcedWin({ size: pic.size, cells: pic.cells.slice() }, a, res.moves!, solverOracle(extra), extra.counterFours === true);
}

// ---------------------------------------------------------------------------------------

describe('threat classes on one line', () => {
  // Each expectation is worked by hand from the diagram in src/rules/threats.ts.
  it('finds five threats, and none where filling would make six', () => {
    expect(names(11, fiveThreats(row('oxxxx'), BLACK))).toEqual(['f5']);
    expect(names(11, fiveThreats(row('.xxxx.'), BLACK))).toEqual(['a5', 'f5']);
    expect(names(11, fiveThreats(row('xx.xx'), BLACK))).toEqual(['c5']);
    expect(names(11, fiveThreats(row('oxxx.xxo'), BLACK))).toEqual([]);
    expect(names(11, fiveThreats(row('oxxx.xo'), BLACK))).toEqual(['e5']);
    expect(names(11, fiveThreats(row('xxx.xx'), BLACK))).toEqual([]);
    // x.xxxx: the gap would make six, but g5 makes exactly five (c5-g5, b5 empty).
    expect(names(11, fiveThreats(row('x.xxxx'), BLACK))).toEqual(['g5']);
  });

  it('classes moves by strength', () => {
    const b = row('..xxx..');
    expect(threatClass(b, BLACK, at(11, 'b5')[0])).toBe('open-four');
    expect(threatClass(b, BLACK, at(11, 'a5')[0])).toBe('four');
    expect(threatClass(row('.xxxx.'), BLACK, at(11, 'a5')[0])).toBe('five');
    expect(threatClass(row('..xx...'), BLACK, at(11, 'e5')[0])).toBe('three');
    expect(threatClass(row('oxx....'), BLACK, at(11, 'd5')[0])).toBe('none');
    expect(names(11, openFourPoints(b, BLACK))).toEqual(['b5', 'f5']);
    expect(names(11, fours(b, BLACK))).toEqual(['a5', 'b5', 'f5', 'g5']);
    // ..XX.... : b, e and f make threes (.XXX.., ..XXX.., .XX.X.); a and g stretch it too far.
    expect(names(11, threes(row('..xx....'), BLACK))).toEqual(['b5', 'e5', 'f5']);
  });

  it('gives the defences of a three as Allis counts them', () => {
    expect(names(11, threeDefences(row('...xxx...'), BLACK))).toEqual(['c5', 'g5']);
    expect(names(11, threeDefences(row('.xxx..'), BLACK))).toEqual(['a5', 'e5', 'f5']);
    expect(names(11, threeDefences(row('o.xxx..'), BLACK))).toEqual(['b5', 'f5', 'g5']);
    expect(names(11, threeDefences(row('..xx.x..'), BLACK))).toEqual(['b5', 'e5', 'g5']);
    // A closed three is no three: nothing to defend.
    expect(threeDefences(row('oxxx..'), BLACK)).toEqual([]);
  });

  it('leaves the board as it found it', () => {
    const b = row('..xx.x..');
    const before = b.snapshot();
    threes(b, BLACK);
    threeDefences(b, BLACK);
    threatClass(b, BLACK, at(11, 'e5')[0]);
    expect(b.snapshot()).toEqual(before);
  });
});

describe('solve on hand-built positions', () => {
  // [fixture, k, result, fewest moves, first move(s) that may start the line]
  const cases: [string, number, 'win' | 'no-win', number | undefined][] = [
    ['four-win-1', 5, 'win', 1],
    ['open-three-2', 5, 'win', 2],
    ['double-four-2', 5, 'win', 2],
    ['double-three-3', 5, 'win', 3],
    ['four-three-3', 5, 'win', 3],
    ['overline-contrast', 5, 'win', 1],
    ['closed-three', 6, 'no-win', undefined],
    ['overline', 6, 'no-win', undefined],
    ['blocks-all', 6, 'no-win', undefined],
    ['three-vs-four', 6, 'no-win', undefined],
  ];
  it.each(cases)('%s: within %i, %s in %s', (name, k, result, moves) => {
    const res = run(board(name), BLACK, k);
    expect(res.result).toBe(result);
    expect(res.moves).toBe(moves);
    if (result === 'win') expect(verifyWin(picture(name), BLACK, res)).toBe(true);
    else expect(res.line).toBeUndefined();
  });

  it('plays the move the position is built around', () => {
    expect(names(9, run(board('four-win-1'), BLACK, 3).line)).toEqual(['f5']);
    expect(names(9, run(board('double-four-2'), BLACK, 3).line).slice(0, 1)).toEqual(['e5']);
    expect(names(9, run(board('double-three-3'), BLACK, 3).line).slice(0, 1)).toEqual(['e5']);
    // Four-three: e5 fours at f5, white is forced there, then an open four on column e.
    expect(names(9, run(board('four-three-3'), BLACK, 3).line).slice(0, 2)).toEqual(['e5', 'f5']);
  });

  it('says no-win below the fewest moves and win from there on', () => {
    for (const [name, fewest] of [['open-three-2', 2], ['double-four-2', 2], ['double-three-3', 3], ['four-three-3', 3]] as const) {
      const b = board(name);
      expect(run(b, BLACK, fewest - 1).result, name).toBe('no-win');
      expect(run(b, BLACK, fewest).moves, name).toBe(fewest);
      expect(run(b, BLACK, fewest + 2).moves, name).toBe(fewest);
    }
    expect(run(board('four-win-1'), BLACK, 0).result).toBe('no-win');
  });

  it('counts a four only where exactly five can follow', () => {
    expect(fiveThreats(board('overline'), BLACK)).toEqual([]);
    expect(names(9, fiveThreats(board('overline-contrast'), BLACK))).toEqual(['e5']);
  });

  it('makes the attacker answer a four the defender makes while blocking', () => {
    // Without white's column f the four-three wins in 3; with it, white's forced block at f5
    // is a four, black must take f4, and the three on column e is stopped in time.
    const b = board('counter-four');
    expect(run(b, BLACK, 3).result).toBe('no-win');
    const res = run(b, BLACK, 5);
    // A slower win is still there (found elsewhere on the board); it is checked all the same.
    if (res.result === 'win') expect(verifyWin(picture('counter-four'), BLACK, res)).toBe(true);
  });

  it('lets the defender answer a three with a four of their own when asked', () => {
    const b = board('closed-white-three');
    const blocks = run(b, BLACK, 5);
    expect(blocks.moves).toBe(3);
    const any = run(b, BLACK, 5, { counterFours: true });
    // White plays e9 (or f9) first; black's answer costs a move.
    expect(any.moves).toBe(4);
    expect(verifyWin(picture('closed-white-three'), BLACK, any, { counterFours: true })).toBe(true);
    // Where the defender has no four to play, the option changes nothing.
    expect(run(board('double-three-3'), BLACK, 5, { counterFours: true }).moves).toBe(3);
  });

  it('starts play where asked, as a realisation\'s commented node does', () => {
    const b = board('double-three-3');
    const res = run(b, BLACK, 5, { firstMoves: at(9, 'e5') });
    expect(res.moves).toBe(3);
    expect(names(9, res.line).slice(0, 1)).toEqual(['e5']);
    // Checked independently: after e5, every defence loses within two more moves.
    const pos: Position = { size: 9, cells: picture('double-three-3').cells.slice() };
    pos.cells[at(9, 'e5')[0]] = BLACK;
    expect(everyDefenceLoses(pos, BLACK, 2, solverOracle({}), false)).toBe(true);
    // A quiet first move wins nothing.
    expect(run(b, BLACK, 5, { firstMoves: at(9, 'a1') }).result).toBe('no-win');
    // A five among the first moves wins in 1; a five elsewhere does not count.
    const f = board('four-win-1');
    expect(run(f, BLACK, 3, { firstMoves: at(9, 'g5', 'f5') }).line).toEqual(at(9, 'f5'));
    expect(run(f, BLACK, 3, { firstMoves: at(9, 'g5') }).result).toBe('no-win');
    expect(() => run(f, BLACK, 3, { firstMoves: [81] })).toThrow(RangeError);
  });

  it('treats a finished game as nothing to solve', () => {
    const b = row('xxxxx');
    expect(run(b, BLACK, 5)).toEqual({ result: 'no-win', nodes: 0 });
    expect(run(b, WHITE, 5)).toEqual({ result: 'no-win', nodes: 0 });
  });
});

describe('solve: budget, symmetry, determinism', () => {
  it('answers unknown when the node budget is too small, and stops near it', () => {
    const b = board('double-three-3');
    for (const budget of [0, 1, 5, 20]) {
      const res = solve(b, BLACK, { maxAttackerMoves: 5, nodeBudget: budget });
      expect(res.result).toBe('unknown');
      expect(res.nodes).toBeLessThanOrEqual(budget + 2);
    }
    const enough = run(b, BLACK, 5);
    expect(solve(b, BLACK, { maxAttackerMoves: 5, nodeBudget: enough.nodes }).result).toBe('win');
  });

  it('gives the same answer under the eight symmetries and with colours swapped', () => {
    const fixtures = ['four-win-1', 'open-three-2', 'double-four-2', 'double-three-3', 'four-three-3', 'closed-three', 'overline', 'three-vs-four', 'counter-four', 'closed-white-three'];
    for (const name of fixtures) {
      const pic = picture(name);
      for (const counterFours of [false, true]) {
        const base = run(boardFromPicture(pic), BLACK, 5, { counterFours });
        for (const t of SYMMETRIES) {
          for (const swap of [false, true]) {
            const img = transformPicture(swap ? swapColours(pic) : pic, t);
            const res = run(boardFromPicture(img), swap ? WHITE : BLACK, 5, { counterFours });
            expect([res.result, res.moves], `${name} symmetry ${t}${swap ? ' swapped' : ''}`).toEqual([base.result, base.moves]);
            if (res.result === 'win') expectLineMakesFive(img, swap ? WHITE : BLACK, res);
          }
        }
      }
    }
  });

  it('is deterministic, whatever order the stones were placed in', () => {
    const pic = picture('counter-four');
    const forward = boardFromPicture(pic);
    const backward = Board.empty(pic.size);
    for (let p = pic.cells.length - 1; p >= 0; p--) if (pic.cells[p] !== EMPTY) backward.play(p, pic.cells[p] as Stone);
    const a = run(forward, BLACK, 6);
    expect(run(forward, BLACK, 6)).toEqual(a);
    expect(run(backward, BLACK, 6)).toEqual(a);
    // The caller's board is not touched.
    expect(forward.snapshot()).toEqual(pic);
  });
});

describe('solve on seeded random positions', () => {
  /** n stones of each colour dropped at random within the middle of a size×size board, no five. */
  function randomPosition(seed: number, size: number, n: number): BoardPicture {
    const rnd = seededRandom(seed);
    const cells = new Array<Cell>(size * size).fill(EMPTY);
    const inner: Point[] = [];
    for (let r = 1; r < size - 1; r++) for (let c = 1; c < size - 1; c++) inner.push(r * size + c);
    const spots = rnd.shuffle(inner);
    let placed = 0;
    for (const p of spots) {
      if (placed === 2 * n) break;
      const s: Stone = placed % 2 === 0 ? BLACK : WHITE;
      const pos = { size, cells };
      if (makesFive(pos, p, s)) continue;
      cells[p] = s;
      placed++;
    }
    return { size, cells };
  }

  it('agrees with brute force on every win in 2 (where both models are the real game)', () => {
    let wins = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const pic = randomPosition(seed, 9, 8 + (seed % 5));
      const pos: Position = { size: pic.size, cells: pic.cells.slice() };
      // Brute force: a five now, or a move after which the defender has no five and the
      // attacker has two five points.
      let brute: number | undefined = fivePoints(pos, BLACK).length > 0 ? 1 : undefined;
      if (brute === undefined) {
        for (const m of emptyPoints(pos)) {
          pos.cells[m] = BLACK;
          const two = fivePoints(pos, WHITE).length === 0 && fivePoints(pos, BLACK).length >= 2;
          pos.cells[m] = EMPTY;
          if (two) brute = 2;
          if (two) break;
        }
      }
      const res = run(boardFromPicture(pic), BLACK, 2);
      expect(res.moves, `seed ${seed}`).toBe(brute);
      if (brute !== undefined) wins++;
    }
    expect(wins).toBeGreaterThan(5);
  });

  it('every win it claims is forced against every defence, checked independently', () => {
    const claimed: number[] = [];
    for (let seed = 100; seed < 160; seed++) {
      const pic = randomPosition(seed, 9, 7 + (seed % 6));
      for (const counterFours of [false, true]) {
        const res = run(boardFromPicture(pic), BLACK, 4, { counterFours });
        if (res.result !== 'win') continue;
        claimed.push(res.moves!);
        expect(verifyWin(pic, BLACK, res, { counterFours }), `seed ${seed} counterFours ${counterFours}`).toBe(true);
      }
    }
    // The check is not vacuous: wins of every length up to 4 were claimed and checked.
    expect(new Set(claimed)).toEqual(new Set([1, 2, 3, 4]));
  });
});

describe('the options a subgoal comment is checked with', () => {
  it('defenderThreats: false ignores a four that the defender\'s blocks happen to make', () => {
    const b = board('fig5-counter-four');
    const g8 = at(15, 'g8');
    expect(run(b, BLACK, 4, { firstMoves: g8 }).result).toBe('no-win');
    const blocking = run(b, BLACK, 4, { firstMoves: g8, defenderThreats: false });
    expect(blocking.result).toBe('win');
    expect(blocking.moves).toBe(4);
    expect(run(b, BLACK, 6, { firstMoves: g8 }).result).toBe('win');
  });

  it('quietFirstMove proves a win that starts with a move threatening nothing', () => {
    const b = board('quiet-first-move');
    const h7 = at(15, 'h7');
    expect(run(b, BLACK, 4, { firstMoves: h7, defenderThreats: false }).result).toBe('no-win');
    const quiet = run(b, BLACK, 4, { firstMoves: h7, defenderThreats: false, quietFirstMove: true });
    expect(quiet.result).toBe('win');
    expect(quiet.moves).toBe(4);
    // A quiet move that sets up only one threat is answered by the free reply.
    expect(run(b, BLACK, 4, { firstMoves: at(15, 'a1'), defenderThreats: false, quietFirstMove: true }).result).toBe('no-win');
  });
});
