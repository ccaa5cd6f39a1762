/**
 * The `against` option of /move, /board and /resign: which of the member's games in the
 * channel a command is for. Naming the bot itself picks the game against the bot.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import type { Against } from '../bot/versus.ts';

export function againstOf(interaction: ChatInputCommandInteraction, name = 'against'): Against | undefined {
  const user = interaction.options.getUser(name);
  if (user === null) return undefined;
  return user.id === interaction.client.user.id ? { kind: 'bot' } : { kind: 'member', id: user.id };
}
