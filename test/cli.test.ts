import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.ts';
import { BIN } from './support/brainProcess.ts';
import { FIXTURES } from './support/fixtures.ts';

const game = (f: string) => join(FIXTURES, 'games', f);
const board = (f: string) => join(FIXTURES, 'boards', f);

describe('gomoku show', () => {
  it('prints the final board of a game and who won', async () => {
    const r = await runCli(['show', '--game', game('edge-diagonal-five.txt')]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(16);
    expect(lines[10]).toBe('o . . . x . . . . . . . . . .'); // row 5: white a5, black e5
    expect(lines[13]).toBe('o x . . . . . . . . . . . . .'); // row 2: white a2, black b2
    expect(lines[14]).toBe('x . . . . . . . . . . . . . .'); // row 1: black a1
    expect(lines[15]).toBe('9 moves; black wins with five at a1 b2 c3 d4 e5');
  });

  it('prints a board text and says who has a five', async () => {
    const r = await runCli(['show', '--board', board('white-five-15.txt')]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('white has five at h4 h5 h6 h7 h8');
    const mid = await runCli(['show', '--board', board('midgame-19.txt')]);
    expect(mid.out.trim().split('\n').at(-1)).toBe('no five on this board');
  });

  it('stops quietly when its reader closes the pipe early, as with `| head`', async () => {
    const child = spawn(process.execPath, [BIN, 'show', '--game', game('edge-diagonal-five.txt')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => void (err += t));
    // The reader goes before the command has written anything.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
  });

  it('names the file, line and column of bad input and exits 1', async () => {
    const r = await runCli(['show', '--game', game('bad-occupied.txt')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad-occupied\.txt, line 3, column 1: move 3 \(j10\): j10 is already taken/);
    const b = await runCli(['show', '--board', board('bad-cell.txt')]);
    expect(b.code).toBe(1);
    expect(b.err).toMatch(/line 3, column 5: "z" is not a board point/);
  });

  it('explains usage errors and has --help on each command', async () => {
    expect((await runCli(['show'])).code).toBe(2);
    expect((await runCli(['show', '--game', 'a', '--board', 'b'])).code).toBe(2);
    expect((await runCli(['show', '--colour', 'x'])).err).toContain('unknown option --colour');
    const help = await runCli(['show', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('usage: gomoku show');
    expect((await runCli(['--help'])).out).toContain('show');
    expect((await runCli(['frobnicate'])).code).toBe(2);
    expect((await runCli(['show', '--game', '/nonexistent/file.txt'])).err).toContain('cannot read');
  });

  it('runs as the installed executable with no build step', () => {
    const out = execFileSync('node', [join(FIXTURES, '..', '..', 'bin', 'gomoku.mjs'), 'show', '--game', game('draw-5x5.txt')], {
      encoding: 'utf8',
    });
    expect(out).toContain('25 moves; draw: the board is full');
  });
});
