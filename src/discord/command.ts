/**
 * The shape of a slash command (one file each under commands/, after the discord.js guide):
 * its builder, `data`, and its handler, `execute`; optionally `autocomplete` and `button`
 * (button custom ids start with the command's name and a colon, e.g. `reset-memory:confirm:…`).
 *
 * A handler only parses options, calls the service, picks the view and hands the result to
 * `ctx.answer`, which replies. Handlers must call the service before awaiting anything, so a
 * move is claimed the moment its interaction arrives (see `GameService.move`).
 */
import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { BotLog } from '../bot/log.ts';
import type { GameService } from '../bot/service.ts';
import type { Seat } from '../bot/store.ts';
import type { Reply } from '../bot/reply.ts';

export interface CommandContext {
  readonly service: GameService;
  readonly log: BotLog;
  /**
   * Replies to the interaction with what `work` makes: at once when it is ready quickly,
   * else after `deferReply` (or `deferUpdate` for a button). `deferPrivately`: the reply is
   * usually private, so a deferral should be too.
   */
  answer(interaction: ChatInputCommandInteraction | ButtonInteraction, work: Promise<Reply> | Reply, options?: { readonly deferPrivately?: boolean }): Promise<void>;
}

export interface CommandModule {
  readonly data: { readonly name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  execute(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, ctx: CommandContext): Promise<void>;
  button?(interaction: ButtonInteraction, ctx: CommandContext): Promise<void>;
}

/** The member, channel and server of an interaction; undefined outside a server. */
export function seatOf(interaction: { readonly guildId: string | null; readonly channelId: string | null; readonly user: { readonly id: string } }): Seat | undefined {
  if (interaction.guildId === null || interaction.channelId === null) return undefined;
  return { guildId: interaction.guildId, channelId: interaction.channelId, userId: interaction.user.id };
}
