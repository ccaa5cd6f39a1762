/** /stats — games, wins and losses, library size and a chart of how often the bot loses; the ratings leaderboard, the bot's rating over time and the library by source (communityViews.ts). */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { withStandings } from '../src/bot/communityViews.ts';
import { problemReply, replyTo, statsView } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import type { CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder().setName('stats').setDescription('How I have done in this server').setContexts(InteractionContextType.Guild);

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  if (interaction.guildId === null) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = Promise.all([ctx.service.stats(interaction.guildId), ctx.service.ratings.standings(interaction.guildId)]);
  return ctx.answer(interaction, work.then(([r, standings]) => withStandings(replyTo(r, f, (s) => statsView(s, f)), standings, f)));
}
