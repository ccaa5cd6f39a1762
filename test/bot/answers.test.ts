// Every interaction gets an answer, and option values outside the registered choices are
// refused before anything is stored (issue 26). The bot in this process (startBot) against
// the fake Discord, with the embedded file store. The fake has no commands deployed, so it
// delivers what a client with an older registration — or a hand-made payload — could send:
// commands that no longer exist, options of another type, missing options, values outside
// the choices, autocomplete and buttons nobody handles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameKey } from '../../src/bot/records.ts';
import { startBot, type RunningBot } from '../../src/discord/bot.ts';
import { STALE_OPTIONS_TEXT, UNKNOWN_INTERACTION_TEXT } from '../../src/discord/dispatch.ts';
import { ADMIN_PERMISSIONS, isCallback, startFakeDiscord, type FakeDiscord, type InteractOptions } from '../support/fakeDiscord/index.ts';
import { collectingLog, tempDir } from './support.ts';

const GUILD = '710000000000000001';
const CHANNEL = '720000000000000001';
const PLAYER = { id: '730000000000000001', username: 'player' };
const EPHEMERAL = 64;

describe('every interaction gets an answer', () => {
  let fake: FakeDiscord;
  let bot: RunningBot;
  const removals: Array<() => Promise<void>> = [];
  const { log, lines } = collectingLog();

  beforeAll(async () => {
    fake = await startFakeDiscord({
      guilds: [{ id: GUILD, name: 'club', ownerId: PLAYER.id, members: [PLAYER], channels: [{ id: CHANNEL, name: 'gomoku' }] }],
      botUser: { id: '740000000000000001', username: 'Go-Moku' },
    });
    const { dir, remove } = await tempDir('answers');
    removals.push(remove);
    bot = await startBot({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.url, DATA_DIR: dir, GOMOKU_SEED: '1' }, { log });
    await fake.waitFor(() => (bot.client.isReady() ? true : undefined), { what: 'the client to be ready' });
  });

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
    for (const remove of removals) await remove();
  });

  const privateReply = async (options: InteractOptions) => {
    const i = fake.interact({ user: PLAYER, ...options } as InteractOptions);
    const r = await i.waitForResponse(isCallback(4));
    return { text: r.message?.content ?? '', ephemeral: ((r.message?.flags ?? 0) & EPHEMERAL) !== 0 };
  };
  const stored = () => bot.storage.guild(GUILD).games.get(gameKey(CHANNEL, PLAYER.id));

  it('a command that no longer exists is told so, privately', async () => {
    expect(await privateReply({ type: 'command', name: 'teleport' })).toEqual({ text: UNKNOWN_INTERACTION_TEXT, ephemeral: true });
  });

  it('a button nobody handles is told so, privately', async () => {
    expect(await privateReply({ type: 'button', customId: 'teleport:go' })).toEqual({ text: UNKNOWN_INTERACTION_TEXT, ephemeral: true });
  });

  it('autocomplete for a command without it, or one that no longer exists, gets an empty list', async () => {
    for (const name of ['board', 'teleport']) {
      const i = fake.interact({ type: 'autocomplete', name, user: PLAYER, focused: 'x', options: { x: 'a' } });
      expect((await i.waitForResponse(isCallback(8))).choices).toEqual([]);
    }
  });

  it('options of another type, or a required option missing, are out of date: said so, nothing stored', async () => {
    expect(await privateReply({ type: 'command', name: 'move', options: { point: 5 } })).toEqual({ text: STALE_OPTIONS_TEXT, ephemeral: true });
    expect(await privateReply({ type: 'command', name: 'move' })).toEqual({ text: STALE_OPTIONS_TEXT, ephemeral: true });
    expect(await privateReply({ type: 'command', name: 'challenge', options: { colour: 2 } })).toEqual({ text: STALE_OPTIONS_TEXT, ephemeral: true });
    expect(await stored()).toBeUndefined();
  });

  it('values outside the registered choices are refused with what is allowed, before anything is stored', async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ size: 1000 }, 'size must be 15 or 19, not "1000".'],
      [{ size: 15, level: 99 }, 'level must be a level from 1 to 5, not "99".'],
      [{ level: 0 }, 'level must be a level from 1 to 5, not "0".'],
      [{ colour: 'purple' }, 'colour must be black, white or random, not "purple".'],
    ];
    for (const [options, text] of cases) {
      const started = performance.now();
      expect(await privateReply({ type: 'command', name: 'challenge', options })).toEqual({ text, ephemeral: true });
      expect(performance.now() - started).toBeLessThan(1000);
      expect(await stored()).toBeUndefined();
    }
    // The same member, with values Discord offers, plays as ever.
    const ok = fake.interact({ type: 'command', name: 'challenge', user: PLAYER, options: { size: 15, colour: 'white', level: 2 } });
    // Answered at once or, while the bot thinks of its opening in a worker, deferred then edited.
    await ok.waitForResponse((r) => (r.kind === 'callback' && r.type === 4) || r.kind === 'edit');
    expect(await stored()).toMatchObject({ size: 15, human: 'white', level: 2 });
  });

  it('logs each of them, with its outcome', () => {
    const outcomes = lines.filter((l) => l.message === 'interaction').map((l) => (l.detail as { outcome: string }).outcome);
    expect(outcomes).toContain('unknown_command');
    expect(outcomes.filter((o) => o === 'stale_options')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(4);
  });

  it('/memory watch and share take only on or off: another value, none, or an unknown subcommand changes nothing', async () => {
    const memory = (subcommand: string, options: Record<string, string> = {}) =>
      privateReply({ type: 'command', name: 'memory', subcommand, options, guildId: GUILD, channelId: CHANNEL, permissions: ADMIN_PERMISSIONS } as InteractOptions);
    const before = (await memory('status')).text;
    expect(before).toContain('Watching games between members: **on**');
    for (const [subcommand, state] of [['watch', 'yes'], ['watch', 'ON'], ['share', 'maybe']] as const) {
      expect(await memory(subcommand, { state })).toEqual({ text: `state must be on or off, not "${state}".`, ephemeral: true });
    }
    for (const subcommand of ['watch', 'share', 'explode']) expect(await memory(subcommand)).toEqual({ text: STALE_OPTIONS_TEXT, ephemeral: true });
    expect((await memory('status')).text).toBe(before);
    // And the values Discord offers still work.
    expect((await memory('watch', { state: 'off' })).text).toMatch(/^Watching is \*\*off\*\*/);
    expect((await memory('watch', { state: 'on' })).text).toMatch(/^Watching is \*\*on\*\*/);
  });
});
