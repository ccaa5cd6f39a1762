// End to end: the real entry point (`node bin/start.mjs`, i.e. `npm start` and `npm run
// deploy`) with the real discord.js client, against the local fake Discord (DISCORD_API_URL)
// and the real Redis on 127.0.0.1:6379 under a namespace of its own, removed afterwards.
//
// One bot process serves the tests in order, as a server would see them: deploy, a whole game
// the bot loses (its library grows in Redis), /threats, /library, /stats, bad input,
// autocomplete, two moves at once, /reset-memory by a member and by an admin, a restart in the
// middle of a game, a clean stop; then a bot whose Redis is down. PNGs are decoded and their
// stones checked against the game.
import { PermissionFlagsBits } from 'discord.js';
import { answerOf, type Answer } from './answer.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { silentLog } from '../../src/bot/log.ts';
import { gameKey, subgoalKey, type BotSchema } from '../../src/bot/records.ts';
import { CHART } from '../../src/bot/chart.ts';
import { deployCommands } from '../../src/discord/deploy.ts';
import { parseDescription } from '../../src/notation/descriptionNotation.ts';
import { compileCached } from '../../src/learning/library.ts';
import { parsePoint } from '../../src/rules/point.ts';
import { boardLayout, defaultTheme, legendLayout, pointToPixel } from '../../src/render/index.ts';
import { expectOk } from '../../src/rules/result.ts';
import type { Storage } from '../../src/storage/index.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../../src/rules/types.ts';
import {
  ADMIN_PERMISSIONS,
  MEMBER_PERMISSIONS,
  isCallback,
  startFakeDiscord,
  type FakeDiscord,
  type InteractOptions,
} from '../support/fakeDiscord/index.ts';
import { decode, distance, hexToRgb } from '../render/png.ts';
import { spawnStart, type BotProcess } from './botProcess.ts';
import { expectBoardImage, REDIS_URL, tempDir, uniqueNamespace } from './support.ts';

const GUILD = '210000000000000001';
const OTHER_GUILD = '210000000000000002';
const CHANNEL = '220000000000000001';
const OWNER = { id: '230000000000000001', username: 'owner' };
const ALICE = { id: '230000000000000002', username: 'alice' };
const BOB = { id: '230000000000000003', username: 'bob' };
const CAROL = { id: '230000000000000004', username: 'carol' };
const DAVE = { id: '230000000000000005', username: 'dave' };
const BOT = { id: '240000000000000001', username: 'Go-Moku' };
const READY = /connected to Discord as Go-Moku/;

const pt = (text: string) => expectOk(parsePoint(15, text));

/** Cells of a 15×15 board after these moves, black first. */
function cellsAfter(moves: readonly number[]): Cell[] {
  const cells = new Array<Cell>(15 * 15).fill(EMPTY);
  moves.forEach((p, i) => (cells[p] = i % 2 === 0 ? BLACK : WHITE));
  return cells;
}

