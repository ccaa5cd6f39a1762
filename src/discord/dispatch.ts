/**
 * Routes each interaction to its command: slash commands to `execute`, autocomplete to
 * `autocomplete`, buttons by the command name before the first `:` of their custom id.
 *
 * The handler is called synchronously on arrival (nothing is awaited first), so a move is
 * claimed in the order its interaction came in. Whatever a handler throws — a bug, or Discord
 * refusing a reply (a late or already answered interaction) — is logged here and never
 * reaches the process: the bot stays up.
 *
 * Every interaction gets an answer (issue 26), never Discord's "The application did not
 * respond": one no command handles (a command removed by a redeploy, a button of an old
 * message, autocomplete for a command that has none) is told so privately, or given an empty
 * list; one whose handler failed before answering — options of a type or shape the command no
 * longer has (a client that has not seen the redeploy yet), or a bug — gets a short private
 * apology. Nothing was changed in either case: handlers read their options before calling the
 * service.
 */
import { DiscordjsErrorCodes, MessageFlags, type Interaction } from 'discord.js';
import { errorText } from '../bot/log.ts';
import type { CommandContext } from './command.ts';
import { commandNamed } from './commands.ts';
import { StaleOptionsError } from './options.ts';
import { INTERNAL_ERROR_TEXT } from './respond.ts';

/** What came of an interaction: handled, no command for it, options out of date, or its handler failed. */
export type Dispatched = 'handled' | 'unknown' | 'stale' | 'failed';

export const UNKNOWN_INTERACTION_TEXT = "I don't know that command or button any more (I have been updated). Nothing changed: see /help for what I answer now.";
export const STALE_OPTIONS_TEXT = "That command's options are out of date (I have been updated). Nothing changed: type the command again to get the new ones.";

const OPTION_ERRORS: ReadonlySet<string> = new Set([
  DiscordjsErrorCodes.CommandInteractionOptionNotFound,
  DiscordjsErrorCodes.CommandInteractionOptionType,
  DiscordjsErrorCodes.CommandInteractionOptionEmpty,
  DiscordjsErrorCodes.CommandInteractionOptionNoSubcommand,
  DiscordjsErrorCodes.CommandInteractionOptionNoSubcommandGroup,
]);

export async function handleInteraction(interaction: Interaction, ctx: CommandContext): Promise<Dispatched> {
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
    ctx.log.warn('an interaction no command handles', { what, interaction: interaction.id });
    await answerIfSilent(interaction, UNKNOWN_INTERACTION_TEXT, ctx);
    return 'unknown';
  }
  ctx.log.debug('interaction', { what, user: interaction.user.id, guild: interaction.guildId });
  try {
    await work;
    return 'handled';
  } catch (e) {
    const stale = e instanceof StaleOptionsError || OPTION_ERRORS.has((e as { code?: unknown }).code as string);
    ctx.log[stale ? 'warn' : 'error']('answering an interaction failed', { what, interaction: interaction.id, error: errorText(e) });
    await answerIfSilent(interaction, stale ? STALE_OPTIONS_TEXT : INTERNAL_ERROR_TEXT, ctx);
    return stale ? 'stale' : 'failed';
  }
}

/** A private answer (or an empty autocomplete) when nothing has been sent yet. */
async function answerIfSilent(interaction: Interaction, text: string, ctx: CommandContext): Promise<void> {
  try {
    if (interaction.isAutocomplete()) {
      if (!interaction.responded) await interaction.respond([]);
    } else if (interaction.isRepliable() && !interaction.replied && !interaction.deferred) {
      await interaction.reply({ content: text, flags: MessageFlags.Ephemeral });
    }
  } catch (e) {
    ctx.log.warn('could not answer an interaction', { interaction: interaction.id, error: errorText(e) });
  }
}
