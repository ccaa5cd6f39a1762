import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boardFromPicture, makeBoardText, parseBoardText } from '../src/rules/boardText.ts';
import { textBoard } from '../src/bot/terminal.ts';
import type { BoardSnapshot } from '../src/rules/snapshot.ts';
import { makeGameRecord, parseGame, parseGameRecord, replayRecord } from '../src/rules/gameRecord.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { seededRandom } from '../src/rules/random.ts';
import { expectOk, shownInput } from '../src/rules/result.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../src/rules/types.ts';
import { fixture, FIXTURES } from './support/fixtures.ts';

describe('point notation', () => {
  it('names the centre j10 on 19×19 and h8 on 15×15, row 1 at the bottom', () => {
    expect(makePoint(19, 9 * 19 + 9)).toBe('j10');
    expect(makePoint(15, 7 * 15 + 7)).toBe('h8');
    expect(expectOk(parsePoint(19, 'a1'))).toBe(0);
    expect(expectOk(parsePoint(19, 's19'))).toBe(360);
    // No letter is skipped: i is the ninth column.
    expect(expectOk(parsePoint(19, 'i1'))).toBe(8);
  });

  it('is case-insensitive on input and round-trips every point of every size', () => {
    expect(expectOk(parsePoint(19, 'J10'))).toBe(expectOk(parsePoint(19, 'j10')));
    for (let size = 5; size <= 19; size++) {
      for (let p = 0; p < size * size; p++) expect(expectOk(parsePoint(size, makePoint(size, p)))).toBe(p);
    }
  });

  it.each([
    ['', 'bad-point'],
    ['j', 'bad-point'],
    ['10j', 'bad-point'],
    ['j0', 'point-off-board'],
    ['j20', 'point-off-board'],
    ['t1', 'point-off-board'],
    ['j10x', 'bad-point'],
    ['j-1', 'bad-point'],
  ])('rejects %j on 19×19 with %s', (text, code) => {
    const r = parsePoint(19, text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe(code);
      expect(r.error.message.length).toBeGreaterThan(10);
    }
  });

  it('shows bad input short, and its control characters written out, not sent back raw', () => {
    const colour = parsePoint(19, '\u001b[31mj10');
    expect(!colour.ok && colour.error.message).toBe('"\\u001b[31mj10" is not a point: write a column letter then a row number, like j10');
    const long = parsePoint(19, 'x'.repeat(3000));
    expect(!long.ok && long.error.message).toBe(`"${'x'.repeat(59)}… (3000 characters)" is not a point: write a column letter then a row number, like j10`);
  });

  it('cuts shown input between characters, never inside an escape or a surrogate pair, and writes out what would hide or act', () => {
    expect(shownInput('x'.repeat(60))).toBe('x'.repeat(60));
    // An escape that would straddle the cut is left out whole.
    expect(shownInput(`${'x'.repeat(55)}\u001b[31m${'y'.repeat(30)}`)).toBe(`${'x'.repeat(55)}… (90 characters)`);
    // A pair of UTF-16 units is one character, kept or cut whole, and counted once.
    const faces = shownInput(`${'a'.repeat(58)}😀😀😀`);
    expect(faces).toBe(`${'a'.repeat(58)}… (61 characters)`);
    expect(faces).not.toMatch(/[\ud800-\udfff]/);
    // A right-to-left override, a zero-width space and a byte-order mark are named, not obeyed.
    expect(shownInput('\u202eevil\u200bk10\ufeff')).toBe('\\u202eevil\\u200bk10\\ufeff');
    // So is a space that is not the plain one, which would read as a space in quotes.
    expect(shownInput('k10\u00a0')).toBe('k10\\u00a0');
    expect(shownInput('k\u300010')).toBe('k\\u300010');
  });
});

