/** /resign — gives up the member's game here; the bot wins (and learns nothing: there is no five). */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { problemReply, replyTo, resignedView } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder().setName('resign').setDescription('Give up your game in this channel').setContexts(InteractionContextType.Guild);

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.resign(seat);
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (v) => resignedView(v, f))));
}
