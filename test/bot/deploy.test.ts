// npm run deploy against the fake Discord: commands registered both globally and in a server
// show twice there; `--clear-global` and `--clear-guild` remove the other set, through the real
// entry point (bin/start.mjs) and in process, and bad uses change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/bot/io.ts';
import { commandBodies, deployCommands } from '../../src/discord/deploy.ts';
import { main } from '../../src/discord/main.ts';
import { startFakeDiscord, type FakeDiscord } from '../support/fakeDiscord/index.ts';
import { spawnStart } from './botProcess.ts';
import { tempDir } from './support.ts';

const GUILD = '310000000000000001';
const OWNER = { id: '310000000000000101', username: 'owner' };
const NAMES = commandBodies()
  .map((c) => c.name)
  .sort();

let fake: FakeDiscord;
let env: Record<string, string>;
let cwd: string;
const removals: Array<() => Promise<void>> = [];

beforeAll(async () => {
  fake = await startFakeDiscord({ guilds: [{ id: GUILD, name: 'Deploy club', ownerId: OWNER.id, members: [OWNER], channels: [{ id: '310000000000000201', name: 'gomoku' }] }] });
  const dir = await tempDir('deploy');
  removals.push(dir.remove);
  cwd = dir.dir;
  env = { DISCORD_TOKEN: fake.token, DISCORD_CLIENT_ID: fake.applicationId, DISCORD_GUILD_ID: GUILD, DISCORD_API_URL: fake.url };
});

afterAll(async () => {
  await fake?.close();
  for (const r of removals) await r();
});

function capture(): { io: CliIO; text: () => string } {
  let out = '';
  return { io: { out: (t) => void (out += `${t}\n`), err: (t) => void (out += `ERR ${t}\n`), readFile: () => '' }, text: () => out };
}

const names = (guildId?: string) =>
  fake
    .commands(guildId)
    .map((c) => c.name)
    .sort();

describe('npm run deploy', () => {
  it('registered both globally and in a server, every command is there twice', async () => {
    await deployCommands(env);
    await deployCommands({ ...env, DISCORD_GUILD_ID: '' });
    expect(names(GUILD)).toEqual(NAMES);
    expect(names()).toEqual(NAMES);
  });

  it('-- --clear-global keeps the server set and removes the global one', async () => {
    const run = spawnStart(['deploy', '--clear-global'], env, cwd);
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain(`Registered ${NAMES.length} commands in server ${GUILD} (they show at once)`);
    expect(run.output()).toContain(`Removed the global commands (${NAMES.length} there), so no command shows twice`);
    expect(names(GUILD)).toEqual(NAMES);
    expect(names()).toEqual([]);
    const last = fake.registrations().at(-1);
    expect(last).toMatchObject({ method: 'PUT', guildId: null, body: [], commands: [] });
  });

  it('-- --clear-guild goes live: the global set registered, the server set removed', async () => {
    const { io, text } = capture();
    expect(await main(['deploy', '--clear-guild'], env, io)).toBe(0);
    expect(text()).toContain(`Registered ${NAMES.length} commands globally`);
    expect(text()).toContain(`Removed the commands in server ${GUILD} (${NAMES.length} there), so no command shows twice.`);
    expect(names()).toEqual(NAMES);
    expect(names(GUILD)).toEqual([]);
  });

  it('-- --clear-global without a server only removes the global set', async () => {
    const { io, text } = capture();
    const before = fake.registrations().length;
    expect(await main(['deploy', '--clear-global'], { ...env, DISCORD_GUILD_ID: '' }, io)).toBe(0);
    expect(text()).not.toContain('Registered');
    expect(text()).toContain(`Removed the global commands (${NAMES.length} there)`);
    expect(names()).toEqual([]);
    expect(fake.registrations().slice(before).map((r) => [r.method, r.guildId])).toEqual([['PUT', null]]);
  });

  it('refuses what it cannot do, and changes nothing', async () => {
    const before = fake.registrations().length;
    const noGuild = capture();
    expect(await main(['deploy', '--clear-guild'], { ...env, DISCORD_GUILD_ID: '' }, noGuild.io)).toBe(1);
    expect(noGuild.text()).toBe('ERR Could not register the commands: --clear-guild needs DISCORD_GUILD_ID: the server whose commands to remove\n');
    for (const args of [['deploy', '--clear-everything'], ['deploy', '--clear-global', '--clear-guild']]) {
      const bad = capture();
      expect(await main(args, env, bad.io)).toBe(2);
      expect(bad.text()).toContain('npm run deploy -- --clear-global');
    }
    expect(fake.registrations().length).toBe(before);
  });
});
