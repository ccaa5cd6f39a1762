import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runBrain } from '../src/cli/brain.ts';
import { createGomokuaiPlayer, gomokuaiBoard } from '../src/cli/gomokuaiPlayer.ts';
import type { MovePlayer } from '../src/play/engine.ts';
import { Game } from '../src/rules/game.ts';
import {
  fromGomocup,
  gameFromStones,
  GomocupSession,
  makeGomocupCommand,
  makeGomocupReply,
  parseGomocupCommand,
  parseGomocupReply,
  toGomocup,
} from '../src/gomocup/protocol.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { expectOk } from '../src/rules/result.ts';
import type { Point } from '../src/rules/types.ts';
import { spawnBrain } from './support/brainProcess.ts';
import { FIXTURES } from './support/fixtures.ts';

const names = (game: Game | undefined) => (game?.moves ?? []).map((p) => makePoint(game!.size, p));

/** A player that plays the given points in turn and remembers what it was told. */
function scripted(points: string[]): MovePlayer & { over: string[][] } {
  const over: string[][] = [];
  let next = 0;
  return {
    name: 'scripted',
    over,
    chooseMove: (game: Game): Point => expectOk(parsePoint(game.size, points[next++])),
    gameOver: (game: Game) => void over.push(names(game)),
  };
}

/** Feeds lines to a session one by one and returns all replies, each line's joined by " / ". */
async function talk(session: GomocupSession, lines: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const line of lines) out.push((await session.handle(line)).join(' / '));
  return out;
}

describe('Gomocup coordinates', () => {
  it('maps x to the column and y to rows counted from the top', () => {
    // Piskvork draws 0,0 at the top left; our row 1 is the bottom row.
    expect(makePoint(15, fromGomocup(15, 0, 0)!)).toBe('a15');
    expect(makePoint(15, fromGomocup(15, 14, 14)!)).toBe('o1');
    expect(makePoint(15, fromGomocup(15, 7, 7)!)).toBe('h8');
    expect(makePoint(19, fromGomocup(19, 9, 9)!)).toBe('j10');
    expect(makePoint(19, fromGomocup(19, 2, 0)!)).toBe('c19');
    expect(fromGomocup(15, 15, 0)).toBeUndefined();
    expect(fromGomocup(15, 0, -1)).toBeUndefined();
  });

  it('round-trips every point of every size', () => {
    for (const size of [5, 15, 19]) {
      for (let p = 0; p < size * size; p++) {
        const { x, y } = toGomocup(size, p);
        expect(fromGomocup(size, x, y)).toBe(p);
      }
    }
  });
});

describe('Gomocup notation', () => {
  it('parses and prints every command, round trip', () => {
    const lines = [
      'START 15',
      'RECTSTART 20,15',
      'RESTART',
      'BEGIN',
      'TURN 7,8',
      'BOARD',
      '10,5,1',
      '0,0,2',
      '3,3,3',
      'DONE',
      'TAKEBACK 7,8',
      'INFO timeout_turn 5000',
      'INFO folder /tmp/some folder',
      'ABOUT',
      'END',
    ];
    for (const line of lines) expect(makeGomocupCommand(expectOk(parseGomocupCommand(line)))).toBe(line);
  });

  it('forgives case, spaces and carriage returns', () => {
    expect(expectOk(parseGomocupCommand('  turn 7 , 8\r'))).toEqual({ kind: 'turn', x: 7, y: 8 });
    expect(expectOk(parseGomocupCommand('info Timeout_Turn 1000'))).toEqual({ kind: 'info', key: 'timeout_turn', value: '1000' });
    expect(expectOk(parseGomocupCommand('1, 2, 1'))).toEqual({ kind: 'stone', x: 1, y: 2, field: 1 });
  });

  it('says what is wrong with a bad command, and where', () => {
    const table: [string, string, number][] = [
      ['', 'empty-line', 0],
      ['FROB 1,2', 'unknown-command', 0],
      ['  PLAY 7,7', 'unknown-command', 2],
      ['TURN 7', 'bad-arguments', 5],
      ['TURN 7,8,9', 'bad-arguments', 5],
      ['TURN a,8', 'bad-number', 5],
      ['TURN 7,-8', 'bad-number', 7],
      ['TURN 7,1234567', 'bad-number', 7],
      ['START', 'bad-arguments', 5],
      ['START fifteen', 'bad-number', 6],
      ['BEGIN now', 'bad-arguments', 6],
      ['INFO rule', 'bad-arguments', 5],
      ['1,2', 'bad-arguments', 0],
      ['1,x,2', 'bad-number', 2],
    ];
    for (const [line, code, index] of table) {
      const r = parseGomocupCommand(line);
      expect(r.ok, line).toBe(false);
      if (!r.ok) expect([line, r.error.code, r.error.index]).toEqual([line, code, index]);
    }
  });

  it('parses and prints every reply, round trip', () => {
    const lines = ['OK', '7,7', 'ERROR unsupported size', 'MESSAGE hello there', 'DEBUG depth 3', 'name="x", version="1.0", author="A B", country="CZ"'];
    for (const line of lines) expect(makeGomocupReply(expectOk(parseGomocupReply(line)))).toBe(line);
    expect(expectOk(parseGomocupReply('name="x", version="1.0"'))).toEqual({ kind: 'about', fields: [['name', 'x'], ['version', '1.0']] });
    for (const bad of ['', 'hello', 'OK then', '7,7,7', 'name=x']) expect(parseGomocupReply(bad).ok, bad).toBe(false);
  });

  it('keeps every reply on one line', () => {
    expect(makeGomocupReply({ kind: 'error', message: 'two\nlines' })).toBe('ERROR two lines');
    expect(makeGomocupReply({ kind: 'about', fields: [['name', 'say "hi"']] })).toBe(`name="say 'hi'"`);
  });
});

