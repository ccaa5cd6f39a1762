// The game service on the embedded file store: games, errors that change nothing, moves one
// at a time, learning from a loss (with provenance, examples and counters), idle expiry,
// memory reset, unreadable records, and storage outages (commands refused, learned subgoals
// retried until they land).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { botCodecs, gameKey, subgoalKey, TOMBSTONE_MS, type BotSchema, type StoredGame } from '../../src/bot/records.ts';
import type { BotResult } from '../../src/bot/problems.ts';
import { GameService, LIBRARY_PAGE_SIZE } from '../../src/bot/service.ts';
import { suggestions } from '../../src/bot/movePoints.ts';
import type { Moved } from '../../src/bot/gameViews.ts';
import type { Seat } from '../../src/bot/store.ts';
import { movedView } from '../../src/bot/views.ts';
import { discordFrontend } from '../../src/bot/words.ts';
import { Game } from '../../src/rules/game.ts';
import { parseDescription } from '../../src/notation/descriptionNotation.ts';
import { makePoint, parsePoint } from '../../src/rules/point.ts';
import { recognise } from '../../src/recognition/recognise.ts';
import { Board } from '../../src/rules/board.ts';
import { compileCached } from '../../src/learning/library.ts';
import { expectOk } from '../../src/rules/result.ts';
import { Memory, openFileBackend, RetryingWriter, type Storage } from '../../src/storage/index.ts';
import { collectingLog, faultyBackend, fileStorage, loseAGame, manualClock, tempDir } from './support.ts';

const GUILD = 'guild-1';
const OTHER_GUILD = 'guild-2';
const ALICE: Seat = { guildId: GUILD, channelId: 'chan-1', userId: 'alice' };
const BOB: Seat = { guildId: GUILD, channelId: 'chan-1', userId: 'bob' };
/** A service seed whose first 15×15 level-1 game the hinting member wins quickly (loseAGame copes if not). */
const LOSING_SEED = 3;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(options: { seed?: number; idleMs?: number } = {}) {
  const { log, lines } = collectingLog();
  const { storage, remove } = await fileStorage('service', log);
  cleanups.push(remove);
  const clock = manualClock();
  const service = new GameService({ store: storage, seed: options.seed ?? LOSING_SEED, now: clock.now, log, ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}) });
  return { service, storage, clock, lines };
}

const pt = (size: number, text: string) => expectOk(parsePoint(size, text));

describe('challenges', () => {
  it('starts a 19×19 game with the challenger black at level 3 by default, one per member per channel', async () => {
    const { service, storage } = await setup();
    const first = await service.challenge(ALICE);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.value.stored).toMatchObject({ size: 19, human: 'black', level: 3, moves: [], channelId: 'chan-1', userId: 'alice' });
    expect(first.value.opening).toBeUndefined();
    expect(await storage.guild(GUILD).games.get(gameKey('chan-1', 'alice'))).toEqual(first.value.stored);

    const again = await service.challenge(ALICE, { size: 15 });
    expect(again).toEqual({ ok: false, problem: { code: 'game-exists', size: 19, human: 'black', moves: 0 } });
    // Another member in the channel, and the same member in another channel, may play.
    expect((await service.challenge(BOB)).ok).toBe(true);
    expect((await service.challenge({ ...ALICE, channelId: 'chan-2' })).ok).toBe(true);
  });

  it('opens at the centre when the bot plays black, and draws random colours from its seed', async () => {
    const { service } = await setup();
    const white = await service.challenge(ALICE, { size: 15, colour: 'white', level: 2 });
    if (!white.ok) throw new Error(white.problem.code);
    expect(white.value.opening?.reason.kind).toBe('opening');
    expect(white.value.stored.moves).toEqual([pt(15, 'h8')]);
    expect(white.value.game.turn).toBe('white');

    const colours = async (seed: number) => {
      const s = (await setup({ seed })).service;
      const out: string[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await s.challenge({ ...ALICE, channelId: `c${i}` }, { size: 15, colour: 'random' });
        if (r.ok) out.push(r.value.stored.human);
      }
      return out;
    };
    const a = await colours(11);
    expect(await colours(11)).toEqual(a);
    expect(new Set(a)).toEqual(new Set(['black', 'white']));
  });
});

