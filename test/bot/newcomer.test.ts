// End to end, what a newcomer meets (issue 27): the bot in this process (startBot, as
// `npm start` runs it) with the real discord.js client against the fake Discord, and the real
// Redis under a namespace of its own, removed afterwards. The test reads and seeds the same
// namespace through its own storage: hand-built games where a position matters, games played
// through Discord where the whole path does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { silentLog } from '../../src/bot/log.ts';
import { gameKey, type BotSchema, type StoredGame } from '../../src/bot/records.ts';
import { startBot, type RunningBot } from '../../src/discord/bot.ts';
import { parsePoint } from '../../src/point.ts';
import { expectOk } from '../../src/result.ts';
import type { Storage } from '../../src/storage/index.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../../src/types.ts';
import { eventually } from '../storage/support.ts';
import { MEMBER_PERMISSIONS, startFakeDiscord, type FakeDiscord } from '../support/fakeDiscord/index.ts';
import { answerOf } from './answer.ts';
import { expectBoardImage, REDIS_URL, tempDir, uniqueNamespace } from './support.ts';

const GUILD = '510000000000000001';
const CHANNEL = '520000000000000001';
const ALICE = { id: '530000000000000001', username: 'alice' };
const BOB = { id: '530000000000000002', username: 'bob' };
const CAROL = { id: '530000000000000003', username: 'carol' };
const DAVE = { id: '530000000000000004', username: 'dave' };
const HOUR = 3_600_000;

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

describe('a newcomer on Discord: six in a row, expired games', () => {
  let fake: FakeDiscord;
  let bot: RunningBot;
  let storage: Storage<BotSchema>;
  const removals: Array<() => Promise<void>> = [];

  const command = (user: typeof ALICE, name: string, options: Record<string, string | number> = {}) =>
    answerOf(fake.interact({ type: 'command', guildId: GUILD, channelId: CHANNEL, name, user, options, permissions: MEMBER_PERMISSIONS }));

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

    fake = await startFakeDiscord({
      guilds: [{ id: GUILD, name: 'Go-Moku club', ownerId: ALICE.id, members: [ALICE, BOB, CAROL, DAVE], channels: [{ id: CHANNEL, name: 'gomoku' }] }],
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
});
