/**
 * `npm run deploy`: registers the bot's slash commands with Discord, in one PUT of the whole
 * list (commands no longer listed disappear). With `DISCORD_GUILD_ID` they go to that server
 * only and appear at once, which is what you want while trying the bot out; without it they
 * are global, for every server the bot is in (Discord may take up to an hour to show them).
 *
 * A server with both sets shows every command twice. Either set is removed the same way, by
 * PUTting an empty list to it:
 *
 * - `npm run deploy -- --clear-global`: the guild set as usual (with `DISCORD_GUILD_ID`), and
 *   the global set emptied; without `DISCORD_GUILD_ID` it only empties the global set.
 * - `npm run deploy -- --clear-guild`: going live after trying the bot in one server — the
 *   global set registered, and the set in `DISCORD_GUILD_ID` (which must be given) emptied.
 */
import { Routes } from 'discord.js';
import { restFor, type DiscordEnv } from './client.ts';
import { COMMANDS } from './commands.ts';

export interface DeployEnv extends DiscordEnv {
  readonly DISCORD_CLIENT_ID?: string;
  readonly DISCORD_GUILD_ID?: string;
}

/** Which set to empty as well: the global one, or the one in DISCORD_GUILD_ID. */
export type Clear = 'global' | 'guild';

export const DEPLOY_FLAGS: Readonly<Record<string, Clear>> = { '--clear-global': 'global', '--clear-guild': 'guild' };

export interface Deployed {
  /** Where the commands were registered; none when the deploy only cleared. */
  readonly scope: 'guild' | 'global' | 'none';
  readonly guildId?: string;
  readonly names: readonly string[];
  /** The set emptied, and how many commands it held. */
  readonly cleared?: { readonly scope: Clear; readonly removed: number };
}

/** The JSON bodies of every command, as Discord takes them. */
export function commandBodies() {
  return COMMANDS.map((c) => c.data.toJSON());
}

export async function deployCommands(env: DeployEnv, clear?: Clear): Promise<Deployed> {
  const clientId = env.DISCORD_CLIENT_ID?.trim();
  if (clientId === undefined || clientId === '') throw new TypeError('DISCORD_CLIENT_ID is not set: copy the application id from the developer portal into .env');
  const guildId = env.DISCORD_GUILD_ID?.trim() || undefined;
  if (clear === 'guild' && guildId === undefined) throw new TypeError('--clear-guild needs DISCORD_GUILD_ID: the server whose commands to remove');
  const rest = restFor(env);
  const global = Routes.applicationCommands(clientId);
  const guild = guildId === undefined ? undefined : Routes.applicationGuildCommands(clientId, guildId);
  // Register first, then clear: were the second call to fail, the commands are still somewhere.
  const target = clear === 'guild' ? global : clear === 'global' ? guild : (guild ?? global);
  const names = target === undefined ? [] : ((await rest.put(target, { body: commandBodies() })) as { name: string }[]).map((c) => c.name);
  const scope = target === undefined ? 'none' : target === global ? 'global' : 'guild';
  const emptied = clear === 'global' ? global : clear === 'guild' ? guild : undefined;
  let cleared: Deployed['cleared'];
  if (emptied !== undefined) {
    const before = (await rest.get(emptied)) as unknown[];
    await rest.put(emptied, { body: [] });
    cleared = { scope: clear!, removed: before.length };
  }
  return { scope, ...(guildId !== undefined ? { guildId } : {}), names, ...(cleared !== undefined ? { cleared } : {}) };
}
