/** /board — shows the member's game here (being played, or how it ended), with move numbers. */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { boardView, problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder().setName('board').setDescription('Show your game in this channel').setContexts(InteractionContextType.Guild);

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.board(seat);
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (v) => boardView(v, f))));
}