describe('positions sent with BOARD', () => {
  it('puts off a stone that would make a five too early', async () => {
    // Black's a1 b1 c1 d1 e1 f1 is a six, no win; played in the order given, e1 would make a
    // five before f1 is down.
    const size = 15;
    const at = (s: string) => s.split(' ').map((t) => expectOk(parsePoint(size, t)));
    const game = expectOk(gameFromStones(size, at('a1 b1 c1 d1 e1 f1'), at('a3 b3 d3 f3 h3 j3')));
    expect(game.isOver).toBe(false);
    expect(names(game).filter((_, i) => i % 2 === 0)).toEqual(['a1', 'b1', 'c1', 'd1', 'f1', 'e1']);
    expect(gameFromStones(size, at('a1 b1 c1 d1 e1'), at('a3 c3 e3 g3 j3')).ok).toBe(false);
    // Ten in a row, given in an order where each of the last two stones would make a five: the
    // position is reached through a seven (the gap filled before either end is a five).
    const ten = expectOk(gameFromStones(size, at('a8 b8 c8 d8 g8 h8 i8 j8 e8 f8'), at('a1 c1 e1 g1 i1 k1 m1 o1 a3 c3')));
    expect(ten.isOver).toBe(false);
    expect(new Set(names(ten))).toEqual(new Set(['a8', 'b8', 'c8', 'd8', 'e8', 'f8', 'g8', 'h8', 'i8', 'j8', 'a1', 'c1', 'e1', 'g1', 'i1', 'k1', 'm1', 'o1', 'a3', 'c3']));
    // And over the protocol, as a BOARD block (Gomocup x,y from the top: row 8 of 15 is y 7).
    const session = new GomocupSession({ player: createGomokuaiPlayer() });
    const replies = await talk(session, ['START 15', 'BOARD', ...['0,7,1', '1,7,1', '2,7,1', '3,7,1', '6,7,1', '7,7,1', '8,7,1', '9,7,1', '4,7,1', '5,7,1'], ...['0,14,2', '2,14,2', '4,14,2', '6,14,2', '8,14,2', '10,14,2', '12,14,2', '14,14,2', '0,12,2', '2,12,2'], 'DONE']);
    expect(replies.filter((r) => r !== '')).toHaveLength(2);
    expect(replies.filter((r) => r !== '')[1]).toMatch(/^\d+,\d+$/);
  });
});

