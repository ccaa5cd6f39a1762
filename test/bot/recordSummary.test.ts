// Finished games past the last RECORDS_KEPT are folded into a summary: /stats keeps every
// count and the chart every game, while the records stay bounded; a fold cut off between
// writing the summary and deleting what it holds counts nothing twice.
import { afterEach, describe, expect, it } from 'vitest';
import { botConfig } from '../../src/bot/config.ts';
import { RECORDS_SUMMARY_KEY } from '../../src/bot/recordSummary.ts';
import { summaryCodec } from '../../src/bot/records.ts';
import { GameService } from '../../src/bot/service.ts';
import type { Seat } from '../../src/bot/store.ts';
import { collectingLog, fileStorage, manualClock } from './support.ts';

const GUILD = 'guild-rs';
const seat = (i: number): Seat => ({ guildId: GUILD, channelId: `chan-${i}`, userId: 'alice' });

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(recordsKept: number) {
  const { log } = collectingLog();
  const { storage, remove } = await fileStorage('records', log);
  cleanups.push(remove);
  const clock = manualClock();
  const service = new GameService({ store: storage, seed: 1, now: clock.now, log, recordsKept, idleMs: 60_000 });
  cleanups.push(() => service.idle());
  return { service, storage, clock };
}

/** `n` games the member resigns (the bot wins), a minute apart, in channels from `from`. */
async function resignGames(service: GameService, clock: { advance: (ms: number) => void }, from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i++) {
    clock.advance(1000);
    expect((await service.challenge(seat(i), { size: 15 })).ok).toBe(true);
    expect((await service.resign(seat(i))).ok).toBe(true);
  }
}

