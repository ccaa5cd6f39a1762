/**
 * /hint — a move for the member, as the bot at full strength would play it, with the reason in
 * the paper's terms. Only the asker sees it.
 */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { hintView, problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder().setName('hint').setDescription('Suggest a move for you, with its reason (only you see it)').setContexts(InteractionContextType.Guild);

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.hint(seat);
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, hintView)), { deferPrivately: true });
}
