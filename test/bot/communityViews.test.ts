// The community features' words and pictures: a sentence for every problem, the scores the
// ratings give each ending, the rating chart drawn where its numbers say, and /stats's
// leaderboard.
import { describe, expect, it } from 'vitest';
import { COMMUNITY_PROBLEM_CODES, describeCommunityProblem, type CommunityProblem } from '../../src/bot/communityProblems.ts';
import { CHART_COLOURS, growthSeries, shareView, withStandings } from '../../src/bot/communityViews.ts';
import { originWords, ratedLine } from '../../src/bot/communityWords.ts';
import { botGameScore, newRating, rateGame, versusScore } from '../../src/bot/ratings.ts';
import { problemReply } from '../../src/bot/views.ts';
import { discordFrontend as f, terminalFrontend } from '../../src/bot/words.ts';
import { chartRange, LINE_CHART, lineChartPixel, renderLineChart } from '../../src/render/index.ts';
import { decode, distance, hexToRgb } from '../render/png.ts';

const PROBLEMS: CommunityProblem[] = [
  { code: 'versus-self' },
  { code: 'versus-other-bot' },
  { code: 'versus-exists', opponent: '1' },
  { code: 'no-versus-game', opponent: '1' },
  { code: 'several-games', opponents: ['1', '2'], bot: true },
  { code: 'versus-over', result: 'white-won', black: '1', white: '2' },
  { code: 'versus-not-your-turn', opponent: '1' },
  { code: 'versus-moved-on', opponent: '1' },
  { code: 'invitation-expired', from: '1', to: '2' },
  { code: 'not-your-invitation', to: '2' },
];

describe('community problems', () => {
  it('have a short, private sentence each, in both front ends', () => {
    expect(PROBLEMS.map((p) => p.code).sort()).toEqual([...COMMUNITY_PROBLEM_CODES].sort());
    for (const p of PROBLEMS) {
      for (const fe of [f, terminalFrontend]) {
        const text = describeCommunityProblem(p, fe);
        expect(text.length, p.code).toBeLessThan(200);
        expect(text, p.code).toMatch(/^[A-Z].*\.$/);
      }
      expect(problemReply(p, f)).toMatchObject({ private: true, images: [] });
    }
    expect(describeCommunityProblem({ code: 'several-games', opponents: ['1', '2'], bot: true }, f)).toBe(
      'You have 3 games in this channel, against <@1>, <@2> and me. Say which with the against option (me for the game against me).',
    );
    expect(describeCommunityProblem({ code: 'versus-over', result: 'white-won', black: '1', white: '2' }, f)).toBe('That game is over: <@2> won it. Start a new one with /challenge.');
  });
});

describe('ratings', () => {
  it('score each ending as Glicko-2 takes results: resignations count, expiries are a loss on time once both moved', () => {
    expect(botGameScore({ outcome: 'bot-lost', moves: [1, 2, 3] })).toBe(1);
    expect(botGameScore({ outcome: 'bot-won', moves: [1] })).toBe(0);
    expect(botGameScore({ outcome: 'draw', moves: [] })).toBe(0.5);
    expect(botGameScore({ outcome: 'abandoned', moves: [1, 2] })).toBe(0);
    expect(botGameScore({ outcome: 'abandoned', moves: [1] })).toBeUndefined();
    const g = { id: 'g', channelId: 'c', size: 15, black: 'a', white: 'b', moves: [], startedAt: 0, updatedAt: 0 } as const;
    expect(versusScore({ ...g, finished: { result: 'black-won', ending: 'expired', at: 0, learned: [] } })).toBe(1);
    expect(versusScore({ ...g, finished: { result: 'abandoned', ending: 'expired', at: 0, learned: [] } })).toBeUndefined();
    expect(versusScore(g)).toBeUndefined();
  });

  it('move two new players symmetrically after a win, and not at all after a draw', () => {
    const r = rateGame(newRating('a', 0), newRating('b', 0), 1);
    expect(r.a.rating - 1500).toBeCloseTo(1500 - r.b.rating, 6);
    expect(r.a.rating).toBeGreaterThan(1600);
    expect(r.a.rd).toBeLessThan(350);
    const draw = rateGame(newRating('a', 0), newRating('b', 0), 0.5);
    expect(draw.a.rating).toBeCloseTo(1500, 6);
  });

  it('are said with the bot as "me" and uncertain ratings marked', () => {
    expect(ratedLine({ changes: [{ player: '7', before: 1500, after: 1662.3, rd: 290 }, { player: 'bot', before: 1500, after: 1337.7, rd: 100 }] }, f)).toBe(
      'Ratings: <@7> 1500 → 1662? (+162), me 1500 → 1338 (−162).',
    );
    expect(originWords({ game: 'g1', move: 9, date: '2025-06-01T12:00:00.000Z' }, { kind: 'watched', black: '1', white: '2' })).toBe('learned 2025-06-01 from game g1, move 9 · watched');
    expect(originWords({ game: 'g1', move: 9, date: '2025-06-01T12:00:00.000Z' }, undefined)).toBe('learned 2025-06-01 from game g1, move 9 · my loss');
    expect(originWords({ game: 'g2', move: 11, date: '2025-06-01T12:00:00.000Z' }, { kind: 'win' })).toBe('learned 2025-06-01 from game g2, move 11 · my win');
    expect(originWords({ game: 'pool', move: 1, date: '2025-06-01T12:00:00.000Z' }, { kind: 'pool', servers: 3 })).toBe('adopted 2025-06-01 from the shared pool · learned in 3 servers');
    // Imported: from a file's provenance line, the game it names; without one, the file and line — never "my loss".
    expect(originWords({ game: 'elcock-5-x-1', move: 7, date: '2025-06-01T12:00:00.000Z' }, { kind: 'imported' })).toBe('learned 2025-06-01 from game elcock-5-x-1, move 7 · imported');
    expect(originWords({ game: 'paper.txt (imported)', move: 7, date: '2025-06-01T12:00:00.000Z' }, { kind: 'imported' })).toBe('imported 2025-06-01 from paper.txt, line 7');
    // Imported before imports were marked: the provenance alone says so.
    expect(originWords({ game: 'paper.txt (imported)', move: 7, date: '2025-06-01T12:00:00.000Z' }, undefined)).toBe('imported 2025-06-01 from paper.txt, line 7');
  });
});