describe('the bot end to end: npm start against the fake Discord, with Redis', () => {
  let fake: FakeDiscord;
  let bot: BotProcess | undefined;
  let storage: Storage<BotSchema>;
  let env: Record<string, string>;
  let cwd: string;
  const removals: Array<() => Promise<void>> = [];

  const send = (options: InteractOptions) => fake.interact({ guildId: GUILD, channelId: CHANNEL, ...options } as InteractOptions);
  const command = (user: typeof ALICE, name: string, options: Record<string, string | number> = {}, permissions = MEMBER_PERMISSIONS) =>
    answerOf(send({ type: 'command', name, user, options, permissions }));
  const movesOf = async (user: typeof ALICE) => (await storage.guild(GUILD).games.get(gameKey(CHANNEL, user.id)))?.moves ?? [];

  beforeAll(async () => {
    fake = await startFakeDiscord({
      guilds: [
        { id: GUILD, name: 'Go-Moku club', ownerId: OWNER.id, members: [OWNER, ALICE, BOB, CAROL, DAVE], channels: [{ id: CHANNEL, name: 'gomoku' }] },
        { id: OTHER_GUILD, name: 'Another club', ownerId: OWNER.id, members: [OWNER] },
      ],
      botUser: BOT,
    });
    const work = await tempDir('e2e');
    const mine = await tempDir('e2e-test-side');
    removals.push(work.remove, mine.remove);
    cwd = work.dir;
    const namespace = uniqueNamespace('e2e');
    env = {
      DISCORD_TOKEN: fake.token,
      DISCORD_CLIENT_ID: fake.applicationId,
      DISCORD_GUILD_ID: GUILD,
      DISCORD_API_URL: fake.url,
      REDIS_URL,
      STORAGE_NAMESPACE: namespace,
      DATA_DIR: `${work.dir}/data`,
      LOG_LEVEL: 'info',
      GOMOKU_SEED: '3',
    };
    // The test's own view of the same Redis namespace (its own folder for pending writes).
    storage = await openBotStorage({ REDIS_URL, STORAGE_NAMESPACE: namespace, DATA_DIR: mine.dir }, silentLog);
    // Another server's memory, which nothing done in this server may touch.
    const subgoal = expectOk(compileCached(expectOk(parseDescription("(1) 2:4'"))));
    await storage.guild(OTHER_GUILD).library.put(subgoalKey(subgoal.text), { subgoal, provenance: { game: 'elsewhere', move: 5, date: '2025-01-01T00:00:00.000Z' } });
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

  it('npm run deploy registers the thirteen commands in the server; /reset-memory and /memory only for Manage Server', async () => {
    const deploy = spawnStart(['deploy'], env, cwd);
    expect(await deploy.exited).toBe(0);
    expect(deploy.output()).toMatch(/Registered 13 commands in server 210000000000000001/);
    const registered = fake.commands(GUILD);
    expect(registered.map((c) => c.name).sort()).toEqual(['board', 'challenge', 'games', 'help', 'hint', 'library', 'memory', 'move', 'replay', 'reset-memory', 'resign', 'stats', 'threats']);
    expect(registered.find((c) => c.name === 'memory')?.default_member_permissions).toBe(String(PermissionFlagsBits.ManageGuild));
    expect(registered.find((c) => c.name === 'help')?.options ?? []).toEqual([]);
    expect(registered.find((c) => c.name === 'reset-memory')?.default_member_permissions).toBe(String(PermissionFlagsBits.ManageGuild));
    expect(registered.find((c) => c.name === 'move')?.options?.[0]).toMatchObject({ name: 'point', required: true, autocomplete: true });
    // Without DISCORD_GUILD_ID the same commands go global.
    const global = await deployCommands({ ...env, DISCORD_GUILD_ID: '' });
    expect(global).toMatchObject({ scope: 'global' });
    expect(fake.commands().map((c) => c.name)).toEqual(registered.map((c) => c.name));
  });

  it('starts and logs in', async () => {
    bot = spawnStart([], env, cwd);
    await bot.waitFor(READY);
  });

  it('/help states the rules, lists the commands and how the bot learns, with a five and a six drawn, to the asker only', async () => {
    const help = await command(DAVE, 'help');
    expect(help.ephemeral).toBe(true);
    expect(help.content).toContain('**exactly five in a row**');
    expect(help.content).toContain('**Six or more in a row does not count**');
    expect(help.content).toContain('`/reset-memory` forget all I learned here');
    expect(help.content).toContain("in Murray & Elcock's notation");
    expect(help.files.map((f) => f.name)).toEqual(['rules.png']);
    const image = await decode(help.files[0].bytes);
    expect(image.width).toBeGreaterThan(image.height);
    // Asking for help starts no game.
    expect(await storage.guild(GUILD).games.get(gameKey(CHANNEL, DAVE.id))).toBeUndefined();
  });

  it('plays a whole game the bot loses, and its library grows in Redis', async () => {
    expect(await storage.guild(GUILD).library.list()).toEqual([]);
    const started = await command(ALICE, 'challenge', { size: 15, level: 1 });
    expect(started.ephemeral).toBe(false);
    expect(started.content).toContain(`<@${ALICE.id}> challenged me to Go-Moku: 15×15, you play **black**, level 1.`);
    await expectBoardImage(started.files[0].bytes, 15, cellsAfter([]));

    const again = await command(ALICE, 'challenge', { size: 19 });
    expect(again).toMatchObject({ ephemeral: true, files: [] });
    expect(again.content).toMatch(/^You already have a game here \(15×15, you play black, 0 moves in\)/);

    // Alice follows the bot's hints until the game ends; should it not end in her win (a change
    // to the player could make it a draw), she challenges again.
    const playOut = async (): Promise<{ last: Answer; moves: number[] }> => {
      const moves: number[] = [];
      for (let i = 0; i < 200; i++) {
        const hint = await command(ALICE, 'hint');
        expect(hint.ephemeral).toBe(true);
        const point = /^Try \*\*([a-o]\d+)\*\*\. .+/.exec(hint.content)?.[1];
        expect(point, hint.content).toBeDefined();
        const last = await command(ALICE, 'move', { point: point! });
        expect(last.ephemeral, last.content).toBe(false);
        moves.push(pt(point!));
        const answer = /I answer \*\*([a-o]\d+)\*\*/.exec(last.content)?.[1];
        if (answer !== undefined) moves.push(pt(answer));
        if (/\*\*You win\*\*|\*\*I win\*\*|\*\*Draw\*\*/.test(last.content)) return { last, moves };
      }
      throw new Error('the game did not end');
    };
    let game = await playOut();
    for (let attempt = 1; attempt < 4 && !/\*\*You win\*\*/.test(game.last.content); attempt++) {
      await command(ALICE, 'challenge', { size: 15, level: 1 });
      game = await playOut();
    }
    const { last, moves } = game;
    expect(last.content).toMatch(/\*\*You win\*\* with five at/);
    expect(last.content).toMatch(/I walked back through the game and learned \d+ new subgoals?: `/);
    await expectBoardImage(last.files[0].bytes, 15, cellsAfter(moves));

    const learned = await storage.guild(GUILD).library.list();
    expect(learned.length).toBeGreaterThan(0);
    const record = (await storage.guild(GUILD).records.list()).map((r) => r.value).find((r) => r.outcome === 'bot-lost');
    expect(record).toMatchObject({ outcome: 'bot-lost', ending: 'five', userId: ALICE.id, moves });
    if (record === undefined) return;
    for (const { value } of learned) {
      expect(value.provenance.game).toBe(record.id);
      expect(last.content).toContain(`\`${value.subgoal.text}\` (move ${value.provenance.move})`);
    }
    // The ended game is still there to look at.
    const board = await command(ALICE, 'board');
    expect(board.content).toContain('**You win**');
    await expectBoardImage(board.files[0].bytes, 15, cellsAfter(moves));
  });

  it('/threats shows the realisations on the board for both colours, numbered and coloured by side', async () => {
    await command(BOB, 'challenge', { size: 15, level: 1 });
    // Bob follows the hints (the first is the centre, h8) until a side has a realisation.
    let answer: Answer | undefined;
    for (let i = 0; i < 14; i++) {
      const hint = await command(BOB, 'hint');
      await command(BOB, 'move', { point: /\*\*([a-o]\d+)\*\*/.exec(hint.content)![1] });
      answer = await command(BOB, 'threats');
      if (!/\*\*Black\*\* \(you\): none\n\*\*White\*\* \(me\): none/.test(answer.content)) break;
    }
    if (answer === undefined) throw new Error('no answer');
    expect(answer.ephemeral).toBe(false);
    expect(answer.content).toMatch(/^Realisations I recognise on <@\d+>'s board \(15×15 · you play black · level 1 · \d+ moves\):/);
    expect(answer.content).toMatch(/\*\*Black\*\* \(you\): (none|\d+ realisations?)/);
    expect(answer.content).toMatch(/\*\*White\*\* \(me\): (none|\d+ realisations?)/);
    const listed = [...answer.content.matchAll(/^`(\([^`]+)` nodes ([a-o0-9 ]+?)(?: · implicit ([a-o0-9 ]+?)| · \d+ ways, implicit among [a-o0-9 ]+?(?: \(in every way: [a-o0-9 ]+\))?)?(?: · five in (\d+))?$/gm)];
    expect(listed.length).toBeGreaterThan(0);
    const moves = await movesOf(BOB);
    const image = await decode(answer.files[0].bytes);
    const layout = boardLayout(15, defaultTheme);
    // The board, and its legend below it.
    const legend = legendLayout(15, { black: 'Black (you)', white: 'White (me)' });
    expect([image.width, image.height]).toEqual([legend.width, legend.height]);
    // Each listed node carries a disc in its side's colour (black's realisations come first).
    const blackCount = Number(/\*\*Black\*\* \(you\): (\d+)/.exec(answer.content)?.[1] ?? 0);
    listed.forEach((m, k) => {
      const colour = hexToRgb(defaultTheme.realisations[k < blackCount ? 'black' : 'white'].colour);
      const node = pt(m[2].split(' ')[0]);
      expect(moves).not.toContain(node);
      const centre = pointToPixel(layout, node);
      const off = { x: centre.x + layout.cell * 0.3, y: centre.y };
      expect(distance(image.at(off), colour), `disc at ${m[2]}`).toBeLessThan(60);
    });
  });

  it('/library lists the learned subgoals in the paper\'s notation with provenance and use, and a mnemonic sheet', async () => {
    const answer = await command(CAROL, 'library');
    const learned = (await storage.guild(GUILD).library.list()).map((e) => e.value);
    expect(answer.ephemeral).toBe(false);
    expect(answer.content).toContain(`**This server's library**: ${learned.length} learned subgoal`);
    expect(answer.content).toMatch(/```\n\(1\) 1:5\n {6}– the rule of the game · recognised in \d+ games? · played/);
    for (const l of learned) {
      expect(answer.content).toContain(`learned ${l.provenance.date.slice(0, 10)} from game ${l.provenance.game}, move ${l.provenance.move}`);
    }
    expect(answer.files.map((f) => f.name)).toEqual(['library-1.png']);
    const sheet = await decode(answer.files[0].bytes);
    expect(sheet.width).toBeGreaterThan(100);
    const none = await command(CAROL, 'library', { page: 9 });
    expect(none).toMatchObject({ ephemeral: true, content: expect.stringMatching(/^There is no page 9: the library has 1 page\./) });
  });

  it('/stats counts the games and draws the loss rate', async () => {
    const answer = await command(CAROL, 'stats');
    const games = (await storage.guild(GUILD).records.list()).length;
    expect(answer.content).toMatch(new RegExp(`Finished games: ${games} — members won 1, I won \\d+, \\d+ draws?\\.`));
    expect(answer.content).toMatch(/I lost \d+% of the games decided\./);
    const chart = await decode(answer.files[0].bytes);
    expect([chart.width, chart.height]).toEqual([CHART.width, CHART.height]);
  });

  it('answers bad input privately, with what to do, and changes nothing', async () => {
    const before = await movesOf(BOB);
    const cases: [typeof ALICE, string, Record<string, string>, RegExp][] = [
      [CAROL, 'move', { point: 'h8' }, /^You have no game in this channel\. Start one with \/challenge\.$/],
      [CAROL, 'board', {}, /^You have no game in this channel/],
      [CAROL, 'resign', {}, /^You have no game in this channel/],
      [CAROL, 'hint', {}, /^You have no game in this channel/],
      [BOB, 'move', { point: 'zz' }, /^"zz" is not a point\. Write a column letter and a row number, like h8/],
      [BOB, 'move', { point: 'q3' }, /^q3 is off this 15×15 board: columns a to o, rows 1 to 15\.$/],
      [BOB, 'move', { point: 'h8' }, /^h8 is taken\. Pick an empty point: \/move suggests some as you type\.$/],
      [ALICE, 'move', { point: 'a1' }, /^That game is over: you won it\. Start a new one with \/challenge\.$/],
    ];
    for (const [user, name, options, words] of cases) {
      const answer = await command(user, name, options);
      expect(answer, `${name} ${JSON.stringify(options)}`).toMatchObject({ ephemeral: true, files: [] });
      expect(answer.content).toMatch(words);
    }
    expect(await movesOf(BOB)).toEqual(before);
  });

  it('autocompletes /move with vacant points near the stones', async () => {
    const moves = await movesOf(BOB);
    const typing = send({ type: 'autocomplete', name: 'move', user: BOB, focused: 'point', options: { point: 'i' } });
    const result = await typing.waitForResponse(isCallback(8));
    const names = (result.choices ?? []).map((c) => String(c.value));
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(25);
    for (const n of names) {
      expect(n.startsWith('i')).toBe(true);
      expect(moves).not.toContain(pt(n));
    }
    const nobody = send({ type: 'autocomplete', name: 'move', user: CAROL, focused: 'point', options: { point: '' } });
    expect((await nobody.waitForResponse(isCallback(8))).choices).toEqual([]);
  });

  it('plays one of two moves sent at once; the other is told the game moved on', async () => {
    const before = await movesOf(BOB);
    const vacant = ['f6', 'k11', 'l12', 'e5', 'm13', 'd4'].filter((p) => !before.includes(pt(p)));
    const one = send({ type: 'command', name: 'move', user: BOB, options: { point: vacant[0] } });
    const two = send({ type: 'command', name: 'move', user: BOB, options: { point: vacant[1] } });
    const answers = await Promise.all([answerOf(one), answerOf(two)]);
    const played = answers.filter((a) => !a.ephemeral);
    const refused = answers.filter((a) => a.ephemeral);
    expect(played).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0].content).toMatch(/^The game moved on: another move of yours was being played when this one came in/);
    const after = await movesOf(BOB);
    expect(after).toHaveLength(before.length + 2);
    expect(after.slice(0, before.length)).toEqual(before);
    expect([pt(vacant[0]), pt(vacant[1])]).toContain(after[before.length]);
  });

  it('lets only admins reset the memory, after a confirmation, and never another server\'s', async () => {
    const learned = (await storage.guild(GUILD).library.list()).length;
    const member = await command(CAROL, 'reset-memory', {}, MEMBER_PERMISSIONS);
    expect(member).toMatchObject({ ephemeral: true, customIds: [] });
    expect(member.content).toMatch(/^Only members who can manage this server/);
    expect(await storage.guild(GUILD).library.list()).toHaveLength(learned);

    const ask = await command(OWNER, 'reset-memory', {}, ADMIN_PERMISSIONS);
    expect(ask.ephemeral).toBe(true);
    expect(ask.content).toMatch(new RegExp(`^This forgets everything this server has taught me: ${learned} learned subgoal`));
    // What it forgets is its own games' record; games between members stay, and it says so.
    expect(ask.content).toMatch(/finished games? against me\. Games being played now, and the games between members, are kept;/);
    expect(ask.customIds).toEqual([`reset-memory:confirm:${OWNER.id}`, `reset-memory:cancel:${OWNER.id}`]);
    const press = (customId: string, messageId: string | undefined, user = OWNER) =>
      answerOf(send({ type: 'button', customId, ...(messageId !== undefined ? { messageId } : {}), user, permissions: ADMIN_PERMISSIONS }));
    const cancelled = await press(`reset-memory:cancel:${OWNER.id}`, ask.messageId);
    expect(cancelled).toMatchObject({ content: 'Nothing was forgotten.', customIds: [] });
    expect(await storage.guild(GUILD).library.list()).toHaveLength(learned);

    const again = await command(OWNER, 'reset-memory', {}, ADMIN_PERMISSIONS);
    // Someone else's press on that prompt is refused, and leaves the prompt as it was.
    const intruder = await answerOf(send({ type: 'button', customId: `reset-memory:confirm:${OWNER.id}`, messageId: again.messageId, user: BOB, permissions: ADMIN_PERMISSIONS }));
    expect(intruder).toMatchObject({ ephemeral: true, content: expect.stringMatching(/^That button answers someone else's request/) });
    expect(await storage.guild(GUILD).library.list()).toHaveLength(learned);

    const confirmed = await press(`reset-memory:confirm:${OWNER.id}`, again.messageId);
    expect(confirmed.content).toBe(`Done: I forgot ${learned} learned subgoal${learned === 1 ? '' : 's'}, their counters and the finished games. I start again from the rule of the game.`);
    const g = storage.guild(GUILD);
    expect([await g.library.list(), await g.stats.list(), await g.records.list()]).toEqual([[], [], []]);
    expect(await g.games.get(gameKey(CHANNEL, BOB.id))).toBeDefined();
    expect(await storage.guild(OTHER_GUILD).library.list()).toHaveLength(1);
    expect((await command(CAROL, 'library')).content).toContain('**This server\'s library**: 0 learned subgoals');
  });

  it('keeps a game through a restart: the board is as it was and play goes on', async () => {
    await command(DAVE, 'challenge', { size: 15, level: 2 });
    await command(DAVE, 'move', { point: 'h8' });
    await command(DAVE, 'move', { point: 'g7' });
    const before = await movesOf(DAVE);
    expect(before).toHaveLength(4);

    // A crash, not a clean stop: the game was saved when the move was answered.
    expect(await bot!.stop('SIGKILL')).toBeNull();
    bot = spawnStart([], env, cwd);
    await bot.waitFor(READY);

    const board = await command(DAVE, 'board');
    expect(board.content).toContain(`<@${DAVE.id}>'s game: 15×15 · you play black · level 2 · 4 moves.`);
    await expectBoardImage(board.files[0].bytes, 15, cellsAfter(before));
    const vacant = ['j9', 'f6', 'j10', 'e5'].find((p) => !before.includes(pt(p)))!;
    const moved = await command(DAVE, 'move', { point: vacant });
    expect(moved.content).toContain(`<@${DAVE.id}> played **${vacant}**.`);
    const after = await movesOf(DAVE);
    expect(after.slice(0, 5)).toEqual([...before, pt(vacant)]);
    expect(after).toHaveLength(6);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await bot!.stop('SIGTERM')).toBe(0);
    expect(bot!.output()).toMatch(/INFO stopped/);
    bot = undefined;
  });

  it('with Redis down, answers "storage unavailable, try again" and stays up', async () => {
    bot = spawnStart([], { ...env, REDIS_URL: 'redis://127.0.0.1:1' }, cwd);
    await bot.waitFor(READY, 20_000);
    for (let i = 0; i < 2; i++) {
      const answer = await command(ALICE, 'challenge', { size: 15 });
      expect(answer).toMatchObject({ ephemeral: true, content: 'Storage unavailable, try again in a moment. Nothing changed.' });
    }
    expect(bot.child.exitCode).toBeNull();
  });
});