describe('moves', () => {
  it('refuses bad input with a problem and changes nothing', async () => {
    const { service, storage } = await setup();
    expect(await service.move(ALICE, 'h8')).toEqual({ ok: false, problem: { code: 'no-game' } });
    await service.challenge(ALICE, { size: 15, level: 1 });
    const first = await service.move(ALICE, 'h8');
    if (!first.ok) throw new Error(first.problem.code);
    const before = await storage.guild(GUILD).games.get(gameKey('chan-1', 'alice'));

    expect(await service.move(ALICE, 'zz')).toEqual({ ok: false, problem: { code: 'bad-point', text: 'zz', size: 15 } });
    expect(await service.move(ALICE, ' p3 ')).toEqual({ ok: false, problem: { code: 'point-off-board', text: 'p3', size: 15 } });
    expect(await service.move(ALICE, 'a16')).toEqual({ ok: false, problem: { code: 'point-off-board', text: 'a16', size: 15 } });
    expect(await service.move(ALICE, 'H8')).toEqual({ ok: false, problem: { code: 'occupied', point: 'h8' } });
    const botPoint = makePoint(15, first.value.reply!.point);
    expect(await service.move(ALICE, botPoint)).toEqual({ ok: false, problem: { code: 'occupied', point: botPoint } });
    expect(await storage.guild(GUILD).games.get(gameKey('chan-1', 'alice'))).toEqual(before);
  });

  it('refuses a move when the stored game has the bot to move (it was stopped while thinking)', async () => {
    const { service, storage } = await setup();
    const stored: StoredGame = { id: 'g', channelId: 'chan-1', userId: 'alice', size: 15, human: 'white', level: 1, seed: 1, moves: [], startedAt: 0, updatedAt: Date.UTC(2025, 5, 1, 12), recognised: [], played: [] };
    await storage.guild(GUILD).games.put(gameKey('chan-1', 'alice'), stored);
    expect(await service.move(ALICE, 'h8')).toEqual({ ok: false, problem: { code: 'not-your-turn' } });
    expect(await service.hint(ALICE)).toEqual({ ok: false, problem: { code: 'not-your-turn' } });
  });

  it('plays moves of one game one at a time: of two sent at once, one is played and the other told the game moved on', async () => {
    const { service, storage } = await setup();
    await service.challenge(ALICE, { size: 15, level: 1 });
    const [a, b] = await Promise.all([service.move(ALICE, 'h8'), service.move(ALICE, 'i9')]);
    expect(a.ok).toBe(true);
    expect(b).toEqual({ ok: false, problem: { code: 'game-moved-on' } });
    const stored = await storage.guild(GUILD).games.get(gameKey('chan-1', 'alice'));
    expect(stored?.moves).toHaveLength(2);
    expect(stored?.moves[0]).toBe(pt(15, 'h8'));
    // Other members' games are not held up, and the next move of the same game is fine.
    await service.challenge(BOB, { size: 15 });
    const [c, d] = await Promise.all([service.move(ALICE, 'j10'), service.move(BOB, 'h8')]);
    expect([c.ok, d.ok]).toEqual([true, true]);
  });

  it('plays the same game from the same seed, so a restart in the middle changes nothing', async () => {
    const moves = async (restartAt: number) => {
      const { storage, clock, lines } = await setup();
      void lines;
      let service = new GameService({ store: storage, seed: 5, now: clock.now });
      await service.challenge(ALICE, { size: 15, level: 2 });
      for (const [i, m] of ['h8', 'h9', 'g7', 'j7', 'k6'].entries()) {
        if (i === restartAt) service = new GameService({ store: storage, seed: 999, now: clock.now });
        const r = await service.move(ALICE, m);
        if (!r.ok) return r.problem.code;
      }
      return (await storage.guild(GUILD).games.get(gameKey('chan-1', 'alice')))?.moves.map((p) => makePoint(15, p)).join(' ');
    };
    const straight = await moves(-1);
    expect(await moves(2)).toEqual(straight);
  });

  it('suggests vacant points near the stones, nearest the last move first, filtered by what was typed', async () => {
    const game = Game.create(15);
    expect(suggestions(game, '')).toContain('h8');
    for (const m of ['h8', 'i9', 'j10']) game.play(pt(15, m));
    const all = suggestions(game, '');
    expect(all).toHaveLength(25);
    expect(all).not.toContain('h8');
    expect(all.slice(0, 4).sort()).toEqual(['i10', 'j11', 'j9', 'k10'].sort());
    expect(suggestions(game, 'J1')).toEqual(expect.arrayContaining(['j11', 'j12']));
    expect(suggestions(game, 'j1').every((n) => n.startsWith('j1'))).toBe(true);
    // A point typed in full is offered even far from the stones; a taken one is not.
    expect(suggestions(game, 'a1')).toEqual(['a1']);
    expect(suggestions(game, 'h8')).toEqual([]);
  });
});

