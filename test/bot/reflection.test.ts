// Reflection (src/bot/reflection.ts): the bot walks back again through a server's finished
// games with the library it has now, and learns what they could not teach it before. The
// game and library are real: game 13 of a learning series and the library that series had
// after 40 games (test/fixtures/games/reflect/, the same pair test/curve.test.ts walks in
// process); here the walk runs in the service's analysis workers, on the file store and on
// a real Redis.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import { SETTINGS_KEY, type VersusGame } from '../../src/bot/communityRecords.ts';
import { originWords } from '../../src/bot/communityWords.ts';
import type { BotLog } from '../../src/bot/log.ts';
import { subgoalKey, type BotSchema, type FinishedGame } from '../../src/bot/records.ts';
import { GameService } from '../../src/bot/service.ts';
import type { Seat } from '../../src/bot/store.ts';
import { Library } from '../../src/learning/library.ts';
import { parseGame } from '../../src/rules/gameRecord.ts';
import type { Game } from '../../src/rules/game.ts';
import { expectOk } from '../../src/rules/result.ts';
import type { Storage } from '../../src/storage/index.ts';
import { collectingLog, fileStorage, loseAGame, manualClock, REDIS_URL, storeLibrary, tempDir, uniqueNamespace, type LogLine } from './support.ts';

const GUILD = 'guild-reflect';
const ALICE: Seat = { guildId: GUILD, channelId: 'chan-1', userId: 'alice' };
const DIR = join(import.meta.dirname, '..', 'fixtures', 'games', 'reflect');
const GAME_13 = expectOk(parseGame(readFileSync(join(DIR, 'series-game-13.txt'), 'utf8')));
const LIBRARY_40 = expectOk(Library.fromFile(readFileSync(join(DIR, 'series-40-library.txt'), 'utf8')));
/** One of the two subgoals game 13 teaches when walked back again with the 40-game library. */
const LESSON = "(1, 2-1, 3-2, 3) 5:3', 3-3, 2'-2', 3'";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Backend = 'file' | 'redis';

async function openStore(backend: Backend, log: BotLog): Promise<Storage<BotSchema>> {
  if (backend === 'file') {
    const { storage, remove } = await fileStorage('reflect', log);
    cleanups.push(remove);
    return storage;
  }
  const { dir, remove } = await tempDir('reflect-redis');
  const storage = await openBotStorage({ REDIS_URL, STORAGE_NAMESPACE: uniqueNamespace('reflect'), DATA_DIR: dir }, log);
  cleanups.push(async () => {
    await storage.guild(GUILD).clear();
    await storage.close();
    await remove();
  });
  return storage;
}

async function setup(backend: Backend, options: { reflectEvery?: number; reflectionBudgetMs?: number; onLine?: (line: LogLine) => void } = {}) {
  const { log: collected, lines } = collectingLog();
  // A log that also lets a test act at a given line (a reset in the middle of a pass).
  const tap = (level: LogLine['level']): BotLog[LogLine['level']] => (message, detail) => {
    collected[level](message, detail);
    options.onLine?.({ level, message, detail });
  };
  const log: BotLog = { debug: tap('debug'), info: tap('info'), warn: tap('warn'), error: tap('error') };
  const storage = await openStore(backend, log);
  const clock = manualClock();
  const service = new GameService({
    store: storage,
    seed: 3,
    now: clock.now,
    log,
    ...(options.reflectEvery !== undefined ? { reflectEvery: options.reflectEvery } : {}),
    ...(options.reflectionBudgetMs !== undefined ? { reflectionBudgetMs: options.reflectionBudgetMs } : {}),
  });
  cleanups.push(() => service.idle());
  await storeLibrary(storage, GUILD, LIBRARY_40);
  return { service, storage, clock, lines };
}

/**
 * A service on the file store with game 13 recorded, whose log runs `act` once, the moment a
 * reflection pass hands a game to its worker; `acted` is what `act` returned, once it has run.
 */
async function actingMidWalk(act: (service: GameService) => Promise<unknown>) {
  let done: Promise<unknown> | undefined;
  const held: { service?: GameService } = {};
  const s = await setup('file', {
    reflectEvery: 0,
    onLine: (line) => {
      if (done === undefined && line.message === 'analysing a finished game' && (line.detail as { reflecting?: boolean }).reflecting === true) done = act(held.service!);
    },
  });
  held.service = s.service;
  await s.storage.guild(GUILD).records.put('g13', lostRecord('g13', GAME_13, s.clock.now() - 3_600_000));
  return { s, acted: () => done };
}

