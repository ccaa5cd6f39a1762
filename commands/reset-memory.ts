/**
 * /reset-memory — forgets this server's library, counters and finished games, after a
 * confirmation with buttons. Server admins only, twice over: Discord shows the command only to
 * members with Manage Server (`setDefaultMemberPermissions`), and both the command and the
 * confirming button check the member's permissions again, since a server can change who sees
 * a command. Another server's memory is never touched: the service clears this guild's keys.
 */
import {
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
} from 'discord.js';
import { problemReply, replyTo, resetCancelledView, resetDoneView, resetPromptView } from '../src/bot/views.ts';
import { describeBotProblem, discordFrontend as f } from '../src/bot/words.ts';
import type { CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder()
  .setName('reset-memory')
  .setDescription("Forget everything this server has taught me (admins only)")
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild);

function canManage(interaction: ChatInputCommandInteraction | ButtonInteraction): boolean {
  return interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  if (interaction.guildId === null) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  if (!canManage(interaction)) return ctx.answer(interaction, problemReply({ code: 'not-admin' }, f));
  const work = ctx.service.stats(interaction.guildId);
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (s) => resetPromptView(s, f))), { deferPrivately: true });
}

/** `reset-memory:confirm:<user>` or `reset-memory:cancel:<user>`, from the prompt above. */
export async function button(interaction: ButtonInteraction, ctx: CommandContext): Promise<void> {
  const [, choice, askedBy] = interaction.customId.split(':');
  if (interaction.guildId === null) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  if (askedBy !== interaction.user.id) {
    // Not an update: the message the button is on belongs to the member who asked.
    await interaction.reply({ content: describeBotProblem({ code: 'not-your-button' }, f), flags: MessageFlags.Ephemeral });
    return;
  }
  if (choice !== 'confirm') return ctx.answer(interaction, resetCancelledView());
  const work = ctx.service.resetMemory(interaction.guildId, canManage(interaction));
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, ({ forgotten, starter }) => resetDoneView(forgotten, starter))));
}