describe('the look-ahead in a game against the bot', () => {
  it('plays a forced line from the subgoal the server taught it, says so, and counts the subgoal as played', async () => {
    const { service, storage, clock } = await setup();
    for (const [i, text] of ["(1) 2:4'", "(1, 1) 3:3', 3'"].entries()) {
      const subgoal = expectOk(compileCached(expectOk(parseDescription(text))));
      await storage.guild(GUILD).library.put(subgoalKey(subgoal.text), { subgoal, provenance: { game: `g${i}`, move: 9, date: '2025-01-01T00:00:00.000Z' } });
    }
    // test/fixtures/player/double-three.txt with the bot black: after the member's n14, j8 makes two open threes.
    const moves = ['h8', 'b2', 'i8', 'n2', 'j6', 'b14', 'j7'].map((m) => pt(15, m));
    const stored: StoredGame = { id: 'dt', channelId: 'chan-1', userId: 'alice', size: 15, human: 'white', level: 5, seed: 1, moves, startedAt: clock.now(), updatedAt: clock.now(), recognised: [], played: [] };
    await storage.guild(GUILD).games.put(gameKey('chan-1', 'alice'), stored);
    const moved = await service.move(ALICE, 'n14');
    if (!moved.ok) throw new Error(moved.problem.code);
    expect(moved.value.reply?.reason.kind).toBe('force');
    expect(makePoint(15, moved.value.reply!.point)).toBe('j8');
    expect(movedView(moved.value, discordFrontend).text).toContain(
      "I answer **j8**. I now have two open threes, at h8–j8 and j6–j8: you can block only one of them. I can force a five in 3 moves from here.\n-# In the paper's terms: plays node 1 of `(1, 1) 3:3', 3'`, five in 3.",
    );
    expect(moved.value.stored.played).toContain("(1, 1) 3:3', 3'");
  });
});

describe('six in a row', () => {
  const played = (r: BotResult<Moved>): Moved => {
    if (!r.ok) throw new Error(r.problem.code);
    return r.value;
  };

  /** A hand-built 15×15 game: black (the member) has c3 d3 e3 and g3 h3, white's stones are far apart. */
  async function beforeTheGap(extraBlack: readonly string[] = [], extraWhite: readonly string[] = []) {
    const { service, storage, clock } = await setup();
    const black = ['c3', 'd3', 'e3', 'g3', 'h3', ...extraBlack];
    const white = ['a15', 'c13', 'e15', 'o1', 'm15', ...extraWhite];
    const moves = black.flatMap((b, i) => [pt(15, b), pt(15, white[i])]);
    const stored: StoredGame = { id: 'six', channelId: 'chan-1', userId: 'alice', size: 15, human: 'black', level: 1, seed: 1, moves, startedAt: clock.now(), updatedAt: clock.now(), recognised: [], played: [] };
    await storage.guild(GUILD).games.put(gameKey('chan-1', 'alice'), stored);
    return service;
  }

  it('does not win: the move is told as an overline and the game goes on', async () => {
    const service = await beforeTheGap();
    const moved = played(await service.move(ALICE, 'f3'));
    expect(moved.overline?.stones.map((p) => makePoint(15, p))).toEqual(['c3', 'd3', 'e3', 'f3', 'g3', 'h3']);
    expect(moved.game.isOver).toBe(false);
    expect(moved.stored.finished).toBeUndefined();
    expect(moved.reply).toBeDefined();
    const text = movedView(moved, discordFrontend).text;
    expect(text).toContain('That makes six in a row (c3–h3) — only exactly five wins, so the game goes on.');
    expect(text).not.toMatch(/You win/);
  });

  it('is said as seven too, and not at all for an ordinary move', async () => {
    const service = await beforeTheGap(['i3'], ['a1']);
    const seven = played(await service.move(ALICE, 'f3'));
    expect(movedView(seven, discordFrontend).text).toContain('That makes seven in a row (c3–i3)');
    const quiet = await beforeTheGap();
    const plain = played(await quiet.move(ALICE, 'h10'));
    expect(plain.overline).toBeUndefined();
    expect(movedView(plain, discordFrontend).text).not.toMatch(/in a row/);
  });

  it('a move that makes six one way and five another wins by the five, and says the six does not count', async () => {
    // f4 f5 f6 f7 above the gap: f3 completes f3–f7 upwards as well as c3–h3 across.
    const service = await beforeTheGap(['f4', 'f5', 'f6', 'f7'], ['a1', 'a3', 'a5', 'a7']);
    const moved = played(await service.move(ALICE, 'f3'));
    expect(moved.stored.finished?.outcome).toBe('bot-lost');
    expect(moved.overline?.stones).toHaveLength(6);
    expect(movedView(moved, discordFrontend).text).toContain('That also makes six in a row (c3–h3), which does not count — only exactly five wins; your five does.');
  });
});

