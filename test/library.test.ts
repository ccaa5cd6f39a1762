import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalString } from '../src/notation/canonical.ts';
import { parseDescription } from '../src/notation/descriptionNotation.ts';
import { Library } from '../src/learning/library.ts';
import { passOrder } from '../src/learning/reflection.ts';
import { makeLibraryFile, parseLibraryFile } from '../src/notation/libraryFile.ts';
import { expectOk } from '../src/rules/result.ts';
import { runCli } from './support/cli.ts';
import { fixture, FIXTURES } from './support/fixtures.ts';

describe('library files', () => {
  it('read one description a line, skipping comments and blank lines, with line numbers', () => {
    const entries = expectOk(parseLibraryFile(fixture('libraries/paper.txt')));
    expect(entries.map((e) => e.line)).toEqual([3, 4, 5, 7, 8]);
    expect(entries.map((e) => canonicalString(e.description))).toEqual([
      "(1) 2:4'",
      '(1, 1) 2:4, 4',
      "(1, 1) 3:3', 3'",
      '(1, 2-1) 4, 3-3:4',
      "(1, 2-1, 2) 4:3', 2'-4:2', 3'",
    ]);
  });

  it('name the line and column of a bad description', () => {
    const r = parseLibraryFile(fixture('libraries/bad-shape.txt'));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('shape-mismatch');
      expect(r.error.line).toBe(3);
      expect(r.error.column).toBeGreaterThanOrEqual(4);
    }
  });

  it('round-trip: parse(print(library)) gives the same canonical descriptions', () => {
    const entries = expectOk(parseLibraryFile(fixture('libraries/paper.txt')));
    const again = expectOk(parseLibraryFile(makeLibraryFile(entries, ['a header'])));
    expect(again.map((e) => canonicalString(e.description))).toEqual(entries.map((e) => canonicalString(e.description)));
  });

  it('always hold the rule of five, once', () => {
    const named = expectOk(Library.fromFile('(1) 1:5\n(1) 2:4\'\n'));
    expect(named.entries.map((e) => e.subgoal.text)).toEqual(['(1) 1:5', "(1) 2:4'"]);
    expect(expectOk(Library.fromFile('# nothing learned yet\n')).entries.map((e) => e.subgoal.text)).toEqual(['(1) 1:5']);
    // And the file written back does not name it: it is built in.
    expect(named.toFile()).toBe("(1) 2:4'\n");
  });
});

describe('a walk back\'s lessons', () => {
  it('are added with provenance at the winner\'s move, and only the new ones are counted', () => {
    const library = Library.empty();
    const lessons = ["(1) 2:4'", "(1, 1) 3:3', 3'"].map((t, i) => ({ subgoal: expectOk(parseDescription(t)), moveIndex: 10 - 2 * i }));
    expect(library.addLessons(lessons, 'g1', '2026-11-28')).toBe(2);
    expect(library.get("(1, 1) 3:3', 3'")?.provenance).toEqual({ game: 'g1', move: 9, date: '2026-11-28' });
    // Learned again from another game: nothing new, and the first provenance stays.
    expect(library.addLessons(lessons.slice(0, 1), 'g2', '2026-11-29')).toBe(0);
    expect(library.get("(1) 2:4'")?.provenance?.game).toBe('g1');
    expect(library.size).toBe(3);
  });
});

