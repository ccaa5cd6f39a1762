/**
 * Routes each interaction to its command: slash commands to `execute`, autocomplete to
 * `autocomplete`, buttons by the command name before the first `:` of their custom id.
 *
 * The handler is called synchronously on arrival (nothing is awaited first), so a move is
 * claimed in the order its interaction came in. Whatever a handler throws — a bug, or Discord
 * refusing a reply (a late or already answered interaction) — is logged here and never
 * reaches the process: the bot stays up.
 */
import type { Interaction } from 'discord.js';
import { errorText } from '../bot/log.ts';
import type { CommandContext } from './command.ts';
import { commandNamed } from './commands.ts';

export function handleInteraction(interaction: Interaction, ctx: CommandContext): Promise<void> {
  let work: Promise<void> | undefined;
  let what = 'interaction';
  try {
    if (interaction.isChatInputCommand()) {
      what = `/${interaction.commandName}`;
      work = commandNamed(interaction.commandName)?.execute(interaction, ctx);
    } else if (interaction.isAutocomplete()) {
      what = `autocomplete of /${interaction.commandName}`;
      work = commandNamed(interaction.commandName)?.autocomplete?.(interaction, ctx);
    } else if (interaction.isButton()) {
      what = `button ${interaction.customId}`;
      work = commandNamed(interaction.customId.split(':')[0])?.button?.(interaction, ctx);
    }
  } catch (e) {
    work = Promise.reject(e);
  }
  if (work === undefined) {
    ctx.log.warn('an interaction no command handles', { what });
    return Promise.resolve();
  }
  ctx.log.debug('interaction', { what, user: interaction.user.id, guild: interaction.guildId });
  return work.catch((e: unknown) => ctx.log.error('answering an interaction failed', { what, error: errorText(e) }));
}
