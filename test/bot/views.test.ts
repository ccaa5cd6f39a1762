// What the bot says and shows, without Discord: the words for every problem, replies that stay
// within Discord's limits, and images read back from their PNG bytes — stones where the game
// says, realisation marks on their nodes in their side's colour, the loss-rate chart.
import { describe, expect, it } from 'vitest';
import { CHART, chartPixel, lossRates, renderLossChart } from '../../src/bot/chart.ts';
import { ruleExample } from '../../src/bot/example.ts';
import { afterTurnDrawing, threatsDrawing } from '../../src/bot/picture.ts';
import { BOT_PROBLEM_CODES, type BotProblem } from '../../src/bot/problems.ts';
import { COMMANDS } from '../../src/discord/commands.ts';
import type { StoredGame } from '../../src/bot/records.ts';
import { LIBRARY_PAGE_SIZE } from '../../src/bot/service.ts';
import type { GameView, LibraryPage } from '../../src/bot/gameViews.ts';
import { boardView, DISCORD_COMMAND_LINES, helpView, libraryView, MAX_TEXT, movedView, problemReply, statsView, threatsView } from '../../src/bot/views.ts';
import { describeBotProblem, discordFrontend, plural, terminalFrontend } from '../../src/bot/words.ts';
import { plain, textBoard } from '../../src/bot/terminal.ts';
import { parseDescription } from '../../src/notation/descriptionNotation.ts';
import { Game } from '../../src/rules/game.ts';
import { compileCached } from '../../src/learning/library.ts';
import { createPlayer } from '../../src/play/player.ts';
import { makePoint, parsePoint } from '../../src/rules/point.ts';
import { boardLayout, defaultTheme, legendLayout, pointToPixel } from '../../src/render/index.ts';
import { expectOk } from '../../src/rules/result.ts';
import { decode, distance, hexToRgb, luminance } from '../render/png.ts';
import { expectBoardImage } from './support.ts';

const f = discordFrontend;
const pt = (text: string) => expectOk(parsePoint(15, text));
const subgoal = (text: string) => expectOk(compileCached(expectOk(parseDescription(text))));

function view(moves: string[], extra: Partial<StoredGame> = {}): GameView {
  const game = Game.create(15);
  for (const m of moves) expectOk(game.play(pt(m)));
  const stored: StoredGame = { id: 'g1', channelId: 'c', userId: '42', size: 15, human: 'black', level: 1, seed: 1, moves: game.moves, startedAt: 0, updatedAt: 0, recognised: [], played: [], ...extra };
  return { stored, game };
}

/** Every problem, with details. */
const PROBLEMS: BotProblem[] = [
  { code: 'no-game' },
  { code: 'game-exists', size: 15, human: 'white', moves: 1 },
  { code: 'game-over', outcome: 'bot-won' },
  { code: 'game-expired', idleMs: 24 * 3_600_000, at: Date.UTC(2025, 5, 2, 12, 30) },
  { code: 'not-your-turn' },
  { code: 'game-moved-on' },
  { code: 'bad-point', text: 'zz', size: 19 },
  { code: 'point-off-board', text: 't1', size: 19 },
  { code: 'occupied', point: 'j10' },
  { code: 'bad-option', option: 'challenge', text: '17', allowed: 'a size' },
  { code: 'no-such-page', page: 4, pages: 2 },
  { code: 'no-such-game', id: 'mwxe3k0s-6y9m' },
  { code: 'not-admin' },
  { code: 'not-in-server' },
  { code: 'not-your-button' },
  { code: 'storage-unavailable' },
  { code: 'storage-uncertain' },
];

