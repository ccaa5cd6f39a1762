/**
 * What the bot says for the community features: invitations, games between members, the
 * /memory settings and the shared pool, and the ratings part of /stats. Same rules as
 * views.ts: a `Reply` per outcome, public for games (they are there to watch), private for
 * problems and admin prompts; text under Discord's 2000 characters.
 *
 * Decisions:
 * - Games between members notify: the invitation pings the member invited, and every move
 *   pings the member whose turn it is — unlike games against the bot, whose member is answered
 *   at once, a member may wait hours for a person.
 * - The result of a game the bot learned from names the subgoals and the winner's moves they
 *   were learned at: "I watched and learned `(1, 1) 3:3', 3'` from <@a>'s win at move 9".
 */
import { makePoint } from '../rules/point.ts';
import type { LineChartSpec } from '../render/index.ts';
import { picture } from './reply.ts';
import type { Point } from '../rules/types.ts';
import { BOT_PLAYER, opponentOf, playerOf, type MemorySettings, type RatingRecord } from './communityRecords.ts';
import { ratedLine } from './communityWords.ts';
import type { AdoptPreview, Adopted, MemoryStatus, ShareChange } from './pool.ts';
import type { BotResult } from './problems.ts';
import { GLICKO_SETTINGS, ratingText, type LibrarySource, type Standings } from './ratings.ts';
import type { LearnedReport } from './analyser.ts';
import { boardView, movedView, MAX_TEXT, problemReply, resignedView, withBoard } from './views.ts';
import type { Reply } from './reply.ts';
import { makeInvitationId, type Invitation, type Played, type Resigned, type Shown, type VersusMoved, type VersusView } from './versus.ts';
import type { Frontend } from './frontend.ts';
import { plural } from './words.ts';

export const CHART_COLOURS = { rating: '#1b5fc4', loss: '#b3261e', win: '#7b3fa0', watched: '#1b8a3a', pool: '#e0660f', imported: '#5f6b7a', starter: '#a08a1e' } as const;
/** Members listed on the leaderboard. */
export const LEADERBOARD_SIZE = 10;

// ---------------------------------------------------------------------------------------------
// Invitations

export function invitationView(inv: Invitation, f: Frontend): Reply {
  const [black, white] = inv.fromColour === 'black' ? [inv.from, inv.to] : [inv.to, inv.from];
  return {
    text: [
      `${f.who(inv.from)} challenges ${f.who(inv.to)} to Go-Moku: ${inv.size}×${inv.size}, ${f.who(black)} plays **black** (first), ${f.who(white)} **white**.`,
      `${f.who(inv.to)}, do you accept? The challenge expires at ${f.date(inv.expiresAt)}.`,
    ].join('\n'),
    images: [],
    private: false,
    buttons: [
      { id: makeInvitationId('accept', inv), label: 'Accept', style: 'success' },
      { id: makeInvitationId('decline', inv), label: 'Decline', style: 'secondary' },
    ],
    mention: [inv.to],
  };
}

export function declinedView(d: { readonly invitation: Invitation; readonly by: string }, f: Frontend): Reply {
  const { invitation: inv } = d;
  const text = d.by === inv.from ? `${f.who(inv.from)} withdrew the challenge to ${f.who(inv.to)}.` : `${f.who(inv.to)} declined ${f.who(inv.from)}'s challenge.`;
  return { text, images: [], private: false };
}

/** The invitation's message once it expired unanswered: the buttons go. */
export function invitationExpiredView(inv: Invitation, f: Frontend): Reply {
  return { text: `${f.who(inv.from)}'s challenge to ${f.who(inv.to)} expired unanswered. ${f.command('challenge')} again for a new one.`, images: [], private: false };
}

export function versusStartedView(v: VersusView, f: Frontend): Reply {
  const s = v.stored;
  const text = [`Game on: ${f.who(s.black)} (**black**) against ${f.who(s.white)} (**white**), ${s.size}×${s.size}. I referee: exactly five in a row wins; six or more does not.`, nextLine(v, f)].join('\n');
  return { ...withBoard(text, v, false), mention: [s.black] };
}

// ---------------------------------------------------------------------------------------------
// Playing

/** /move's answer, in a game against the bot or against a member. */
export function playedView(p: Played, f: Frontend): Reply {
  return p.kind === 'bot' ? movedView(p.moved, f) : versusMovedView(p.moved, f);
}