describe('GomocupSession', () => {
  it('answers a scripted session', async () => {
    const player = scripted(['h8', 'g7', 'j10']);
    const session = new GomocupSession({ player, about: { version: '1.2', author: 'T. Ester', country: 'GB' } });
    const replies = await talk(session, [
      'START 15',
      'INFO timeout_turn 5000',
      'INFO timeout_match 0',
      'INFO time_left 100000',
      'INFO max_memory 83886080',
      'INFO game_type 1',
      'INFO rule 1',
      'INFO folder /tmp/some folder',
      'INFO evaluate 3,4',
      'BEGIN',
      'TURN 8,6',
      'TAKEBACK 6,8',
      'TAKEBACK 8,6',
      'BOARD',
      '7,7,1',
      '8,6,2',
      'DONE',
      'ABOUT',
    ]);
    expect(replies).toEqual([
      'OK',
      ...Array<string>(8).fill(''),
      '7,7', // h8: column h = 7, row 8 is the 8th from the top on 15×15
      '6,8', // g7, after the opponent's i9 (8,6)
      'OK',
      'OK',
      '',
      '',
      '',
      '9,5', // j10
      'name="scripted", version="1.2", author="T. Ester", country="GB"',
    ]);
    expect(names(session.game)).toEqual(['h8', 'i9', 'j10']);
    expect(session.ownColour).toBe('black');
    expect(session.clock).toEqual({ turnMs: 5000, leftMs: 100000 });
    expect(await talk(session, ['END', 'TURN 1,1'])).toEqual(['', '']);
    expect(session.ended).toBe(true);
    expect(player.over).toEqual([['h8', 'i9', 'j10']]);
  });

  it('plays white when the opponent moves first, and tells the player at each new game', async () => {
    const player = scripted(['i9', 'a1', 'b2']);
    const session = new GomocupSession({ player });
    expect(await talk(session, ['START 15', 'TURN 7,7', 'RESTART', 'TURN 0,0', 'START 19', 'BEGIN'])).toEqual([
      'OK',
      '8,6',
      'OK',
      '0,14',
      'OK',
      '1,17',
    ]);
    expect(player.over).toEqual([['h8', 'i9'], ['a15', 'a1']]);
    expect(await session.finish()).toEqual([]);
    expect(player.over).toEqual([['h8', 'i9'], ['a15', 'a1'], ['b2']]);
  });

  it('warns about rules other than exactly five and plays on', async () => {
    const session = new GomocupSession({ player: scripted(['h8']) });
    const [, warning, move] = await talk(session, ['START 15', 'INFO rule 4', 'BEGIN']);
    expect(warning).toMatch(/^MESSAGE rule 4 .*exactly five/);
    expect(move).toBe('7,7');
    expect(session.rule).toBe(4);
  });

  it('rejects malformed and out-of-turn commands with ERROR and changes nothing', async () => {
    const fresh = new GomocupSession({ player: scripted([]) });
    for (const line of ['TURN 7,7', 'BEGIN', 'BOARD', 'RESTART', 'TAKEBACK 7,7', 'DONE']) {
      expect((await fresh.handle(line))[0], line).toMatch(/^ERROR /);
    }
    expect(fresh.game).toBeUndefined();

    const player = scripted(['h8', 'g7', 'k11']);
    const session = new GomocupSession({ player });
    await talk(session, ['START 15', 'BEGIN', 'TURN 8,6']);
    const before = names(session.game);
    expect(before).toEqual(['h8', 'i9', 'g7']);
    const bad: [string[], RegExp][] = [
      [['TURN 7,7'], /already taken/],
      [['TURN 15,0'], /off the 15×15 board/],
      [['TURN 1'], /TURN needs 2 numbers/],
      [['TURN a,b'], /"a" in TURN is not a whole number/],
      [['TURN -1,3'], /not a whole number/],
      [['START 4'], /unsupported size/],
      [['START 20'], /unsupported size/],
      [['RECTSTART 15,10'], /only square boards/],
      [['BEGIN'], /BEGIN on a board with 3 stones/],
      [['DONE'], /DONE without BOARD/],
      [['1,1,1'], /outside a BOARD block/],
      [['TAKEBACK 7,7'], /the last move was 6,8/],
      [['INFO timeout_turn soon'], /needs a whole number/],
      [['INFO'], /INFO needs a key and a value/],
      [['FOO 1,2'], /unknown command "FOO"/],
      [['ABOUT now'], /ABOUT takes no arguments/],
      [['BOARD', '1,1,3', 'DONE'], /field 3 .* not supported/],
      [['BOARD', '1,1,4', 'DONE'], /field must be 1 .* or 2/],
      [['BOARD', '1,1,1', '2,2,1', 'DONE'], /2 own and 0 opponent stones/],
      [['BOARD', '1,1,1', '1,1,2', 'DONE'], /given twice/],
      [['BOARD', '20,1,1', 'DONE'], /off the 15×15 board/],
      [['BOARD', '1,1,1', 'TURN 2,2'], /BOARD not closed by DONE before "TURN 2,2"/],
      [['BOARD', 'PIZZA'], /BOARD not closed by DONE before "PIZZA"/],
      // A stone line with a typo is a bad line of the block, named once at DONE.
      [['BOARD', '7,7,1', '7,a,2', '8,8,2', 'DONE'], /^ERROR BOARD line 2: "a" in a BOARD line is not a whole number from 0; the position is ignored$/],
      [['BOARD', '7,7,1', '7,8', 'DONE'], /^ERROR BOARD line 2: a BOARD line needs 3 numbers separated by commas, not "7,8"; the position is ignored$/],
      [['BOARD', '7,7,1', '-1,7,1', '8,8,2', 'DONE'], /^ERROR BOARD line 2: "-1,7,1" is not a stone line: x,y,field, whole numbers from 0; the position is ignored$/],
      [['BOARD', 'a,7,2', '7,7,1', '8,8,2', 'DONE'], /^ERROR BOARD line 1: "a,7,2" is not a stone line: x,y,field, whole numbers from 0; the position is ignored$/],
      // Input is echoed short, and control characters shown, not sent back raw.
      [[`TURN ${'7,'.repeat(5000)}`], /^ERROR TURN needs 2 numbers separated by commas, not "7,7,.{40,60}… \(10000 characters\)"$/],
      // Quoted as sent, not upper-cased.
      [['FOO\u001b[31m'], /^UNKNOWN unknown command "FOO\\u001b\[31m"$/],
      [['pizza 1'], /^UNKNOWN unknown command "pizza"$/],
      // Commands of the protocol this brain does not play are UNKNOWN, as the protocol asks.
      [['SWAP2BOARD'], /^UNKNOWN unknown command "SWAP2BOARD"$/],
      [['BOARD', '0,0,1', '1,0,1', '2,0,1', '3,0,1', '4,0,1', '0,5,2', '2,5,2', '4,5,2', '6,5,2', '8,5,2', 'DONE'], /cannot be reached/],
    ];
    for (const [lines, message] of bad) {
      const replies = (await talk(session, lines)).filter((r) => r !== '');
      expect(replies, lines.join(' ')).toHaveLength(1);
      expect(replies[0], lines.join(' ')).toMatch(/^(ERROR|UNKNOWN) /);
      expect(replies[0], lines.join(' ')).toMatch(message);
      expect(names(session.game), lines.join(' ')).toEqual(before);
    }
    // Still alive and still in the same game.
    expect(await talk(session, ['TURN 9,9'])).toEqual(['10,4']);
    expect(session.ended).toBe(false);
  });

  it('knows exactly five: six in a row plays on, five ends the game', async () => {
    const session = new GomocupSession({ player: scripted(['a1', 'a2']) });
    // The brain has a5 c5 e5 g5 i5, the opponent c1 d1 e1 f1 h1 (Gomocup y 14 is row 1);
    // equal counts, so the brain is black and moves.
    const own = ['0,10,1', '2,10,1', '4,10,1', '6,10,1', '8,10,1'];
    const theirs = ['2,14,2', '3,14,2', '4,14,2', '5,14,2', '7,14,2'];
    expect(await talk(session, ['START 15', 'BOARD', ...own, ...theirs, 'DONE'])).toEqual(['OK', '', ...Array<string>(10).fill(''), '0,14']);
    expect(session.ownColour).toBe('black');
    // g1 makes c1 … h1, a six: no win, the brain plays on.
    expect(await talk(session, ['TURN 6,14'])).toEqual(['0,13']);
    expect(session.game?.isOver).toBe(false);
    // b1 instead makes b1 … f1, a five flanked by black's a1: white wins.
    expect(await talk(session, ['TAKEBACK 0,13', 'TAKEBACK 6,14', 'TURN 1,14'])).toEqual([
      'OK',
      'OK',
      'MESSAGE game over: white wins with five at b1 c1 d1 e1 f1',
    ]);
    expect((await talk(session, ['TURN 7,7']))[0]).toMatch(/^ERROR TURN 7,7: the game is over/);
  });

  it('replaces a failing player by the point nearest the centre', async () => {
    let calls = 0;
    const flaky: MovePlayer = {
      name: 'flaky',
      chooseMove(game) {
        calls++;
        if (calls === 1) throw new Error('out of ideas');
        return game.moves[0]; // taken
      },
    };
    const session = new GomocupSession({ player: flaky });
    const [, first, second] = await talk(session, ['START 15', 'BEGIN', 'TURN 0,0']);
    expect(first).toBe('MESSAGE flaky failed (Error: out of ideas); playing the point nearest the centre / 7,7');
    expect(second).toMatch(/^MESSAGE flaky chose h8, which is taken; playing the point nearest the centre \/ \d+,\d+$/);
    expect(names(session.game)).toEqual(['h8', 'a15', 'h7']);
  });

  it('handles lines in order even when they arrive before the last reply', async () => {
    const slow: MovePlayer = {
      name: 'slow',
      chooseMove: (game) => new Promise((resolve) => setTimeout(() => resolve(expectOk(parsePoint(game.size, 'h8'))), 20)),
    };
    const session = new GomocupSession({ player: slow });
    const all = await Promise.all(['START 15', 'BEGIN', 'TURN 7,7', 'ABOUT'].map((l) => session.handle(l)));
    expect(all).toEqual([['OK'], ['7,7'], ['ERROR TURN 7,7: that point is already taken'], ['name="slow", version="0", author="", country=""']]);
  });

  it('runs over a stream of lines and stops at END', async () => {
    const out: string[] = [];
    async function* lines() {
      yield* ['START 15', 'BEGIN', 'END', 'BEGIN'];
    }
    const session = new GomocupSession({ player: createGomokuaiPlayer() });
    await runBrain(session, lines(), (l) => out.push(l));
    expect(out).toEqual(['OK', '7,7']);
  });
});

