/**
 * What can go wrong in games between members and with invitations, as values with stable codes
 * (problems.ts is where they join the other problems; words.ts hands them here). As everywhere,
 * a problem means nothing changed.
 */
import type { VersusResult } from './communityRecords.ts';
import type { Frontend } from './frontend.ts';

export const COMMUNITY_PROBLEM_CODES = [
  'versus-self',
  'versus-other-bot',
  'versus-exists',
  'no-versus-game',
  'several-games',
  'versus-over',
  'versus-not-your-turn',
  'versus-moved-on',
  'invitation-expired',
  'not-your-invitation',
] as const;

export type CommunityProblem =
  /** A challenge to oneself. */
  | { readonly code: 'versus-self' }
  /** A challenge to a bot other than this one. */
  | { readonly code: 'versus-other-bot' }
  /** The pair already has a game being played in this channel. */
  | { readonly code: 'versus-exists'; readonly opponent: string }
  /** `against:` names a member the asker has no game with here. */
  | { readonly code: 'no-versus-game'; readonly opponent: string }
  /** The member has more than one game being played here and did not say which. */
  | { readonly code: 'several-games'; readonly opponents: readonly string[]; readonly bot: boolean }
  | { readonly code: 'versus-over'; readonly result: VersusResult; readonly black: string; readonly white: string }
  | { readonly code: 'versus-not-your-turn'; readonly opponent: string }
  /** The opponent's move was being played when this one came in: it was not played. */
  | { readonly code: 'versus-moved-on'; readonly opponent: string }
  | { readonly code: 'invitation-expired'; readonly from: string; readonly to: string }
  /** A press on an invitation's buttons by someone it is not for. */
  | { readonly code: 'not-your-invitation'; readonly to: string };

export function describeCommunityProblem(p: CommunityProblem, f: Frontend): string {
  const c = (name: string) => f.command(name);
  switch (p.code) {
    case 'versus-self':
      return `You cannot challenge yourself. Name another member, or leave out the opponent to play me.`;
    case 'versus-other-bot':
      return `Bots other than me do not play here. Challenge a member, or leave out the opponent to play me.`;
    case 'versus-exists':
      return `You already have a game against ${f.who(p.opponent)} in this channel. Play on with ${c('move')}, or ${c('resign')} it first.`;
    case 'no-versus-game':
      return `You have no game against ${f.who(p.opponent)} in this channel. Challenge them with ${c('challenge')} and the opponent option.`;
    case 'several-games': {
      const names = [...p.opponents.map((o) => f.who(o)), ...(p.bot ? ['me'] : [])];
      return `You have ${names.length} games in this channel, against ${listWords(names)}. Say which with the against option (me for the game against me).`;
    }
    case 'versus-over': {
      const how = p.result === 'black-won' ? `${f.who(p.black)} won it` : p.result === 'white-won' ? `${f.who(p.white)} won it` : p.result === 'draw' ? 'it was a draw' : 'it expired';
      return `That game is over: ${how}. Start a new one with ${c('challenge')}.`;
    }
    case 'versus-not-your-turn':
      return `It is ${f.who(p.opponent)}'s turn, not yours. Look at ${c('board')} for their move.`;
    case 'versus-moved-on':
      return `The game moved on: ${f.who(p.opponent)}'s move was being played when yours came in, so yours was not played. Look at ${c('board')}.`;
    case 'invitation-expired':
      return `That challenge from ${f.who(p.from)} to ${f.who(p.to)} expired unanswered. ${c('challenge')} again for a new one.`;
    case 'not-your-invitation':
      return `That challenge is for ${f.who(p.to)}; only they can accept or decline it.`;
  }
}

/** "a", "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
