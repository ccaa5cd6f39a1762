/**
 * /board [against] [player] — shows the member's game here (being played, or how it ended),
 * with move numbers; `against` picks one of several; `player` shows another member's game, so
 * anyone can watch.
 */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { shownView } from '../src/bot/communityViews.ts';
import { problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import { againstOf } from '../src/discord/against.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder()
  .setName('board')
  .setDescription('Show your game in this channel, or another member\'s')
  .setContexts(InteractionContextType.Guild)
  .addUserOption((o) => o.setName('against').setDescription('Which game, when there are several: the opponent (or me)'))
  .addUserOption((o) => o.setName('player').setDescription("Watch this member's game instead of yours"));

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const player = interaction.options.getUser('player');
  const whose = player === null ? seat : { ...seat, userId: player.id };
  const work = ctx.service.versus.board(whose, againstOf(interaction));
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (s) => shownView(s, f, seat.userId))));
}