describe('the gomokuai player', () => {
  it('sees its own stones as 1 and plays the centre on an empty board', () => {
    const game = Game.create(15);
    const player = createGomokuaiPlayer();
    expect(makePoint(15, player.chooseMove(game) as Point)).toBe('h8');
    game.play(expectOk(parsePoint(15, 'h8')));
    const board = gomokuaiBoard(game); // white to move: black's h8 is the opponent's, 2
    expect(board[expectOk(parsePoint(15, 'h8'))]).toBe(2);
  });

  it('completes its own four and blocks the opponent', () => {
    const size = 15;
    const at = (s: string) => s.split(' ').map((t) => expectOk(parsePoint(size, t)));
    const player = createGomokuaiPlayer();
    // Black to move with d4 e4 f4 g4 against white's d10 e10 f10 g10: black wins at c4 or h4.
    const win = expectOk(gameFromStones(size, at('d4 e4 f4 g4'), at('d10 e10 f10 g10')));
    expect(['c4', 'h4']).toContain(makePoint(size, player.chooseMove(win) as Point));
    // White to move with black's open three h8 h9 h10: white blocks at h7 or h11.
    const block = expectOk(gameFromStones(size, at('h8 h9 h10'), at('a1 o15')));
    expect(['h7', 'h11']).toContain(makePoint(size, player.chooseMove(block) as Point));
  });
});

