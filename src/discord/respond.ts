/**
 * Turning a `Reply` (src/bot/reply.ts) into a Discord answer, and answering in time.
 *
 * Discord wants an interaction acknowledged within 3 s. `answer` waits up to `deferAfterMs`
 * (1 s by default) for the reply; if it is ready it is sent as the answer, otherwise the
 * interaction is deferred (`deferReply`, or `deferUpdate` for a button) and the reply edited
 * in when it comes. So quick commands need one request, slow work (an analysis after a loss,
 * a big mnemonic sheet) never misses the deadline, and problems found quickly stay private.
 *
 * A reply that turns out private after a public deferral cannot be made private in place:
 * the deferred message is deleted and the reply sent as a private follow-up.
 *
 * Mentions in replies are shown but ping nobody: a member does not need a notification for
 * every move of their own game.
 */
import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type InteractionEditReplyOptions,
} from 'discord.js';
import type { BotLog } from '../bot/log.ts';
import { errorText } from '../bot/log.ts';
import type { Drawing } from '../bot/picture.ts';
import { drawReply, type Reply } from '../bot/reply.ts';
import { currentAsking } from '../bot/asking.ts';

/** How long a reply may take before the interaction is deferred; 0 defers every one. */
export const DEFAULT_DEFER_AFTER_MS = 1000;

/** What the member sees when a handler fails in a way nobody planned for. */
export const INTERNAL_ERROR_TEXT = 'Something went wrong on my side (it has been logged). Try again; if it keeps happening, tell the server admins.';

/** Custom ids of the confirmation buttons of `reply.confirm`, for the member who asked. */
export function confirmIds(action: string, userId: string): { yes: string; no: string } {
  return { yes: `${action}:confirm:${userId}`, no: `${action}:cancel:${userId}` };
}

const BUTTON_STYLES = { primary: ButtonStyle.Primary, secondary: ButtonStyle.Secondary, success: ButtonStyle.Success, danger: ButtonStyle.Danger } as const;

/** The message for a reply: text, PNG attachments, confirmation buttons. */
export function messageOf(reply: Reply, userId: string): InteractionEditReplyOptions {
  const files = reply.images.map((image) => new AttachmentBuilder(image.png, { name: image.name, description: image.description }));
  const buttons = (reply.buttons ?? []).map((b) => new ButtonBuilder().setCustomId(b.id).setLabel(b.label).setStyle(BUTTON_STYLES[b.style]));
  const components =
    reply.confirm === undefined
      ? buttons.length === 0
        ? []
        : [new ActionRowBuilder<ButtonBuilder>().addComponents(...buttons)]
      : [
          new ActionRowBuilder<ButtonBuilder>().addComponents(
            new ButtonBuilder().setCustomId(confirmIds(reply.confirm, userId).yes).setLabel('Yes, forget it all').setStyle(ButtonStyle.Danger),
            new ButtonBuilder().setCustomId(confirmIds(reply.confirm, userId).no).setLabel('Cancel').setStyle(ButtonStyle.Secondary),
          ),
        ];
  return { content: reply.text, files, components, allowedMentions: { parse: [], users: [...(reply.mention ?? [])] } };
}

export async function answer(
  interaction: ChatInputCommandInteraction | ButtonInteraction,
  work: Promise<Reply> | Reply,
  log: BotLog,
  options: { readonly deferAfterMs?: number; readonly deferPrivately?: boolean; readonly draw?: (drawing: Drawing) => Promise<Buffer> } = {},
): Promise<void> {
  const deferAfterMs = options.deferAfterMs ?? DEFAULT_DEFER_AFTER_MS;
  // Pictures not drawn yet are drawn by `draw` (a worker), never on this thread (picture.ts).
  const draw = options.draw;
  const settled: Promise<Reply> = Promise.resolve(work).then((reply) => (draw === undefined ? reply : drawReply(reply, draw))).catch((e: unknown) => {
    log.error('a command failed', { command: describe(interaction), error: errorText(e) });
    return { text: INTERNAL_ERROR_TEXT, images: [], private: true };
  });
  let early: Reply | undefined;
  // Work sent to a worker may wait behind others' (asking.ts): defer at once rather than after
  // the grace.
  const forWhom = currentAsking();
  if (deferAfterMs > 0 && forWhom?.isSlow !== true) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), deferAfterMs)));
    const slow = forWhom?.whenSlow().then(() => undefined);
    early = await Promise.race(slow === undefined ? [settled, late] : [settled, late, slow]);
    clearTimeout(timer);
  }
  const userId = interaction.user.id;

  if (early !== undefined) {
    const message = messageOf(early, userId);
    if (interaction.isButton()) await interaction.update({ ...message, content: message.content ?? '' });
    else await interaction.reply({ ...message, content: message.content ?? '', flags: early.private ? MessageFlags.Ephemeral : undefined });
    return;
  }

  if (interaction.isButton()) {
    await interaction.deferUpdate();
    await interaction.editReply(messageOf(await settled, userId));
    return;
  }
  await interaction.deferReply(options.deferPrivately === true ? { flags: MessageFlags.Ephemeral } : {});
  const reply = await settled;
  const message = messageOf(reply, userId);
  if (reply.private && options.deferPrivately !== true) {
    await interaction.deleteReply();
    await interaction.followUp({ ...message, content: message.content ?? '', flags: MessageFlags.Ephemeral });
    return;
  }
  await interaction.editReply(message);
}

function describe(interaction: ChatInputCommandInteraction | ButtonInteraction): string {
  return interaction.isButton() ? `button ${interaction.customId}` : `/${interaction.commandName}`;
}
