// The bot in this process (startBot) against the fake Discord, for what the end-to-end run
// cannot time: slow work is deferred (here every reply is "slow": deferAfterMs 0), a problem
// found after a public deferral still reaches the member privately, buttons defer their
// update, and the idle sweep runs on its timer. Storage is the embedded file store. The idle
// limit is an hour, so a slow machine cannot expire the game between the tests; the sweep's test
// makes its game an hour and a second old in storage instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBot, type RunningBot } from '../../src/discord/bot.ts';
import { gameKey } from '../../src/bot/records.ts';
import { ADMIN_PERMISSIONS, isCallback, isDelete, isEdit, isFollowUp, startFakeDiscord, type FakeDiscord } from '../support/fakeDiscord/index.ts';
import { eventually } from '../storage/support.ts';
import { collectingLog, tempDir } from './support.ts';

const GUILD = '310000000000000001';
const CHANNEL = '320000000000000001';
const OWNER = { id: '330000000000000001', username: 'owner' };
const PLAYER = { id: '330000000000000002', username: 'player' };
const EPHEMERAL = 64;

describe('replies in time', () => {
  let fake: FakeDiscord;
  let bot: RunningBot;
  const removals: Array<() => Promise<void>> = [];
  const { log, lines } = collectingLog();

  beforeAll(async () => {
    fake = await startFakeDiscord({
      guilds: [{ id: GUILD, name: 'club', ownerId: OWNER.id, members: [OWNER, PLAYER], channels: [{ id: CHANNEL, name: 'gomoku' }] }],
      botUser: { id: '340000000000000001', username: 'Go-Moku' },
    });
    const { dir, remove } = await tempDir('respond');
    removals.push(remove);
    bot = await startBot(
      { DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.url, DATA_DIR: dir, GOMOKU_SEED: '1', GAME_IDLE_HOURS: '1' },
      { log, deferAfterMs: 0, sweepEveryMs: 100 },
    );
    await fake.waitFor(() => (bot.client.isReady() ? true : undefined), { what: 'the client to be ready' });
  });

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
    for (const remove of removals) await remove();
  });

  it('defers slow work publicly, then edits the reply in with the board', async () => {
    const i = fake.interact({ type: 'command', name: 'challenge', user: PLAYER, options: { size: 15 } });
    const deferred = await i.waitForResponse(isCallback(5));
    expect((deferred.message?.flags ?? 0) & EPHEMERAL).toBe(0);
    // The bot's first picture (fonts registered, canvas warmed) on a loaded machine can pass
    // the helper's 2 s wait; what is tested is the order, deferral then edit, not the time.
    const edit = await i.waitForResponse(isEdit, 15_000);
    expect(edit.message.content).toContain('challenged me to Go-Moku: 15×15');
    expect(edit.files.map((f) => f.name)).toEqual(['board.png']);
  });

  it('turns a problem found after a public deferral into a private follow-up, deleting the placeholder', async () => {
    const i = fake.interact({ type: 'command', name: 'move', user: PLAYER, options: { point: 'zz' } });
    await i.waitForResponse(isCallback(5));
    await i.waitForResponse(isDelete);
    const followUp = await i.waitForResponse(isFollowUp);
    expect(followUp.message.content).toMatch(/^"zz" is not a point/);
    expect(followUp.message.flags).toBe(EPHEMERAL);
    expect(i.original()).toBeUndefined();
  });

  it('defers a private command privately', async () => {
    const i = fake.interact({ type: 'command', name: 'hint', user: PLAYER });
    const deferred = await i.waitForResponse(isCallback(), 3000).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${JSON.stringify(i.responses())}`);
    });
    expect(deferred.type).toBe(5);
    expect(deferred.message?.flags ?? 0).toBe(EPHEMERAL | 128); // ephemeral and "loading"
    const edit = await i.waitForResponse(isEdit);
    expect(edit.message.content).toMatch(/^Try \*\*h8\*\*\. The centre: the point with the most room for fives\.\nThe picture: where I would consider playing for you, .+; the blue ring is the hint\.$/);
    expect(edit.files.map((f) => f.name)).toEqual(['hint.png']);
  });

  it('defers a button press with deferUpdate, then edits the prompt', async () => {
    const ask = fake.interact({ type: 'command', name: 'reset-memory', user: OWNER, permissions: ADMIN_PERMISSIONS });
    const prompt = await ask.waitForResponse(isEdit).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${JSON.stringify(ask.responses())}\n${JSON.stringify(lines)}`);
    });
    const press = fake.interact({ type: 'button', customId: `reset-memory:cancel:${OWNER.id}`, messageId: prompt.message.id, user: OWNER, permissions: ADMIN_PERMISSIONS });
    await press.waitForResponse(isCallback(6));
    const edit = await press.waitForResponse(isEdit);
    expect(edit.message).toMatchObject({ id: prompt.message.id, content: 'Nothing was forgotten.', components: [] });
  });

  it('sweeps idle games away on its timer', async () => {
    const games = bot.storage.guild(GUILD).games;
    const stored = (await games.get(gameKey(CHANNEL, PLAYER.id))) as { updatedAt: number } | undefined;
    expect(stored).toBeDefined();
    await games.put(gameKey(CHANNEL, PLAYER.id), { ...stored!, updatedAt: Date.now() - 3_601_000 } as never);
    // The sweep logs its count after it has put the game away: wait for that, not for the
    // game to go, or a slow machine checks the log between the two.
    await eventually(() => expect(lines.some((l) => l.message === 'expired idle games')).toBe(true), 6000);
    expect(await games.get(gameKey(CHANNEL, PLAYER.id))).toBeUndefined();
    const records = await bot.storage.guild(GUILD).records.list();
    expect(records.map((r) => r.value.outcome)).toEqual(['abandoned']);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});
