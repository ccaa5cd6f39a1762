// A slow analysis seen from Discord: the bot in this process (startBot, deferring after the
// usual 1 s) against the fake Discord, with the project's 1000-subgoal library in its file
// store. The member's winning /move is deferred within Discord's 3 s and edited, once the
// worker is done, with what was learned; while the worker walks back, another member's /board
// is answered at once, not deferred — the event loop is not held.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { gameKey } from '../../src/bot/records.ts';
import { startBot, type RunningBot } from '../../src/discord/bot.ts';
import { Game } from '../../src/rules/game.ts';
import { parseGame } from '../../src/rules/gameRecord.ts';
import { Library } from '../../src/learning/library.ts';
import { expectOk } from '../../src/rules/result.ts';
import { eventually } from '../storage/support.ts';
import { isCallback, isEdit, startFakeDiscord, type FakeDiscord } from '../support/fakeDiscord/index.ts';
import { collectingLog, oneMoveFromTheEnd, storeLibrary, tempDir } from './support.ts';

const GUILD = '410000000000000001';
const CHANNEL = '420000000000000001';
const ALICE = { id: '430000000000000001', username: 'alice' };
const BOB = { id: '430000000000000002', username: 'bob' };
const REPLY = 4;
const DEFERRED = 5;

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('a loss whose analysis is slow, on Discord', () => {
  let fake: FakeDiscord;
  let bot: RunningBot;
  const removals: Array<() => Promise<void>> = [];
  const { log, lines } = collectingLog();
  let last = '';

  beforeAll(async () => {
    const { dir, remove } = await tempDir('slow-loss');
    removals.push(remove);
    const seed = await openBotStorage({ DATA_DIR: dir }, log, { durable: false });
    await storeLibrary(seed, GUILD, expectOk(Library.fromFile(read('../../bench/fixtures/learned-library.txt'))));
    const alice = oneMoveFromTheEnd(expectOk(parseGame(read('../fixtures/games/learning/double-open-three.txt'))), { guildId: GUILD, channelId: CHANNEL, userId: ALICE.id }, 'alice-game');
    last = alice.last;
    await seed.guild(GUILD).games.put(gameKey(CHANNEL, ALICE.id), alice.stored);
    const bobGame = Game.create(19);
    for (const p of [180, 181, 200]) expectOk(bobGame.play(p));
    const bob = { ...alice.stored, id: 'bob-game', userId: BOB.id, human: 'white' as const, moves: bobGame.moves.slice() };
    await seed.guild(GUILD).games.put(gameKey(CHANNEL, BOB.id), bob);
    await seed.close();

    fake = await startFakeDiscord({
      guilds: [{ id: GUILD, name: 'club', ownerId: ALICE.id, members: [ALICE, BOB], channels: [{ id: CHANNEL, name: 'gomoku' }] }],
      botUser: { id: '440000000000000001', username: 'Go-Moku' },
    });
    bot = await startBot({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.url, DATA_DIR: dir, GOMOKU_SEED: '1' }, { log });
    await fake.waitFor(() => (bot.client.isReady() ? true : undefined), { what: 'the client to be ready' });
  }, 120_000);

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
    for (const remove of removals) await remove();
  });

  it('defers the winning move, answers another member meanwhile, then says what was learned', async () => {
    const move = fake.interact({ type: 'command', name: 'move', user: ALICE, options: { point: last } });
    // Reading a thousand subgoals from the file store holds the loop for a while before the
    // analysis starts (reading is not this test's subject); Bob asks once the worker has the game.
    await eventually(() => expect(lines.map((l) => l.message)).toContain('analysing a finished game'), 20_000);

    const board = fake.interact({ type: 'command', name: 'board', user: BOB });
    const shown = await board.waitForResponse(isCallback(REPLY), 3000);
    expect(shown.at, 'ms to answer /board').toBeLessThan(1000);
    expect(shown.message?.content).toContain("<@430000000000000002>'s game");
    expect(lines.some((l) => l.message === 'analysed a finished game'), 'the analysis was still running').toBe(false);

    const deferred = await move.waitForResponse(isCallback(DEFERRED), 3000);
    expect(deferred.at).toBeLessThan(3000);
    const edit = await move.waitForResponse(isEdit, 60_000);
    expect(edit.message.content).toContain('**You win** with five');
    expect(edit.message.content).toMatch(/I walked back through the game and learned \d+ new subgoals?: `/);
    expect(move.rejected()).toEqual([]);
  });
});
