/**
 * /threats — the realisations the bot recognises on the member's board, for both colours: an
 * image with each realisation's explicit nodes numbered and its implicit nodes marked,
 * coloured by side, and the list in the paper's notation with moves to five.
 */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { problemReply, replyTo, threatsView } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder()
  .setName('threats')
  .setDescription('Show the realisations I recognise on your board, for both sides')
  .setContexts(InteractionContextType.Guild);

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.threats(seat);
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (t) => threatsView(t, f))));
}