describe('board text', () => {
  it('reads a picture saved with a byte-order mark as the same picture', () => {
    const text = fixture('boards/midgame-19.txt');
    expect(expectOk(parseBoardText(`\ufeff${text}`))).toEqual(expectOk(parseBoardText(text)));
  });

  it('reads the 19×19 middle game fixture with the top row first', () => {
    const pic = expectOk(parseBoardText(fixture('boards/midgame-19.txt')));
    expect(pic.size).toBe(19);
    expect(pic.cells.filter((c) => c === BLACK)).toHaveLength(15);
    expect(pic.cells.filter((c) => c === WHITE)).toHaveLength(14);
    // Row 13 (the 7th text line) has its single stone, white, in column j.
    expect(pic.cells[expectOk(parsePoint(19, 'j13'))]).toBe(WHITE);
    expect(pic.cells[expectOk(parsePoint(19, 'i6'))]).toBe(BLACK);
  });

  it('reads upper-case X and O, and sees white\'s five on column h of a 15×15 board', () => {
    const pic = expectOk(parseBoardText(fixture('boards/white-five-15.txt')));
    expect(pic.size).toBe(15);
    const board = boardFromPicture(pic);
    const fives = board.fives().map((f) => f.map((p) => makePoint(15, p)));
    expect(fives).toEqual([['h4', 'h5', 'h6', 'h7', 'h8']]);
  });

  it.each([
    ['boards/bad-cell.txt', 'bad-cell', 3, 5],
    ['boards/bad-row-length.txt', 'row-length', 3, 8],
    ['boards/bad-too-small.txt', 'bad-size', 4, undefined],
  ])('%s fails with %s at line %i', (file, code, line, column) => {
    const r = parseBoardText(fixture(file));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe(code);
      expect(r.error.line).toBe(line);
      expect(r.error.column).toBe(column);
    }
  });

  it('reads a board copied from the terminal game, coordinates and all, and checks the row numbers', () => {
    const labelled = ['    a b c d e', '  5 . . x . .', '  4 . o X . .', '  3 . . . . .', '  2 . . . . .', '  1 o . . . .'].join('\n');
    const pic = expectOk(parseBoardText(labelled));
    expect(pic).toEqual(expectOk(parseBoardText('. . x . .\n. o x . .\n. . . . .\n. . . . .\no . . . .\n')));
    expect(pic.cells[expectOk(parsePoint(5, 'c4'))]).toBe(BLACK);
    expect(pic.cells[expectOk(parsePoint(5, 'a1'))]).toBe(WHITE);
    // The letters may come below the rows as well.
    expect(expectOk(parseBoardText(labelled.split('\n').slice(1).join('\n') + '\n    a b c d e'))).toEqual(pic);
    const wrong = parseBoardText(labelled.replace('  4 .', '  6 .'));
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error).toMatchObject({ code: 'row-label', line: 3, column: 3, message: 'this row is labelled 6 but is row 4 of a 5-row board (the top row is 5)' });
    // Letters out of order are no header: they are read as points, and refused.
    expect(parseBoardText(labelled.replace('a b c d e', 'a c b d e')).ok).toBe(false);
  });

  it('reads back what the terminal game prints, on random boards of every size (seeded)', () => {
    const rnd = seededRandom(12);
    for (let size = 5; size <= 19; size++) {
      const cells: Cell[] = Array.from({ length: size * size }, () => rnd.pick([EMPTY, EMPTY, BLACK, WHITE] as const));
      const lastMove = cells.findIndex((c) => c !== EMPTY);
      const snapshot: BoardSnapshot = lastMove < 0 ? { size, cells } : { size, cells, lastMove };
      const text = textBoard(snapshot);
      expect(expectOk(parseBoardText(text))).toEqual({ size, cells });
    }
  });

  it('round-trips random boards of every size (seeded)', () => {
    const rnd = seededRandom(11);
    for (let size = 5; size <= 19; size++) {
      const cells: Cell[] = Array.from({ length: size * size }, () => rnd.pick([EMPTY, EMPTY, BLACK, WHITE] as const));
      const text = makeBoardText({ size, cells });
      expect(expectOk(parseBoardText(text))).toEqual({ size, cells });
    }
  });
});