/** /board's answer. */
/** /board's answer; `viewer`: who asked, when it may be someone other than the player. */
export function shownView(s: Shown, f: Frontend, viewer?: string): Reply {
  return s.kind === 'bot' ? boardView(s.view, f, viewer !== undefined && viewer !== s.view.stored.userId) : versusBoardView(s.view, f);
}

/** /resign's answer. */
export function resignedAnyView(r: Resigned, f: Frontend): Reply {
  if (r.kind === 'bot') return resignedView(r.view, f);
  const lines = [nextLine(r.view, f)];
  if (r.view.rated !== undefined) lines.push(ratedLine(r.view.rated, f));
  return withBoard(lines.join('\n'), r.view, true);
}

export function versusMovedView(m: VersusMoved, f: Frontend): Reply {
  const s = m.stored;
  const lines = [`${f.who(m.mover)} played **${makePoint(s.size, m.point)}**.`];
  if (m.overline !== undefined) lines.push(overlineLine(m, s.size));
  lines.push(nextLine(m, f));
  if (s.finished?.ending === 'five') lines.push(watchedLines(m, f));
  if (m.rated !== undefined) lines.push(ratedLine(m.rated, f));
  const reply = withBoard(lines.join('\n'), m, m.game.isOver);
  return s.finished === undefined ? { ...reply, mention: [playerOf(s, m.game.turn)] } : reply;
}

export function versusBoardView(v: VersusView, f: Frontend): Reply {
  const s = v.stored;
  const head = `${f.who(s.black)} (black) against ${f.who(s.white)} (white): ${s.size}×${s.size} · ${plural(v.game.moves.length, 'move')}.`;
  return withBoard([head, nextLine(v, f, false)].join('\n'), v, true);
}

/** Whose move, or how the game ended. `call`: say it to the member to move (a notification). */
function nextLine(v: VersusView, f: Frontend, call = true): string {
  const { stored: s, game } = v;
  const fin = s.finished;
  if (fin === undefined) {
    const who = playerOf(s, game.turn);
    return call ? `${f.who(who)}, your move (${game.turn}): ${f.command('move')}.` : `${f.who(who)} to move (${game.turn}).`;
  }
  const winner = fin.result === 'black-won' ? s.black : fin.result === 'white-won' ? s.white : undefined;
  switch (fin.ending) {
    case 'five': {
      const status = game.status;
      const five = status.kind === 'won' ? status.five.map((p: Point) => makePoint(s.size, p)).join(' ') : '';
      return `**${f.who(winner ?? s.black)} wins** with five at ${five}. Well played, both.`;
    }
    case 'resigned':
      return `${f.who(fin.by ?? opponentOf(s, winner ?? s.black))} resigned: **${f.who(winner ?? s.black)} wins**.`;
    case 'full-board':
      return '**Draw**: the board is full.';
    case 'expired':
      return winner === undefined ? 'The game expired before both had moved.' : `The game expired on ${f.who(fin.by ?? '')}'s move: **${f.who(winner)} wins on time**.`;
  }
}

function overlineLine(m: VersusMoved, size: number): string {
  const stones = m.overline?.stones ?? [];
  const row = `${stones.length} in a row (${makePoint(size, stones[0])}–${makePoint(size, stones[stones.length - 1])})`;
  const won = m.game.status.kind === 'won';
  return won ? `That also makes ${row}, which does not count — only exactly five wins; the five does.` : `That makes ${row} — only exactly five wins, so the game goes on.`;
}

