/**
 * Option values checked against what the command registered. Discord offers only the
 * registered choices and range, but a value from outside them still arrives: from a client
 * holding an older registration after a redeploy, or from anyone who sends the interaction
 * payload by hand. `size:1000` once reached the service, froze the bot for 10 s and was stored
 * as a game nobody could read (issue 26). So each value is checked here, before the service is
 * called, and one outside them is the `bad-option` problem: nothing is stored.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import type { BotProblem } from '../bot/problems.ts';
import { shownInput } from '../rules/result.ts';

export type Checked<T> = { readonly ok: true; readonly value: T | undefined } | { readonly ok: false; readonly problem: BotProblem };

/** An optional integer option that must be one of `allowed`; `allowedText` says which, for the member. */
export function integerChoice<T extends number>(interaction: ChatInputCommandInteraction, name: string, allowed: readonly T[], allowedText: string): Checked<T> {
  const value = interaction.options.getInteger(name);
  if (value === null) return { ok: true, value: undefined };
  if (!(allowed as readonly number[]).includes(value)) return { ok: false, problem: { code: 'bad-option', option: name, text: String(value), allowed: allowedText } };
  return { ok: true, value: value as T };
}

/** An optional string option that must be one of `allowed`. */
export function stringChoice<T extends string>(interaction: ChatInputCommandInteraction, name: string, allowed: readonly T[], allowedText: string): Checked<T> {
  const value = interaction.options.getString(name);
  if (value === null) return { ok: true, value: undefined };
  if (!(allowed as readonly string[]).includes(value)) return { ok: false, problem: { code: 'bad-option', option: name, text: shownInput(value, 40), allowed: allowedText } };
  return { ok: true, value: value as T };
}


/** Thrown by a command for options no registration of it has (a subcommand it no longer has): answered as discord.js's own option errors are, "out of date". */
export class StaleOptionsError extends Error {}
