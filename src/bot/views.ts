/**
 * What the bot says and shows: each service outcome becomes a `Reply` — text, PNG images and
 * whether only the asker sees it. Discord (src/discord/respond.ts) and the terminal game
 * (src/bot/terminal.ts) turn a Reply into a message or into lines and files; neither makes words
 * of its own, so the two front ends say the same things.
 *
 * Decisions:
 * - Public: /challenge, /move, /resign, /board, /threats, /library, /stats — a game in a
 *   channel is something to watch. Private: every problem, /hint (a hint is for the asker),
 *   /help and the /reset-memory confirmation.
 * - The board after a move shows the last move ringed; /board and every ended game show the
 *   move numbers, so the whole game can be read from one picture.
 * - Reasons are said plainly, with a warning when it matters (reasonWords.ts), and the
 *   player's own explanation in the paper's terms below them in small print.
 * - Text stays under Discord's 2000 characters: long lists are cut with "… and n more".
 */
import type { Game } from '../rules/game.ts';
import type { MoveChoice } from '../play/player.ts';
import { makePoint } from '../rules/point.ts';
import type { Realisation } from '../recognition/realisation.ts';
import type { MnemonicItem } from '../render/index.ts';
import { boardDrawing, threatsDrawing, type Drawing } from './picture.ts';
import { picture, type Reply, type ReplyImage } from './reply.ts';
import { HEAT_LEGEND, heatImage } from './heatView.ts';
import { BOT_VOICE, HINT_VOICE, positionOf, reasonWords, type Voice } from './reasonWords.ts';
import { starterOf } from './starter.ts';
import { memberLines, resignedWords } from './memberStats.ts';
import { groupRealisations, threatLine } from './threatLines.ts';
import type { BoardSnapshot, RealisationOverlay } from '../rules/snapshot.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../rules/types.ts';
import { lossRates } from './chart.ts';
import { ruleExample } from './example.ts';
import type { BotProblem, BotResult } from './problems.ts';
import type { Example } from './records.ts';
import { originWords, ratedLine } from './communityWords.ts';
import type { Rated } from './ratings.ts';
import { savedLaterLine } from './savedLater.ts';
import type { Challenged, GameView, Hinted, LibraryPage, Moved, ServerStats, ThreatsView } from './gameViews.ts';
import type { Frontend } from './frontend.ts';
import { describeBotProblem, outcomeWords, plural } from './words.ts';

/** Discord's limit on a message's text. */
export const MAX_TEXT = 2000;

export function problemReply(p: BotProblem, f: Frontend): Reply {
  return { text: describeBotProblem(p, f), images: [], private: true, problem: p.code };
}

/** A result's value through `view`, or its problem in words. */
export function replyTo<T>(r: BotResult<T>, f: Frontend, view: (value: T) => Reply): Reply {
  return r.ok ? view(r.value) : problemReply(r.problem, f);
}

// ---------------------------------------------------------------------------------------------
// Games

export function challengedView(c: Challenged, f: Frontend): Reply {
  const { stored } = c;
  const lines = [
    `${f.who(stored.userId)} challenged me to Go-Moku: ${stored.size}×${stored.size}, you play **${stored.human}**, level ${stored.level}.`,
  ];
  if (c.replacedExpired) lines.push('(Your previous game here had expired.)');
  if (c.opening !== undefined) lines.push(`I open ${reason(c.game, c.opening)}`);
  lines.push(nextLine(c, f));
  return withBoard(lines.join('\n'), c, false);
}

export function movedView(m: Moved, f: Frontend): Reply {
  const { stored, game } = m;
  const size = stored.size;
  const lines = [`${f.who(stored.userId)} played **${makePoint(size, m.point)}**.`];
  if (m.overline !== undefined) lines.push(overlineLine(m, size));
  if (m.reply !== undefined) lines.push(`I answer ${reason(game, m.reply)}`);
  lines.push(nextLine(m, f));
  if (stored.finished?.outcome === 'bot-lost') lines.push(learnedLines(m, f));
  else if (stored.finished?.outcome === 'bot-won' && stored.finished.ending === 'five') lines.push(learnedLines(m, f, 'win'));
  if (m.rated !== undefined) lines.push(ratedLine(m.rated, f));
  const later = savedLaterLine(m.savedLater);
  if (later !== undefined) lines.push(later);
  return withBoard(lines.join('\n'), m, game.isOver);
}

