/** /games — this server's recent finished games: who played, how it ended, how long, what I learned. */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { gamesView } from '../src/bot/replayViews.ts';
import { problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import type { CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder().setName('games').setDescription("This server's recent finished games, and what I learned from them").setContexts(InteractionContextType.Guild);

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  if (interaction.guildId === null) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.games(interaction.guildId);
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (p) => gamesView(p, f))));
}
