/**
 * /move point:<j10> — plays a move in the member's game here; the bot answers with its move
 * and the new board in one public message. The point autocompletes with vacant points near
 * the stones, nearest the last move first.
 */
import { InteractionContextType, SlashCommandBuilder, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { movedView, problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder()
  .setName('move')
  .setDescription('Play a move in your game in this channel')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o.setName('point').setDescription('Where: a column letter and a row number, like j10').setRequired(true).setMaxLength(8).setAutocomplete(true),
  );

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.move(seat, interaction.options.getString('point', true));
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (m) => movedView(m, f))));
}

export async function autocomplete(interaction: AutocompleteInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  const names = seat === undefined ? [] : await ctx.service.suggestPoints(seat, interaction.options.getFocused());
  await interaction.respond(names.map((name) => ({ name, value: name })));
}