describe('game records', () => {
  it('round-trips every good fixture: parse(print(r)) = r', () => {
    const files = readdirSync(join(FIXTURES, 'games')).filter((f) => f.endsWith('.txt') && !f.startsWith('bad-'));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const f of files) {
      const r = expectOk(parseGameRecord(fixture(`games/${f}`)));
      const again = expectOk(parseGameRecord(makeGameRecord(r)));
      expect({ ...again, positions: [] }, f).toEqual({ ...r, positions: [] });
    }
  });

  it('round-trips random legal games (seeded)', () => {
    const rnd = seededRandom(5);
    for (let trial = 0; trial < 30; trial++) {
      const size = rnd.pick([5, 9, 15, 19]);
      const order = rnd.shuffle(Array.from({ length: size * size }, (_, p) => p));
      const moves = order.slice(0, rnd.int(order.length));
      const record = { size, moves, comments: ['seeded game', `trial ${trial}`] };
      const parsed = expectOk(parseGameRecord(makeGameRecord(record)));
      expect(parsed.size).toBe(size);
      expect(parsed.moves).toEqual(moves);
      expect(parsed.comments).toEqual(record.comments);
    }
  });

  it('writes any comment so that the record reads back: line breaks become spaces, a size-like comment is quoted', () => {
    const record = { size: 15, moves: [112], comments: ['engine said:\nboom\rdone', 'size 15', 'size: 19'] };
    const back = expectOk(parseGameRecord(makeGameRecord(record)));
    expect(back.moves).toEqual([112]);
    expect(back.size).toBe(15);
    expect(back.comments).toEqual(['engine said: boom done', '"size 15"', '"size: 19"']);
  });

  it('points a bad size at its value, even a letter that "size" holds', () => {
    for (const v of ['e', 's', 'zz']) {
      const r = parseGameRecord(`# size ${v}\nh8\n`);
      expect(!r.ok && [r.error.code, r.error.line, r.error.column]).toEqual(['bad-size', 1, 8]);
    }
  });

  it('reads the size line and comments', () => {
    const r = expectOk(parseGameRecord(fixture('games/edge-diagonal-five.txt')));
    expect(r.size).toBe(15);
    expect(r.comments).toEqual(['Black makes five on the rising diagonal from the corner a1 to e5.']);
    expect(r.moves.map((p) => makePoint(15, p))).toEqual(['a1', 'a2', 'b2', 'a3', 'c3', 'a4', 'd4', 'a5', 'e5']);
  });

  it.each([
    ['games/bad-occupied.txt', 'occupied', 3, 1],
    ['games/bad-after-five.txt', 'game-over', 6, 4],
    ['games/bad-off-board.txt', 'point-off-board', 4, 1],
    ['games/bad-token.txt', 'bad-point', 1, 7],
    ['games/bad-size.txt', 'bad-size', 1, 8],
    ['games/bad-misplaced-size.txt', 'misplaced-size', 2, 1],
  ])('%s fails with %s at line %i column %i', (file, code, line, column) => {
    const r = parseGame(fixture(file));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe(code);
      expect(r.error.line).toBe(line);
      expect(r.error.column).toBe(column);
      expect(r.error.message).toMatch(/move \d+|size/);
    }
  });

  it.each(['# size: 15', '#size15', '# size 15 (small)', '# Size=15'])('refuses %j, which means a size but is not a size line, rather than play on 19×19', (head) => {
    const r = parseGameRecord(`${head}\nh8 o15\n`);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatchObject({ code: 'bad-size', line: 1, column: 1 });
      expect(r.error.message).toBe(`"${head}" is not a size line: write "# size N" alone on the first line`);
    }
    // A comment that only talks about size is a comment.
    expect(expectOk(parseGameRecord('# sizes differ between servers\nh8\n')).size).toBe(19);
  });

  it('replaying a record is the same as playing its moves', () => {
    const r = expectOk(parseGameRecord(fixture('games/black-five-row.txt')));
    const g = expectOk(replayRecord(r));
    expect(g.moves).toEqual(r.moves);
  });
});
