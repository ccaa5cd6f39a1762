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
import { integerChoice, stringChoice } from '../src/discord/options.ts';

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
  // Checked against the registered choices: a stale or forged value never reaches storage.
  const size = integerChoice<BoardSize>(interaction, 'size', [15, 19], '15 or 19');
  const colour = stringChoice<ColourChoice>(interaction, 'colour', ['black', 'white', 'random'], 'black, white or random');
  const level = integerChoice<Level>(interaction, 'level', [1, 2, 3, 4, 5], 'a level from 1 to 5');
  if (!size.ok) return ctx.answer(interaction, problemReply(size.problem, f));
  if (!colour.ok) return ctx.answer(interaction, problemReply(colour.problem, f));
  if (!level.ok) return ctx.answer(interaction, problemReply(level.problem, f));
  const work = ctx.service.challenge(seat, { size: size.value, colour: colour.value, level: level.value });
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (c) => challengedView(c, f))));
}
