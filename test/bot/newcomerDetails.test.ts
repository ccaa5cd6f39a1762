// The smaller rough edges of issue 27, each as a newcomer met it: the picture's caption after
// a resignation, /move in the wrong channel, the terminal game's Markdown, its point list and
// its goodbye, and autocomplete for a column far from the stones.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GameService } from '../../src/bot/service.ts';
import { suggestions } from '../../src/bot/movePoints.ts';
import type { Seat } from '../../src/bot/store.ts';
import { resignedView } from '../../src/bot/views.ts';
import { describeBotProblem, discordFrontend, terminalFrontend } from '../../src/bot/words.ts';
import type { CliIO } from '../../src/bot/io.ts';
import { plain, runPlay } from '../../src/bot/terminal.ts';
import { Game } from '../../src/rules/game.ts';
import { parsePoint } from '../../src/rules/point.ts';
import { expectOk } from '../../src/rules/result.ts';
import { collectingLog, fileStorage, manualClock, tempDir } from './support.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function service() {
  const { log } = collectingLog();
  const { storage, remove } = await fileStorage('details', log);
  cleanups.push(remove);
  const s = new GameService({ store: storage, seed: 5, now: manualClock().now, log });
  cleanups.push(() => s.idle());
  return s;
}

const pt = (text: string) => expectOk(parsePoint(15, text));

describe('a resignation', () => {
  it("is what the picture's caption says, not whose turn it would be", async () => {
    const s = await service();
    const seat: Seat = { guildId: 'g', channelId: 'c', userId: 'alice' };
    expect((await s.challenge(seat, { size: 15 })).ok).toBe(true);
    const moved = await s.move(seat, 'h8');
    expect(moved.ok).toBe(true);
    const resigned = await s.resign(seat);
    if (!resigned.ok) throw new Error(resigned.problem.code);
    expect(resignedView(resigned.value, discordFrontend).images[0].description).toBe('15×15 board after move 2: black resigned');
  });
});

describe('a command in the wrong channel', () => {
  it('says where the member’s game is', async () => {
    const s = await service();
    const here: Seat = { guildId: 'g', channelId: 'general', userId: 'alice' };
    expect((await s.challenge({ ...here, channelId: 'games' })).ok).toBe(true);
    // Bob's game, and Alice's finished one in a third channel, are not hers to play.
    expect((await s.challenge({ ...here, userId: 'bob', channelId: 'lobby' })).ok).toBe(true);
    expect((await s.challenge({ ...here, channelId: 'old' })).ok).toBe(true);
    expect((await s.resign({ ...here, channelId: 'old' })).ok).toBe(true);
    const moved = await s.move(here, 'h8');
    expect(moved).toEqual({ ok: false, problem: { code: 'no-game', elsewhere: ['games'] } });
    if (moved.ok) return;
    expect(describeBotProblem(moved.problem, discordFrontend)).toBe('You have no game in this channel: yours is in <#games>. Play there with /move, or start one here with /challenge.');
    expect((await s.challenge({ ...here, channelId: 'arena' })).ok).toBe(true);
    const board = await s.board(here);
    expect(board.ok ? undefined : describeBotProblem(board.problem, discordFrontend)).toBe('You have no game in this channel: yours are in <#arena> and <#games>. Play there with /move, or start one here with /challenge.');
    // With no game anywhere, the words are as before.
    expect(await s.hint({ ...here, userId: 'carol' })).toEqual({ ok: false, problem: { code: 'no-game' } });
    expect(describeBotProblem({ code: 'no-game' }, discordFrontend)).toBe('You have no game in this channel. Start one with /challenge.');
  });
});

describe('autocomplete', () => {
  it('offers the vacant points of a column typed far from the stones, nearest the last move first', () => {
    const game = Game.create(15);
    for (const m of ['h8', 'i9', 'j10', 'a14']) game.play(pt(m));
    // Column a is near the stones only round a14: those first, then the rest of the column.
    expect(suggestions(game, 'a')).toEqual(['a13', 'a15', 'a12', 'a11', 'a10', 'a9', 'a8', 'a7', 'a6', 'a5', 'a4', 'a3', 'a2', 'a1']);
    const far = Game.create(15);
    for (const m of ['h8', 'i9']) far.play(pt(m));
    expect(suggestions(far, 'b')).toEqual(['b9', 'b8', 'b10', 'b7', 'b11', 'b6', 'b12', 'b5', 'b13', 'b4', 'b14', 'b3', 'b15', 'b2', 'b1']);
    expect(suggestions(far, 'B')).toHaveLength(15);
    // A whole vacant point is offered alone, as before; a taken one leaves the rest of its prefix.
    expect(suggestions(far, 'b1')).toEqual(['b1']);
    // Near the stones first (h6-h11 but the taken h8), by distance from i9, then the rest.
    expect(suggestions(far, 'h')).toEqual(['h9', 'h10', 'h7', 'h11', 'h6', 'h12', 'h5', 'h13', 'h4', 'h14', 'h3', 'h15', 'h2', 'h1']);
    // Off the board, or not a column at all: nothing.
    expect(suggestions(far, 'p')).toEqual([]);
    expect(suggestions(far, '7')).toEqual([]);
  });
});

