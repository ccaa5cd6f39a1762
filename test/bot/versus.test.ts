// Games between members, ratings and the shared pool through the service, on the embedded file
// store: invitations, a whole game from a fixture that teaches (the paper's Fig. 3 chain), watching
// off, several games in one channel, moves that cross, expiry as a loss on time, a restart in
// the middle, ratings after games against the bot and between members, and the pool between
// three servers.
import { afterEach, describe, expect, it } from 'vitest';
import { SETTINGS_KEY, versusKey } from '../../src/bot/communityRecords.ts';
import { poolToken } from '../../src/bot/pool.ts';
import { rateGame, newRating } from '../../src/bot/ratings.ts';
import { subgoalKey } from '../../src/bot/records.ts';
import { byProvenance } from '../../src/bot/libraryCache.ts';
import { GameService } from '../../src/bot/service.ts';
import type { Seat } from '../../src/bot/store.ts';
import { makeInvitationId, parseInvitationId, type Invitation, type VersusMoved } from '../../src/bot/versus.ts';
import { parseGameRecord } from '../../src/rules/gameRecord.ts';
import { makePoint } from '../../src/rules/point.ts';
import { expectOk } from '../../src/rules/result.ts';
import { SharedCollection } from '../../src/storage/index.ts';
import { poolCodec } from '../../src/bot/communityRecords.ts';
import { fixture } from '../support/fixtures.ts';
import { collectingLog, fileStorage, loseAGame, manualClock } from './support.ts';

const GUILD = 'guild-1';
const CHANNEL = 'chan-1';
const seat = (userId: string, guildId = GUILD, channelId = CHANNEL): Seat => ({ guildId, channelId, userId });
const ALICE = seat('alice');
const BOB = seat('bob');
const CAROL = seat('carol');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(options: { idleMs?: number } = {}) {
  const { log, lines } = collectingLog();
  const { storage, remove } = await fileStorage('versus', log);
  cleanups.push(remove);
  const clock = manualClock();
  const make = () => new GameService({ store: storage, seed: 3, now: clock.now, log, ...options });
  const service = make();
  cleanups.push(() => service.idle());
  return { service, storage, clock, lines, make };
}

/** The Fig. 3 chain: black makes a double open three at k10, an open four at k11 and five at k7 (move 13). */
const FIG3 = expectOk(parseGameRecord(fixture('games/learning/double-open-three.txt')));
const fig3Moves = FIG3.moves.map((p) => makePoint(FIG3.size, p));

async function startGame(service: GameService, from: Seat, to: Seat, options: { size?: 15 | 19; colour?: 'black' | 'white' } = {}) {
  const inv = expectOkResult(await service.versus.invite(from, to.userId, options));
  return expectOkResult(await service.versus.accept(to, inv));
}

function expectOkResult<T>(r: { ok: true; value: T } | { ok: false; problem: { code: string } }): T {
  if (!r.ok) throw new Error(`expected success, got ${r.problem.code}`);
  return r.value;
}

/** Plays the moves in turn, black being `black`; returns the last answer. */
async function play(service: GameService, black: Seat, white: Seat, moves: readonly string[], against = true): Promise<VersusMoved> {
  let last: VersusMoved | undefined;
  for (let i = 0; i < moves.length; i++) {
    const [who, other] = i % 2 === 0 ? [black, white] : [white, black];
    const r = expectOkResult(await service.versus.move(who, moves[i], against ? { kind: 'member', id: other.userId } : undefined));
    if (r.kind !== 'versus') throw new Error('not a game between members');
    last = r.moved;
  }
  if (last === undefined) throw new Error('no moves');
  return last;
}