export function resignedView(v: GameView & { readonly rated?: Rated }, f: Frontend): Reply {
  const rated = v.rated !== undefined ? `\n${ratedLine(v.rated, f)}` : '';
  const later = savedLaterLine(v.savedLater);
  return withBoard(`${f.who(v.stored.userId)} resigned. **I win.** A resignation has no five to walk back from, so there is nothing to learn.${rated}${later !== undefined ? `\n${later}` : ''}`, v, true);
}

/**
 * /board. `watched`: shown to someone other than the player (`/board player:`), in a public
 * reply, so the player is named rather than called "you".
 */
export function boardView(v: GameView, f: Frontend, watched = false): Reply {
  const lines = [`${capitalise(f.whose(v.stored.userId))} game: ${gameLine(v, watched ? f : undefined)}.`, nextLine(v, f, watched)];
  return withBoard(lines.join('\n'), v, true);
}

export function hintView(h: Hinted): Reply {
  const text = `Try ${reason(h.game, h.choice, HINT_VOICE)}\n${HEAT_LEGEND}`;
  return { text, images: [heatImage(h)], private: true };
}

export function threatsView(t: ThreatsView, f: Frontend): Reply {
  const { stored, game } = t;
  const size = stored.size;
  const side = (colour: 'black' | 'white', list: readonly Realisation[]) => {
    const whose = colour === stored.human ? 'you' : 'me';
    const groups = groupRealisations(size, list);
    const ways = list.length > groups.length ? ` (${list.length} counting each way)` : '';
    const head = `**${capitalise(colour)}** (${whose}): ${groups.length === 0 ? 'none' : `${plural(groups.length, 'realisation')}${ways}`}`;
    return [head, ...groups.map(threatLine)];
  };
  const head = `Realisations I recognise on ${f.whose(stored.userId)} board (${gameLine(t)}):`;
  const foot = 'On the image (its legend below the board): explicit nodes are numbered discs, implicit nodes squares, each side in its own colour. Nodes are listed in label order; "ways" are realisations on the same nodes that differ only in their implicit nodes.';
  const body = fitLines([...side('black', t.black), ...side('white', t.white)], MAX_TEXT - head.length - foot.length - 4);
  const drawing = threatsDrawing(game, t, stored.human);
  return {
    text: [head, ...body, foot].join('\n'),
    images: [picture('threats.png', `Realisations on the ${size}×${size} board after move ${game.moves.length}`, drawing)],
    private: false,
    board: drawing.args[0],
  };
}

// ---------------------------------------------------------------------------------------------
// The server's memory

export function libraryView(page: LibraryPage, f: Frontend): Reply {
  const given = page.given !== undefined && page.given > 0 ? `, ${page.given} given by the starter library` : '';
  const head = `**${f.libraryTitle}**: ${plural(page.learned, 'learned subgoal')}${given} and the rule of the game, grouped by node list as in the paper · page ${page.page} of ${page.pages}`;
  const lines: string[] = [];
  let nodeListWidth = 0;
  page.entries.forEach((e, i) => {
    const d = e.subgoal.text;
    const cut = d.indexOf(')') + 1;
    // A group that began on an earlier page is printed in full at the top of this one.
    if (e.groupStart || i === 0) {
      lines.push(d);
      nodeListWidth = cut;
    } else {
      lines.push(`${' '.repeat(nodeListWidth + 1)}${d.slice(cut + 1)}`);
    }
    const starter = starterOf(e.provenance);
    const from = e.provenance === undefined ? 'the rule of the game' : starter !== undefined ? `from the starter library "${starter}", given ${e.provenance.date.slice(0, 10)}` : originWords(e.provenance, e.origin, e.reflected === true);
    lines.push(`      – ${from} · recognised in ${plural(e.stats.recognised, 'game')} · played ${plural(e.stats.played, 'time')} · won ${plural(e.stats.won, 'game')}`);
  });
  const more = page.page < page.pages ? `\nMore: ${f.command('library')} page:${page.page + 1}` : '';
  const items: MnemonicItem[] = page.entries.map((e) => mnemonicItem(e.subgoal.text, e.example ?? (e.provenance === undefined ? ruleExample() : undefined))).filter((x): x is MnemonicItem => x !== undefined);
  // A subgoal adopted from the pool, imported or given by the starter library came with no
  // game of this server to draw its realisation from: the legend says so rather than "each".
  const undrawn = page.entries.length - items.length;
  const legend =
    undrawn === 0
      ? "\nThe picture shows a small realisation of each (the paper's graphic mnemonics)."
      : `\nThe picture shows a small realisation of each learned from a game here (the paper's graphic mnemonics); ${undrawn === 1 ? 'one' : undrawn} on this page came from elsewhere (adopted, imported or the starter library) with no game to draw ${undrawn === 1 ? 'it' : 'them'} from.`;
  const block = fitLines(lines, MAX_TEXT - head.length - more.length - legend.length - 12);
  return {
    text: `${head}\n\`\`\`\n${block.join('\n')}\n\`\`\`${legend}${more}`,
    images: items.length === 0 ? [] : [picture(`library-${page.page}.png`, `Graphic mnemonics of the subgoals on page ${page.page}`, { kind: 'mnemonics', args: [items] })],
    private: false,
  };
}

