// End to end, what a newcomer meets (issue 27): the bot in this process (startBot, as
// `npm start` runs it) with the real discord.js client against the fake Discord, and the real
// Redis under a namespace of its own, removed afterwards. The test reads and seeds the same
// namespace through its own storage: hand-built games where a position matters, games played
// through Discord where the whole path does.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { CHART, chartPixel } from '../../src/bot/chart.ts';
import { silentLog } from '../../src/bot/log.ts';
import { plural } from '../../src/bot/words.ts';
import { gameKey, subgoalKey, type BotSchema, type FinishedGame, type StoredGame } from '../../src/bot/records.ts';
import { parseDescription } from '../../src/notation/descriptionNotation.ts';
import { compileCached } from '../../src/learning/library.ts';
import { startBot, type RunningBot } from '../../src/discord/bot.ts';
import { parseGame } from '../../src/rules/gameRecord.ts';
import { makePoint, parsePoint } from '../../src/rules/point.ts';
import { boardLayout, defaultTheme, legendLayout, pointToPixel, replayLayout } from '../../src/render/index.ts';
import { expectOk } from '../../src/rules/result.ts';
import type { Storage } from '../../src/storage/index.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../../src/rules/types.ts';
import { eventually } from '../storage/support.ts';
import { isCallback, MEMBER_PERMISSIONS, startFakeDiscord, type FakeDiscord } from '../support/fakeDiscord/index.ts';
import { decodeGif } from '../support/gif.ts';
import { decode, distance, hexToRgb, luminance } from '../render/png.ts';
import { answerOf, type Answer } from './answer.ts';
import { expectBoardImage, REDIS_URL, tempDir, uniqueNamespace } from './support.ts';

const GUILD = '510000000000000001';
const CHANNEL = '520000000000000001';
const ALICE = { id: '530000000000000001', username: 'alice' };
const BOB = { id: '530000000000000002', username: 'bob' };
const CAROL = { id: '530000000000000003', username: 'carol' };
const DAVE = { id: '530000000000000004', username: 'dave' };
const ERIN = { id: '530000000000000005', username: 'erin' };
const HOUR = 3_600_000;
const MB = 1024 * 1024;

const pt = (size: number, text: string) => expectOk(parsePoint(size, text));

/** A member's game, hand-built: black's and white's stones alternately, black first. */
function handBuilt(user: { id: string }, id: string, black: readonly string[], white: readonly string[], updatedAt: number): StoredGame {
  const moves = black.flatMap((b, i) => (i < white.length ? [pt(15, b), pt(15, white[i])] : [pt(15, b)]));
  return { id, channelId: CHANNEL, userId: user.id, size: 15, human: 'black', level: 1, seed: 7, moves, startedAt: updatedAt, updatedAt, recognised: [], played: [] };
}

function cellsOf(moves: readonly number[]): Cell[] {
  const cells = new Array<Cell>(15 * 15).fill(EMPTY);
  moves.forEach((p, i) => (cells[p] = i % 2 === 0 ? BLACK : WHITE));
  return cells;
}