describe('the terminal game', () => {
  it('prints inline code in quotes and small print indented, not Markdown', () => {
    expect(plain(describeBotProblem({ code: 'no-game' }, terminalFrontend))).toBe('You have no game here. Start one with "challenge".');
    expect(plain("I answer **j8**. I now have two open threes.\n-# In the paper's terms: plays node 1 of `(1, 1) 3:3', 3'`, five in 3.")).toBe(
      "I answer j8. I now have two open threes.\n  In the paper's terms: plays node 1 of \"(1, 1) 3:3', 3'\", five in 3.",
    );
  });

  it('lists points nearest the bot’s last move, and says the game is kept only while it is being played', async () => {
    const { dir, remove } = await tempDir('details-play');
    cleanups.push(remove);
    let out = '';
    const io: CliIO = { out: (t) => void (out += `${t}\n`), err: (t) => void (out += `ERR ${t}\n`), readFile: (p) => readFileSync(p, 'utf8') };
    const env = { DATA_DIR: join(dir, 'data'), GOMOKU_SEED: '3' };
    async function* lines(script: string[]) {
      yield* script;
    }
    expect(await runPlay({ io, lines: lines(['challenge 15 1', 'h8', 'move', 'quit']), env, outDir: join(dir, 'out') })).toBe(0);
    const reply = /I answer ([a-o]\d+)\./.exec(out)?.[1];
    const listed = /nearest my last move first: (.+)$/m.exec(out)?.[1].split(' ') ?? [];
    expect(reply).toBeDefined();
    // The first points listed touch the bot's answer, not the member's h8.
    const at = (name: string) => expectOk(parsePoint(15, name));
    const ring = (p: number, q: number) => Math.max(Math.abs((p % 15) - (q % 15)), Math.abs(Math.floor(p / 15) - Math.floor(q / 15)));
    expect(listed.length).toBeGreaterThan(0);
    expect(ring(at(listed[0]), at(reply!))).toBe(1);
    expect(listed.slice(0, 8).every((n) => ring(at(n), at(reply!)) === 1)).toBe(true);
    expect(out).not.toContain('`');
    expect(out.trimEnd().endsWith('Bye. Your game is kept: "npm start" again to play on.')).toBe(true);

    out = '';
    expect(await runPlay({ io, lines: lines(['resign', 'quit']), env, outDir: join(dir, 'out') })).toBe(0);
    expect(out).toContain('You resigned');
    expect(out.trimEnd().endsWith('Bye.')).toBe(true);
    expect(out).not.toContain('kept');
  });

  it('names a setting it cannot use in one line, opening nothing, as `npm start` with a token does', async () => {
    const { dir, remove } = await tempDir('details-settings');
    cleanups.push(remove);
    for (const [env, message] of [
      [{ GAME_IDLE_HOURS: 'abc' }, 'gomoku play: GAME_IDLE_HOURS must be a positive number of hours, not "abc"'],
      [{ REFLECT_EVERY: 'abc' }, 'gomoku play: REFLECT_EVERY must be a whole number of games (0: never), not "abc"'],
      [{ LOG_LEVEL: 'verbose' }, 'gomoku play: LOG_LEVEL must be error, warn, info, debug, not "verbose"'],
    ] as const) {
      let out = '';
      let err = '';
      const io: CliIO = { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`), readFile: (p) => readFileSync(p, 'utf8') };
      async function* lines() {
        yield 'challenge';
      }
      const data = join(dir, 'data');
      expect(await runPlay({ io, lines: lines(), env: { ...env, DATA_DIR: data }, outDir: join(dir, 'out') })).toBe(2);
      expect(err).toBe(`${message}\n`);
      expect(out).toBe('');
      expect(existsSync(data)).toBe(false);
    }
  });
});
