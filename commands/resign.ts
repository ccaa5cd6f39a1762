/**
 * /resign [against] — gives up the member's game here: against the bot, the bot wins (and
 * learns nothing: there is no five); against a member, the member wins.
 */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { resignedAnyView } from '../src/bot/communityViews.ts';
import { problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import { againstOf } from '../src/discord/against.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder()
  .setName('resign')
  .setDescription('Give up your game in this channel')
  .setContexts(InteractionContextType.Guild)
  .addUserOption((o) => o.setName('against').setDescription('Which game, when you have several here: your opponent (or me)'));

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const work = ctx.service.versus.resign(seat, againstOf(interaction));
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (v) => resignedAnyView(v, f))));
}
