import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { processChannel } from '../src/cli/match.ts';
import type { MovePlayer } from '../src/play/engine.ts';
import { describeStatus, Game } from '../src/rules/game.ts';
import { gameFromStones, GomocupSession } from '../src/gomocup/protocol.ts';
import { parseGame, parseGameRecord } from '../src/rules/gameRecord.ts';
import {
  generateOpenings,
  hasOpenThreeOrFour,
  makeOpenings,
  parseOpenings,
  playMatch,
  sessionChannel,
  type EngineSpec,
  type MatchReport,
} from '../src/gomocup/match.ts';
import { colOf, makePoint, parsePoint, rowOf } from '../src/rules/point.ts';
import { expectOk } from '../src/rules/result.ts';
import { runCli } from './support/cli.ts';
import { FIXTURES } from './support/fixtures.ts';

const ROOT = join(FIXTURES, '..', '..');
const ENGINE = `node ${join(ROOT, 'bin', 'gomokuai-engine.mjs')}`;
const BAD_ENGINE = `node ${join(FIXTURES, 'gomocup', 'bad-engine.mjs')}`;
const OPENINGS = join(FIXTURES, 'gomocup', 'openings-15.txt');

const out = mkdtempSync(join(tmpdir(), 'gomoku-match-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function position(size: number, black: string, white: string): Game {
  const at = (s: string) => (s === '' ? [] : s.split(' ').map((t) => expectOk(parsePoint(size, t))));
  return expectOk(gameFromStones(size, at(black), at(white)));
}

function builtin(player: () => MovePlayer = createGomokuaiPlayer, name = 'builtin:gomokuai'): EngineSpec {
  return { name, connect: () => sessionChannel(new GomocupSession({ player: player() })) };
}

describe('balanced openings', () => {
  it('finds open threes and fours by its simple check', () => {
    const table: [string, string, boolean][] = [
      ['h8 i8 j8', 'a1 a3', true], // .XXX. with room both sides
      ['h8 i8 k8', 'a1 a3', true], // .XX.X.
      ['h8 h9 h10', 'h7 a1', false], // OXXX.. is a closed three
      ['h8 i8 j8 k8', 'g8 a1 a3', true], // OXXXX. is a four
      ['h8 i9', 'a1', false],
      ['a1 b2 c3', 'h8 h9', false], // at the edge: no empty point below a1
    ];
    for (const [black, white, expected] of table) {
      expect(hasOpenThreeOrFour(position(15, black, white), 'black'), `${black} / ${white}`).toBe(expected);
      expect(hasOpenThreeOrFour(position(15, black, white), 'white'), `${black} / ${white}`).toBe(false);
    }
  });

  it('generates openings from a seed: 3 to 5 stones near the centre, no open three, all different', () => {
    for (const size of [15, 19]) {
      const openings = generateOpenings(42, 50, size);
      expect(openings).toHaveLength(50);
      expect(generateOpenings(42, 50, size)).toEqual(openings);
      expect(generateOpenings(43, 50, size)).not.toEqual(openings);
      expect(new Set(openings.map((o) => o.join(' '))).size).toBe(50);
      const centre = (size - 1) / 2;
      for (const o of openings) {
        expect(o.length).toBeGreaterThanOrEqual(3);
        expect(o.length).toBeLessThanOrEqual(5);
        for (const p of o) {
          expect(Math.abs(colOf(size, p) - centre)).toBeLessThanOrEqual(3);
          expect(Math.abs(rowOf(size, p) - centre)).toBeLessThanOrEqual(3);
        }
        const game = Game.create(size);
        for (const p of o) expectOk(game.play(p));
        expect(hasOpenThreeOrFour(game, 'black') || hasOpenThreeOrFour(game, 'white')).toBe(false);
      }
    }
    expect(generateOpenings(1, 5, 5).length).toBe(5);
  });

  it('reads and writes openings files, round trip', () => {
    const text = readFileSync(OPENINGS, 'utf8');
    const openings = expectOk(parseOpenings(text, 15));
    expect(openings.map((o) => o.map((p) => makePoint(15, p)).join(' '))).toEqual(['h8 i9 g7', 'h8 h9 j8 g10']);
    expect(expectOk(parseOpenings(makeOpenings(openings, 15), 15))).toEqual(openings);
  });

  it('points at the bad move of a bad openings file', () => {
    const bad: [string, string, number, number][] = [
      ['h8 i9\nh8 h8', 'occupied', 2, 4],
      ['# c\n  h8 9z', 'bad-point', 2, 6],
      ['h8 z9', 'point-off-board', 1, 4],
      ['h8 p1', 'point-off-board', 1, 4],
      ['a1 a2 b1 b2 c1 c2 d1 d2 e1', 'opening-over', 1, 25],
      ['# nothing\n\n', 'no-openings', 0, 0],
    ];
    for (const [text, code, line, column] of bad) {
      const r = parseOpenings(text, 15);
      expect(r.ok).toBe(false);
      if (!r.ok) expect([r.error.code, r.error.line ?? 0, r.error.column ?? 0], text).toEqual([code, line, column]);
    }
  });
});

/** Checks a report against itself: standings add up to the games. */
function checkStandings(report: MatchReport): void {
  for (const s of report.standings) {
    expect(s.wins + s.losses + s.draws).toBe(s.games);
    const mine = report.outcomes.filter((o) => o.black === s.name || o.white === s.name);
    const won = mine.filter((o) => o.winner !== undefined && o[o.winner] === s.name).length;
    expect(s.wins).toBe(won);
  }
}

describe('gomoku match', () => {
  it('plays a short match, prints the table and writes records that replay to the results', async () => {
    const dir = join(out, 'short');
    const r = await runCli(['match', '--black', 'builtin:gomokuai', '--white', ENGINE, '--games', '2', '--size', '15', '--openings', OPENINGS, '--out', dir]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const table = readFileSync(join(dir, 'results.md'), 'utf8');
    expect(r.out).toContain(table);
    expect(table).toContain('| engine | games | wins | losses | draws | score % | mean length | mean ms/move | max ms/move | forfeits |');
    const rows = new Map(
      table
        .split('\n')
        .filter((l) => l.startsWith('| builtin') || l.startsWith('| node'))
        .map((l) => l.split('|').map((c) => c.trim()))
        .filter((cells) => cells.length === 12)
        .map((cells) => [cells[1], cells.slice(2, 6).map(Number)]),
    );
    expect([...rows.keys()]).toEqual(['builtin:gomokuai', ENGINE]);

    // Tally the records and compare with the table.
    const tally = new Map([...rows.keys()].map((k) => [k, [0, 0, 0, 0]]));
    for (const [n, black, white] of [
      [1, 'builtin:gomokuai', ENGINE],
      [2, ENGINE, 'builtin:gomokuai'],
    ] as const) {
      const text = readFileSync(join(dir, `game-00${n}.txt`), 'utf8');
      const record = expectOk(parseGameRecord(text));
      const game = expectOk(parseGame(text));
      expect(record.comments.slice(0, 4)).toEqual([`game ${n} of 2`, `black: ${black}`, `white: ${white}`, 'opening: h8 i9 g7 (3 stones)']);
      expect(record.moves.slice(0, 3).map((p) => makePoint(15, p))).toEqual(['h8', 'i9', 'g7']);
      // Both engines play to the end; the record's own replay gives the reported result.
      expect(record.comments[4]).toBe(`result: ${describeStatus(game)}`);
      expect(game.isOver).toBe(true);
      const status = game.status;
      for (const [name, colour] of [
        [black, 'black'],
        [white, 'white'],
      ] as const) {
        const t = tally.get(name)!;
        t[0]++;
        if (status.kind === 'draw') t[3]++;
        else if (status.kind === 'won' && status.winner === colour) t[1]++;
        else t[2]++;
      }
    }
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(tally));
    expect(readFileSync(join(dir, 'openings.txt'), 'utf8')).toBe('h8 i9 g7\nh8 h9 j8 g10\n');
  });

  it('swaps colours in pairs over the same opening, in process', async () => {
    const report = await playMatch(builtin(), builtin(), { size: 15, games: 4, openings: generateOpenings(5, 2, 15), timeoutMs: 5000 });
    const [a, b] = ['builtin:gomokuai #1', 'builtin:gomokuai #2'];
    expect(report.outcomes.map((o) => [o.black, o.white])).toEqual([
      [a, b],
      [b, a],
      [a, b],
      [b, a],
    ]);
    expect(report.outcomes[0].opening).toEqual(report.outcomes[1].opening);
    expect(report.outcomes[2].opening).toEqual(report.outcomes[3].opening);
    expect(report.outcomes[0].opening).not.toEqual(report.outcomes[2].opening);
    checkStandings(report);
    for (const o of report.outcomes) expect(o.how).not.toBe('forfeit');
  });

  it('explains its usage', async () => {
    expect((await runCli(['match', '--black', 'x'])).code).toBe(2);
    expect((await runCli(['match', '--black', 'builtin:nobody', '--white', 'x'])).err).toContain('no player called "nobody"');
    expect((await runCli(['match', '--black', 'x', '--white', 'y', '--size', '30'])).code).toBe(2);
    const bad = await runCli(['match', '--black', 'x', '--white', 'y', '--openings', join(FIXTURES, 'games', 'bad-token.txt')]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('bad-token.txt, line');
    expect((await runCli(['match', '--help'])).out).toContain('usage: gomoku match');
  });
});

describe('forfeits', () => {
  const h8 = [expectOk(parsePoint(15, 'h8'))];
  const bad = (mode: string): EngineSpec => ({ name: `bad ${mode}`, connect: () => processChannel(`${BAD_ENGINE} ${mode}`) });

  it.each([
    ['occupied', 'illegal-move', /played 7,7 \(h8\), which is already taken/],
    ['offboard', 'illegal-move', /played 99,99, off the 15×15 board/],
    ['garbage', 'garbage', /answered "I resign, good game" instead of a move/],
    ['error', 'engine-error', /answered ERROR cannot think/],
    ['crash', 'crash', /the engine stopped: exited with code 3/],
    ['silent', 'timeout', /no answer within \d+ ms/],
    ['nostart', 'start-failed', /START 15: answered "ERROR will not play", not OK/],
  ])('an engine that answers %s loses by forfeit, and the match goes on', async (mode, code, message) => {
    const report = await playMatch(builtin(), bad(mode), { size: 15, games: 2, openings: [h8], timeoutMs: 300 });
    expect(report.outcomes).toHaveLength(2);
    for (const o of report.outcomes) {
      expect(o.how).toBe('forfeit');
      expect(o[o.winner!]).toBe('builtin:gomokuai');
      expect(o.forfeit?.code).toBe(code);
      expect(o.forfeit?.message).toMatch(message);
      // The forfeited move is not in the game: it stays as the opening left it, give or
      // take the winner's one reply.
      expect(o.game.moves.slice(0, 1)).toEqual(h8);
      expect(o.game.isOver).toBe(false);
    }
    const loser = report.standings.find((s) => s.name === `bad ${mode}`)!;
    expect([loser.losses, loser.forfeits, loser.wins]).toEqual([2, 2, 0]);
    checkStandings(report);
  });

  it('forfeits an in-process player that overruns its time', async () => {
    const slow = (): MovePlayer => ({
      name: 'slow',
      chooseMove: (game) => new Promise((resolve) => setTimeout(() => resolve(createGomokuaiPlayer().chooseMove(game) as number), 200)),
    });
    const report = await playMatch(builtin(slow, 'slow'), builtin(), { size: 15, games: 1, openings: [], timeoutMs: 50 });
    expect(report.outcomes[0].forfeit?.code).toBe('timeout');
    expect(report.outcomes[0].winner).toBe('white');
  });
});
