// End to end, issue 28: the real entry point (`node bin/start.mjs`) with the real discord.js
// client against the local fake Discord and the real Redis, under a namespace of its own.
//
// One bot process serves three servers, in order: an invitation declined and one accepted; a
// whole game between two members from the paper's Fig. 3 chain (a double open three, then an
// open four) to a five, the subgoals the bot learned announced and present in /library; the same
// game with watching off, which teaches nothing; two games in one channel told apart with
// `against`; ratings after a game against the bot and games between members, on /stats; a
// restart in the middle of a game between members; and the shared pool: two servers share and
// adopt, a third that never opted in is untouched, and a reset withdraws a server's contributions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolCodec, versusKey } from '../../src/bot/communityRecords.ts';
import { openBotStorage } from '../../src/bot/config.ts';
import { silentLog } from '../../src/bot/log.ts';
import { poolToken } from '../../src/bot/pool.ts';
import { subgoalKey, type BotSchema } from '../../src/bot/records.ts';
import { parseDescription } from '../../src/notation/descriptionNotation.ts';
import { parseGameRecord } from '../../src/rules/gameRecord.ts';
import { compileCached } from '../../src/learning/library.ts';
import { makePoint } from '../../src/rules/point.ts';
import { LINE_CHART } from '../../src/render/index.ts';
import { expectOk } from '../../src/rules/result.ts';
import { SharedCollection, type Storage } from '../../src/storage/index.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../../src/rules/types.ts';
import {
  ADMIN_PERMISSIONS,
  MEMBER_PERMISSIONS,
  isCallback,
  startFakeDiscord,
  type BotResponse,
  type FakeDiscord,
  type FakeFile,
  type FakeInteraction,
  type InteractOptions,
  type OptionValue,
} from '../support/fakeDiscord/index.ts';
import { fixture } from '../support/fixtures.ts';
import { decode } from '../render/png.ts';
import { spawnStart, type BotProcess } from './botProcess.ts';
import { expectBoardImage, REDIS_URL, tempDir, uniqueNamespace } from './support.ts';

const GUILD = '310000000000000001';
const GUILD_B = '310000000000000002';
const GUILD_C = '310000000000000003';
const CHANNEL = '320000000000000001';
const CHANNEL_2 = '320000000000000002';
const CHANNEL_B = '320000000000000003';
const CHANNEL_C = '320000000000000004';
const OWNER = { id: '330000000000000001', username: 'owner' };
const ALICE = { id: '330000000000000002', username: 'alice' };
const BOB = { id: '330000000000000003', username: 'bob' };
const CAROL = { id: '330000000000000004', username: 'carol' };
const DAVE = { id: '330000000000000005', username: 'dave' };
const BOT = { id: '340000000000000001', username: 'Go-Moku' };
const EPHEMERAL = 64;
const READY = /connected to Discord as Go-Moku/;
type User = typeof ALICE;

interface Answer {
  readonly content: string;
  readonly files: readonly FakeFile[];
  readonly ephemeral: boolean;
  readonly messageId: string | undefined;
  readonly customIds: string[];
  readonly pings: readonly string[];
}

/** The bot's answer, however it came: a reply, a deferral then an edit, or a private follow-up. */
async function answerOf(i: FakeInteraction, timeoutMs = 15_000): Promise<Answer> {
  const first = await i.waitForResponse(isCallback(), timeoutMs);
  let final: BotResponse = first;
  if (first.type === 5 || first.type === 6) final = await i.waitForResponse((r) => r.kind === 'followup' || r.kind === 'edit', timeoutMs);
  const message = 'message' in final ? final.message : undefined;
  const components = (message?.components ?? []) as { components?: { custom_id?: string }[] }[];
  const body = (final.body ?? {}) as { data?: { allowed_mentions?: { users?: string[] } }; allowed_mentions?: { users?: string[] } };
  return {
    content: message?.content ?? '',
    files: final.files,
    ephemeral: ((message?.flags ?? 0) & EPHEMERAL) !== 0,
    messageId: message?.id,
    customIds: components.flatMap((row) => (row.components ?? []).map((c) => c.custom_id ?? '')),
    pings: (body.data?.allowed_mentions ?? body.allowed_mentions)?.users ?? [],
  };
}

