// Bounded inputs (issue 26): a description of too many nodes is refused by the parser, at the
// node too many, before canonicalisation could take minutes; files are read to a bound;
// CR-only line ends are line ends; a library that cannot be written is a one-line error.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../src/bot/io.ts';
import { MAX_DESCRIPTION_NODES, parseDescription } from '../src/notation/descriptionNotation.ts';
import { parseBoardText } from '../src/rules/boardText.ts';
import { parseGame } from '../src/rules/gameRecord.ts';
import { Library } from '../src/learning/library.ts';
import { runCli } from './support/cli.ts';
import { FIXTURES, fixture } from './support/fixtures.ts';

const folders: string[] = [];
afterEach(async () => {
  for (const f of folders.splice(0)) await rm(f, { recursive: true, force: true });
});
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gomoku-bounds-'));
  folders.push(dir);
  return dir;
}

/** k isolated nodes, the first with a comment: every labelling of the others is an automorphism. */
function isolatedNodes(k: number): string {
  const nodes = Array.from({ length: k }, (_, i) => String(i + 1));
  return `(${nodes.join('-')}) ${['4:2', ...nodes.slice(1).map(() => '2')].join('-')}`;
}

describe('descriptions of too many nodes', () => {
  it('are refused by the parser at the first node too many', () => {
    expect(MAX_DESCRIPTION_NODES).toBe(8);
    const text = isolatedNodes(25);
    const started = performance.now();
    const parsed = parseDescription(text);
    expect(performance.now() - started).toBeLessThan(100);
    expect(parsed).toMatchObject({ ok: false, error: { code: 'too-many-nodes', index: text.indexOf('-9-') + 1 } });
    if (!parsed.ok) expect(parsed.error.message).toBe('a description may have at most 8 nodes; node 9 starts here');
    // Eight is allowed, and canonicalises in well under a second even when all are alike.
    expect(parseDescription(isolatedNodes(8)).ok).toBe(true);
  });

  it('of 12 000 nodes, too, at once and without overflowing the stack', () => {
    const text = isolatedNodes(12_000);
    const started = performance.now();
    expect(parseDescription(text)).toMatchObject({ ok: false, error: { code: 'too-many-nodes' } });
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('answer gomoku canon at once with a caret under node 9', async () => {
    const text = isolatedNodes(25);
    const started = performance.now();
    const r = await runCli(['canon', text]);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.code).toBe(1);
    const [line, caret, message] = r.err.split('\n');
    expect(line).toBe(text);
    expect(caret.indexOf('^')).toBe(text.indexOf('-9-') + 1);
    expect(message).toBe('gomoku canon: a description may have at most 8 nodes; node 9 starts here (too-many-nodes)');
  });

  it('in a library file are reported with their line and column', async () => {
    const path = join(FIXTURES, 'libraries', 'too-many-nodes.txt');
    const lib = Library.fromFile(fixture('libraries/too-many-nodes.txt'));
    expect(lib).toMatchObject({ ok: false, error: { code: 'too-many-nodes', line: 3 } });
    const r = await runCli(['library', '--library', path]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/too-many-nodes\.txt, line 3, column 18: a description may have at most 8 nodes; node 9 starts here \(too-many-nodes\)/);
  });
});

describe('files read to a bound', () => {
  it('refuse a game record over 64 KiB with a line saying so, the file not read past the bound', async () => {
    const dir = await folder();
    const big = join(dir, 'big-game.txt');
    // A real record, padded with comment lines past the bound.
    await writeFile(big, `${fixture('games/edge-diagonal-five.txt')}${'# a long comment line to make the file large\n'.repeat(2000)}`);
    const r = await runCli(['show', '--game', big]);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(`gomoku show: ${big} is too large for a game record: it holds more than 64 KiB`);
    // An endless file: reading stops at the bound.
    const endless = await runCli(['show', '--board', '/dev/zero']);
    expect(endless.code).toBe(1);
    expect(endless.err.trim()).toBe('gomoku show: /dev/zero is too large for a board: it holds more than 64 KiB');
    const threats = await runCli(['threats', '--board', '/dev/zero']);
    expect(threats.err.trim()).toBe('gomoku threats: /dev/zero is too large for a board: it holds more than 64 KiB');
    const analyse = await runCli(['analyse', '--game', '/dev/zero']);
    expect(analyse.err.trim()).toBe('gomoku analyse: /dev/zero is too large for a game record: it holds more than 64 KiB');
  });

  it('read a file of exactly the bound', async () => {
    const dir = await folder();
    const path = join(dir, 'exact.txt');
    const text = fixture('games/edge-diagonal-five.txt');
    await writeFile(path, text + '#'.repeat(INPUT_LIMITS['game record'] - Buffer.byteLength(text)));
    const r = await runCli(['show', '--game', path]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('9 moves; black wins with five at a1 b2 c3 d4 e5');
  });
});

describe('CR-only line ends', () => {
  it('are line ends in game records', async () => {
    const text = fixture('games/cr-only.txt');
    expect(text).not.toContain('\n');
    const game = parseGame(text);
    expect(game.ok && game.value.moves.length).toBe(9);
    const r = await runCli(['show', '--game', join(FIXTURES, 'games', 'cr-only.txt')]);
    expect(r.out).toContain('9 moves; black wins with five at a1 b2 c3 d4 e5');
  });

  it('are line ends in boards', async () => {
    const text = fixture('boards/cr-only-15.txt');
    expect(text).not.toContain('\n');
    const board = parseBoardText(text);
    expect(board.ok && board.value.size).toBe(15);
    const r = await runCli(['show', '--board', join(FIXTURES, 'boards', 'cr-only-15.txt')]);
    expect(r.out).toContain('white has five at h4 h5 h6 h7 h8');
  });

  it('are line ends in library files, errors counting lines by them', () => {
    const lib = Library.fromFile(fixture('libraries/too-many-nodes.txt').replace(/\n/g, '\r'));
    expect(lib).toMatchObject({ ok: false, error: { code: 'too-many-nodes', line: 3 } });
  });
});

describe('gomoku analyse --write', () => {
  it('to a library it cannot write says so in one line and exits 1', async () => {
    const dir = await folder();
    const path = join(dir, 'no-such-folder', 'library.txt');
    const r = await runCli(['analyse', '--game', join(FIXTURES, 'games', 'learning', 'four-then-double-four.txt'), '--library', path, '--write']);
    expect(r.code).toBe(1);
    // The analysis is printed; the failure is one line, no stack.
    expect(r.out).toContain('(1, 2-1) 4, 3-3:4');
    // It is saved as brain --learn saves, under the file's lock, which cannot be made there.
    expect(r.err.trim().split('\n')).toEqual([`gomoku analyse: cannot make the lock file ${path}.lock: ENOENT: no such file or directory; the file is as it was: nothing learned was saved`]);
  });
});