export function statsView(s: ServerStats, f: Frontend): Reply {
  const decided = s.botWon + s.botLost + s.draws;
  const lines = [
    `**Go-Moku ${f.inServer}**`,
    `Finished games: ${s.games} — members won ${s.botLost}, I won ${s.botWon}, ${plural(s.draws, 'draw')}${resignedWords(s.resigned ?? 0)}${s.abandoned > 0 ? ` (and ${s.abandoned} expired)` : ''}.`,
    decided > 0 ? `I lost ${Math.round((100 * s.botLost) / decided)}% of the games decided${(s.resigned ?? 0) > 0 ? ' by a five or a full board' : ''}.` : (s.resigned ?? 0) > 0 ? 'No game has been decided by a five or a full board yet (resignations are counted apart).' : 'No game has been decided yet.',
    `Library: ${plural(s.learned, 'learned subgoal')} and the rule of the game (${f.command('library')}).`,
    ...memberLines(s.members ?? [], f),
  ];
  return {
    text: lines.join('\n'),
    images: lossRates(s.history).length === 0 ? [] : [picture('stats.png', 'How often the bot has lost, game after game', { kind: 'lossChart', args: [s.history] })],
    private: false,
  };
}

export function resetPromptView(s: ServerStats, f: Frontend): Reply {
  const what = `${plural(s.learned, 'learned subgoal')}, how each has fared, and the record of ${plural(s.games, 'finished game')} against me`;
  return {
    text: f.servers
      ? `This forgets everything this server has taught me: ${what}. Games being played now, and the games between members, are kept; if this server shares with the pool, its contributions are withdrawn, and my rating here starts again. Forget it all?`
      : `This forgets everything I have learned here: ${what}. A game being played now is kept, and my rating starts again. Forget it all?`,
    images: [],
    private: true,
    confirm: 'reset-memory',
  };
}

export function resetDoneView(forgotten: number, starter?: string): Reply {
  const from = starter === undefined ? 'the rule of the game' : `the rule of the game and the starter library "${starter}" (STARTER_LIBRARY)`;
  return { text: `Done: I forgot ${plural(forgotten, 'learned subgoal')}, their counters and the finished games. I start again from ${from}.`, images: [], private: true };
}

export function resetCancelledView(): Reply {
  return { text: 'Nothing was forgotten.', images: [], private: true };
}

// ---------------------------------------------------------------------------------------------
// Help

/** Each slash command in one line, in the order a newcomer meets them. */
export const DISCORD_COMMAND_LINES: readonly string[] = [
  '`/challenge [opponent] [size] [colour] [level]` start a game against me in this channel, or invite a member to play you',
  '`/move point [against]` play a stone, e.g. `h8`; I answer at once, or referee your game against a member',
  '`/board [against] [player]` your game here, with move numbers, or watch another member\'s',
  '`/hint` a move for you, with its reason (only you see it)',
  '`/threats` the realisations I recognise on your board, both sides',
  '`/resign` give up your game',
  '`/library [page]` the subgoals I have learned in this server',
  '`/stats` games won and lost here, and how often I lose',
  '`/games` the recent games here, and what I learned from them',
  '`/replay game` watch a finished game move by move',
  '`/reset-memory` forget all I learned here (Manage Server only)',
  '`/memory watch|share|adopt|status` learn from members\' games, share with other servers (Manage Server only)',
  '`/help` this',
];

/**
 * The rules, the commands and how the bot learns, with a picture of a five that wins beside a
 * six that does not (the one rule newcomers trip on). `commandLines`: the front end's own list.
 */