describe('learning from a lost game', () => {
  it('analyses the loss and stores each new subgoal under its own key with provenance, an example and counters', async () => {
    const { service, storage, clock } = await setup();
    const last = await loseAGame(service, ALICE);
    expect(last.stored.finished).toMatchObject({ outcome: 'bot-lost', ending: 'five' });
    expect(last.reply).toBeUndefined();
    const fresh = last.learned.filter((l) => l.isNew);
    expect(fresh.length).toBeGreaterThan(0);
    expect(last.stored.finished?.learned).toEqual(fresh.map((l) => l.text));

    const memory = storage.guild(GUILD);
    const library = await memory.library.list();
    expect(library.map((e) => e.value.subgoal.text).sort()).toEqual(fresh.map((l) => l.text).sort());
    for (const l of fresh) {
      const entry = await memory.library.get(subgoalKey(l.text));
      expect(entry?.provenance).toEqual({ game: last.stored.id, move: l.move, date: new Date(clock.now()).toISOString() });
      // The example is a realisation of the subgoal on a board holding just its stones.
      const e = entry!.example!;
      const board = Board.empty(e.size);
      e.black.forEach((p) => board.play(p, 1));
      e.white.forEach((p) => board.play(p, 2));
      const found = recognise(board, [entry!.subgoal])[e.colour];
      expect(found.some((r) => r.nodes.join() === e.nodes.join())).toBe(true);
      expect(e.black.length + e.white.length).toBeLessThan(last.game.moves.length);
    }
    const record = await memory.records.get(last.stored.id);
    expect(record).toMatchObject({ outcome: 'bot-lost', ending: 'five', size: 15, human: 'black', level: 1, learned: fresh.map((l) => l.text) });
    expect(record?.moves).toEqual(last.game.moves);
    // The rule of five was recognised in this game (the member's five was one move away).
    expect((await memory.stats.get(subgoalKey('(1) 1:5')))?.recognised).toBeGreaterThanOrEqual(1);

    // The ended game stays for /board; moves and hints are refused; a new challenge replaces it.
    expect((await service.board(ALICE)).ok).toBe(true);
    expect(await service.move(ALICE, 'a1')).toEqual({ ok: false, problem: { code: 'game-over', outcome: 'bot-lost' } });
    expect(await service.hint(ALICE)).toEqual({ ok: false, problem: { code: 'game-over', outcome: 'bot-lost' } });
    expect(await service.resign(ALICE)).toEqual({ ok: false, problem: { code: 'game-over', outcome: 'bot-lost' } });
    expect((await service.challenge(ALICE, { size: 15 })).ok).toBe(true);

    // The next game is played with the larger library, and counts what it recognises.
    const page = await service.library(GUILD);
    if (!page.ok) throw new Error(page.problem.code);
    expect(page.value.learned).toBe(fresh.length);
    expect(page.value.entries[0]).toMatchObject({ groupStart: true });
    expect(page.value.entries[0].stats.recognised).toBeGreaterThanOrEqual(1);
    expect(page.value.entries[0].subgoal.text).toBe('(1) 1:5');
    const stats = await service.stats(GUILD);
    expect(stats).toMatchObject({ ok: true, value: { botLost: 1, learned: fresh.length } });
  });

  it('counts the subgoals the bot plays from, and the games it then wins; resignation teaches nothing', async () => {
    const { service, storage } = await setup();
    await service.challenge(ALICE, { size: 15, level: 5 });
    // The member plays far from the bot, along the bottom edge; the bot makes its five.
    const edge = ['a1', 'c1', 'e1', 'g1', 'i1', 'k1', 'm1', 'o1', 'a3', 'c3', 'e3', 'g3', 'i3', 'k3', 'm3', 'o3'];
    let last;
    for (let i = 0; i < 40; i++) {
      const board = await service.board(ALICE);
      if (!board.ok) throw new Error(board.problem.code);
      const free = edge.find((m) => board.value.game.board.isEmpty(pt(15, m)));
      last = await service.move(ALICE, free!);
      if (!last.ok || last.value.stored.finished !== undefined) break;
    }
    if (last === undefined || !last.ok) throw new Error('no game');
    expect(last.value.stored.finished).toMatchObject({ outcome: 'bot-won', ending: 'five' });
    expect(last.value.reply?.reason.kind).toBe('five');
    const rule = await storage.guild(GUILD).stats.get(subgoalKey('(1) 1:5'));
    expect(rule?.played).toBeGreaterThanOrEqual(1);
    expect(rule?.won).toBe(1);
    expect(await storage.guild(GUILD).library.list()).toEqual([]);

    await service.challenge(ALICE, { size: 15 });
    await service.move(ALICE, 'h8');
    const resigned = await service.resign(ALICE);
    expect(resigned.ok && resigned.value.stored.finished).toMatchObject({ outcome: 'bot-won', ending: 'resigned', learned: [] });
    // A resignation is counted apart, not as the bot's win (issue 27).
    expect(await service.stats(GUILD)).toMatchObject({ ok: true, value: { games: 2, botWon: 1, botLost: 0, resigned: 1 } });
  });
});

