/** /stats — games, wins and losses, library size and a chart of how often the bot loses. */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { problemReply, replyTo, statsView } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import type { CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder().setName('stats').setDescription('How I have done in this server').setContexts(InteractionContextType.Guild);

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  if (interaction.guildId === null) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.stats(interaction.guildId);
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (s) => statsView(s, f))));
}
