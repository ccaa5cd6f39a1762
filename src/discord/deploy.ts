/**
 * `npm run deploy`: registers the bot's slash commands with Discord, in one PUT of the whole
 * list (commands no longer listed disappear). With `DISCORD_GUILD_ID` they go to that server
 * only and appear at once, which is what you want while trying the bot out; without it they
 * are global, for every server the bot is in (Discord may take up to an hour to show them).
 */
import { Routes } from 'discord.js';
import { restFor, type DiscordEnv } from './client.ts';
import { COMMANDS } from './commands.ts';

export interface DeployEnv extends DiscordEnv {
  readonly DISCORD_CLIENT_ID?: string;
  readonly DISCORD_GUILD_ID?: string;
}

export interface Deployed {
  readonly scope: 'guild' | 'global';
  readonly guildId?: string;
  readonly names: readonly string[];
}

/** The JSON bodies of every command, as Discord takes them. */
export function commandBodies() {
  return COMMANDS.map((c) => c.data.toJSON());
}

export async function deployCommands(env: DeployEnv): Promise<Deployed> {
  const clientId = env.DISCORD_CLIENT_ID?.trim();
  if (clientId === undefined || clientId === '') throw new TypeError('DISCORD_CLIENT_ID is not set: copy the application id from the developer portal into .env');
  const guildId = env.DISCORD_GUILD_ID?.trim() || undefined;
  const rest = restFor(env);
  const route = guildId === undefined ? Routes.applicationCommands(clientId) : Routes.applicationGuildCommands(clientId, guildId);
  const answer = (await rest.put(route, { body: commandBodies() })) as { name: string }[];
  return { scope: guildId === undefined ? 'global' : 'guild', ...(guildId !== undefined ? { guildId } : {}), names: answer.map((c) => c.name) };
}