describe('finished games past the bound', () => {
  it('are folded into the summary: every count and the whole chart kept, the records bounded', async () => {
    const { service, storage, clock } = await setup(10);
    await resignGames(service, clock, 0, 8);
    // Three games expire idle: abandoned.
    for (let i = 100; i < 103; i++) expect((await service.challenge(seat(i), { size: 15 })).ok).toBe(true);
    clock.advance(120_000);
    expect(await service.expireIdle([GUILD])).toBe(3);
    await resignGames(service, clock, 200, 19);

    // Resignations are the bot's wins without a five, counted apart (memberStats.ts).
    const expected = { games: 30, botWon: 0, resigned: 27, botLost: 0, draws: 0, abandoned: 3 };
    const first = await service.stats(GUILD);
    expect(first).toMatchObject({ ok: true, value: expected });
    const outcomes = first.ok ? first.value.history.map((h) => h.outcome) : [];
    expect(outcomes).toEqual([...Array(8).fill('bot-won'), ...Array(3).fill('abandoned'), ...Array(19).fill('bot-won')]);

    // That /stats folded all but the newest 10.
    expect(await storage.guild(GUILD).records.list()).toHaveLength(10);
    expect(await storage.guild(GUILD).summaries.get(RECORDS_SUMMARY_KEY)).toMatchObject({
      counts: { 'bot-won': 17, abandoned: 3, 'bot-lost': 0, draw: 0 },
      outcomes: 'RRRRRRRRAAARRRRRRRRR',
    });
    const again = await service.stats(GUILD);
    expect(again).toMatchObject({ ok: true, value: expected });
    expect(again.ok && again.value.history.map((h) => h.outcome)).toEqual(outcomes);

    // Not at every game: only when a tenth over.
    await resignGames(service, clock, 300, 1);
    await service.stats(GUILD);
    expect(await storage.guild(GUILD).records.list()).toHaveLength(11);
    await resignGames(service, clock, 400, 1);
    expect(await service.stats(GUILD)).toMatchObject({ ok: true, value: { games: 32, botWon: 0, resigned: 29 } });
    expect(await storage.guild(GUILD).records.list()).toHaveLength(10);
  });

  it('count nothing twice when a fold was cut off after writing the summary', async () => {
    const { service, storage, clock } = await setup(1000);
    await resignGames(service, clock, 0, 5);
    const records = (await storage.guild(GUILD).records.list()).map((e) => e.value).sort((a, b) => a.endedAt - b.endedAt);
    // The summary of the first three was written; their records were not yet deleted.
    const third = records[2];
    await storage.guild(GUILD).summaries.put(RECORDS_SUMMARY_KEY, { counts: { 'bot-won': 3, 'bot-lost': 0, draw: 0, abandoned: 0 }, outcomes: 'RRR', until: { endedAt: third.endedAt, id: third.id } });
    expect(await service.stats(GUILD)).toMatchObject({ ok: true, value: { games: 5, botWon: 0, resigned: 5 } });
    // And that /stats finished the fold.
    expect(await storage.guild(GUILD).records.list()).toHaveLength(2);
    expect(await service.stats(GUILD)).toMatchObject({ ok: true, value: { games: 5, botWon: 0, resigned: 5 } });
  });

  it('are forgotten with the rest by a memory reset', async () => {
    const { service, storage, clock } = await setup(2);
    await resignGames(service, clock, 0, 6);
    await service.stats(GUILD);
    expect(await storage.guild(GUILD).summaries.get(RECORDS_SUMMARY_KEY)).toBeDefined();
    expect((await service.resetMemory(GUILD, true)).ok).toBe(true);
    expect(await service.stats(GUILD)).toMatchObject({ ok: true, value: { games: 0, history: [] } });
  });

  it('between members are bounded the same way, counted by /games, and no longer offered or replayed', async () => {
    const { service, storage, clock } = await setup(4);
    const memory = storage.guild(GUILD);
    const endedIds: string[] = [];
    // Seven games between alice and bob, each resigned by bob after alice's first stone.
    for (let i = 0; i < 7; i++) {
      clock.advance(1000);
      const alice = seat(i);
      const bob: Seat = { ...alice, userId: 'bob' };
      const inv = await service.versus.invite(alice, 'bob', { size: 15 });
      if (!inv.ok) throw new Error(inv.problem.code);
      expect((await service.versus.accept(bob, inv.value)).ok).toBe(true);
      expect((await service.versus.move(alice, 'h8', { kind: 'member', id: 'bob' })).ok).toBe(true);
      const resigned = await service.versus.resign(bob, { kind: 'member', id: 'alice' });
      if (!resigned.ok || resigned.value.kind !== 'versus') throw new Error('not resigned');
      endedIds.push(resigned.value.view.stored.id);
    }
    // And two against the bot, which the bot's own fold (at /stats) has not touched.
    await resignGames(service, clock, 100, 2);

    // Four kept is 4 + 0 over: the fifth game between members folded the oldest one away, the
    // sixth and seventh made five and six kept (a tenth of 4 is 0), each folded back to four.
    const kept = (await memory.versusRecords.list()).map((e) => e.value.id).sort();
    expect(kept).toEqual(endedIds.slice(3).sort());
    expect(await memory.summaries.get(RECORDS_SUMMARY_KEY)).toMatchObject({ members: { count: 3 }, outcomes: '' });

    const games = await service.games(GUILD);
    expect(games).toMatchObject({ ok: true, value: { total: 9 } });
    expect(games.ok && games.value.games.map((g) => g.record.id)).not.toContain(endedIds[0]);
    const offered = (await service.suggestGames(GUILD, '')).map((o) => o.value);
    expect(offered).toHaveLength(6);
    expect(offered).not.toContain(endedIds[2]);
    expect(offered).toContain(endedIds[3]);
    expect(await service.replay(GUILD, endedIds[2])).toMatchObject({ ok: false, problem: { code: 'no-such-game' } });
    expect((await service.replay(GUILD, endedIds[3])).ok).toBe(true);

    // The bot's fold keeps the members' count; /games still counts every game.
    await resignGames(service, clock, 200, 4);
    await service.stats(GUILD);
    expect(await memory.summaries.get(RECORDS_SUMMARY_KEY)).toMatchObject({ members: { count: 3 }, outcomes: 'RR' });
    expect(await service.games(GUILD)).toMatchObject({ ok: true, value: { total: 13 } });

    // A memory reset forgets the bot's games, not the members': theirs and their count stay.
    expect((await service.resetMemory(GUILD, true)).ok).toBe(true);
    expect(await service.games(GUILD)).toMatchObject({ ok: true, value: { total: 7 } });
    expect(await service.stats(GUILD)).toMatchObject({ ok: true, value: { games: 0 } });
  });

  it('the summary of games between members reads back, and a broken one is refused by name', () => {
    const summary = { counts: { 'bot-won': 1, 'bot-lost': 0, draw: 0, abandoned: 0 }, outcomes: 'W', until: { endedAt: 5, id: 'a-1' }, members: { count: 3, until: { endedAt: 9, id: 'b-2' } } };
    expect(summaryCodec.decode(summaryCodec.encode(summary))).toEqual({ ok: true, value: summary });
    const older = { counts: summary.counts, outcomes: summary.outcomes, until: summary.until };
    expect(summaryCodec.decode(summaryCodec.encode(older))).toEqual({ ok: true, value: older });
    expect(summaryCodec.decode({ ...summary, members: { count: 3 } })).toMatchObject({ ok: false, error: { message: 'members is not a count with the last game folded' } });
    expect(summaryCodec.decode({ ...summary, members: { count: -1, until: { endedAt: 9, id: 'b-2' } } })).toMatchObject({ ok: false });
  });

  it('RECORDS_KEPT sets the bound', () => {
    expect(botConfig({ RECORDS_KEPT: '500' }).recordsKept).toBe(500);
    expect(botConfig({}).recordsKept).toBeUndefined();
    expect(() => botConfig({ RECORDS_KEPT: '0' })).toThrow('RECORDS_KEPT must be a whole number from 1, not "0"');
  });
});