describe('the words for problems', () => {
  it('has a short, private sentence for every code, in both front ends', () => {
    expect(PROBLEMS.map((p) => p.code).sort()).toEqual([...BOT_PROBLEM_CODES].sort());
    for (const p of PROBLEMS) {
      for (const fe of [discordFrontend, terminalFrontend]) {
        const text = describeBotProblem(p, fe);
        expect(text.length, p.code).toBeLessThan(200);
        expect(text, p.code).toMatch(/^[A-Z"a-z0-9].*\.$/);
      }
      expect(problemReply(p, f)).toMatchObject({ private: true, images: [] });
    }
    expect(describeBotProblem({ code: 'no-game' }, discordFrontend)).toBe('You have no game in this channel. Start one with /challenge.');
    expect(describeBotProblem({ code: 'no-game' }, terminalFrontend)).toBe('You have no game here. Start one with `challenge`.');
    const expired = { code: 'game-expired', idleMs: 24 * 3_600_000, at: Date.UTC(2025, 5, 2, 12, 30) } as const;
    expect(describeBotProblem(expired, discordFrontend)).toBe('Your game here expired after 24 hours without a move (on <t:1748867400:f>); /challenge to start a new one.');
    expect(describeBotProblem(expired, terminalFrontend)).toBe('Your game here expired after 24 hours without a move (on 2025-06-02 12:30 UTC); `challenge` to start a new one.');
    expect(describeBotProblem({ code: 'point-off-board', text: 't1', size: 19 }, f)).toBe('t1 is off this 19×19 board: columns a to s, rows 1 to 19.');
    expect(describeBotProblem({ code: 'bad-point', text: 'zz', size: 19 }, f)).toContain('like j10 (the centre of this 19×19 board)');
  });
});

describe('game replies', () => {
  it('show the board after a move with the stones where the game has them, and the reason in plain words and in the paper\'s terms', async () => {
    const v = view(['h8', 'i9', 'h9', 'i10', 'h10', 'g7']);
    const bot = createPlayer({ library: [subgoal('(1) 1:5')], level: 5 });
    const reply = bot.choose(v.game);
    const r = movedView({ ...v, point: pt('h10'), reply, learned: [] }, f);
    expect(r.private).toBe(false);
    // The reason said plainly, then in small print (Discord's -# subtext) in the paper's terms.
    expect(r.text).toBe(
      [
        '<@42> played **h10**.',
        'I answer **h7**. I now have an open four at h7–h10: you can stop only one end (h6 or h11).',
        "-# In the paper's terms: makes `(1) 1:5`, five in 2: after your h6 I play h11.",
        'Your move (black): /move.',
      ].join('\n'),
    );
    expect(r.images.map((i) => i.name)).toEqual(['board.png']);
    await expectBoardImage(r.images[0].png, 15, v.game.snapshot().cells);
    // The picture a play worker draws with the turn (playWorker.ts), so the reply finds it drawn.
    expect(r.images[0].drawing).toEqual(afterTurnDrawing(v.game));
  });

  it('say what a loss taught, or why it taught nothing: an analysis given up or failed is not "no new subgoal"', () => {
    // Black (the member) wins with five on row 8; the bot answered far away.
    const lost = view(['d8', 'a1', 'e8', 'a3', 'f8', 'a5', 'g8', 'a7', 'h8'], { finished: { outcome: 'bot-lost', ending: 'five', at: 0, learned: ["(1) 2:4'"] } });
    const moved = { ...lost, point: pt('h8') };
    const learned = movedView({ ...moved, learned: [{ text: "(1) 2:4'", move: 7, isNew: true }, { text: '(1) 1:5', move: 9, isNew: false }], analysis: { kind: 'analysed' } }, f).text;
    expect(learned).toContain("I walked back through the game and learned 1 new subgoal: `(1) 2:4'` (move 7). See /library. (Already known: `(1) 1:5` (move 9).)");
    const nothing = movedView({ ...moved, learned: [], analysis: { kind: 'analysed' } }, f).text;
    expect(nothing).toContain('I walked back through the game but found no new subgoal to learn.');
    const late = movedView({ ...moved, learned: [], analysis: { kind: 'timed-out', limitMs: 20_000 } }, f).text;
    expect(late).toContain('**You win** with five at d8 e8 f8 g8 h8. Well played.');
    expect(late).toContain('I began to walk back through the game, but it took longer than 20 s, so I gave it up: I learned nothing from this game.');
    const broken = movedView({ ...moved, learned: [], analysis: { kind: 'failed' } }, f).text;
    expect(broken).toContain('Something went wrong on my side as I walked back through the game (it has been logged): I learned nothing from this game.');
    for (const text of [late, broken]) expect(text).not.toMatch(/no new subgoal|learned \d/);
    // An ended game's board is numbered, and still the one drawn with the turn.
    expect(movedView({ ...moved, learned: [] }, f).images[0].drawing).toEqual(afterTurnDrawing(lost.game));
  });

  it('show an ended game with its result line and move numbers', async () => {
    const won = view(['a1', 'h8', 'b2', 'i9', 'c3', 'j10', 'd4', 'k11', 'o1', 'l12'], { human: 'black', finished: { outcome: 'bot-won', ending: 'five', at: 0, learned: [] } });
    const r = boardView(won, f);
    expect(r.text).toContain("<@42>'s game: 15×15 · you play black · level 1 · 10 moves.");
    expect(r.text).toContain('**I win** with five at h8 i9 j10 k11 l12. /challenge for another game.');
    await expectBoardImage(r.images[0].png, 15, won.game.snapshot().cells);
    expect(r.images[0].description).toBe('15×15 board after move 10: white has five');
    // Watched by another member (/board player:), in public: the player is named, never "you".
    const watched = boardView(won, f, true).text;
    expect(watched).toBe("<@42>'s game: 15×15 · <@42> plays black · level 1 · 10 moves.\n**I won** with five at h8 i9 j10 k11 l12.");
    const resigned = boardView({ ...won, stored: { ...won.stored, finished: { outcome: 'bot-won', ending: 'resigned', at: 0, learned: [] } } }, f, true).text;
    expect(resigned).toContain('<@42> resigned: **I won**.');
    const playing = view(['h8', 'a1']);
    expect(boardView(playing, f, true).text).toContain("<@42>'s move (black).");
    expect(boardView(playing, f, true).text).not.toMatch(/\byou\b|\byour\b/i);
  });

  it('list realisations by side with moves to five, and mark their nodes on the image in the side\'s colour', async () => {
    const v = view(['h8', 'a1', 'i8', 'a3', 'j8', 'o15', 'd12', 'n14']);
    const player = createPlayer({ library: [subgoal('(1) 1:5'), subgoal("(1) 2:4'")] });
    const seen = player.realisations(v.game);
    expect(seen.black.length).toBeGreaterThan(0);
    const r = threatsView({ ...v, ...seen }, f);
    expect(r.text).toContain(`**Black** (you): ${seen.black.length} realisations`);
    expect(r.text).toContain('**White** (me): none');
    expect(r.text).toContain("`(1) 2:4'` nodes g8 · implicit f8 k8 · five in 2");
    // The picture a play worker draws with the recognition (playWorker.ts), so the reply finds it drawn.
    expect(r.images[0].drawing).toEqual(threatsDrawing(v.game, seen, 'black'));
    const image = await decode(r.images[0].png);
    const layout = boardLayout(15, defaultTheme);
    const blue = hexToRgb(defaultTheme.realisations.black.colour);
    for (const x of seen.black) {
      const c = pointToPixel(layout, x.nodes[0]);
      expect(distance(image.at({ x: c.x + layout.cell * 0.3, y: c.y }), blue)).toBeLessThan(60);
    }
  });
});

describe('/threats, one line per distinct realisation', () => {
  it('groups realisations that differ only in implicit nodes into one line that says how many ways, with a legend under the board', async () => {
    // Black j8 k8 on row 8 and l10 l9 on column l: l8 makes an open three on each, with
    // several choices of windows — the same threat, other implicit nodes.
    const v = view(['j8', 'a1', 'k8', 'a3', 'l10', 'o15', 'l9', 'o13']);
    const player = createPlayer({ library: [subgoal('(1) 1:5'), subgoal("(1) 2:4'"), subgoal("(1, 1) 3:3', 3'")] });
    const seen = player.realisations(v.game);
    const atL8 = seen.black.filter((r) => r.subgoal.text === "(1, 1) 3:3', 3'" && r.nodes.length === 1 && r.nodes[0] === pt('l8'));
    expect(atL8.length).toBeGreaterThan(1);
    const r = threatsView({ ...v, ...seen }, f);
    const lines = r.text.split('\n').filter((l) => l.startsWith("`(1, 1) 3:3', 3'` nodes l8"));
    expect(lines).toHaveLength(1);
    const used = [...new Set(atL8.flatMap((x) => x.implicit))].sort((a, b) => (a % 15) - (b % 15) || a - b);
    const every = used.filter((p) => atL8.every((x) => x.implicit.includes(p)));
    expect(every.length).toBeGreaterThan(0);
    const names = (ps: number[]) => ps.map((p) => makePoint(15, p)).join(' ');
    expect(lines[0]).toBe(`\`(1, 1) 3:3', 3'\` nodes l8 · ${atL8.length} ways, implicit among ${names(used)} (in every way: ${names(every)}) · five in 3`);
    // The head counts lines, and the realisations counting each way.
    const distinct = new Set(seen.black.map((x) => `${x.subgoal.text}|${x.nodes.join(',')}`)).size;
    expect(r.text).toContain(`**Black** (you): ${plural(distinct, 'realisation')} (${seen.black.length} counting each way)`);
    const legend = legendLayout(15, { black: 'Black (you)', white: 'White (me)' });
    const image = await decode(r.images[0].png);
    expect([image.width, image.height]).toEqual([legend.width, legend.height]);
    expect(legend.height).toBeGreaterThan(boardLayout(15, defaultTheme).height);
    for (const sw of legend.swatches) {
      const colour = hexToRgb(defaultTheme.realisations[sw.side].colour);
      const size = sw.kind === 'node' ? defaultTheme.realisations.nodeRadius : defaultTheme.realisations.implicitHalf * 1.4;
      const at = sw.kind === 'node' ? { x: sw.at.x - 0.7 * size * legend.board.cell, y: sw.at.y } : { x: sw.at.x - size * legend.board.cell, y: sw.at.y - 0.5 * size * legend.board.cell };
      expect(distance(image.at(at), colour), `${sw.kind} swatch of ${sw.side}`).toBeLessThan(50);
    }
  });
});

describe('library and stats replies', () => {
  it('keep the listing within Discord\'s limit even for long descriptions, with a mnemonic sheet', async () => {
    const long = subgoal("(1, 2-1, 2) 4:3', 2'-4:2', 3'");
    const entries = Array.from({ length: LIBRARY_PAGE_SIZE }, (_, i) => ({
      subgoal: i === 0 ? subgoal('(1) 1:5') : long,
      groupStart: i <= 1,
      stats: { recognised: 123, played: 45, won: 6 },
      ...(i === 0 ? {} : { provenance: { game: 'mwqysy5d-fbn4-long-id', move: 100 + i, date: '2025-06-01T12:00:00.000Z' } }),
      example: ruleExample(),
    }));
    const page: LibraryPage = { page: 1, pages: 3, learned: 15, entries };
    const r = libraryView(page, f);
    expect(r.text.length).toBeLessThanOrEqual(MAX_TEXT);
    expect(r.text).toContain('```\n(1) 1:5\n      – the rule of the game · recognised in 123 games · played 45 times · won 6 games\n');
    expect(r.text).toContain('learned 2025-06-01 from game mwqysy5d-fbn4-long-id, move 102');
    expect(r.text).toContain('More: /library page:2');
    // A later member of a group prints only its pattern list, under the first member's.
    expect(r.text).toContain("\n            4:3', 2'-4:2', 3'\n");
    const sheet = await decode(r.images[0].png);
    expect(sheet.width).toBeGreaterThan(defaultTheme.sheet.minColumnPx);
  });

  it('chart the loss rate over the games decided, overall and recent', async () => {
    const history = ['bot-lost', 'bot-lost', 'abandoned', 'bot-won', 'bot-lost', 'bot-won', 'bot-won', 'draw'].map((outcome, i) => ({ endedAt: i, outcome: outcome as 'bot-lost' }));
    const rates = lossRates(history);
    expect(rates.map((p) => p.overall)).toEqual([1, 1, 2 / 3, 3 / 4, 3 / 5, 3 / 6, 3 / 7]);
    expect(rates.map((p) => p.lost)).toEqual([true, true, false, true, false, false, false]);
    const png = renderLossChart(history)!;
    const image = await decode(png);
    expect([image.width, image.height]).toEqual([CHART.width, CHART.height]);
    // The overall line's dot on its last point.
    const last = chartPixel(7, 7, 3 / 7);
    expect(distance(image.at(last), hexToRgb(CHART.overall))).toBeLessThan(40);
    expect(renderLossChart([{ outcome: 'abandoned' }])).toBeUndefined();
    const s = statsView({ games: 8, botWon: 3, botLost: 3, draws: 1, abandoned: 1, learned: 4, history }, f);
    expect(s.text).toBe(
      '**Go-Moku in this server**\nFinished games: 8 — members won 3, I won 3, 1 draw (and 1 expired).\nI lost 43% of the games decided.\nLibrary: 4 learned subgoals and the rule of the game (/library).',
    );
    expect(s.images.map((i) => i.name)).toEqual(['stats.png']);
    // Only a resignation so far: not "no game has been decided", when the member gave one up.
    const resignedOnly = statsView({ games: 1, botWon: 0, botLost: 0, draws: 0, abandoned: 0, resigned: 1, learned: 0, history: [] }, f);
    expect(resignedOnly.text).toContain('No game has been decided by a five or a full board yet (resignations are counted apart).');
  });
});

describe('help', () => {
  it('states the rules, lists every slash command in a line, and says how the bot learns, privately', () => {
    const help = helpView(f);
    expect(help.private).toBe(true);
    expect(help.text.length).toBeLessThanOrEqual(MAX_TEXT);
    expect(help.text).toContain('**exactly five in a row**');
    expect(help.text).toContain('**Six or more in a row does not count**: the game goes on.');
    expect(help.text).toContain('A move that makes five in one line and six in another wins by the five. Nothing else is forbidden: no limits on double threes or fours, no opening rule.');
    expect(help.text).toContain('**black moves first**');
    expect(help.text).toContain('Boards are 19×19 or 15×15');
    expect(help.text).toMatch(/I walk back through it and write down the subgoals, in Murray & Elcock's notation, that made your win inevitable.*see \/library\./);
    expect(help.text).toContain('Now and then I go back over old games with what I have learned since');
    // Every registered command, and nothing else, has its line.
    const listed = help.text.split('\n').filter((l) => l.startsWith('`/')).map((l) => /^`\/([a-z-]+)/.exec(l)?.[1]);
    expect(listed.sort()).toEqual(COMMANDS.map((c) => c.data.name).sort());
    expect(DISCORD_COMMAND_LINES).toHaveLength(COMMANDS.length);
  });

  it('draws a five beside a six: one more stone on the right', async () => {
    const [image] = helpView(f).images;
    expect(image.name).toBe('rules.png');
    const png = await decode(image.png);
    expect(png.width).toBeGreaterThan(png.height);
    let left = 0;
    let right = 0;
    for (let y = 0; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) {
        if (luminance(png.at({ x, y })) >= 40) continue;
        if (x < png.width / 2) left++;
        else right++;
      }
    }
    // Black stones are the only near-black pixels besides the titles' text, of about equal ink.
    expect(right / left).toBeGreaterThan(1.08);
    expect(right / left).toBeLessThan(1.3);
  });
});

describe('the terminal', () => {
  it('prints Discord markdown plainly and the board as text with coordinates, the last move in capitals', () => {
    expect(plain('**You win** with `(1) 1:5`\n```\n(1) 1:5\n```')).toBe('You win with "(1) 1:5"\n\n(1) 1:5');
    const v = view(['h8', 'i9']);
    const text = textBoard(v.game.snapshot());
    const lines = text.split('\n');
    expect(lines[0]).toBe('    a b c d e f g h i j k l m n o');
    expect(lines[15 - 9 + 1]).toBe('  9 . . . . . . . . O . . . . . .');
    expect(lines[15 - 8 + 1]).toBe('  8 . . . . . . . x . . . . . . .');
    expect(lines[16]).toBe('    # x black, o white, the last move in capitals');
    expect(lines).toHaveLength(17);
  });
});