describe('/memory words', () => {
  const settings = { watch: true, share: true };
  it('share says when there was nothing new to publish, and what withdrawing does without a bare "one"', () => {
    expect(shareView({ settings, changed: 0, complete: true }, f).text).toBe('Sharing is **on**: there was nothing new to publish: what this server taught me is in the shared pool already. What I learn here from now on is published as I learn it.');
    expect(shareView({ settings, changed: 2, complete: true }, f).text).toMatch(/^Sharing is \*\*on\*\*: I published 2 subgoals this server taught me/);
    expect(shareView({ settings: { ...settings, share: false }, changed: 3, complete: true }, f).text).toBe('Sharing is **off**: I withdrew this server from 3 subgoals in the shared pool; a subgoal no other server learned is gone from the pool with it. What was adopted here stays.');
  });
  it('a member who may not manage the server is told which command they may not use', () => {
    expect(problemReply({ code: 'not-admin', what: 'memory' }, f).text).toBe('Only members who can manage this server (the Manage Server permission) may change how I learn here (/memory).');
    expect(problemReply({ code: 'not-admin' }, f).text).toBe('Only members who can manage this server (the Manage Server permission) may reset its memory.');
  });
});

describe('/stats with ratings', () => {
  it('lists the leaderboard with the bot, draws its rating over time where the numbers say, and the library by source', async () => {
    const bot = { ...newRating('bot', 0), rating: 1430, rd: 200, history: [1500, 1460, 1430].map((rating, i) => ({ at: i, rating, rd: 300 - 50 * i })) };
    const alice = { ...newRating('1', 0), rating: 1580, rd: 90, won: 2 };
    const stats = { text: '**Go-Moku in this server**', images: [], private: false };
    const r = withStandings(stats, { ok: true, value: { members: [alice], bot, library: ['loss', 'watched', 'win', 'watched', 'pool'] } }, f);
    expect(r.text).toContain('\n1. <@1> 1580 · 2 won, 0 lost\n2. me 1430? · 0 won, 0 lost\n');
    expect(r.text).toContain('Library by source: 1 from games I lost, 1 from games I won, 2 from games I watched, 1 adopted from the shared pool.');
    expect(r.images.map((i) => i.name)).toEqual(['rating.png', 'library-growth.png']);
    // Imported and starter subgoals are counted apart, and named only where there are some.
    const given = withStandings(stats, { ok: true, value: { members: [], library: ['starter', 'starter', 'imported', 'loss'] } }, f);
    expect(given.text).toContain('Library by source: 1 from games I lost, 0 from games I won, 0 from games I watched, 0 adopted from the shared pool, 1 imported from a library file, 2 from the starter library.');
    expect(growthSeries(['starter', 'imported', 'loss']).map((s) => [s.label, s.values.at(-1)])).toEqual([['my losses', 1], ['my wins', 0], ['watched', 0], ['adopted', 0], ['imported', 1], ['starter', 1]]);
    const spec = { title: 't', xLabel: 'games', reference: 1500, series: [{ label: 'r', colour: CHART_COLOURS.rating, values: [1500, 1460, 1430], band: [300, 250, 200] }] };
    const range = chartRange(spec);
    // Every band inside: 1500 ± 300 reaches lowest and highest.
    expect(range.low).toBeLessThanOrEqual(1200);
    expect(range.high).toBeGreaterThanOrEqual(1800);
    const image = await decode(renderLineChart(spec)!);
    expect([image.width, image.height]).toEqual([LINE_CHART.width, LINE_CHART.height]);
    expect(distance(image.at(lineChartPixel(3, 3, 1430, range)), hexToRgb(CHART_COLOURS.rating))).toBeLessThan(40);
    expect(growthSeries(['loss', 'watched', 'win', 'watched', 'pool']).map((s) => s.values)).toEqual([
      [1, 1, 1, 1, 1],
      [0, 0, 1, 1, 1],
      [0, 1, 1, 2, 2],
      [0, 0, 0, 0, 1],
    ]);
    // A problem reply stays as it is.
    const problem = problemReply({ code: 'storage-unavailable' }, f);
    expect(withStandings(problem, { ok: true, value: { members: [], library: [] } }, f)).toBe(problem);
  });
});