/** The Fig. 3 chain on 19×19: black wins at k7 on move 13, having made a double open three (move 9) and an open four (move 11). */
const FIG3 = expectOk(parseGameRecord(fixture('games/learning/double-open-three.txt')));
const FIG3_MOVES = FIG3.moves.map((p) => makePoint(19, p));

function cellsAfter(size: number, moves: readonly number[]): Cell[] {
  const cells = new Array<Cell>(size * size).fill(EMPTY);
  moves.forEach((p, i) => (cells[p] = i % 2 === 0 ? BLACK : WHITE));
  return cells;
}

const subgoal = (text: string) => expectOk(compileCached(expectOk(parseDescription(text))));

describe('members against members, learning from watched games, ratings and the shared pool, end to end', () => {
  let fake: FakeDiscord;
  let bot: BotProcess | undefined;
  let storage: Storage<BotSchema>;
  let pool: SharedCollection<import('../../src/bot/communityRecords.ts').PoolEntry>;
  let env: Record<string, string>;
  let cwd: string;
  const removals: Array<() => Promise<void>> = [];

  const send = (options: InteractOptions) => fake.interact({ guildId: GUILD, channelId: CHANNEL, ...options } as InteractOptions);
  const command = (user: User, name: string, options: Record<string, OptionValue> = {}, where: { guildId?: string; channelId?: string; subcommand?: string; permissions?: bigint | string } = {}) =>
    answerOf(send({ type: 'command', name, user, options, permissions: where.permissions ?? MEMBER_PERMISSIONS, ...where } as InteractOptions));
  const press = (user: User, customId: string, messageId: string | undefined, where: { guildId?: string; channelId?: string; permissions?: bigint | string } = {}) =>
    answerOf(send({ type: 'button', customId, user, permissions: where.permissions ?? MEMBER_PERMISSIONS, ...(messageId !== undefined ? { messageId } : {}), ...where } as InteractOptions));
  const member = (u: User) => ({ type: 'user', id: u.id }) as const;
  const admin = (subcommand: string, options: Record<string, OptionValue> = {}, guildId = GUILD, channelId = CHANNEL) =>
    command(OWNER, 'memory', options, { guildId, channelId, subcommand, permissions: ADMIN_PERMISSIONS });

  /** Invites and accepts; returns the accepted message. */
  async function startGame(from: User, to: User, options: Record<string, OptionValue> = {}, channelId = CHANNEL): Promise<Answer> {
    const invitation = await command(from, 'challenge', { opponent: member(to), ...options }, { channelId });
    expect(invitation.ephemeral, invitation.content).toBe(false);
    const accept = invitation.customIds.find((id) => id.startsWith('challenge:accept:'));
    expect(accept).toBeDefined();
    return press(to, accept!, invitation.messageId, { channelId });
  }

  /** Plays the moves in turn, black first, each naming the opponent; returns every answer. */
  async function play(black: User, white: User, moves: readonly string[], channelId = CHANNEL): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let i = 0; i < moves.length; i++) {
      const [who, other] = i % 2 === 0 ? [black, white] : [white, black];
      const a = await command(who, 'move', { point: moves[i], against: member(other) }, { channelId });
      expect(a.ephemeral, a.content).toBe(false);
      answers.push(a);
    }
    return answers;
  }

  beforeAll(async () => {
    fake = await startFakeDiscord({
      guilds: [
        { id: GUILD, name: 'Go-Moku club', ownerId: OWNER.id, members: [OWNER, ALICE, BOB, CAROL, DAVE], channels: [{ id: CHANNEL, name: 'gomoku' }, { id: CHANNEL_2, name: 'gomoku-2' }] },
        { id: GUILD_B, name: 'Renju friends', ownerId: OWNER.id, members: [OWNER, ALICE], channels: [{ id: CHANNEL_B, name: 'play' }] },
        { id: GUILD_C, name: 'Keeps to itself', ownerId: OWNER.id, members: [OWNER, DAVE], channels: [{ id: CHANNEL_C, name: 'play' }] },
      ],
      botUser: BOT,
    });
    const work = await tempDir('community');
    const mine = await tempDir('community-test-side');
    removals.push(work.remove, mine.remove);
    cwd = work.dir;
    const namespace = uniqueNamespace('community');
    env = {
      DISCORD_TOKEN: fake.token,
      DISCORD_CLIENT_ID: fake.applicationId,
      DISCORD_GUILD_ID: '',
      DISCORD_API_URL: fake.url,
      REDIS_URL,
      STORAGE_NAMESPACE: namespace,
      DATA_DIR: `${work.dir}/data`,
      LOG_LEVEL: 'info',
      GOMOKU_SEED: '3',
    };
    storage = await openBotStorage({ REDIS_URL, STORAGE_NAMESPACE: namespace, DATA_DIR: mine.dir }, silentLog);
    pool = new SharedCollection(storage.backend, 'pool', poolCodec, silentLog);
    // What the other two servers have learned from their own losses.
    const learnedIn = async (guildId: string, text: string) =>
      storage.guild(guildId).library.put(subgoalKey(text), { subgoal: subgoal(text), provenance: { game: `loss-in-${guildId}`, move: 7, date: '2025-01-01T00:00:00.000Z' } });
    await learnedIn(GUILD_B, "(1, 2-1, 2) 4:3', 2'-4:2', 3'");
    await learnedIn(GUILD_B, "(1) 2:4'");
    await learnedIn(GUILD_C, '(1, 1) 2:4, 4');
  });

  afterAll(async () => {
    await bot?.stop('SIGKILL');
    await fake?.close();
    if (storage !== undefined) {
      await storage.backend.clearAll();
      await storage.close();
    }
    for (const remove of removals) await remove();
  });

  it('deploys /memory beside the other commands, and /challenge, /move, /board and /resign with their member options', async () => {
    const deploy = spawnStart(['deploy'], env, cwd);
    expect(await deploy.exited).toBe(0);
    const registered = fake.commands();
    const memory = registered.find((c) => c.name === 'memory');
    expect(memory?.options?.map((o) => o.name)).toEqual(['watch', 'share', 'adopt', 'status']);
    expect(memory?.default_member_permissions).toBe(String(32));
    expect(registered.find((c) => c.name === 'challenge')?.options?.[0]).toMatchObject({ name: 'opponent', type: 6 });
    for (const name of ['move', 'board', 'resign']) expect(registered.find((c) => c.name === name)?.options?.some((o) => o.name === 'against' && o.type === 6), name).toBe(true);
    bot = spawnStart([], env, cwd);
    await bot.waitFor(READY);
  });

  it('sends an invitation the member invited can decline, and one they accept', async () => {
    const invitation = await command(ALICE, 'challenge', { opponent: member(BOB), size: 15, colour: 'white' });
    expect(invitation.ephemeral).toBe(false);
    expect(invitation.content).toContain(`<@${ALICE.id}> challenges <@${BOB.id}> to Go-Moku: 15×15, <@${BOB.id}> plays **black** (first), <@${ALICE.id}> **white**.`);
    expect(invitation.content).toMatch(new RegExp(`<@${BOB.id}>, do you accept\\? The challenge expires at <t:\\d+:f>\\.`));
    expect(invitation.customIds).toHaveLength(2);
    expect(invitation.customIds[0]).toMatch(new RegExp(`^challenge:accept:${ALICE.id}:${BOB.id}:15:w:[0-9a-z]+$`));
    expect(invitation.pings).toEqual([BOB.id]);

    // Carol cannot answer for Bob, and her press leaves the invitation as it was.
    const intruder = await press(CAROL, invitation.customIds[0], invitation.messageId);
    expect(intruder).toMatchObject({ ephemeral: true, content: `That challenge is for <@${BOB.id}>; only they can accept or decline it.` });
    expect(fake.message(invitation.messageId!)?.components).toHaveLength(1);

    const declined = await press(BOB, invitation.customIds[1], invitation.messageId);
    expect(declined).toMatchObject({ ephemeral: false, content: `<@${BOB.id}> declined <@${ALICE.id}>'s challenge.`, customIds: [] });
    expect(await storage.guild(GUILD).versus.list()).toEqual([]);

    const accepted = await startGame(ALICE, BOB, { size: 15, colour: 'white' });
    expect(accepted.content).toContain(`Game on: <@${BOB.id}> (**black**) against <@${ALICE.id}> (**white**), 15×15.`);
    expect(accepted.content).toContain(`<@${BOB.id}>, your move (black): /move.`);
    expect(accepted.customIds).toEqual([]);
    await expectBoardImage(accepted.files[0].bytes, 15, cellsAfter(15, []));
    const stored = await storage.guild(GUILD).versus.get(versusKey(CHANNEL, ALICE.id, BOB.id));
    expect(stored).toMatchObject({ black: BOB.id, white: ALICE.id, size: 15, moves: [] });
    // Bob resigns it at once (it counts: Alice wins), so the pair may play the Fig. 3 game next.
    const resigned = await command(BOB, 'resign');
    expect(resigned.content).toContain(`<@${BOB.id}> resigned: **<@${ALICE.id}> wins**.`);
    expect(resigned.content).toMatch(new RegExp(`^Ratings: <@${BOB.id}> 1500 → \\d+\\? \\(−\\d+\\), <@${ALICE.id}> 1500 → \\d+\\? \\(\\+\\d+\\)\\.$`, "m"));
  });

  it('referees a whole game to a five, says whose turn it is, learns from it and shows what it learned in /library', async () => {
    await startGame(ALICE, BOB, { size: 19 });
    // Only the member to move may move.
    const early = await command(BOB, 'move', { point: 'a1' });
    expect(early).toMatchObject({ ephemeral: true, content: `It is <@${ALICE.id}>'s turn, not yours. Look at /board for their move.` });
    // /hint and /threats are for games against the bot: said so, not "You have no game".
    for (const name of ['hint', 'threats']) {
      const notHere = await command(BOB, name);
      expect(notHere).toMatchObject({ ephemeral: true });
      expect(notHere.content).toBe(`You have no game against me in this channel: yours here is against <@${ALICE.id}>, and /hint and /threats are for games against me (between members, the moves are yours to find). Play it with /move, or /challenge me for a game of our own.`);
    }
    const answers = await play(ALICE, BOB, FIG3_MOVES);
    answers.slice(0, -1).forEach((a, i) => {
      const next = i % 2 === 0 ? BOB : ALICE;
      expect(a.content).toContain(`played **${FIG3_MOVES[i]}**.`);
      expect(a.content).toContain(`<@${next.id}>, your move (${i % 2 === 0 ? 'white' : 'black'}): /move.`);
      expect(a.pings).toEqual([next.id]);
    });
    const last = answers[answers.length - 1];
    expect(last.content).toContain(`<@${ALICE.id}> played **k7**.`);
    expect(last.content).toContain(`**<@${ALICE.id}> wins** with five at`);
    expect(last.content).toContain(`I watched and learned 2 new subgoals from <@${ALICE.id}>'s win: \`(1) 2:4'\` (move 11), \`(1, 1) 3:3', 3'\` (move 9). See /library.`);
    expect(last.content).toMatch(/^Ratings: /m);
    await expectBoardImage(last.files[0].bytes, 19, cellsAfter(19, FIG3.moves));

    const record = (await storage.guild(GUILD).versusRecords.list()).map((r) => r.value).find((r) => r.finished?.ending === 'five');
    expect(record).toMatchObject({ black: ALICE.id, white: BOB.id, moves: FIG3.moves, finished: { result: 'black-won', learned: ["(1) 2:4'", "(1, 1) 3:3', 3'"] } });
    const learned = (await storage.guild(GUILD).library.list()).map((e) => e.value);
    expect(learned.map((l) => l.subgoal.text).sort()).toEqual(["(1) 2:4'", "(1, 1) 3:3', 3'"]);
    for (const l of learned) expect(l).toMatchObject({ provenance: { game: record!.id }, origin: { kind: 'watched', black: ALICE.id, white: BOB.id } });

    const library = await command(CAROL, 'library');
    // Grouped by node list as the paper prints them: 2:4' under the rule's (1).
    expect(library.content).toMatch(/^\(1\) 1:5\n.*\n {4}2:4'\n.*· watched/m);
    expect(library.content).toContain("\n(1, 1) 3:3', 3'\n");
    expect(library.content).toContain(`learned ${learned[0].provenance.date.slice(0, 10)} from game ${record!.id}, move 11 · watched`);
    expect(library.content).toContain(`from game ${record!.id}, move 9 · watched`);
    // /games lists it and /replay shows it, as /library's pointer promises.
    const games = await command(CAROL, 'games');
    expect(games.content).toContain(`\`${record!.id}\``);
    expect(games.content).toContain(`<@${ALICE.id}> (black) v <@${BOB.id}> (white) · **<@${ALICE.id}> won** with five · 13 moves · taught me \`(1) 2:4'\` (move 11), \`(1, 1) 3:3', 3'\` (move 9)`);
    const replay = await command(CAROL, 'replay', { game: record!.id });
    expect(replay.content).toMatch(new RegExp(`^\\*\\*Replay\\*\\* of game \`${record!.id}\` \\(.*\\): <@${ALICE.id}> \\(black\\) v <@${BOB.id}> \\(white\\), 19×19 · \\*\\*<@${ALICE.id}> won\\*\\* with five · 13 moves\\.`));
    expect(replay.files.map((x) => x.name)).toEqual([`replay-${record!.id}.gif`]);
    // Anyone can watch the ended game.
    const watched = await command(CAROL, 'board', { player: member(ALICE) });
    expect(watched.content).toContain(`<@${ALICE.id}> (black) against <@${BOB.id}> (white): 19×19 · 13 moves.`);
    await expectBoardImage(watched.files[0].bytes, 19, cellsAfter(19, FIG3.moves));
  });

  it('learns nothing from a game between members when watching is off', async () => {
    const member_ = await command(CAROL, 'memory', { state: 'off' }, { subcommand: 'watch' });
    expect(member_).toMatchObject({ ephemeral: true, content: 'Only members who can manage this server (the Manage Server permission) may change how I learn here (/memory).' });
    const off = await admin('watch', { state: 'off' });
    expect(off).toMatchObject({ ephemeral: true, content: expect.stringMatching(/^Watching is \*\*off\*\*/) });
    const before = await storage.guild(GUILD).library.list();
    await startGame(BOB, ALICE, { size: 19, colour: 'white' }, CHANNEL_2);
    const answers = await play(ALICE, BOB, FIG3_MOVES, CHANNEL_2);
    const last = answers[answers.length - 1];
    expect(last.content).toContain(`**<@${ALICE.id}> wins** with five at`);
    expect(last.content).toContain('Watching is off in this server, so I learned nothing from this game');
    expect(last.content).not.toContain('I watched and learned');
    expect(await storage.guild(GUILD).library.list()).toEqual(before);
    expect((await admin('watch', { state: 'on' })).content).toMatch(/^Watching is \*\*on\*\*/);
  });

  it('keeps two games of one member in a channel apart with against', async () => {
    await startGame(CAROL, DAVE, { size: 15 });
    await startGame(CAROL, BOB, { size: 15, colour: 'white' });
    // Carol plays black against Dave and white against Bob.
    const which = await command(CAROL, 'move', { point: 'h8' });
    expect(which).toMatchObject({ ephemeral: true, content: `You have 2 games in this channel, against <@${BOB.id}> and <@${DAVE.id}>. Say which with the against option (me for the game against me).` });
    const wrong = await command(CAROL, 'move', { point: 'h8', against: member(BOB) });
    expect(wrong).toMatchObject({ ephemeral: true, content: `It is <@${BOB.id}>'s turn, not yours. Look at /board for their move.` });
    const vsDave = await command(CAROL, 'move', { point: 'h8', against: member(DAVE) });
    expect(vsDave.content).toContain(`<@${DAVE.id}>, your move (white)`);
    // Bob and Dave have one game each here, so they need not say.
    const bobMove = await command(BOB, 'move', { point: 'g7' });
    expect(bobMove.content).toContain(`<@${CAROL.id}>, your move (white)`);
    const daveMove = await command(DAVE, 'move', { point: 'i9' });
    expect(daveMove.content).toContain(`<@${CAROL.id}>, your move (black)`);
    const vsBob = await command(CAROL, 'move', { point: 'h8', against: member(BOB) });
    expect(vsBob.content).toContain(`<@${BOB.id}>, your move (black)`);
    const g = storage.guild(GUILD);
    expect((await g.versus.get(versusKey(CHANNEL, CAROL.id, DAVE.id)))?.moves.map((p) => makePoint(15, p))).toEqual(['h8', 'i9']);
    expect((await g.versus.get(versusKey(CHANNEL, CAROL.id, BOB.id)))?.moves.map((p) => makePoint(15, p))).toEqual(['g7', 'h8']);
    const board = await command(CAROL, 'board', { against: member(BOB) });
    expect(board.content).toContain(`<@${BOB.id}> (black) against <@${CAROL.id}> (white): 15×15 · 2 moves.`);
  });

  it('carries a game between members through a restart', async () => {
    expect(await bot!.stop('SIGKILL')).toBeNull();
    bot = spawnStart([], env, cwd);
    await bot.waitFor(READY);
    const after = await command(CAROL, 'move', { point: 'j10', against: member(DAVE) });
    expect(after.content).toContain(`<@${CAROL.id}> played **j10**.`);
    expect((await storage.guild(GUILD).versus.get(versusKey(CHANNEL, CAROL.id, DAVE.id)))?.moves.map((p) => makePoint(15, p))).toEqual(['h8', 'i9', 'j10']);
  });

  it('rates games against the bot and between members, and /stats shows the leaderboard and the bot\'s rating over time', async () => {
    const started = await command(DAVE, 'challenge', { size: 15, colour: 'white', level: 1 }, { channelId: CHANNEL_2 });
    expect(started.content).toContain('I open');
    await command(DAVE, 'move', { point: 'g7' }, { channelId: CHANNEL_2 });
    const resigned = await command(DAVE, 'resign', {}, { channelId: CHANNEL_2 });
    expect(resigned.content).toContain('**I win.**');
    expect(resigned.content).toMatch(new RegExp(`Ratings: <@${DAVE.id}> 1500 → \\d+\\? \\(−\\d+\\), me 1500 → \\d+\\? \\(\\+\\d+\\)\\.`));
    const ratings = storage.guild(GUILD).ratings;
    expect(await ratings.get('bot')).toMatchObject({ won: 1, lost: 0 });
    expect((await ratings.get('bot'))?.history).toHaveLength(1);
    expect(await ratings.get(ALICE.id)).toMatchObject({ won: 3, lost: 0 });
    expect(await ratings.get(BOB.id)).toMatchObject({ won: 0, lost: 3 });

    const stats = await command(CAROL, 'stats');
    expect(stats.content).toMatch(/\*\*Ratings\*\* \(Glicko-2/);
    const rows = [...stats.content.matchAll(/^(\d+)\. (<@(\d+)>|me) (\d+)\??/gm)];
    expect(rows[0][3]).toBe(ALICE.id);
    expect(rows.map((r) => Number(r[4]))).toEqual([...rows.map((r) => Number(r[4]))].sort((a, b) => b - a));
    expect(rows.some((r) => r[2] === 'me')).toBe(true);
    expect(stats.content).toContain('Library by source: 0 from games I lost, 0 from games I won, 2 from games I watched, 0 adopted from the shared pool.');
    const names = stats.files.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['rating.png', 'library-growth.png']));
    const chart = await decode(stats.files.find((f) => f.name === 'rating.png')!.bytes);
    expect([chart.width, chart.height]).toEqual([LINE_CHART.width, LINE_CHART.height]);
  });

  it('shares and adopts between two servers that opted in, never touches a third, and a reset withdraws a server\'s contributions', async () => {
    const cBefore = await storage.guild(GUILD_C).library.list();
    const sharedA = await admin('share', { state: 'on' });
    expect(sharedA.content).toMatch(/^Sharing is \*\*on\*\*: I published 2 subgoals this server taught me to the shared pool/);
    const sharedB = await admin('share', { state: 'on' }, GUILD_B, CHANNEL_B);
    expect(sharedB.content).toMatch(/^Sharing is \*\*on\*\*: I published 2 subgoals/);
    const entries = (await pool.list()).map((e) => e.value);
    expect(Object.fromEntries(entries.map((e) => [e.text, e.contributors.length]))).toEqual({ "(1) 2:4'": 2, "(1, 1) 3:3', 3'": 1, "(1, 2-1, 2) 4:3', 2'-4:2', 3'": 1 });
    // Nothing of a member, a game or a server crosses: texts and tokens only.
    const raw = JSON.stringify(await storage.backend.entries('@pool'));
    for (const secret of [ALICE.id, BOB.id, GUILD, GUILD_B, GUILD_C, 'loss-in-', 'provenance', 'moves']) expect(raw).not.toContain(secret);

    // The first server adopts what the second learned: one new subgoal, asked first.
    const ask = await admin('adopt');
    expect(ask.ephemeral).toBe(true);
    expect(ask.content).toMatch(/^The shared pool holds 3 subgoals; \*\*1 is new\*\* to this server:\n`\(1, 2-1, 2\) 4:3', 2'-4:2', 3'` — learned in 1 server\n/);
    expect(ask.customIds).toEqual([`memory:adopt:${OWNER.id}`, `memory:cancel:${OWNER.id}`]);
    const adopted = await press(OWNER, `memory:adopt:${OWNER.id}`, ask.messageId, { permissions: ADMIN_PERMISSIONS });
    expect(adopted.content).toBe("Adopted 1 subgoal from the shared pool: `(1, 2-1, 2) 4:3', 2'-4:2', 3'`. See /library.");
    expect((await storage.guild(GUILD).library.get(subgoalKey("(1, 2-1, 2) 4:3', 2'-4:2', 3'")))?.origin).toEqual({ kind: 'pool', servers: 1 });
    const withAdopted = (await command(CAROL, 'library')).content;
    expect(withAdopted).toContain('adopted');
    // The adopted subgoal came with no game of this server to draw: the legend says so, not "each".
    expect(withAdopted).toContain("The picture shows a small realisation of each learned from a game here (the paper's graphic mnemonics); one on this page came from elsewhere (adopted, imported or the starter library) with no game to draw it from.");
    // The second adopts the first's.
    const askB = await admin('adopt', {}, GUILD_B, CHANNEL_B);
    expect(askB.content).toMatch(/\*\*1 is new\*\*/);
    const adoptedB = await press(OWNER, `memory:adopt:${OWNER.id}`, askB.messageId, { guildId: GUILD_B, channelId: CHANNEL_B, permissions: ADMIN_PERMISSIONS });
    expect(adoptedB.content).toBe("Adopted 1 subgoal from the shared pool: `(1, 1) 3:3', 3'`. See /library.");

    // The third server never opted in: its library is as it was, and it has nothing in the pool.
    expect(await storage.guild(GUILD_C).library.list()).toEqual(cBefore);
    expect((await pool.list()).some((e) => e.value.contributors.includes(poolToken(GUILD_C)) || e.value.text === '(1, 1) 2:4, 4')).toBe(false);
    expect((await admin('status', {}, GUILD_C, CHANNEL_C)).content).toContain('Sharing with the pool: **off**.');

    // The second server resets: its library goes, and so do its contributions; the first's stay.
    const reset = await command(OWNER, 'reset-memory', {}, { guildId: GUILD_B, channelId: CHANNEL_B, permissions: ADMIN_PERMISSIONS });
    expect(reset.content).toContain('its contributions are withdrawn');
    const confirmed = await press(OWNER, `reset-memory:confirm:${OWNER.id}`, reset.messageId, { guildId: GUILD_B, channelId: CHANNEL_B, permissions: ADMIN_PERMISSIONS });
    expect(confirmed.content).toMatch(/^Done: I forgot 3 learned subgoals/);
    expect(await storage.guild(GUILD_B).library.list()).toEqual([]);
    const left = Object.fromEntries((await pool.list()).map((e) => [e.value.text, e.value.contributors]));
    expect(left).toEqual({ "(1) 2:4'": [poolToken(GUILD)], "(1, 1) 3:3', 3'": [poolToken(GUILD)] });
    expect((await storage.guild(GUILD).library.list()).length).toBe(3);
    expect(await storage.guild(GUILD_C).library.list()).toEqual(cBefore);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await bot!.stop('SIGTERM')).toBe(0);
    bot = undefined;
  });
});
