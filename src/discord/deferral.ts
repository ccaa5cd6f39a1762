/**
 * When to defer. Discord wants an acknowledgement within 3 s; respond.ts answers at once when
 * the reply is ready within `deferAfterMs`, else defers and edits the reply in later.
 *
 * Commands whose work may take over about a second — the bot's move (and the analysis after a
 * loss), a hint, recognition, a library page, the stats and their charts, a replay's GIF, a
 * challenge the bot opens, the games list — are deferred after a short grace (50 ms) instead of
 * the usual second: a member sees "thinking…" at once, and a quick refusal (not your turn, no
 * game) still comes as its own private reply, not as a public deferral taken back. Other
 * commands answer within the second or are deferred at it.
 */
import type { ButtonInteraction, ChatInputCommandInteraction } from 'discord.js';
import { DEFAULT_DEFER_AFTER_MS } from './respond.ts';

export const SLOW_COMMANDS: ReadonlySet<string> = new Set(['challenge', 'move', 'hint', 'threats', 'library', 'stats', 'replay', 'games']);
export const SLOW_GRACE_MS = 50;

/** How long this interaction's reply may take before it is deferred; `configured` (a test's) caps it. */
export function deferAfterFor(interaction: ChatInputCommandInteraction | ButtonInteraction, configured?: number): number {
  const usual = configured ?? DEFAULT_DEFER_AFTER_MS;
  return interaction.isChatInputCommand() && SLOW_COMMANDS.has(interaction.commandName) ? Math.min(usual, SLOW_GRACE_MS) : usual;
}