describe('gomoku threats / stream / canon', () => {
  const board = (f: string) => join(FIXTURES, 'recognition', f);
  const lib = join(FIXTURES, 'libraries', 'paper.txt');

  it('threats --json lists realisations per colour in the documented shape', async () => {
    const r = await runCli(['threats', '--board', board('fig2-open-three-diagonal.txt'), '--library', lib, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      black: [
        { subgoal: "(1) 2:4'", nodes: ['b2'], implicit: ['a1', 'f6'], moves: 2 },
        { subgoal: "(1) 2:4'", nodes: ['f6'], implicit: ['b2', 'g7'], moves: 2 },
      ],
      white: [],
    });
  });

  it('threats always knows (1) 1:5, even with no library file', async () => {
    const r = await runCli(['threats', '--board', board('fig1-four.txt'), '--json']);
    const j = JSON.parse(r.out);
    expect(j.black.map((x: { nodes: string[] }) => x.nodes[0]).sort()).toEqual(['a5', 'f5']);
    expect(j.white).toEqual([{ subgoal: '(1) 1:5', nodes: ['g2'], implicit: [], moves: 1 }]);
  });

  it('threats prints a readable list, and names the bad library line', async () => {
    const r = await runCli(['threats', '--board', board('fig6-four-then-double-four.txt'), '--library', lib]);
    expect(r.out).toContain('(1, 2-1) 4, 3-3:4  nodes a5 c5  implicit b5 f5 a6  five in 3');
    const bad = await runCli(['threats', '--board', board('fig6-four-then-double-four.txt'), '--library', join(FIXTURES, 'libraries', 'bad-shape.txt')]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/bad-shape\.txt, line 3, column \d+: .*\(shape-mismatch\)/);
    expect((await runCli(['threats'])).code).toBe(2);
  });

  it('stream prints the control stream of the canonical form', async () => {
    const r = await runCli(['stream', '(2-1, 2) 3:4-3, 4']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('control stream v1: 2 nodes, 2 lines, radius 9, entry node 1');
    expect(r.out).toContain('node 2 comment 3: L2 4');
    expect(r.out).toMatch(/C {2}node 2 {2}L2 {2}from 1/);
    const bad = await runCli(['stream', '(1, 2-1) 4, 9-3:4']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('^');
    const entry = await runCli(['stream', '--entry', 'abc', '(2-1, 2) 3:4-3, 4']);
    expect(entry.code).toBe(2);
    expect(entry.err.trim()).toBe('gomoku stream: --entry takes a node\'s label, a whole number such as 1 or 2, not "abc"');
    expect((await runCli(['stream', '--entry', '2', '(2-1, 2) 3:4-3, 4'])).out).toContain('entry node 2');
  });

  it('canon prints the canonical form and puts a caret under an error', async () => {
    const r = await runCli(['canon', "(2-1, 2) 3:4-3, 4"]);
    expect(r.out.trim()).toBe('(1, 2-1) 4, 3-3:4');
    const bad = await runCli(['canon', '(1, 1) 2:4, 4)']);
    expect(bad.code).toBe(1);
    const lines = bad.err.split('\n');
    expect(lines[0]).toBe('(1, 1) 2:4, 4)');
    expect(lines[1]).toBe(`${' '.repeat(13)}^`);
    // An escape character is named, not sent to the terminal, and the caret counts what is shown;
    // of input on several lines, the line with the fault is the one shown.
    const escape = await runCli(['canon', '(1) 1:5 \u001b[31mred']);
    expect(escape.err.split('\n').slice(0, 2)).toEqual(['(1) 1:5 \\u001b[31mred', `${' '.repeat(8)}^`]);
    const extra = await runCli(['library', 'extra']);
    expect([extra.code, extra.err.split('\n')[0]]).toEqual([2, 'gomoku library: unexpected argument "extra"']);
    const twoLines = await runCli(['canon', '(1)\n1:5 x']);
    expect(twoLines.err.split('\n').slice(0, 2)).toEqual(['1:5 x', `${' '.repeat(4)}^`]);
    // Well-formed but no subgoal: node 2 lies on no line of node 1's, so nothing could compile it.
    const apart = await runCli(['canon', '(1-2) 4-4']);
    expect(apart.code).toBe(1);
    expect(apart.err.trim()).toBe('gomoku canon: node 2 shares no line, directly or through other nodes, with node 1 (disconnected)');
  });
});

describe('the order a reflection pass walks old games in', () => {
  it('begins where the last pass stopped, goes on to the newest, then round from the oldest', () => {
    const games = ['a', 'b', 'c', 'd'].map((id) => ({ id }));
    const ids = (resumeAt: string | undefined) => passOrder(games, resumeAt).map((g) => g.id);
    expect(ids('c')).toEqual(['c', 'd', 'a', 'b']);
    expect(ids('a')).toEqual(['a', 'b', 'c', 'd']);
    // A pass that finished, or a game no longer kept: from the oldest.
    expect(ids(undefined)).toEqual(['a', 'b', 'c', 'd']);
    expect(ids('gone')).toEqual(['a', 'b', 'c', 'd']);
    expect(passOrder([], 'a')).toEqual([]);
  });
});