describe('a newcomer on Discord: six in a row, expired games, past games and replays', () => {
  let fake: FakeDiscord;
  let bot: RunningBot;
  let storage: Storage<BotSchema>;
  const removals: Array<() => Promise<void>> = [];

  const command = (user: typeof ALICE, name: string, options: Record<string, string | number> = {}) =>
    answerOf(fake.interact({ type: 'command', guildId: GUILD, channelId: CHANNEL, name, user, options, permissions: MEMBER_PERMISSIONS }), 20_000);

  beforeAll(async () => {
    const work = await tempDir('newcomer');
    const mine = await tempDir('newcomer-test-side');
    removals.push(work.remove, mine.remove);
    const namespace = uniqueNamespace('newcomer');
    storage = await openBotStorage({ REDIS_URL, STORAGE_NAMESPACE: namespace, DATA_DIR: mine.dir }, silentLog);
    const now = Date.now();
    // Alice is one move from six in a row: c3 d3 e3 . g3 h3.
    await storage.guild(GUILD).games.put(gameKey(CHANNEL, ALICE.id), handBuilt(ALICE, 'six', ['c3', 'd3', 'e3', 'g3', 'h3'], ['a15', 'c13', 'e15', 'o1', 'm15'], now));
    // Bob last moved 25 hours ago: the sweep will put his game away.
    await storage.guild(GUILD).games.put(gameKey(CHANNEL, BOB.id), handBuilt(BOB, 'idle', ['h8', 'i9'], ['g7', 'j10'], now - 25 * HOUR));
    // A long game Dave lost as black two days ago: 170 moves, for the replay's size.
    const long = expectOk(parseGame(readFileSync(new URL('../fixtures/games/replay/long-170.txt', import.meta.url), 'utf8')));
    const record: FinishedGame = {
      id: 'mwlong00-0170',
      channelId: CHANNEL,
      userId: DAVE.id,
      size: 19,
      human: 'black',
      level: 5,
      outcome: 'bot-won',
      ending: 'five',
      startedAt: now - 49 * HOUR,
      endedAt: now - 48 * HOUR,
      moves: long.moves.slice(),
      learned: [],
    };
    await storage.guild(GUILD).records.put(record.id, record);

    fake = await startFakeDiscord({
      guilds: [{ id: GUILD, name: 'Go-Moku club', ownerId: ALICE.id, members: [ALICE, BOB, CAROL, DAVE, ERIN], channels: [{ id: CHANNEL, name: 'gomoku' }] }],
      botUser: { id: '540000000000000001', username: 'Go-Moku' },
    });
    bot = await startBot(
      { DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.url, REDIS_URL, STORAGE_NAMESPACE: namespace, DATA_DIR: work.dir, GOMOKU_SEED: '27' },
      { log: silentLog, sweepEveryMs: 200 },
    );
    await fake.waitFor(() => (bot.client.isReady() ? true : undefined), { what: 'the client to be ready' });
  }, 60_000);

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
    if (storage !== undefined) {
      await storage.backend.clearAll();
      await storage.close();
    }
    for (const remove of removals) await remove();
  });

  it('a move that makes six in a row is told so: only exactly five wins, and the game goes on', async () => {
    const before = (await storage.guild(GUILD).games.get(gameKey(CHANNEL, ALICE.id)))!.moves;
    const moved = await command(ALICE, 'move', { point: 'f3' });
    expect(moved.ephemeral).toBe(false);
    expect(moved.content).toContain(`<@${ALICE.id}> played **f3**.`);
    expect(moved.content).toContain('That makes six in a row (c3–h3) — only exactly five wins, so the game goes on.');
    expect(moved.content).toMatch(/I answer \*\*[a-o]\d+\*\*/);
    expect(moved.content).not.toMatch(/You win|I win/);
    const after = await storage.guild(GUILD).games.get(gameKey(CHANNEL, ALICE.id));
    expect(after?.finished).toBeUndefined();
    expect(after?.moves.slice(0, before.length + 1)).toEqual([...before, pt(15, 'f3')]);
    expect(after?.moves).toHaveLength(before.length + 2);
    await expectBoardImage(moved.files[0].bytes, 15, cellsOf(after!.moves));
  });

  it('/hint shows where the bot would consider playing, as a heat map with the hint ringed', async () => {
    const hint = await command(ALICE, 'hint');
    expect(hint.ephemeral).toBe(true);
    const point = /^Try \*\*([a-o]\d+)\*\*\. /.exec(hint.content)?.[1];
    expect(point, hint.content).toBeDefined();
    expect(hint.content).toContain('the redder the more');
    expect(hint.files.map((f) => f.name)).toEqual(['hint.png']);
    const image = await decode(hint.files[0].bytes);
    const layout = boardLayout(15, defaultTheme);
    expect([image.width, image.height]).toEqual([layout.width, layout.height]);
    const c = pointToPixel(layout, pt(15, point!));
    expect(distance(image.at({ x: c.x + layout.cell * 0.42, y: c.y }), hexToRgb(defaultTheme.heat.ring))).toBeLessThan(60);
    // Some vacant points are tinted: reddish, where the bare board is wood.
    const moves = (await storage.guild(GUILD).games.get(gameKey(CHANNEL, ALICE.id)))!.moves;
    let tinted = 0;
    for (let p = 0; p < 225; p++) {
      if (moves.includes(p)) continue;
      const q = pointToPixel(layout, p);
      const [r, g] = image.at({ x: q.x + layout.cell / 4, y: q.y + layout.cell / 4 });
      if (r - g > 90) tinted++;
    }
    expect(tinted).toBeGreaterThan(0);
  });

  it('an idle game swept away leaves word: the next command says it expired, after how long and when', async () => {
    await eventually(async () => expect(await storage.guild(GUILD).tombstones.get(gameKey(CHANNEL, BOB.id))).toBeDefined(), 10_000);
    const tombstone = (await storage.guild(GUILD).tombstones.get(gameKey(CHANNEL, BOB.id)))!;
    expect(tombstone.game).toBe('idle');
    expect(await storage.guild(GUILD).games.get(gameKey(CHANNEL, BOB.id))).toBeUndefined();
    const said = `Your game here expired after 24 hours without a move (on <t:${Math.floor(tombstone.at / 1000)}:f>); /challenge to start a new one.`;
    for (const [name, options] of [['move', { point: 'h9' }], ['board', {}], ['hint', {}], ['resign', {}]] as const) {
      const answer = await command(BOB, name, options);
      expect(answer, name).toMatchObject({ ephemeral: true, content: said, files: [] });
    }
    // It was recorded as abandoned, and nothing was played.
    const record = await storage.guild(GUILD).records.get('idle');
    expect(record).toMatchObject({ outcome: 'abandoned', ending: 'expired', moves: [pt(15, 'h8'), pt(15, 'g7'), pt(15, 'i9'), pt(15, 'j10')] });
    // A new challenge clears the word of the old game.
    const started = await command(BOB, 'challenge', { size: 15 });
    expect(started.content).toContain(`<@${BOB.id}> challenged me to Go-Moku: 15×15`);
    expect(await storage.guild(GUILD).tombstones.get(gameKey(CHANNEL, BOB.id))).toBeUndefined();
    expect((await command(BOB, 'board')).content).toContain(`<@${BOB.id}>'s game: 15×15`);
  });

  it('/games lists the recent games: players, result, length and what was learned; /replay animates one', async () => {
    // Carol follows the hints against level 1 until she wins a game.
    let won: { last: Answer; moves: number[] } | undefined;
    for (let attempt = 0; attempt < 4 && won === undefined; attempt++) {
      await command(CAROL, 'challenge', { size: 15, level: 1 });
      const moves: number[] = [];
      for (let i = 0; i < 120; i++) {
        const hint = await command(CAROL, 'hint');
        const point = /^Try \*\*([a-o]\d+)\*\*/.exec(hint.content)?.[1];
        expect(point, hint.content).toBeDefined();
        const last = await command(CAROL, 'move', { point: point! });
        moves.push(pt(15, point!));
        const answer = /I answer \*\*([a-o]\d+)\*\*/.exec(last.content)?.[1];
        if (answer !== undefined) moves.push(pt(15, answer));
        if (/\*\*You win\*\*/.test(last.content)) won = { last, moves };
        if (/\*\*You win\*\*|\*\*I win\*\*|\*\*Draw\*\*/.test(last.content)) break;
      }
    }
    if (won === undefined) throw new Error('Carol never won');
    const record = (await storage.guild(GUILD).records.list()).map((r) => r.value).find((r) => r.userId === CAROL.id && r.outcome === 'bot-lost')!;
    expect(record.moves).toEqual(won.moves);
    const learned = (await storage.guild(GUILD).library.list()).map((e) => e.value).filter((l) => l.provenance.game === record.id);
    expect(learned.length).toBeGreaterThan(0);

    const list = await command(ALICE, 'games');
    expect(list.ephemeral).toBe(false);
    const lines = list.content.split('\n');
    expect(lines[0]).toMatch(/^\*\*Recent games in this server\*\* \(\d+ games, newest first\):$/);
    // Newest first: Carol's win, then the game that expired, then Dave's long loss.
    const ids = lines.flatMap((l) => /^`([^`]+)`/.exec(l)?.[1] ?? []);
    expect(ids[0]).toBe(record.id);
    expect(ids.indexOf('idle')).toBeLessThan(ids.indexOf('mwlong00-0170'));
    const carol = lines.find((l) => l.startsWith(`\`${record.id}\``))!;
    expect(carol).toContain(`<t:${Math.floor(record.endedAt / 1000)}:f> · <@${CAROL.id}> (black) v me (white) · **<@${CAROL.id}> won** with five · ${record.moves.length} moves · taught me `);
    for (const l of learned) expect(carol).toContain(`\`${l.subgoal.text}\` (move ${l.provenance.move})`);
    // The bot's win is walked back too; this one (a hand-made record) taught nothing it did not know.
    expect(lines.find((l) => l.startsWith('`mwlong00-0170`'))).toContain(`<@${DAVE.id}> (black) v me (white) · **I won** with five · 170 moves · taught me nothing new`);
    expect(lines.find((l) => l.startsWith('`idle`'))).toContain('expired unfinished · 4 moves');
    expect(lines[lines.length - 1]).toBe('/replay with a game\'s id shows it move by move.');

    // Autocomplete offers the server's games by id, newest first.
    const typing = fake.interact({ type: 'autocomplete', guildId: GUILD, channelId: CHANNEL, name: 'replay', user: ALICE, focused: 'game', options: { game: '' } });
    const offered = ((await typing.waitForResponse(isCallback(8))).choices ?? []).map((c) => String(c.value));
    expect(offered[0]).toBe(record.id);
    expect(offered).toContain('mwlong00-0170');
    const narrowed = fake.interact({ type: 'autocomplete', guildId: GUILD, channelId: CHANNEL, name: 'replay', user: ALICE, focused: 'game', options: { game: 'mwlong' } });
    expect(((await narrowed.waitForResponse(isCallback(8))).choices ?? []).map((c) => String(c.value))).toEqual(['mwlong00-0170']);

    const replay = await command(ALICE, 'replay', { game: record.id });
    expect(replay.ephemeral).toBe(false);
    expect(replay.content).toMatch(new RegExp(`^\\*\\*Replay\\*\\* of game \`${record.id}\``));
    expect(replay.files.map((f) => f.name)).toEqual([`replay-${record.id}.gif`]);
    const bytes = replay.files[0].bytes;
    expect(bytes.length).toBeLessThan(MB);
    const gif = decodeGif(bytes);
    expect(gif.frames).toHaveLength(record.moves.length + 1);
    const layout = replayLayout(15);
    expect([gif.width, gif.height]).toEqual([layout.width, layout.height]);
    // The last frame is the final position.
    const end = gif.screen(record.moves.length);
    record.moves.forEach((p, i) => {
      const c = pointToPixel(layout, p);
      const lum = luminance(end.at(c.x + layout.cell * 0.32, c.y - layout.cell * 0.08));
      if (i % 2 === 0) expect(lum, makePoint(15, p)).toBeLessThan(80);
      else expect(lum, makePoint(15, p)).toBeGreaterThan(190);
    });
    // Each learned subgoal's realisation is drawn on the frame before its move, a disc on the move's point.
    const blue = hexToRgb(defaultTheme.realisations.black.colour);
    for (const l of learned) {
      const frame = l.provenance.move - 1;
      const c = pointToPixel(layout, record.moves[frame]);
      expect(distance(gif.screen(frame).at(c.x + layout.cell * 0.3, c.y), blue), `${l.subgoal.text} on frame ${frame}`).toBeLessThan(40);
      expect(gif.frames[frame].delayMs).toBe(defaultTheme.replay.markedMs);
      expect(replay.content).toContain(`\`${l.subgoal.text}\` before move ${l.provenance.move} (${makePoint(15, record.moves[frame])})`);
    }
    expect(gif.frames[record.moves.length].delayMs).toBe(defaultTheme.replay.lastMs);
  });

  it('/replay of a 170-move game is one GIF of 171 frames under a megabyte; an unknown game is answered privately', async () => {
    const replay = await command(BOB, 'replay', { game: 'mwlong00-0170' });
    expect(replay.content).toContain(`<@${DAVE.id}> (black) v me (white), 19×19, level 5 · **I won** with five · 170 moves.`);
    const bytes = replay.files[0].bytes;
    expect(bytes.length).toBeLessThan(MB);
    expect(decodeGif(bytes).frames).toHaveLength(171);
    // Typed in capitals (autocomplete offers it whatever the case), it is the same game.
    expect((await command(BOB, 'replay', { game: ' MWLONG00-0170 ' })).content).toContain('170 moves.');
    for (const id of ['nope-0000', '../../etc', '']) {
      const answer = await command(BOB, 'replay', { game: id });
      expect(answer, id).toMatchObject({ ephemeral: true, files: [] });
      expect(answer.content).toMatch(/^This server has no finished game ".*"\. \/games lists the recent ones, with their ids\.$/);
    }
  });

  it('/threats says one line per distinct realisation, "N ways" for those that differ only in implicit nodes, with a legend in the image', async () => {
    // The server has learned the double open three; Erin (black) has j8 k8 and l10 l9: l8 makes one, several ways.
    const subgoal = expectOk(compileCached(expectOk(parseDescription("(1, 1) 3:3', 3'"))));
    await storage.guild(GUILD).library.put(subgoalKey(subgoal.text), { subgoal, provenance: { game: 'elsewhere', move: 9, date: '2026-11-01T00:00:00.000Z' } });
    await storage.guild(GUILD).games.put(gameKey(CHANNEL, ERIN.id), handBuilt(ERIN, 'erin', ['j8', 'k8', 'l10', 'l9'], ['a1', 'a3', 'o15', 'o13'], Date.now()));
    const answer = await command(ERIN, 'threats');
    expect(answer.ephemeral).toBe(false);
    const lines = answer.content.split('\n');
    const atL8 = lines.filter((l) => l.startsWith("`(1, 1) 3:3', 3'` nodes l8"));
    expect(atL8).toHaveLength(1);
    const ways = Number(/ · (\d+) ways, implicit among ([a-o0-9 ]+) \(in every way: ([a-o0-9 ]+)\) · five in 3$/.exec(atL8[0])?.[1]);
    expect(ways).toBeGreaterThan(1);
    expect(answer.content).toMatch(new RegExp(`\\*\\*Black\\*\\* \\(you\\): \\d+ realisations? \\(\\d+ counting each way\\)`));
    // The legend under the board: a disc in each side's colour, a disc for a node and a square for an implicit node.
    const legend = legendLayout(15, { black: 'Black (you)', white: 'White (me)' });
    const image = await decode(answer.files[0].bytes);
    expect([image.width, image.height]).toEqual([legend.width, legend.height]);
    expect(legend.swatches.map((s) => [s.kind, s.side, s.text])).toEqual([
      ['node', 'black', 'Black (you)'],
      ['node', 'white', 'White (me)'],
      ['node', 'black', 'explicit node (its label)'],
      ['implicit', 'black', 'implicit node'],
    ]);
    for (const sw of legend.swatches) {
      const colour = hexToRgb(defaultTheme.realisations[sw.side].colour);
      const size = sw.kind === 'node' ? defaultTheme.realisations.nodeRadius : defaultTheme.realisations.implicitHalf * 1.4;
      const at = sw.kind === 'node' ? { x: sw.at.x - 0.7 * size * legend.board.cell, y: sw.at.y } : { x: sw.at.x - size * legend.board.cell, y: sw.at.y - 0.5 * size * legend.board.cell };
      expect(distance(image.at(at), colour), `${sw.kind} swatch of ${sw.side}`).toBeLessThan(50);
    }
    // And l8 carries black's disc on the board.
    const c = pointToPixel(legend.board, pt(15, 'l8'));
    expect(distance(image.at({ x: c.x + legend.board.cell * 0.3, y: c.y }), hexToRgb(defaultTheme.realisations.black.colour))).toBeLessThan(60);
  });

  it('/stats counts resignations apart, shows each member\'s results, and charts the decided games only, with a legend', async () => {
    const resigned = await command(BOB, 'resign');
    expect(resigned.content).toContain('resigned. **I win.**');
    const records = (await storage.guild(GUILD).records.list()).map((r) => r.value);
    const byFive = (who: string, outcome: string) => records.filter((r) => r.userId === who && r.outcome === outcome && r.ending === 'five').length;
    const membersWon = records.filter((r) => r.outcome === 'bot-lost').length;
    const botWon = records.filter((r) => r.outcome === 'bot-won' && r.ending !== 'resigned').length;
    const draws = records.filter((r) => r.outcome === 'draw').length;
    expect(records.filter((r) => r.ending === 'resigned')).toHaveLength(1);

    const stats = await command(ALICE, 'stats');
    const lines = stats.content.split('\n');
    expect(lines[1]).toBe(`Finished games: ${records.length} — members won ${membersWon}, I won ${botWon}, ${draws} draw${draws === 1 ? '' : 's'}, 1 resigned (counted apart: no five, nothing learned) (and 1 expired).`);
    expect(lines[2]).toBe(`I lost ${Math.round((100 * membersWon) / (membersWon + botWon + draws))}% of the games decided by a five or a full board.`);
    expect(lines).toContain('**Members** (wins against me, losses, best streak of wins):');
    expect(lines).toContain(`<@${CAROL.id}>: ${plural(byFive(CAROL.id, 'bot-lost'), 'win')}, ${byFive(CAROL.id, 'bot-won')} loss${byFive(CAROL.id, 'bot-won') === 1 ? '' : 'es'}${draws > 0 ? `, ${plural(draws, 'draw')}` : ''}, best streak 1`);
    expect(lines).toContain(`<@${DAVE.id}>: 0 wins, 1 loss, best streak 0`);
    expect(lines).toContain(`<@${BOB.id}>: 0 wins, 0 losses, 1 resigned, best streak 0`);

    // The chart: the decided games without the resignation; the overall line ends on their loss rate.
    const decided = records.filter((r) => r.outcome !== 'abandoned' && r.ending !== 'resigned');
    const chart = await decode(stats.files[0].bytes);
    expect([chart.width, chart.height]).toEqual([CHART.width, CHART.height]);
    const end = chartPixel(decided.length, decided.length, membersWon / decided.length);
    expect(distance(chart.at(end), hexToRgb(CHART.overall))).toBeLessThan(40);
    // With fewer than ten decided games the recent line has not begun (the legend says from when);
    // the legend has a dot for a loss, left of its words.
    expect(decided.length).toBeLessThan(10);
  });
});
