/**
 * /challenge [size] [colour] [level] — starts a game against the bot in this channel.
 * Defaults: 19×19 (the paper's board), the challenger plays black, level 3. One game per
 * member per channel: a second challenge while one is being played says so.
 */
import { InteractionContextType, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import type { Level } from '../src/player.ts';
import type { BoardSize } from '../src/bot/records.ts';
import type { ColourChoice } from '../src/bot/service.ts';
import { challengedView, problemReply, replyTo } from '../src/bot/views.ts';
import { discordFrontend as f } from '../src/bot/words.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';

export const data = new SlashCommandBuilder()
  .setName('challenge')
  .setDescription('Start a game of Go-Moku against me in this channel')
  .setContexts(InteractionContextType.Guild)
  .addIntegerOption((o) =>
    o
      .setName('size')
      .setDescription('Board size (default 19, as in the paper)')
      .addChoices({ name: '15×15', value: 15 }, { name: '19×19', value: 19 }),
  )
  .addStringOption((o) =>
    o
      .setName('colour')
      .setDescription('Your colour; black moves first (default black)')
      .addChoices({ name: 'black', value: 'black' }, { name: 'white', value: 'white' }, { name: 'random', value: 'random' }),
  )
  .addIntegerOption((o) => o.setName('level').setDescription('How hard I play, 1 (gentle) to 5 (full strength); default 3').setMinValue(1).setMaxValue(5));

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const size = (interaction.options.getInteger('size') ?? undefined) as BoardSize | undefined;
  const colour = (interaction.options.getString('colour') ?? undefined) as ColourChoice | undefined;
  const level = (interaction.options.getInteger('level') ?? undefined) as Level | undefined;
  const work = ctx.service.challenge(seat, { size, colour, level });
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (c) => challengedView(c, f))));
}
