/**
 * What can go wrong for a user of the bot, as values with stable codes (house style: invalid
 * input is a value, turned into words at the edge). The service returns these; the words are
 * made in one place, `describeBotProblem` in words.ts, for Discord and the terminal alike.
 *
 * Every problem but `storage-uncertain` means the same thing: nothing about the game or the
 * server's memory changed.
 */
import type { Colour } from '../rules/types.ts';
import type { CommunityProblem } from './communityProblems.ts';
import type { Outcome } from './gameTerms.ts';

export const BOT_PROBLEM_CODES = [
  'no-game',
  'game-exists',
  'game-over',
  'game-expired',
  'not-your-turn',
  'game-moved-on',
  'bad-point',
  'point-off-board',
  'occupied',
  'bad-option',
  'no-such-page',
  'no-such-game',
  'not-admin',
  'not-in-server',
  'not-your-button',
  'storage-unavailable',
  'storage-uncertain',
] as const;

export type BotProblemCode = (typeof BOT_PROBLEM_CODES)[number];

export type BotProblem =
  /** The member has no game in this channel; `elsewhere`: the channels where they have one going. */
  /** `elsewhere`: channels where the member has a game against the bot; `against`: members they play here. */
  | { readonly code: 'no-game'; readonly elsewhere?: readonly string[]; readonly against?: readonly string[] }
  /** A second challenge while a game is being played. */
  | { readonly code: 'game-exists'; readonly size: number; readonly human: Colour; readonly moves: number }
  /** A move, hint or resignation in a game that has ended (its final board is still shown). */
  | { readonly code: 'game-over'; readonly outcome: Outcome }
  /** The game was idle longer than `idleMs` and was put away at `at` (now, or by the sweep earlier). */
  | { readonly code: 'game-expired'; readonly idleMs: number; readonly at: number }
  /** The stored game has the bot to move (it is still thinking, or was stopped while it was). */
  | { readonly code: 'not-your-turn' }
  /** Another move of the same game was being played when this one came in: it was not applied. */
  | { readonly code: 'game-moved-on' }
  /** Not point notation at all. */
  | { readonly code: 'bad-point'; readonly text: string; readonly size: number }
  /** A point beyond this board's columns or rows. */
  | { readonly code: 'point-off-board'; readonly text: string; readonly size: number }
  | { readonly code: 'occupied'; readonly point: string }
  /** An option outside its allowed values (the terminal; Discord offers only valid choices). */
  | { readonly code: 'bad-option'; readonly option: string; readonly text: string; readonly allowed: string }
  | { readonly code: 'no-such-page'; readonly page: number; readonly pages: number }
  /** /replay of a game this server has no record of (never played here, or forgotten by a reset). */
  | { readonly code: 'no-such-game'; readonly id: string }
  /** /reset-memory by a member who cannot manage the server. */
  /** `what`: what only they may do; resetting the memory unless told. */
  | { readonly code: 'not-admin'; readonly what?: 'memory' }
  /** A command used outside a server (in a DM): each server has its own memory. */
  | { readonly code: 'not-in-server' }
  /** A confirmation button pressed by someone other than the member who asked; `command` makes one's own (default reset-memory). */
  | { readonly code: 'not-your-button'; readonly command?: string }
  /** Redis (or the data folder) did not answer. */
  | { readonly code: 'storage-unavailable' }
  /**
   * The one problem after which something may have changed: a write went unconfirmed past
   * every limit and could not be read back (savedLater.ts), so the reply must not say nothing changed.
   */
  | { readonly code: 'storage-uncertain' }
  /** Games between members and invitations (communityProblems.ts `COMMUNITY_PROBLEM_CODES`). */
  | CommunityProblem;

/** The result of every service call: a value, or a problem for the user. */
export type BotResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: BotProblem };

export function done<T>(value: T): BotResult<T> {
  return { ok: true, value };
}

export function refuse(problem: BotProblem): BotResult<never> {
  return { ok: false, problem };
}