describe('gomoku brain, the process', () => {
  it('talks the protocol line by line, survives bad input and exits at END', async () => {
    const brain = spawnBrain();
    brain.send('START 15');
    expect(await brain.next()).toBe('OK');
    brain.send('INFO timeout_turn 1000');
    brain.send('INFO rule 1');
    brain.send('BEGIN');
    expect(await brain.next()).toBe('7,7');
    brain.send('TURN 7,7');
    expect(await brain.next()).toMatch(/^ERROR .*already taken/);
    brain.send('WHAT IS THIS');
    expect(await brain.next()).toBe('UNKNOWN unknown command "WHAT"');
    brain.send('TURN 8,8');
    const reply = await brain.next();
    expect(reply).toMatch(/^\d+,\d+$/);
    brain.send(`TAKEBACK ${reply}`);
    expect(await brain.next()).toBe('OK');
    brain.send('BOARD');
    brain.send('7,7,2');
    brain.send('DONE');
    expect(await brain.next()).toMatch(/^\d+,\d+$/);
    brain.send('ABOUT');
    expect(await brain.next()).toMatch(/^name="elcock-5", version="[\d.]+", author="gomoku-elcock", country=""$/);
    brain.send('END');
    expect(await brain.exited).toBe(0);
  });

  it('exits at the end of its input, and explains its options', async () => {
    const brain = spawnBrain(['--seed', '7']);
    brain.send('START 19');
    expect(await brain.next()).toBe('OK');
    brain.end();
    expect(await brain.exited).toBe(0);
    const bad = spawnBrain(['--player', 'nobody']);
    expect(await bad.exited).toBe(2);
    const negative = spawnBrain(['--learn', '--reflect-every', '-1']);
    expect(await negative.exited).toBe(2);
    expect(negative.stderr()).toMatch(/^gomoku brain: --reflect-every needs a whole number of games from 0\n/);
    // A bad library file: where, once, and what is wrong, with its code, as every command says it.
    const badLibrary = spawnBrain(['--library', join(FIXTURES, 'libraries', 'bad-shape.txt')]);
    expect(await badLibrary.exited).toBe(1);
    expect(badLibrary.stderr()).toMatch(/^gomoku brain: [^\n]*bad-shape\.txt, line 3, column \d+: [^\n]*\(shape-mismatch\)\n$/);
    expect(badLibrary.stderr().match(/line 3/g)).toHaveLength(1);
    // Options a player has no use for are refused, not ignored: nobody is left believing it learns.
    const ignored = spawnBrain(['--player', 'gomokuai', '--library', join(FIXTURES, 'libraries', 'bad-shape.txt'), '--level', '99', '--learn']);
    expect(await ignored.exited).toBe(1);
    expect(ignored.stderr()).toMatch(/^gomoku brain: the gomokuai player takes no --library, --level, --learn: it has no library or levels and learns nothing/);
    const nowhere = spawnBrain(['--learn']);
    expect(await nowhere.exited).toBe(1);
    expect(nowhere.stderr()).toMatch(/^gomoku brain: --learn needs --library FILE: what the player learns is written there/);
    const tss = spawnBrain(['--player', 'tss', '--learn']);
    expect(await tss.exited).toBe(1);
    expect(tss.stderr()).toMatch(/^gomoku brain: the tss player takes no --learn: it reads no library and learns nothing/);
  });
});