describe('invitations', () => {
  it('travel in a button id and back, and refuse anything else', () => {
    const inv: Invitation = { channelId: CHANNEL, from: '230000000000000002', to: '230000000000000003', size: 15, fromColour: 'white', expiresAt: Date.UTC(2025, 5, 1, 12, 10) };
    const id = makeInvitationId('accept', inv);
    expect(id.length).toBeLessThanOrEqual(100);
    expect(parseInvitationId(id, CHANNEL)).toEqual({ action: 'accept', invitation: inv });
    expect(parseInvitationId(makeInvitationId('decline', inv), CHANNEL)?.action).toBe('decline');
    for (const bad of ['challenge:accept:a:a:15:b:1', 'challenge:accept:a:b:17:b:1', 'challenge:maybe:a:b:15:b:1', 'challenge:accept:a:b:15:x:1', 'memory:accept:a:b:15:b:1', 'challenge:accept:a:b:15:b']) {
      expect(parseInvitationId(bad, CHANNEL), bad).toBeUndefined();
    }
  });

  it('are accepted only by the member invited, expire, and can be declined by either member', async () => {
    const { service, storage, clock } = await setup();
    expect(await service.versus.invite(ALICE, 'alice')).toEqual({ ok: false, problem: { code: 'versus-self' } });
    const inv = expectOkResult(await service.versus.invite(ALICE, 'bob', { size: 15, colour: 'white' }));
    expect(inv).toMatchObject({ from: 'alice', to: 'bob', size: 15, fromColour: 'white', expiresAt: clock.now() + service.versus.invitationMs });
    expect(await service.versus.accept(CAROL, inv)).toEqual({ ok: false, problem: { code: 'not-your-invitation', to: 'bob' } });
    expect(service.versus.decline(CAROL, inv).ok).toBe(false);
    expect(service.versus.decline(ALICE, inv)).toEqual({ ok: true, value: { invitation: inv, by: 'alice' } });
    expect(await storage.guild(GUILD).versus.list()).toEqual([]);

    clock.advance(service.versus.invitationMs + 1);
    expect(await service.versus.accept(BOB, inv)).toEqual({ ok: false, problem: { code: 'invitation-expired', from: 'alice', to: 'bob' } });
    expect(await storage.guild(GUILD).versus.list()).toEqual([]);

    const fresh = expectOkResult(await service.versus.invite(ALICE, 'bob', { size: 15, colour: 'white' }));
    const started = expectOkResult(await service.versus.accept(BOB, fresh));
    expect(started.stored).toMatchObject({ black: 'bob', white: 'alice', size: 15, moves: [] });
    expect(await storage.guild(GUILD).versus.get(versusKey(CHANNEL, 'bob', 'alice'))).toEqual(started.stored);
    // One game per pair per channel, whoever asks.
    expect(await service.versus.invite(BOB, 'alice')).toEqual({ ok: false, problem: { code: 'versus-exists', opponent: 'alice' } });
    expect(await service.versus.accept(BOB, fresh)).toEqual({ ok: false, problem: { code: 'versus-exists', opponent: 'alice' } });
    expect((await service.versus.invite({ ...ALICE, channelId: 'chan-2' }, 'bob')).ok).toBe(true);
  });
});