describe('idle games', () => {
  it('expire after the idle time: recorded as abandoned, and the member is told', async () => {
    const { service, storage, clock } = await setup({ idleMs: 60_000 });
    await service.challenge(ALICE, { size: 15 });
    await service.move(ALICE, 'h8');
    clock.advance(59_000);
    expect((await service.board(ALICE)).ok).toBe(true);
    clock.advance(2_000);
    const expiredAt = clock.now();
    expect(await service.move(ALICE, 'h9')).toEqual({ ok: false, problem: { code: 'game-expired', idleMs: 60_000, at: expiredAt } });
    // The game is gone, but its tombstone keeps saying so, with when.
    clock.advance(5_000);
    expect(await service.board(ALICE)).toEqual({ ok: false, problem: { code: 'game-expired', idleMs: 60_000, at: expiredAt } });
    expect(await storage.guild(GUILD).games.list()).toEqual([]);
    const records = await storage.guild(GUILD).records.list();
    expect(records.map((r) => r.value)).toMatchObject([{ outcome: 'abandoned', ending: 'expired', moves: [pt(15, 'h8'), expect.any(Number)] }]);
  });

  it('are swept on a timer across servers; a game being played is left alone', async () => {
    const { service, storage, clock } = await setup({ idleMs: 60_000 });
    await service.challenge(ALICE, { size: 15 });
    await service.challenge({ ...BOB, guildId: OTHER_GUILD }, { size: 15 });
    clock.advance(30_000);
    await service.move(ALICE, 'h8');
    clock.advance(40_000);
    expect(await service.expireIdle([GUILD, OTHER_GUILD])).toBe(1);
    expect(await storage.guild(OTHER_GUILD).games.list()).toEqual([]);
    expect(await storage.guild(GUILD).games.list()).toHaveLength(1);
    // A challenge over an expired game replaces it and says so.
    clock.advance(61_000);
    const again = await service.challenge(ALICE, { size: 15 });
    expect(again.ok && again.value.replacedExpired).toBe(true);
  });

  it('swept by the timer, leave a tombstone: the next /move, /board, /resign and /hint say the game expired and when', async () => {
    const { service, storage, clock } = await setup({ idleMs: 60_000 });
    const game = await service.challenge(ALICE, { size: 15 });
    await service.move(ALICE, 'h8');
    clock.advance(61_000);
    const sweptAt = clock.now();
    expect(await service.expireIdle([GUILD])).toBe(1);
    expect(await storage.guild(GUILD).games.list()).toEqual([]);
    expect(await storage.guild(GUILD).tombstones.get(gameKey('chan-1', 'alice'))).toEqual({ game: game.ok ? game.value.stored.id : '', at: sweptAt, idleMs: 60_000 });

    // Hours later, every command on the game says what happened, and nothing changes.
    clock.advance(5 * 3_600_000);
    const expired = { ok: false, problem: { code: 'game-expired', idleMs: 60_000, at: sweptAt } };
    expect(await service.move(ALICE, 'h9')).toEqual(expired);
    expect(await service.board(ALICE)).toEqual(expired);
    expect(await service.resign(ALICE)).toEqual(expired);
    expect(await service.hint(ALICE)).toEqual(expired);
    // Only Alice's game here: Bob, and Alice in another channel, have none.
    expect(await service.board(BOB)).toEqual({ ok: false, problem: { code: 'no-game' } });
    expect(await service.board({ ...ALICE, channelId: 'chan-2' })).toEqual({ ok: false, problem: { code: 'no-game' } });
    expect((await storage.guild(GUILD).records.list()).map((r) => r.value.outcome)).toEqual(['abandoned']);

    // A new challenge clears it; once that game is over and put away, there is nothing to say.
    expect((await service.challenge(ALICE, { size: 15 })).ok).toBe(true);
    expect(await storage.guild(GUILD).tombstones.list()).toEqual([]);
    expect((await service.resign(ALICE)).ok).toBe(true);
    expect((await service.board(ALICE)).ok).toBe(true);
  });

  it('keep their tombstone a week: after it the member is told only that there is no game, and the sweep removes it', async () => {
    const { service, storage, clock } = await setup({ idleMs: 60_000 });
    await service.challenge(ALICE, { size: 15 });
    await service.challenge(BOB, { size: 15 });
    clock.advance(61_000);
    expect(await service.expireIdle([GUILD])).toBe(2);
    clock.advance(TOMBSTONE_MS - 1_000);
    expect(await service.board(ALICE)).toMatchObject({ ok: false, problem: { code: 'game-expired' } });
    clock.advance(2_000);
    expect(await service.board(ALICE)).toEqual({ ok: false, problem: { code: 'no-game' } });
    expect((await storage.guild(GUILD).tombstones.list()).map((e) => e.key)).toEqual([gameKey('chan-1', 'bob')]);
    expect(await service.expireIdle([GUILD])).toBe(0);
    expect(await storage.guild(GUILD).tombstones.list()).toEqual([]);
    expect(await service.board(BOB)).toEqual({ ok: false, problem: { code: 'no-game' } });
  });
});

