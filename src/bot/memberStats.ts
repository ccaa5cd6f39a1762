/**
 * The parts of /stats about resignations and members, from the server's finished games.
 *
 * Decisions:
 * - A resignation is neither the bot's win nor a loss the bot learned from: it is counted
 *   apart, and left out of the loss chart, where it would read as the bot winning — bending
 *   the learning curve downwards for reasons that have nothing to do with what it learned.
 * - Per member: wins (fives against the bot), losses (the bot's fives), resignations, draws,
 *   and the best streak of wins in a row, counted over the member's decided games in the
 *   order they ended (a resignation breaks a streak; an expired game does not count).
 * - Members are listed most games first, then most wins, then by id, at most `MEMBERS_SHOWN`.
 */
import type { FinishedGame } from './records.ts';
import type { Frontend } from './frontend.ts';
import { plural } from './words.ts';

export const MEMBERS_SHOWN = 10;

export interface MemberResult {
  readonly userId: string;
  readonly wins: number;
  readonly losses: number;
  readonly resigned: number;
  readonly draws: number;
  readonly bestStreak: number;
}

type Played = Pick<FinishedGame, 'userId' | 'outcome' | 'ending' | 'endedAt'>;

/** Games the member resigned (the bot "won" them without a five). */
export function resignations(records: readonly { readonly ending?: FinishedGame['ending'] }[]): number {
  return records.filter((r) => r.ending === 'resigned').length;
}

/** Each member's results, most games first. */
export function memberResults(records: readonly Played[]): MemberResult[] {
  const byMember = new Map<string, Played[]>();
  for (const r of [...records].sort((a, b) => a.endedAt - b.endedAt)) {
    if (r.outcome === 'abandoned') continue;
    byMember.set(r.userId, [...(byMember.get(r.userId) ?? []), r]);
  }
  const out: MemberResult[] = [];
  for (const [userId, games] of byMember) {
    let streak = 0;
    let bestStreak = 0;
    for (const g of games) {
      streak = g.outcome === 'bot-lost' ? streak + 1 : 0;
      bestStreak = Math.max(bestStreak, streak);
    }
    out.push({
      userId,
      wins: games.filter((g) => g.outcome === 'bot-lost').length,
      losses: games.filter((g) => g.outcome === 'bot-won' && g.ending !== 'resigned').length,
      resigned: games.filter((g) => g.ending === 'resigned').length,
      draws: games.filter((g) => g.outcome === 'draw').length,
      bestStreak,
    });
  }
  const total = (m: MemberResult) => m.wins + m.losses + m.resigned + m.draws;
  return out.sort((a, b) => total(b) - total(a) || b.wins - a.wins || (a.userId < b.userId ? -1 : 1));
}

/** "Members: <@1> 3 wins, 5 losses, 1 resigned, best streak 2; …", one line per member. */
export function memberLines(members: readonly MemberResult[], f: Frontend): string[] {
  if (members.length === 0) return [];
  const shown = members.slice(0, MEMBERS_SHOWN).map((m) => {
    const parts = [plural(m.wins, 'win'), `${m.losses} ${m.losses === 1 ? 'loss' : 'losses'}`];
    if (m.resigned > 0) parts.push(`${m.resigned} resigned`);
    if (m.draws > 0) parts.push(plural(m.draws, 'draw'));
    parts.push(`best streak ${m.bestStreak}`);
    return `${f.who(m.userId)}: ${parts.join(', ')}`;
  });
  const more = members.length > MEMBERS_SHOWN ? [`… and ${plural(members.length - MEMBERS_SHOWN, 'more member')}`] : [];
  return ['**Members** (wins against me, losses, best streak of wins):', ...shown, ...more];
}

/** ", 2 resigned (counted apart)" after the wins and draws, or nothing. */
export function resignedWords(resigned: number): string {
  return resigned > 0 ? `, ${resigned} resigned (counted apart: no five, nothing learned)` : '';
}
