/**
 * /library [page] — this server's learned subgoals in the paper's notation, grouped by node
 * list as in the paper, each with where it was learned and how it has fared, and a sheet of
 * graphic mnemonics (the paper's Fig. 11).
 */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { libraryView, problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import type { CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder()
  .setName('library')
  .setDescription("Show the subgoals I have learned in this server")
  .setContexts(InteractionContextType.Guild)
  .addIntegerOption((o) => o.setName('page').setDescription('Which page (default 1)').setMinValue(1));

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  if (interaction.guildId === null) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.library(interaction.guildId, interaction.options.getInteger('page') ?? 1);
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (page) => libraryView(page, f))));
}