/** A brain at level 1 learning into a fresh library file, started on 15×15; `learned` reads the file. */
async function learningBrain() {
  const dir = mkdtempSync(join(tmpdir(), 'gomoku-brain-'));
  // Removed when the test ends, whatever the brain left there (its games folder too).
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'learned.txt');
  const brain = spawnBrain(['--player', 'elcock', '--library', file, '--learn', '--level', '1']);
  brain.send('START 15');
  expect(await brain.next()).toBe('OK');
  return { brain, learned: () => readFileSync(file, 'utf8') };
}

describe('gomoku brain --learn', () => {
  it('analyses a game it lost and appends what it learned to its library file', async () => {
    const { brain, learned } = await learningBrain();
    // The opponent (field 2) has two open threes, on rows y=3 and y=11; the brain can stop one.
    brain.send('BOARD');
    for (const s of ['3,3,2', '4,3,2', '5,3,2', '3,11,2', '4,11,2', '5,11,2', '12,1,1', '12,13,1', '13,7,1', '0,14,1', '14,0,1', '10,7,1']) brain.send(s);
    brain.send('DONE');
    const first = (await brain.next())!;
    expect(first).toMatch(/^\d+,\d+$/);
    // Make an open four on the row it did not touch, then five at whichever end it leaves.
    const row = Number(first.split(',')[1]) === 3 ? 11 : 3;
    brain.send(`TURN 6,${row}`);
    const block = (await brain.next())!;
    expect([`2,${row}`, `7,${row}`]).toContain(block);
    brain.send(`TURN ${block === `2,${row}` ? 7 : 2},${row}`);
    brain.send('END');
    expect(await brain.exited).toBe(0);
    const text = learned();
    expect(text).toMatch(/# learned from elcock-1-\d{8}T\d{6}Z-\d+-1, move \d+, \d{4}-\d{2}-\d{2}\n\(1\) 2:4'/);
  });

  it('analyses a game it won with a five and remembers its own winning line', async () => {
    const { brain, learned } = await learningBrain();
    // The brain (field 1) has an open four on row 3, its last stone at 6,3; it completes the five.
    brain.send('BOARD');
    for (const s of ['12,1,2', '3,3,1', '12,13,2', '4,3,1', '13,7,2', '5,3,1', '0,14,2', '6,3,1']) brain.send(s);
    brain.send('DONE');
    expect(['2,3', '7,3']).toContain(await brain.next());
    brain.send('END');
    expect(await brain.exited).toBe(0);
    const text = learned();
    expect(text).toMatch(/# learned from elcock-1-\d{8}T\d{6}Z-\d+-1, move 7, \d{4}-\d{2}-\d{2}\n\(1\) 2:4'/);
  });
});