describe("the server's memory", () => {
  it('is reset by admins only, forgetting library, counters and finished games of this server and no other', async () => {
    const { service, storage } = await setup();
    await loseAGame(service, ALICE);
    await service.challenge(ALICE, { size: 15 });
    // The other server learned a subgoal of its own and finished a game.
    const other = storage.guild(OTHER_GUILD);
    const subgoal = expectOk(compileCached(expectOk(parseDescription("(1) 2:4'"))));
    await other.library.put(subgoalKey(subgoal.text), { subgoal, provenance: { game: 'elsewhere', move: 7, date: '2025-01-01T00:00:00.000Z' } });
    await other.stats.put(subgoalKey(subgoal.text), { text: subgoal.text, recognised: 2, played: 1, won: 0 });
    await service.challenge({ ...ALICE, guildId: OTHER_GUILD }, { size: 15 });
    await service.resign({ ...ALICE, guildId: OTHER_GUILD });
    const before = (await storage.guild(OTHER_GUILD).library.list()).length;
    expect(before).toBeGreaterThan(0);

    expect(await service.resetMemory(GUILD, false)).toEqual({ ok: false, problem: { code: 'not-admin' } });
    expect((await storage.guild(GUILD).library.list()).length).toBeGreaterThan(0);
    const reset = await service.resetMemory(GUILD, true);
    expect(reset.ok && reset.value.forgotten).toBeGreaterThan(0);
    const g = storage.guild(GUILD);
    expect([await g.library.list(), await g.stats.list(), await g.records.list()]).toEqual([[], [], []]);
    expect(await g.games.list()).toHaveLength(1); // the game being played is kept
    expect(await other.library.list()).toHaveLength(before);
    expect(await other.stats.list()).toHaveLength(1);
    expect(await other.records.list()).toHaveLength(1);
    expect(await service.library(GUILD)).toMatchObject({ ok: true, value: { learned: 0, pages: 1 } });
  });

  it("pages the library in the order of the paper's listing (src/notation/listing.ts)", async () => {
    const { service, storage } = await setup();
    const texts = ["(1) 2:4'", '(1, 1) 2:4, 4', "(1, 1) 3:3', 3'", "(1, 1) 3:4, 3'", '(1, 2-1) 4, 3-3:4', "(1, 2-1, 2) 4:3', 2'-4:2', 3'", "(1, 2-1, 2) 4:4, 2'-4:2', 4"];
    for (const [i, text] of texts.entries()) {
      const subgoal = expectOk(compileCached(expectOk(parseDescription(text))));
      await storage.guild(GUILD).library.put(subgoalKey(subgoal.text), { subgoal, provenance: { game: `g${i}`, move: 9, date: new Date(Date.UTC(2025, 0, 1 + i)).toISOString() } });
    }
    const one = await service.library(GUILD, 1);
    const two = await service.library(GUILD, 2);
    if (!one.ok || !two.ok) throw new Error('pages');
    expect(one.value).toMatchObject({ page: 1, pages: 2, learned: 7 });
    expect(one.value.entries).toHaveLength(LIBRARY_PAGE_SIZE);
    const order = [...one.value.entries, ...two.value.entries].map((e) => [e.subgoal.text, e.groupStart]);
    expect(order).toEqual([
      ['(1) 1:5', true],
      ["(1) 2:4'", false],
      ['(1, 1) 2:4, 4', true],
      ["(1, 1) 3:4, 3'", false],
      ["(1, 1) 3:3', 3'", false],
      ['(1, 2-1) 4, 3-3:4', true],
      ["(1, 2-1, 2) 4:4, 2'-4:2', 4", true],
      ["(1, 2-1, 2) 4:3', 2'-4:2', 3'", false],
    ]);
    expect(await service.library(GUILD, 3)).toEqual({ ok: false, problem: { code: 'no-such-page', page: 3, pages: 2 } });
  });

  it('skips an unreadable record with a log line and goes on', async () => {
    const { service, storage, lines } = await setup();
    await storage.memory.putEnvelope(GUILD, 'games', gameKey('chan-1', 'alice'), { v: 1, data: { id: 'x', moves: ['h8', 'h8'] } });
    await storage.memory.putEnvelope(GUILD, 'library', 'sg-junk', { v: 1, data: { text: '(1) 9:9', provenance: {} } });
    await storage.memory.putEnvelope(GUILD, 'records', 'old', { v: 99, data: {} });
    expect(await service.board(ALICE)).toEqual({ ok: false, problem: { code: 'no-game' } });
    expect((await service.challenge(ALICE, { size: 15 })).ok).toBe(true);
    expect(await service.library(GUILD)).toMatchObject({ ok: true, value: { learned: 0 } });
    expect(await service.stats(GUILD)).toMatchObject({ ok: true, value: { games: 0 } });
    const skipped = lines.filter((l) => l.message === 'skipped an unreadable record').map((l) => (l.detail as { code: string }).code);
    expect(skipped).toEqual(expect.arrayContaining(['decode-failed', 'wrong-version']));
  });

  it('codecs refuse what they cannot trust: illegal move orders, bad descriptions, wrong shapes', () => {
    const game: StoredGame = { id: 'g', channelId: 'c', userId: 'u', size: 15, human: 'black', level: 1, seed: 1, moves: [pt(15, 'h8')], startedAt: 1, updatedAt: 2, recognised: [], played: [] };
    const encoded = botCodecs.games.encode(game) as Record<string, unknown>;
    expect(encoded.moves).toEqual(['h8']);
    expect(botCodecs.games.decode(encoded)).toEqual({ ok: true, value: game });
    expect(botCodecs.games.decode({ ...encoded, moves: ['h8', 'h8'] })).toMatchObject({ ok: false, error: { code: 'decode-failed' } });
    expect(botCodecs.games.decode({ ...encoded, size: 17 })).toMatchObject({ ok: false });
    expect(botCodecs.library.decode({ text: '(1, 1) 5', provenance: { game: 'g', move: 1, date: '2025-01-01' } })).toMatchObject({ ok: false });
    expect(botCodecs.stats.decode({ text: 'x', recognised: -1, played: 0, won: 0 })).toMatchObject({ ok: false });
  });
});