describe('a game between members', () => {
  it('is refereed to a five, learned from with both players in the provenance, and rated', async () => {
    const { service, storage } = await setup();
    const started = await startGame(service, ALICE, BOB);
    // Only the member to move may move, on a vacant point of the board.
    expect(await service.versus.move(BOB, 'a1')).toEqual({ ok: false, problem: { code: 'versus-not-your-turn', opponent: 'alice' } });
    const last = await play(service, ALICE, BOB, fig3Moves, false);
    expect(last.stored.finished).toMatchObject({ result: 'black-won', ending: 'five' });
    expect(last.watching).toBe(true);
    expect(last.analysis).toEqual({ kind: 'analysed' });
    expect(last.learned.map((l) => [l.text, l.move, l.isNew])).toEqual([
      ["(1) 2:4'", 11, true],
      ["(1, 1) 3:3', 3'", 9, true],
    ]);
    const learned = (await storage.guild(GUILD).library.list()).map((e) => e.value);
    expect(learned).toHaveLength(2);
    for (const r of learned) {
      expect(r.provenance.game).toBe(started.stored.id);
      expect(r.origin).toEqual({ kind: 'watched', black: 'alice', white: 'bob' });
      expect(r.example).toBeDefined();
    }
    const record = await storage.guild(GUILD).versusRecords.get(started.stored.id);
    expect(record).toMatchObject({ black: 'alice', white: 'bob', moves: FIG3.moves, finished: { result: 'black-won', learned: ["(1) 2:4'", "(1, 1) 3:3', 3'"] } });
    // The winner gains what the loser loses (equal ratings, equal deviations).
    const expected = rateGame(newRating('alice', 0), newRating('bob', 0), 1);
    expect(last.rated?.changes.map((c) => [c.player, Math.round(c.after)])).toEqual([
      ['alice', Math.round(expected.a.rating)],
      ['bob', Math.round(expected.b.rating)],
    ]);
    expect((await storage.guild(GUILD).ratings.get('alice'))?.won).toBe(1);
    expect((await storage.guild(GUILD).ratings.get('bob'))?.lost).toBe(1);
    // The page of /library marks them as watched.
    const page = expectOkResult(await service.library(GUILD));
    expect(page.entries.filter((e) => e.origin?.kind === 'watched')).toHaveLength(2);
    // Over: the ended game still shows, and further moves are refused.
    expect(await service.versus.move(BOB, 'a1')).toMatchObject({ ok: false, problem: { code: 'versus-over', result: 'black-won' } });
    // Anyone can watch: Carol looks at Bob's game.
    const shown = expectOkResult(await service.versus.board({ ...CAROL, userId: 'bob' }));
    expect(shown.kind === 'versus' && shown.view.stored.id).toBe(started.stored.id);
  });

  it('learns nothing when watching is off, and still rates', async () => {
    const { service, storage } = await setup();
    expect(await service.pool.setWatch(GUILD, false, false)).toEqual({ ok: false, problem: { code: 'not-admin', what: 'memory' } });
    expect(expectOkResult(await service.pool.setWatch(GUILD, false, true))).toEqual({ watch: false, share: false });
    expect(await storage.guild(GUILD).settings.get(SETTINGS_KEY)).toEqual({ watch: false, share: false });
    await startGame(service, ALICE, BOB);
    const last = await play(service, ALICE, BOB, fig3Moves);
    expect(last).toMatchObject({ watching: false, learned: [] });
    expect(last.analysis).toBeUndefined();
    expect(last.stored.finished?.result).toBe('black-won');
    expect(await storage.guild(GUILD).library.list()).toEqual([]);
    expect(last.rated).toBeDefined();
  });

  it('keeps two games in one channel apart with against, and asks which without it', async () => {
    const { service } = await setup();
    await startGame(service, ALICE, BOB, { size: 15 });
    await startGame(service, CAROL, ALICE, { size: 15 });
    // Alice has two games: black against Bob, white against Carol.
    expect(await service.versus.move(ALICE, 'h8')).toEqual({ ok: false, problem: { code: 'several-games', opponents: ['bob', 'carol'], bot: false } });
    expect(await service.versus.move(ALICE, 'h8', { kind: 'member', id: 'carol' })).toEqual({ ok: false, problem: { code: 'versus-not-your-turn', opponent: 'carol' } });
    const one = expectOkResult(await service.versus.move(ALICE, 'h8', { kind: 'member', id: 'bob' }));
    // Bob and Carol each have one game, so they need not say.
    const two = expectOkResult(await service.versus.move(CAROL, 'g7'));
    const three = expectOkResult(await service.versus.move(BOB, 'i9'));
    if (one.kind !== 'versus' || two.kind !== 'versus' || three.kind !== 'versus') throw new Error('not games between members');
    expect(three.moved.stored.moves.map((p) => makePoint(15, p))).toEqual(['h8', 'i9']);
    expect(two.moved.stored.moves.map((p) => makePoint(15, p))).toEqual(['g7']);
    expect(await service.versus.board(ALICE)).toMatchObject({ ok: false, problem: { code: 'several-games' } });
    const board = expectOkResult(await service.versus.board(ALICE, { kind: 'member', id: 'carol' }));
    expect(board.kind === 'versus' && board.view.stored.black).toBe('carol');
    // A game against the bot joins them; `against` the bot picks it.
    expectOkResult(await service.challenge(ALICE, { size: 15 }));
    expect(await service.versus.move(ALICE, 'h8')).toEqual({ ok: false, problem: { code: 'several-games', opponents: ['bob', 'carol'], bot: true } });
    const botMove = expectOkResult(await service.versus.move(ALICE, 'h8', { kind: 'bot' }));
    expect(botMove.kind).toBe('bot');
  });

  it('refuses a move that arrived while another of the same game was being played', async () => {
    const { service } = await setup();
    await startGame(service, ALICE, BOB, { size: 15 });
    const first = service.versus.move(ALICE, 'h8');
    const crossing = service.versus.move(BOB, 'i9');
    const again = service.versus.move(ALICE, 'h9');
    expect((await first).ok).toBe(true);
    expect(await crossing).toEqual({ ok: false, problem: { code: 'versus-moved-on', opponent: 'alice' } });
    expect(await again).toEqual({ ok: false, problem: { code: 'game-moved-on' } });
    expect((await service.versus.move(BOB, 'i9')).ok).toBe(true);
  });

  it('expires idle as a loss on time for the side to move, and carries on after a restart', async () => {
    const { service, storage, clock, make } = await setup({ idleMs: 60_000 });
    const started = await startGame(service, ALICE, BOB, { size: 15 });
    await play(service, ALICE, BOB, ['h8', 'i9', 'h9']);
    // A restart: a new service on the same storage carries on.
    const after = make();
    cleanups.push(() => after.idle());
    const moved = expectOkResult(await after.versus.move(BOB, 'i10'));
    expect(moved.kind === 'versus' && moved.moved.stored.moves.length).toBe(4);
    clock.advance(60_001);
    expect(await after.expireIdle([GUILD])).toBe(1);
    const record = await storage.guild(GUILD).versusRecords.get(started.stored.id);
    expect(record?.finished).toMatchObject({ result: 'white-won', ending: 'expired', by: 'alice' });
    expect((await storage.guild(GUILD).ratings.get('alice'))?.lost).toBe(1);
    expect(await after.versus.move(ALICE, 'h10')).toMatchObject({ ok: false, problem: { code: 'game-expired' } });
    // A game that never began expires unrated.
    const second = await startGame(after, ALICE, BOB, { size: 15 });
    clock.advance(60_001);
    expect(await after.versus.board(ALICE)).toMatchObject({ ok: false, problem: { code: 'game-expired' } });
    expect((await storage.guild(GUILD).versusRecords.get(second.stored.id))?.finished?.result).toBe('abandoned');
    expect((await storage.guild(GUILD).ratings.get('alice'))?.lost).toBe(1);
  });

  it('resigns to the opponent, rated', async () => {
    const { service } = await setup();
    await startGame(service, ALICE, BOB, { size: 15 });
    const r = expectOkResult(await service.versus.resign(BOB));
    expect(r.kind === 'versus' && r.view.stored.finished).toMatchObject({ result: 'black-won', ending: 'resigned', by: 'bob' });
    expect(r.kind === 'versus' && r.view.rated?.changes.map((c) => c.player)).toEqual(['alice', 'bob']);
  });
});