/** What the bot learned from watching, or why it learned nothing. */
function watchedLines(m: VersusMoved, f: Frontend): string {
  if (!m.watching) return `Watching is off in this server, so I learned nothing from this game (${f.command('memory')} watch on turns it on).`;
  if (m.analysis?.kind === 'timed-out') return `I began to walk back through the game, but it took longer than ${Number((m.analysis.limitMs / 1000).toFixed(2))} s, so I gave it up: I learned nothing from this game.`;
  if (m.analysis?.kind === 'failed') return 'Something went wrong on my side as I walked back through the game (it has been logged): I learned nothing from this game.';
  const winner = m.stored.finished?.result === 'white-won' ? m.stored.white : m.stored.black;
  const fresh = m.learned.filter((l) => l.isNew);
  const known = m.learned.filter((l) => !l.isNew);
  const list = (ls: readonly LearnedReport[]) => ls.map((l) => `\`${l.text}\` (move ${l.move})`).join(', ');
  const parts: string[] = [];
  if (fresh.length === 1) parts.push(`I watched and learned \`${fresh[0].text}\` from ${f.whose(winner)} win at move ${fresh[0].move}. See ${f.command('library')}.`);
  else if (fresh.length > 1) parts.push(`I watched and learned ${plural(fresh.length, 'new subgoal')} from ${f.whose(winner)} win: ${list(fresh)}. See ${f.command('library')}.`);
  else parts.push('I watched, walked back through the game and found no new subgoal to learn.');
  if (known.length > 0) parts.push(`(Already known: ${list(known)}.)`);
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------------
// /memory

export function watchView(s: MemorySettings): Reply {
  const text = s.watch
    ? 'Watching is **on**: when a game between members here ends in a five, I walk back through it and learn the winner\'s subgoals, as after my own losses.'
    : 'Watching is **off**: I still referee games between members here and rate them, but I learn nothing from them.';
  return { text, images: [], private: true };
}

export function shareView(c: ShareChange, f: Frontend): Reply {
  const cut = c.complete ? '' : ` Storage failed part way, so that is as far as it got: run ${f.command('memory')} share ${c.settings.share ? 'on' : 'off'} again to finish.`;
  const text = c.settings.share
    ? `Sharing is **on**: ${c.changed === 0 ? 'there was nothing new to publish: what this server taught me is in the shared pool already' : `I published ${plural(c.changed, 'subgoal')} this server taught me to the shared pool — their descriptions only, never members, names or games`}. What I learn here from now on is published as I learn it.${cut}`
    : `Sharing is **off**: I withdrew this server from ${plural(c.changed, 'subgoal')} in the shared pool; a subgoal no other server learned is gone from the pool with it. What was adopted here stays.${cut}`;
  return { text, images: [], private: true };
}

/** The confirmation of /memory adopt, with how many subgoals are new here. */
export function adoptPromptView(p: AdoptPreview, userId: string, f: Frontend): Reply {
  if (p.fresh.length === 0) {
    return { text: `Nothing to adopt: the shared pool holds ${plural(p.pool, 'subgoal')} and this server knows ${p.pool === 1 ? 'it' : 'them all'} already.`, images: [], private: true };
  }
  const head = `The shared pool holds ${plural(p.pool, 'subgoal')}; **${p.fresh.length} ${p.fresh.length === 1 ? 'is' : 'are'} new** to this server:`;
  const foot = `Adopt ${p.fresh.length === 1 ? 'it' : 'them'} into this server's library? (${f.command('reset-memory')} forgets adopted subgoals with the rest.)`;
  const items = p.fresh.map((e) => `\`${e.text}\` — learned in ${plural(e.servers, 'server')}`);
  return {
    text: [head, ...fit(items, MAX_TEXT - head.length - foot.length - 4), foot].join('\n'),
    images: [],
    private: true,
    buttons: [
      { id: `memory:adopt:${userId}`, label: `Adopt ${plural(p.fresh.length, 'subgoal')}`, style: 'primary' },
      { id: `memory:cancel:${userId}`, label: 'Cancel', style: 'secondary' },
    ],
  };
}

export function adoptedView(a: Adopted, f: Frontend): Reply {
  const cut = a.complete ? '' : ` Storage failed part way, so that is as far as it got: ${f.command('memory')} adopt again adopts the rest.`;
  const list = a.adopted.length === 0 ? '' : `: ${fit(a.adopted.map((t) => `\`${t}\``), 1500).join(', ')}`;
  return { text: `Adopted ${plural(a.adopted.length, 'subgoal')} from the shared pool${list}. See ${f.command('library')}.${cut}`, images: [], private: true };
}

export function adoptCancelledView(): Reply {
  return { text: 'Nothing was adopted.', images: [], private: true };
}

export function memoryStatusView(s: MemoryStatus): Reply {
  const text = [
    `Watching games between members: **${s.settings.watch ? 'on' : 'off'}**.`,
    `Sharing with the pool: **${s.settings.share ? 'on' : 'off'}**${s.settings.share ? ` (${plural(s.published, 'subgoal')} published from here)` : ''}.`,
    `The shared pool holds ${plural(s.pool, 'subgoal')}.`,
  ].join('\n');
  return { text, images: [], private: true };
}

// ---------------------------------------------------------------------------------------------
// /stats: ratings and the library's sources

/** /stats with the leaderboard, the bot's rating over time and the library's growth from each source added. */
export function withStandings(stats: Reply, standings: BotResult<Standings>, f: Frontend): Reply {
  if (stats.private) return stats;
  if (!standings.ok) return { ...stats, text: `${stats.text}\n${problemReply(standings.problem, f).text}` };
  const s = standings.value;
  // A resignation is a loss to the ratings, though the counts above keep it apart.
  const lines = [`**Ratings** (Glicko-2; a new player starts at ${GLICKO_SETTINGS.rating}; ? while a rating is still uncertain; a resignation counts as a loss)`];
  const rows = [...s.members, ...(s.bot !== undefined ? [s.bot] : [])].sort((a, b) => b.rating - a.rating);
  if (rows.length === 0) lines.push('No rated game yet.');
  rows.slice(0, LEADERBOARD_SIZE).forEach((r, i) => lines.push(`${i + 1}. ${r.player === BOT_PLAYER ? 'me' : f.who(r.player)} ${ratingText(r)} · ${record(r)}`));
  if (rows.length > LEADERBOARD_SIZE) lines.push(`… and ${rows.length - LEADERBOARD_SIZE} more.`);
  const count = (k: string) => s.library.filter((x) => x === k).length;
  // Imported and starter subgoals are named only where there are some: most servers have none.
  const given = [count('imported') > 0 ? `${count('imported')} imported from a library file` : '', count('starter') > 0 ? `${count('starter')} from the starter library` : ''].filter((x) => x !== '');
  lines.push(`Library by source: ${count('loss')} from games I lost, ${count('win')} from games I won, ${count('watched')} from games I watched, ${count('pool')} adopted from the shared pool${given.map((g) => `, ${g}`).join('')}.`);
  const images = [...stats.images];
  const history = s.bot?.history ?? [];
  const rating: LineChartSpec = {
    title: 'My rating, game after game',
    xLabel: 'rated games',
    reference: GLICKO_SETTINGS.rating,
    series: [{ label: 'rating ± deviation', colour: CHART_COLOURS.rating, values: history.map((h) => h.rating), band: history.map((h) => h.rd) }],
  };
  if (hasValues(rating)) images.push(picture('rating.png', `The bot's rating after each of its ${history.length} rated games here`, { kind: 'lineChart', args: [rating] }));
  const growth: LineChartSpec = { title: 'The library, subgoal after subgoal', xLabel: 'subgoals learned', series: growthSeries(s.library) };
  if (hasValues(growth)) images.push(picture('library-growth.png', 'Learned subgoals from each source, as the library grew', { kind: 'lineChart', args: [growth] }));
  return { ...stats, text: `${stats.text}\n${lines.join('\n')}`, images };
}

/** Whether a chart has anything to draw (renderLineChart draws nothing without a value). */
function hasValues(spec: LineChartSpec): boolean {
  return spec.series.some((x) => x.values.length > 0);
}

/** Cumulative counts from each source, one step per learned subgoal. */
export function growthSeries(library: Standings['library']) {
  const series = (source: LibrarySource, label: string) => {
    let n = 0;
    return { label, colour: CHART_COLOURS[source], values: library.map((x) => (x === source ? ++n : n)) };
  };
  const given = (['imported', 'starter'] as const).filter((k) => library.includes(k)).map((k) => series(k, k));
  return [series('loss', 'my losses'), series('win', 'my wins'), series('watched', 'watched'), series('pool', 'adopted'), ...given];
}

/** "3 won, 1 lost, 0 drawn". */
function record(r: RatingRecord): string {
  return `${r.won} won, ${r.lost} lost${r.drawn > 0 ? `, ${r.drawn} drawn` : ''}`;
}

function fit(items: readonly string[], budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < items.length; i++) {
    if (used + items[i].length + 2 > budget - 24) {
      out.push(`… and ${items.length - i} more`);
      break;
    }
    out.push(items[i]);
    used += items[i].length + 2;
  }
  return out;
}