/** Game 13 as the bot's finished game: the member played black and won with a five. */
function lostRecord(id: string, game: Game, endedAt: number): FinishedGame {
  return { id, channelId: ALICE.channelId, userId: ALICE.userId, size: 19, human: 'black', level: 5, outcome: 'bot-lost', ending: 'five', startedAt: endedAt - 60_000, endedAt, moves: game.moves.slice(), learned: [] };
}

function texts(storage: Storage<BotSchema>): Promise<string[]> {
  return storage
    .guild(GUILD)
    .library.list()
    .then((entries) => entries.map((e) => e.value.subgoal.text));
}

describe.each<Backend>(['file', 'redis'])('reflection on the %s store', (backend) => {
  it('walks back again through an old loss with the library it has now, saves what is new marked as such, and learns nothing from a second pass', async () => {
    const { service, storage, clock } = await setup(backend, { reflectEvery: 0 });
    await storage.guild(GUILD).records.put('g13', lostRecord('g13', GAME_13, clock.now() - 3_600_000));
    const before = await texts(storage);
    expect(before).toHaveLength(LIBRARY_40.size - 1);

    const pass = await service.reflection.reflect(GUILD);
    expect(pass).toMatchObject({ guildId: GUILD, walked: 1, games: 1 });
    expect(pass.stopped).toBeUndefined();
    expect(pass.learned).toHaveLength(2);
    expect(pass.learned).toContain(LESSON);
    const after = await texts(storage);
    expect(after.sort()).toEqual([...before, ...pass.learned].sort());
    for (const text of pass.learned) {
      const entry = (await storage.guild(GUILD).library.get(subgoalKey(text)))!;
      expect(entry.provenance).toMatchObject({ game: 'g13', date: new Date(clock.now()).toISOString() });
      expect(entry.reflected).toBe(true);
      expect(entry.origin).toBeUndefined();
    }
    // /library says where and how it was learned.
    const page = await service.library(GUILD, 1);
    if (!page.ok) throw new Error(page.problem.code);
    const all = [page.value];
    for (let p = 2; p <= page.value.pages; p++) {
      const next = await service.library(GUILD, p);
      if (next.ok) all.push(next.value);
    }
    const shown = all.flatMap((p) => p.entries).find((e) => e.subgoal.text === LESSON)!;
    expect(shown.reflected).toBe(true);
    expect(originWords(shown.provenance!, shown.origin, shown.reflected)).toMatch(/^learned \d{4}-\d\d-\d\d from game g13, move \d+ · my loss, looking back$/);

    // The game has taught what it can: a second pass walks it and learns nothing.
    const again = await service.reflection.reflect(GUILD);
    expect(again).toMatchObject({ walked: 1, learned: [] });
    expect((await texts(storage)).length).toBe(after.length);
  });
});