export function helpView(f: Frontend, commandLines: readonly string[] = DISCORD_COMMAND_LINES): Reply {
  const text = [
    "**Go-Moku**, as Murray & Elcock's program played it (1968).",
    `**Rules**: two players take turns to put a stone on an empty point; **black moves first**. The first to make **exactly five in a row** — across, down or diagonally — wins. **Six or more in a row does not count**: the game goes on. A move that makes five in one line and six in another wins by the five. Nothing else is forbidden: no limits on double threes or fours, no opening rule. Boards are 19×19 or 15×15 (${f.command('challenge')} chooses); a full board with no five is a draw.`,
    '**Commands**',
    ...commandLines,
    `**How I learn**: I start in each server knowing only the rule of five in a row. Every game I lose, I walk back through it and write down the subgoals, in Murray & Elcock's notation, that made your win inevitable, and I use them in every game after: see ${f.command('library')}. When I win with a five I do the same with my own winning line, so I see it coming sooner next time. Now and then I go back over old games with what I have learned since: they often teach me more the second time.`,
  ].join('\n');
  return {
    text,
    images: [picture('rules.png', 'Five black stones in a row, which wins, and six in a row, which does not', rulesPicture())],
    private: true,
  };
}

/** Two small boards: five in a row (wins) and six in a row (does not). */
function rulesPicture(): Drawing {
  const size = 15;
  const row = (n: number): BoardSnapshot => {
    const cells = new Array<Cell>(size * size).fill(EMPTY);
    for (let c = 0; c < n; c++) cells[7 * size + 4 + c] = BLACK;
    return { size, cells };
  };
  const none: RealisationOverlay = { colour: 'black', nodes: [], implicit: [] };
  return {
    kind: 'mnemonics',
    args: [
      [
        { title: 'Five in a row: wins', snapshot: row(5), overlay: none },
        { title: 'Six in a row: does not', snapshot: row(6), overlay: none },
      ],
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Pieces

export function withBoard(text: string, v: Pick<GameView, 'game'>, numbered: boolean): Reply {
  const snapshot = v.game.snapshot({ moveNumbers: numbered });
  return { text, images: [boardImage(v, snapshot, numbered)], private: false, board: snapshot };
}

function boardImage(v: Pick<GameView, 'game'>, snapshot: BoardSnapshot, numbered: boolean): ReplyImage {
  const { game } = v;
  const size = game.size;
  const status = game.status;
  // A game against the bot can end with no five on the board: the caption says how, not whose
  // turn it would be. (A members' game's views say so in their text.)
  const stored = (v as Partial<GameView>).stored;
  const bot = stored !== undefined && 'human' in stored ? stored : undefined;
  const ending = bot?.finished?.ending;
  const state =
    status.kind === 'won' ? `${status.winner} has five` : status.kind === 'draw' ? 'a draw' : ending === 'resigned' ? `${bot!.human} resigned` : ending === 'expired' ? 'the game expired' : `${game.turn} to play`;
  return picture('board.png', `${size}×${size} board after move ${game.moves.length}: ${state}`, boardDrawing(snapshot, numbered));
}

/** "15×15 · you play black · level 1 · 12 moves" */
function gameLine(v: GameView, watcher?: Frontend): string {
  const s = v.stored;
  const plays = watcher === undefined ? `you play ${s.human}` : `${watcher.who(s.userId)} plays ${s.human}`;
  return `${s.size}×${s.size} · ${plays} · level ${s.level} · ${plural(v.game.moves.length, 'move')}`;
}

/** What happens next, or how the game ended. */
/**
 * What happens next, or how the game ended. `watched`: said to someone other than the player
 * (/board player:), so the player is named and nobody is invited to move or play again.
 */
function nextLine(v: GameView, f: Frontend, watched = false): string {
  const { stored, game } = v;
  const fin = stored.finished;
  const who = f.who(stored.userId);
  const again = watched ? '' : ` ${f.command('challenge')} for another game.`;
  if (fin === undefined) {
    if (game.turn !== stored.human) return 'My move.';
    return watched ? `${capitalise(f.whose(stored.userId))} move (${stored.human}).` : `Your move (${stored.human}): ${f.howToMove}.`;
  }
  const status = game.status;
  const five = status.kind === 'won' ? status.five.map((p) => makePoint(stored.size, p)).join(' ') : '';
  switch (fin.ending) {
    case 'five':
      if (fin.outcome === 'bot-lost') return watched ? `**${who} won** with five at ${five}.` : `**You win** with five at ${five}. Well played.`;
      return `**I ${watched ? 'won' : 'win'}** with five at ${five}.${again}`;
    case 'resigned':
      return watched ? `${who} resigned: **I won**.` : `You resigned: **I win**.${again}`;
    case 'full-board':
      return `**Draw**: the board is full.${again}`;
    case 'expired':
      return `The game expired (${outcomeWords(fin.outcome)}).`;
  }
}

/**
 * An overline, in words: the rule is exactly five, and a member who made six was once told
 * only that the bot answered. When the same move also made a five in another line, that five wins.
 */
function overlineLine(m: Moved, size: number): string {
  const stones = m.overline?.stones ?? [];
  const from = makePoint(size, stones[0]);
  const to = makePoint(size, stones[stones.length - 1]);
  const row = `${numberWord(stones.length)} in a row (${from}–${to})`;
  const won = m.game.status.kind === 'won' && m.game.status.winner === m.stored.human;
  return won
    ? `That also makes ${row}, which does not count — only exactly five wins; your five does.`
    : `That makes ${row} — only exactly five wins, so the game goes on.`;
}

function numberWord(n: number): string {
  return ['six', 'seven', 'eight', 'nine'][n - 6] ?? String(n);
}

function learnedLines(m: Moved, f: Frontend, from: 'loss' | 'win' = 'loss'): string {
  // An analysis given up or failed taught nothing: say so, and why, rather than "no new subgoal".
  if (m.analysis?.kind === 'timed-out') {
    return `I began to walk back through the game, but it took longer than ${Number((m.analysis.limitMs / 1000).toFixed(2))} s, so I gave it up: I learned nothing from this game.`;
  }
  if (m.analysis?.kind === 'failed') return 'Something went wrong on my side as I walked back through the game (it has been logged): I learned nothing from this game.';
  const fresh = m.learned.filter((l) => l.isNew);
  const known = m.learned.filter((l) => !l.isNew);
  const list = (ls: typeof fresh) => ls.map((l) => `\`${l.text}\` (move ${l.move})`).join(', ');
  const parts: string[] = [];
  if (from === 'win') {
    // Its own winning line, remembered so that it is recognised at once next time.
    if (fresh.length > 0) parts.push(`I walked back through my win and remembered how it was forced: ${plural(fresh.length, 'new subgoal')}, ${list(fresh)}. See ${f.command('library')}.`);
    else parts.push('I walked back through my win: nothing in it I did not know already.');
  } else if (fresh.length > 0) parts.push(`I walked back through the game and learned ${plural(fresh.length, 'new subgoal')}: ${list(fresh)}. See ${f.command('library')}.`);
  else parts.push('I walked back through the game but found no new subgoal to learn.');
  if (known.length > 0) parts.push(`(Already known: ${list(known)}.)`);
  return parts.join(' ');
}

/**
 * "**i9**. I now have an open four at …" and, in small print on the next line, the paper's
 * terms ("plays node 1 of `(1) 2:4'`, five in 2") — but for the opening, which has none.
 */
function reason(game: Game, choice: MoveChoice, voice: Voice = BOT_VOICE): string {
  const said = reasonWords(positionOf(game, choice), choice, voice);
  const paper = choice.reason.kind === 'opening' ? '' : `\n-# In the paper's terms: ${said.paper}.`;
  return `**${makePoint(game.size, choice.point)}**. ${said.plain}${paper}`;
}

function mnemonicItem(title: string, e: Example | undefined): MnemonicItem | undefined {
  if (e === undefined) return undefined;
  const cells = new Array<Cell>(e.size * e.size).fill(EMPTY);
  for (const p of e.black) cells[p] = BLACK;
  for (const p of e.white) cells[p] = WHITE;
  return { title, snapshot: { size: e.size, cells }, overlay: { colour: e.colour, nodes: e.nodes, implicit: e.implicit } };
}

/** As many lines as fit in `budget` characters, then "… and n more". */
function fitLines(lines: readonly string[], budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const cost = lines[i].length + 1;
    if (used + cost > budget - 20) {
      out.push(`… and ${lines.length - i} more lines`);
      break;
    }
    out.push(lines[i]);
    used += cost;
  }
  return out;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
