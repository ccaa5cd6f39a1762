/**
 * /replay game:<id> — a finished game of this server as an animated GIF, one frame per move,
 * with what I learned from it drawn where I recognised it. The id autocompletes with the
 * server's recent games.
 */
import { InteractionContextType, SlashCommandBuilder, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { replayView } from '../src/bot/replayViews.ts';
import { problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import type { CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder()
  .setName('replay')
  .setDescription('Watch a finished game of this server move by move')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) => o.setName('game').setDescription('The game, as /games lists it').setRequired(true).setMaxLength(40).setAutocomplete(true));

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  if (interaction.guildId === null) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.replay(interaction.guildId, interaction.options.getString('game', true));
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (v) => replayView(v, f))));
}

export async function autocomplete(interaction: AutocompleteInteraction, ctx: CommandContext): Promise<void> {
  const choices = interaction.guildId === null ? [] : await ctx.service.suggestGames(interaction.guildId, interaction.options.getFocused());
  await interaction.respond(choices);
}
