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
 *
 * When the play workers are all busy, those commands are deferred unless their reply is ready
 * within `BUSY_GRACE_MS`: whatever they send a worker waits behind others' work, and the
 * grace would only delay the acknowledgement (bench/load.ts: 190 of 200 were deferred by the
 * grace's timer, 50-110 ms after they came, most before their work had reached a worker). A
 * refusal made without storage (an option out of range, a move while the last is being
 * played) is ready by then and still comes as its own private reply; one found after the
 * deferral reaches the member privately too (respond.ts).
 */
import type { ButtonInteraction, ChatInputCommandInteraction } from 'discord.js';
import { DEFAULT_DEFER_AFTER_MS } from './respond.ts';

export const SLOW_COMMANDS: ReadonlySet<string> = new Set(['challenge', 'move', 'hint', 'threats', 'library', 'stats', 'replay', 'games']);
export const SLOW_GRACE_MS = 50;
/** The grace while the play workers are busy: one turn of the timers, time for a reply that needs no storage. */
export const BUSY_GRACE_MS = 1;

/**
 * How long this interaction's reply may take before it is deferred; `configured` (a test's)
 * caps it. `workersBusy`: the play workers have work waiting (Thinker.busy).
 */
export function deferAfterFor(interaction: ChatInputCommandInteraction | ButtonInteraction, configured?: number, workersBusy = false): number {
  const usual = configured ?? DEFAULT_DEFER_AFTER_MS;
  if (!interaction.isChatInputCommand() || !SLOW_COMMANDS.has(interaction.commandName)) return usual;
  return Math.min(usual, workersBusy ? BUSY_GRACE_MS : SLOW_GRACE_MS);
}
