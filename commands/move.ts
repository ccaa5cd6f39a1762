/**
 * /move point:<j10> [against] — plays a move in the member's game here: against the bot, which
 * answers with its move and the new board in one public message, or against a member, refereed
 * (src/bot/versus.ts). With several games here, `against` says which (the bot, or a member).
 * The point autocompletes with vacant points near the stones, nearest the last move first.
 */
import { InteractionContextType, SlashCommandBuilder, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { playedView } from '../src/bot/communityViews.ts';
import { problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import { againstOf } from '../src/discord/against.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder()
  .setName('move')
  .setDescription('Play a move in your game in this channel')
  .setContexts(InteractionContextType.Guild)
  .addStringOption((o) =>
    o.setName('point').setDescription('Where: a column letter and a row number, like j10').setRequired(true).setMaxLength(8).setAutocomplete(true),
  )
  .addUserOption((o) => o.setName('against').setDescription('Which game, when you have several here: your opponent (or me)'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.versus.move(seat, interaction.options.getString('point', true), againstOf(interaction));
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (p) => playedView(p, f))));
}

export async function autocomplete(interaction: AutocompleteInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  const against = interaction.options.get('against')?.value;
  const which = typeof against !== 'string' ? undefined : against === interaction.client.user.id ? ({ kind: 'bot' } as const) : ({ kind: 'member', id: against } as const);
  const names = seat === undefined ? [] : await ctx.service.versus.suggestPoints(seat, interaction.options.getFocused(), which);
  await interaction.respond(names.map((name) => ({ name, value: name })));
}