describe('storage out of reach', () => {
  it('answers every command with storage-unavailable and stays up', async () => {
    const { log } = collectingLog();
    const { dir, remove } = await tempDir('dead-redis');
    cleanups.push(remove);
    const storage = await openBotStorage({ REDIS_URL: 'redis://127.0.0.1:1', DATA_DIR: dir }, log, { connectWaitMs: 200, connectTimeoutMs: 200, opTimeoutMs: 300 });
    cleanups.push(() => storage.close());
    const service = new GameService({ store: storage, seed: 1, log });
    const down = { ok: false, problem: { code: 'storage-unavailable' } };
    expect(await service.challenge(ALICE)).toEqual(down);
    expect(await service.move(ALICE, 'h8')).toEqual(down);
    expect(await service.board(ALICE)).toEqual(down);
    expect(await service.library(GUILD)).toEqual(down);
    expect(await service.stats(GUILD)).toEqual(down);
    expect(await service.resetMemory(GUILD, true)).toEqual(down);
    expect(await service.suggestPoints(ALICE, 'h')).toEqual([]);
    expect(await service.expireIdle([GUILD])).toBe(0);
  });

  it('retries the subgoals of an analysis that could not be saved until they land', async () => {
    const { log } = collectingLog();
    const { dir, remove } = await tempDir('flaky');
    cleanups.push(remove);
    const inner = await openFileBackend({ dir, namespace: 'flaky', durable: false });
    let libraryDown = false;
    // Storage that fails for learned subgoals only, while `libraryDown`.
    const backend = faultyBackend(inner, (key) => libraryDown && key.includes('::library::'));
    const memory = new Memory<BotSchema>(backend, botCodecs, log);
    const writer = await RetryingWriter.open(memory, { pendingFile: join(dir, 'pending.json'), log, baseDelayMs: 20, maxDelayMs: 40, durable: false });
    cleanups.push(async () => {
      await writer.close();
      await inner.close();
    });
    const store: Pick<Storage<BotSchema>, 'guild' | 'writer'> = { guild: (id) => memory.guild(id), writer };
    const service = new GameService({ store, seed: LOSING_SEED, log });

    libraryDown = true;
    const last = await loseAGame(service, ALICE);
    const fresh = last.learned.filter((l) => l.isNew).map((l) => l.text);
    expect(fresh.length).toBeGreaterThan(0);
    expect(writer.pending.map((w) => w.collection)).toEqual(fresh.map(() => 'library'));
    expect(await memory.guild(GUILD).library.list()).toEqual([]);
    // The game itself and its record were saved: the member saw the result.
    expect(last.stored.finished?.outcome).toBe('bot-lost');

    libraryDown = false;
    for (let i = 0; i < 100 && writer.pending.length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(writer.pending).toEqual([]);
    expect((await memory.guild(GUILD).library.list()).map((e) => e.value.subgoal.text).sort()).toEqual([...fresh].sort());
  });
});
