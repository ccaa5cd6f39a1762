/**
 * /challenge [opponent] [size] [colour] [level] — starts a game in this channel: against the bot,
 * or, with `opponent`, invites another member (src/bot/versus.ts), who accepts or declines with
 * the buttons on the invitation. Defaults: 19×19 (the paper's board), the challenger plays
 * black, level 3 against the bot. One game per member per channel against the bot, one per
 * pair of members per channel. An invitation expires after ten minutes: its message then says
 * so and loses its buttons (a press on it after a restart is told so too).
 */
import { InteractionContextType, MessageFlags, SlashCommandBuilder, type ButtonInteraction, type ChatInputCommandInteraction } from 'discord.js';
import type { Level } from '../src/play/player.ts';
import type { BoardSize } from '../src/bot/gameTerms.ts';
import type { ColourChoice } from '../src/bot/gameViews.ts';
import { declinedView, invitationExpiredView, invitationView, versusStartedView } from '../src/bot/communityViews.ts';
import { makeInvitationId, parseInvitationId, type Invitation } from '../src/bot/versus.ts';
import { challengedView, problemReply, replyTo } from '../src/bot/views.ts';
import { describeBotProblem, discordFrontend as f } from '../src/bot/words.ts';
import { errorText } from '../src/bot/log.ts';
import { seatOf, type CommandContext } from '../src/discord/command.ts';
import { messageOf } from '../src/discord/respond.ts';
import { integerChoice, stringChoice } from '../src/discord/options.ts';

export const data = new SlashCommandBuilder()
  .setName('challenge')
  .setDescription('Start a game of Go-Moku in this channel, against me or another member')
  .setContexts(InteractionContextType.Guild)
  .addUserOption((o) => o.setName('opponent').setDescription('A member to play instead of me (they accept or decline)'))
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

/** Invitations answered in this process, so the expiry does not overwrite the answer. */
const answered = new Set<string>();

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  if (seat === undefined) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  // Checked against the registered choices: a stale or forged value never reaches storage.
  const sizeChoice = integerChoice<BoardSize>(interaction, 'size', [15, 19], '15 or 19');
  const colourChoice = stringChoice<ColourChoice>(interaction, 'colour', ['black', 'white', 'random'], 'black, white or random');
  const levelChoice = integerChoice<Level>(interaction, 'level', [1, 2, 3, 4, 5], 'a level from 1 to 5');
  if (!sizeChoice.ok) return ctx.answer(interaction, problemReply(sizeChoice.problem, f));
  if (!colourChoice.ok) return ctx.answer(interaction, problemReply(colourChoice.problem, f));
  if (!levelChoice.ok) return ctx.answer(interaction, problemReply(levelChoice.problem, f));
  const [size, colour, level] = [sizeChoice.value, colourChoice.value, levelChoice.value];
  const opponent = interaction.options.getUser('opponent');
  if (opponent === null || opponent.id === interaction.client.user.id) {
    const work = ctx.service.challenge(seat, { size, colour, level });
    return ctx.answer(interaction, work.then((r) => replyTo(r, f, (c) => challengedView(c, f))));
  }
  if (opponent.bot) return ctx.answer(interaction, problemReply({ code: 'versus-other-bot' }, f));
  if (level !== undefined) {
    return ctx.answer(interaction, problemReply({ code: 'bad-option', option: 'level', text: String(level), allowed: 'left out in a game between members (it is how hard I play)' }, f));
  }
  const work = ctx.service.versus.invite(seat, opponent.id, { size, colour });
  await ctx.answer(interaction, work.then((r) => replyTo(r, f, (inv) => invitationView(inv, f))));
  const invited = await work;
  if (invited.ok) expireLater(interaction, invited.value, ctx);
}

/** When the invitation expires unanswered, its message says so and loses its buttons. */
function expireLater(interaction: ChatInputCommandInteraction, inv: Invitation, ctx: CommandContext): void {
  const id = makeInvitationId('accept', inv);
  const timer = setTimeout(() => {
    if (answered.delete(id)) return;
    interaction.editReply(messageOf(invitationExpiredView(inv, f), interaction.user.id)).catch((e: unknown) => ctx.log.warn('could not mark an invitation expired', { error: errorText(e) }));
  }, Math.max(0, inv.expiresAt - Date.now()));
  timer.unref();
}

/** `challenge:accept:…` and `challenge:decline:…`, on an invitation. */
export async function button(interaction: ButtonInteraction, ctx: CommandContext): Promise<void> {
  const seat = seatOf(interaction);
  const parsed = parseInvitationId(interaction.customId, interaction.channelId);
  if (seat === undefined || parsed === undefined) {
    await interaction.reply({ content: describeBotProblem({ code: 'bad-option', option: 'button', text: interaction.customId, allowed: "a challenge's Accept or Decline" }, f), flags: MessageFlags.Ephemeral });
    return;
  }
  const { action, invitation } = parsed;
  const result = action === 'accept' ? await ctx.service.versus.accept(seat, invitation) : ctx.service.versus.decline(seat, invitation);
  if (!result.ok) {
    // An expired invitation's message says so for everyone; other problems are the presser's alone.
    if (result.problem.code === 'invitation-expired') return ctx.answer(interaction, invitationExpiredView(invitation, f));
    await interaction.reply({ content: describeBotProblem(result.problem, f), flags: MessageFlags.Ephemeral });
    return;
  }
  answered.add(makeInvitationId('accept', invitation));
  const reply = 'by' in result.value ? declinedView(result.value, f) : versusStartedView(result.value, f);
  return ctx.answer(interaction, reply);
}