describe('ratings', () => {
  it('count a game against the bot, once, with the bot\'s history', async () => {
    const { service, storage } = await setup();
    const lost = await loseAGame(service, ALICE);
    expect(lost.rated?.changes.map((c) => c.player)).toEqual(['alice', 'bot']);
    const bot = await storage.guild(GUILD).ratings.get('bot');
    const records = await storage.guild(GUILD).records.list();
    expect(bot?.lost).toBe(records.filter((r) => r.value.outcome === 'bot-lost').length);
    expect(bot?.history.length).toBe(records.length);
    expect(bot!.rating).toBeLessThan(1500);
    const standings = expectOkResult(await service.ratings.standings(GUILD));
    expect(standings.members.map((m) => m.player)).toEqual(['alice']);
    expect(standings.bot?.player).toBe('bot');
    // The library's growth for /stats: each stored subgoal's source, in the order learned.
    const learned = (await storage.guild(GUILD).library.list()).map((e) => e.value).sort(byProvenance);
    expect(learned.length).toBeGreaterThan(0);
    expect(standings.library).toEqual(learned.map((r) => r.origin?.kind ?? 'loss'));
    // /reset-memory: the bot starts again; the member keeps hers.
    expectOkResult(await service.resetMemory(GUILD, true));
    expect(await storage.guild(GUILD).ratings.get('bot')).toBeUndefined();
    expect(await storage.guild(GUILD).ratings.get('alice')).toBeDefined();
  });
});

