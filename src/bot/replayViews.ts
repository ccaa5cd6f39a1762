/**
 * The replies of /games and /replay (replay.ts): a list of the server's recent finished games,
 * and a game as an animated GIF. Public, like /board: a game is something to watch.
 */
import { makePoint } from '../rules/point.ts';
import { defaultTheme } from '../render/index.ts';
import { picture } from './reply.ts';
import type { PastGame, PastGames, PastRecord, Replay } from './replay.ts';
import { MAX_TEXT } from './views.ts';
import type { Reply } from './reply.ts';
import type { Frontend } from './frontend.ts';
import { plural } from './words.ts';

export function gamesView(p: PastGames, f: Frontend): Reply {
  if (p.games.length === 0) return { text: `No game has finished ${f.inServer} yet. ${f.command('challenge')} to play one.`, images: [], private: false };
  const head = `**Recent games ${f.inServer}** (${p.games.length === p.total ? plural(p.total, 'game') : `the last ${p.games.length} of ${p.total}`}, newest first):`;
  const foot = `${f.command('replay')} with a game's id shows it move by move.`;
  const lines: string[] = [];
  let used = head.length + foot.length + 2;
  for (const g of p.games) {
    const line = `\`${g.record.id}\` ${f.date(g.record.endedAt)} · ${players(g.record, f)} · ${resultWords(g.record, f)} · ${plural(g.record.moves.length, 'move')} · ${learnedWords(g)}`;
    if (used + line.length + 1 > MAX_TEXT - 30) {
      lines.push(`… and ${p.games.length - lines.length} more`);
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return { text: [head, ...lines, foot].join('\n'), images: [], private: false };
}

export function replayView(r: Replay, f: Frontend): Reply {
  const rec = r.record;
  const size = rec.size;
  const t = defaultTheme.replay;
  const lines = [
    `**Replay** of game \`${rec.id}\` (${f.date(rec.endedAt)}): ${players(rec, f)}, ${size}×${size}${rec.kind === 'bot' ? `, level ${rec.level}` : ''} · ${resultWords(rec, f)} · ${plural(rec.moves.length, 'move')}.`,
    `One frame per move after the empty board, ${t.moveMs / 1000} s each; the last move is ringed${r.snapshot.winningLine !== undefined ? ', and the last frame shows the five' : ''}.`,
  ];
  const shown = r.snapshot.marks.map((m) => m.frame);
  const drawn = r.learned.filter((l) => l.move !== undefined && shown.includes(l.move - 1));
  if (drawn.length > 0) {
    lines.push(
      `What I learned from it is drawn where I recognised it, before the winner's move, held ${t.markedMs / 1000} s: ${drawn.map((l) => `\`${l.text}\` before move ${l.move} (${makePoint(size, rec.moves[l.move! - 1])})`).join(', ')}. Explicit nodes are numbered discs, implicit nodes squares.`,
    );
  } else if (r.learned.length > 0) {
    lines.push(`I learned ${r.learned.map((l) => `\`${l.text}\``).join(', ')} from it.`);
  }
  const text = lines.join('\n');
  return {
    text: text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`,
    // The `png` field carries the GIF's bytes: a reply's image is whatever its name says.
    images: [picture(`replay-${rec.id}.gif`, `Game ${rec.id} move by move: ${plural(rec.moves.length, 'move')} on a ${size}×${size} board`, { kind: 'replay', args: [r.snapshot] })],
    private: false,
  };
}

/** "<@1> (black) v me (white)", or two members. */
function players(rec: PastRecord, f: Frontend): string {
  if (rec.kind === 'members') return `${f.who(rec.black)} (black) v ${f.who(rec.white)} (white)`;
  const bot = rec.human === 'black' ? 'white' : 'black';
  return rec.human === 'black' ? `${f.who(rec.userId)} (black) v me (white)` : `me (${bot}) v ${f.who(rec.userId)} (${rec.human})`;
}

function resultWords(rec: PastRecord, f: Frontend): string {
  switch (rec.ending) {
    case 'five':
      if (rec.kind === 'members') return `**${f.who(rec.result === 'black-won' ? rec.black : rec.white)} won** with five`;
      return rec.outcome === 'bot-lost' ? `**${f.who(rec.userId)} won** with five` : '**I won** with five';
    case 'resigned':
      if (rec.kind === 'members') return `${rec.by !== undefined ? f.who(rec.by) : 'a player'} resigned`;
      return `${f.who(rec.userId)} resigned`;
    case 'full-board':
      return '**draw**, the board full';
    case 'expired':
      return 'expired unfinished';
  }
}

function learnedWords(g: PastGame): string {
  // A game won with five is walked back whoever won it (DESIGN, "Learning from wins"); a
  // resignation, a full board or an expired game has no five to walk back from.
  if (g.record.ending !== 'five') return 'nothing to learn';
  if (g.learned.length === 0) return 'taught me nothing new';
  return `taught me ${g.learned.map((l) => `\`${l.text}\`${l.move !== undefined ? ` (move ${l.move})` : ''}`).join(', ')}`;
}