describe('reflection in the service', () => {
  it('starts a pass by itself every reflectEvery analysed games, after the reply, and not with reflection off', async () => {
    const on = await setup('file', { reflectEvery: 1 });
    await on.storage.guild(GUILD).records.put('g13', lostRecord('g13', GAME_13, on.clock.now() - 3_600_000));
    const lost = await loseAGame(on.service, ALICE);
    expect(lost.stored.finished?.outcome).toBe('bot-lost');
    await on.service.reflection.settled();
    const passes = on.lines.filter((l) => l.message === 'reflected on finished games');
    expect(passes.length).toBeGreaterThanOrEqual(1);
    // The pass walked both finished games, the old one first, and learned the lesson from it.
    expect(passes[0].detail).toMatchObject({ games: 2, walked: 2 });
    const lesson = await on.storage.guild(GUILD).library.get(subgoalKey(LESSON));
    expect(lesson).toMatchObject({ provenance: { game: 'g13' }, reflected: true });

    const off = await setup('file', { reflectEvery: 0 });
    await off.storage.guild(GUILD).records.put('g13', lostRecord('g13', GAME_13, off.clock.now() - 3_600_000));
    await loseAGame(off.service, ALICE);
    await off.service.reflection.settled();
    expect(off.lines.filter((l) => l.message === 'reflected on finished games')).toEqual([]);
    expect(await off.storage.guild(GUILD).library.get(subgoalKey(LESSON))).toBeUndefined();
  });

  it('walks games between members when the server lets it watch them, and only then', async () => {
    const { service, storage, clock } = await setup('file', { reflectEvery: 0 });
    const at = clock.now() - 3_600_000;
    const watched: VersusGame = {
      id: 'v13',
      channelId: ALICE.channelId,
      size: 19,
      black: 'alice',
      white: 'bob',
      moves: GAME_13.moves.slice(),
      startedAt: at - 60_000,
      updatedAt: at,
      finished: { result: 'black-won', ending: 'five', at, learned: [] },
    };
    await storage.guild(GUILD).versusRecords.put('v13', watched);
    await storage.guild(GUILD).settings.put(SETTINGS_KEY, { watch: false, share: false });
    expect(await service.reflection.reflect(GUILD)).toMatchObject({ games: 0, walked: 0, learned: [] });

    await storage.guild(GUILD).settings.put(SETTINGS_KEY, { watch: true, share: false });
    const pass = await service.reflection.reflect(GUILD);
    expect(pass).toMatchObject({ games: 1, walked: 1 });
    expect(pass.learned).toContain(LESSON);
    expect(await storage.guild(GUILD).library.get(subgoalKey(LESSON))).toMatchObject({
      provenance: { game: 'v13' },
      origin: { kind: 'watched', black: 'alice', white: 'bob' },
      reflected: true,
    });
  });

  it('saves nothing when the memory is reset during a pass', async () => {
    // The moment the pass hands game 13 to a worker, an admin resets the server's memory.
    const { s, acted } = await actingMidWalk((service) => service.resetMemory(GUILD, true));
    const pass = await s.service.reflection.reflect(GUILD);
    expect(acted()).toBeDefined();
    expect(await acted()).toMatchObject({ ok: true, value: { forgotten: LIBRARY_40.size - 1 } });
    expect(pass).toMatchObject({ walked: 1, learned: [], stopped: 'reset' });
    expect(await texts(s.storage)).toEqual([]);
  });

  it('stops a pass at its time budget after at least one game, and begins the next where it stopped', async () => {
    const s = await setup('file', { reflectEvery: 0, reflectionBudgetMs: 1 });
    const at = s.clock.now() - 3_600_000;
    await s.storage.guild(GUILD).records.put('g13-first', lostRecord('g13-first', GAME_13, at));
    await s.storage.guild(GUILD).records.put('g13-second', lostRecord('g13-second', GAME_13, at + 1000));
    const walkedIds = () => s.lines.filter((l) => l.message === 'analysing a finished game').map((l) => (l.detail as { game: string }).game);

    const first = await s.service.reflection.reflect(GUILD);
    expect(first).toMatchObject({ games: 2, walked: 1, stopped: 'time' });
    expect(first.learned).toContain(LESSON);
    const second = await s.service.reflection.reflect(GUILD);
    expect(second).toMatchObject({ games: 2, walked: 1, stopped: 'time', learned: [] });
    expect(walkedIds()).toEqual(['g13-first', 'g13-second']);
    // The third goes round to the oldest again.
    await s.service.reflection.reflect(GUILD);
    expect(walkedIds()).toEqual(['g13-first', 'g13-second', 'g13-first']);
  });

  it('stops a pass at once when the service goes idle (the bot stopping), saving nothing more', async () => {
    const { s, acted } = await actingMidWalk((service) => service.idle());
    const before = await texts(s.storage);
    const pass = await s.service.reflection.reflect(GUILD);
    await acted();
    expect(pass).toMatchObject({ walked: 1, learned: [], stopped: 'closing' });
    expect(await texts(s.storage)).toEqual(before);
    expect(s.lines.some((l) => l.level === 'warn' && /did not finish/.test(l.message))).toBe(true);
    // Used again after, it reflects as before.
    expect((await s.service.reflection.reflect(GUILD)).learned).toContain(LESSON);
  });

  it('queues a second pass for a server asked for while its first runs, and not a third', async () => {
    const s = await setup('file', { reflectEvery: 0 });
    await s.storage.guild(GUILD).records.put('g13', lostRecord('g13', GAME_13, s.clock.now() - 3_600_000));
    const first = s.service.reflection.reflect(GUILD);
    // Not started yet: the same pass.
    expect(s.service.reflection.reflect(GUILD)).toBe(first);
    // Once it runs (it has read the games), a new request is a new pass, and a third is that one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const second = s.service.reflection.reflect(GUILD);
    expect(second).not.toBe(first);
    expect(s.service.reflection.reflect(GUILD)).toBe(second);
    expect((await first).learned).toHaveLength(2);
    expect(await second).toMatchObject({ walked: 1, learned: [] });
  });

  it('refuses a reflection setting that is not a whole number of games', async () => {
    const { storage } = await fileStorage('reflect-bad', collectingLog().log).then((x) => {
      cleanups.push(x.remove);
      return x;
    });
    expect(() => new GameService({ store: storage, reflectEvery: -1 })).toThrow(/reflectEvery must be a whole number ≥ 0, not -1/);
    expect(() => new GameService({ store: storage, reflectEvery: 2.5 })).toThrow(/reflectEvery/);
  });
});