describe('the shared pool', () => {
  it('crosses only descriptions between servers that opted in, and takes them back on reset', async () => {
    const { service, storage } = await setup();
    const [A, B, C] = ['guild-a', 'guild-b', 'guild-c'];
    // Each server learns from a watched game: A and C the Fig. 3 chain, B the Fig. 5 one.
    await startGame(service, seat('alice', A), seat('bob', A));
    await play(service, seat('alice', A), seat('bob', A), fig3Moves);
    await startGame(service, seat('carol', C), seat('dave', C));
    await play(service, seat('carol', C), seat('dave', C), fig3Moves);
    const fig5 = expectOk(parseGameRecord(fixture('games/learning/twin-threes.txt')));
    await startGame(service, seat('erin', B), seat('finn', B));
    await play(service, seat('erin', B), seat('finn', B), fig5.moves.map((p) => makePoint(fig5.size, p)));
    const libraryOf = async (g: string) => (await storage.guild(g).library.list()).map((e) => e.value.subgoal.text).sort();
    const cBefore = await storage.guild(C).library.list();

    const [learnedA, learnedB] = [await libraryOf(A), await libraryOf(B)];
    expect(learnedA).toEqual(["(1) 2:4'", "(1, 1) 3:3', 3'"]);
    expect(learnedB).toEqual(expect.arrayContaining(learnedA));
    const onlyB = learnedB.filter((t) => !learnedA.includes(t));
    expect(onlyB.length).toBeGreaterThan(0);

    expect(await service.pool.setShare(A, true, false)).toEqual({ ok: false, problem: { code: 'not-admin', what: 'memory' } });
    expect(expectOkResult(await service.pool.setShare(A, true, true))).toMatchObject({ changed: 2, complete: true });
    expect(expectOkResult(await service.pool.setShare(B, true, true))).toMatchObject({ changed: learnedB.length, complete: true });
    const pool = new SharedCollection(storage.backend, 'pool', poolCodec, collectingLog().log);
    const entries = (await pool.list()).map((e) => e.value);
    // Only texts and tokens: nothing names a member, a game or a server.
    expect(JSON.stringify(entries)).not.toMatch(/alice|bob|erin|finn|guild-|"game"|"moves"/);
    const counts = Object.fromEntries(entries.map((e) => [e.text, e.contributors.length]));
    expect(counts).toEqual(Object.fromEntries(learnedB.map((t) => [t, learnedA.includes(t) ? 2 : 1])));

    const preview = expectOkResult(await service.pool.preview(A, true));
    expect(preview.pool).toBe(learnedB.length);
    expect([...preview.fresh].sort((a, b) => (a.text < b.text ? -1 : 1))).toEqual(onlyB.map((text) => ({ text, servers: 1 })));
    const adopted = expectOkResult(await service.pool.adopt(A, true));
    expect(adopted.complete).toBe(true);
    expect([...adopted.adopted].sort()).toEqual(onlyB);
    expect(await libraryOf(A)).toEqual(learnedB);
    expect((await storage.guild(A).library.get(subgoalKey(onlyB[0])))?.origin).toEqual({ kind: 'pool', servers: 1 });
    // /stats' growth chart sees the adoption at once: what was watched, then what came from the pool.
    const growth = expectOkResult(await service.ratings.standings(A)).library;
    const storedA = (await storage.guild(A).library.list()).map((e) => e.value).sort(byProvenance);
    expect(growth).toEqual(storedA.map((r) => r.origin?.kind ?? 'loss'));
    expect(new Set(growth)).toEqual(new Set(['watched', 'pool']));
    expect(expectOkResult(await service.pool.preview(A, true)).fresh).toEqual([]);
    // C never opted in: its library is as it was, and nothing of it is in the pool.
    expect(await storage.guild(C).library.list()).toEqual(cBefore);
    expect(entries.every((e) => !e.contributors.includes(poolToken(C)))).toBe(true);

    // B resets: its library goes, its contributions leave the pool; A's stay, adopted ones too.
    expectOkResult(await service.resetMemory(B, true));
    expect(await storage.guild(B).library.list()).toEqual([]);
    const afterReset = Object.fromEntries((await pool.list()).map((e) => [e.value.text, e.value.contributors.length]));
    expect(afterReset).toEqual({ "(1) 2:4'": 1, "(1, 1) 3:3', 3'": 1 });
    expect(await libraryOf(A)).toEqual(learnedB);
    // Share off withdraws A too.
    expect(expectOkResult(await service.pool.setShare(A, false, true))).toMatchObject({ changed: 2 });
    expect(await pool.list()).toEqual([]);
  });
});
