/**
 * /memory watch|share|adopt|status — how the bot learns in this server (issue 28). Server
 * admins only, as /reset-memory: Discord shows the command only to members with Manage Server,
 * and the command and the adopt button check the member's permissions again.
 *
 * - `watch state:on|off`: learn from games between members that end in a five (on by default).
 * - `share state:on|off`: publish this server's learned subgoals to the shared pool, or withdraw them.
 * - `adopt`: after a confirmation saying how many are new here, adopt the pool's subgoals.
 * - `status`: the two settings and the pool's size.
 */
import {
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
} from 'discord.js';
import { adoptCancelledView, adoptedView, adoptPromptView, memoryStatusView, shareView, watchView } from '../src/bot/communityViews.ts';
import { problemReply, replyTo } from '../src/bot/views.ts';
import { describeBotProblem, discordFrontend as f } from '../src/bot/words.ts';
import type { CommandContext } from '../src/discord/command.ts';
import { StaleOptionsError, stringChoice } from '../src/discord/options.ts';

const onOff = (o: import('discord.js').SlashCommandStringOption) =>
  o.setName('state').setDescription('on or off').setRequired(true).addChoices({ name: 'on', value: 'on' }, { name: 'off', value: 'off' });

export const data = new SlashCommandBuilder()
  .setName('memory')
  .setDescription('How I learn in this server: watching games, sharing with other servers (admins only)')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) => s.setName('watch').setDescription('Learn from games between members that end in a five').addStringOption(onOff))
  .addSubcommand((s) => s.setName('share').setDescription("Publish this server's learned subgoals to the shared pool, or withdraw them").addStringOption(onOff))
  .addSubcommand((s) => s.setName('adopt').setDescription("Adopt the shared pool's subgoals into this server's library (asks first)"))
  .addSubcommand((s) => s.setName('status').setDescription('Whether I watch and share here, and the size of the pool'));

function canManage(interaction: ChatInputCommandInteraction | ButtonInteraction): boolean {
  return interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
  const guildId = interaction.guildId;
  if (guildId === null) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  const admin = canManage(interaction);
  if (!admin) return ctx.answer(interaction, problemReply({ code: 'not-admin', what: 'memory' }, f), { deferPrivately: true });
  const pool = ctx.service.pool;
  const private_ = { deferPrivately: true } as const;
  const subcommand = interaction.options.getSubcommand(true);
  if (subcommand === 'watch' || subcommand === 'share') {
    // Required, and checked against the registered choices: a stale or forged value ("yes",
    // "ON", none at all) must not turn watching off or withdraw the server from the pool.
    interaction.options.getString('state', true);
    const state = stringChoice(interaction, 'state', ['on', 'off'], 'on or off');
    if (!state.ok) return ctx.answer(interaction, problemReply(state.problem, f), private_);
    const on = state.value === 'on';
    if (subcommand === 'watch') return ctx.answer(interaction, pool.setWatch(guildId, on, admin).then((r) => replyTo(r, f, watchView)), private_);
    return ctx.answer(interaction, pool.setShare(guildId, on, admin).then((r) => replyTo(r, f, (c) => shareView(c, f))), private_);
  }
  if (subcommand === 'adopt') return ctx.answer(interaction, pool.preview(guildId, admin).then((r) => replyTo(r, f, (p) => adoptPromptView(p, interaction.user.id, f))), private_);
  if (subcommand === 'status') return ctx.answer(interaction, pool.status(guildId).then((r) => replyTo(r, f, memoryStatusView)), private_);
  throw new StaleOptionsError(`/memory has no subcommand ${subcommand}`);
}

/** `memory:adopt:<user>` or `memory:cancel:<user>`, from the adopt prompt. */
export async function button(interaction: ButtonInteraction, ctx: CommandContext): Promise<void> {
  const [, choice, askedBy] = interaction.customId.split(':');
  if (interaction.guildId === null) return ctx.answer(interaction, problemReply({ code: 'not-in-server' }, f));
  if (askedBy !== interaction.user.id) {
    await interaction.reply({ content: describeBotProblem({ code: 'not-your-button', command: 'memory adopt' }, f), flags: MessageFlags.Ephemeral });
    return;
  }
  if (choice !== 'adopt') return ctx.answer(interaction, adoptCancelledView());
  const work = ctx.service.pool.adopt(interaction.guildId, canManage(interaction));
  return ctx.answer(interaction, work.then((r) => replyTo(r, f, (a) => adoptedView(a, f))));
}
