// STARTER_LIBRARY=paper (src/bot/starter.ts): a new server starts with the paper's subgoals
// from assets/libraries/paper.txt, a server with a library of its own is left as it is, and
// without the setting a server starts from nothing — through the service on a real Redis.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { botConfig, openBotStorage, serviceFor, type BotEnv } from '../../src/bot/config.ts';
import { gameKey, subgoalKey, type StoredGame } from '../../src/bot/records.ts';
import type { BotResult } from '../../src/bot/problems.ts';
import type { Seat } from '../../src/bot/store.ts';
import { LIBRARIES_DIR, loadStarterLibrary, starterNames } from '../../src/bot/starter.ts';
import { libraryView, resetDoneView } from '../../src/bot/views.ts';
import { discordFrontend } from '../../src/bot/words.ts';
import { parseDescription } from '../../src/notation/descriptionNotation.ts';
import { compileCached } from '../../src/learning/library.ts';
import { parseLibraryFile } from '../../src/notation/libraryFile.ts';
import { parsePoint } from '../../src/rules/point.ts';
import { expectOk } from '../../src/rules/result.ts';
import { collectingLog, manualClock, REDIS_URL, tempDir, uniqueNamespace } from './support.ts';

const PAPER = ["(1) 2:4'", '(1, 1) 2:4, 4', "(1, 1) 3:3', 3'", '(1, 2-1) 4, 3-3:4', "(1, 2-1, 2) 4:3', 2'-4:2', 3'"];
/** A service result's value; a problem fails the test with its code. */
function value<T>(r: BotResult<T>): T {
  if (!r.ok) throw new Error(r.problem.code);
  return r.value;
}

const seat = (guildId: string): Seat => ({ guildId, channelId: 'chan', userId: 'alice' });

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(extra: BotEnv = {}) {
  const { log } = collectingLog();
  const { dir, remove } = await tempDir('starter');
  const env: BotEnv = { REDIS_URL, STORAGE_NAMESPACE: uniqueNamespace('starter'), DATA_DIR: dir, GOMOKU_SEED: '7', ...extra };
  const storage = await openBotStorage(env, log, { durable: false });
  cleanups.push(async () => {
    for (const g of ['new', 'taught', 'half', 'plain']) await storage.guild(g).clear();
    await storage.close();
    await remove();
  });
  const service = serviceFor(env, storage, log);
  cleanups.push(() => service.idle());
  return { storage, service };
}

const texts = async (storage: Awaited<ReturnType<typeof setup>>['storage'], guildId: string) =>
  (await storage.guild(guildId).library.list()).map((e) => e.value.subgoal.text).sort();

describe('the starter library', () => {
  it('is the paper list in the library file format, read and checked when the bot starts', () => {
    expect(starterNames()).toContain('paper');
    const file = expectOk(parseLibraryFile(readFileSync(`${LIBRARIES_DIR}paper.txt`, 'utf8')));
    expect(file.map((e) => expectOk(compileCached(e.description)).text)).toEqual(PAPER);
    expect(botConfig({ STARTER_LIBRARY: 'paper' }).starter?.subgoals.map((s) => s.text)).toEqual(PAPER);
    expect(loadStarterLibrary('paper').name).toBe('paper');
    // Off unless asked for, and an unknown name stops the bot with the variable named.
    expect(botConfig({}).starter).toBeUndefined();
    expect(botConfig({ STARTER_LIBRARY: ' ' }).starter).toBeUndefined();
    expect(() => botConfig({ STARTER_LIBRARY: 'papers' })).toThrow(/^STARTER_LIBRARY must be one of .*paper.* \(or empty for none\), not "papers"$/);
  });

  it('seeds a new server, leaves a server that has learned alone, finishes a seed cut short, and comes back after a reset', async () => {
    const { storage, service } = await setup({ STARTER_LIBRARY: 'paper' });
    // A server that has learned a subgoal of its own before the setting was turned on.
    const own = expectOk(compileCached(expectOk(parseDescription("(1) 2:4'"))));
    await storage.guild('taught').library.put(subgoalKey(own.text), { subgoal: own, provenance: { game: 'g1', move: 9, date: '2025-01-01T00:00:00.000Z' } });
    // A seed cut short: two of the five written.
    const starter = loadStarterLibrary('paper');
    for (const s of starter.subgoals.slice(0, 2)) await storage.guild('half').library.put(subgoalKey(s.text), { subgoal: s, provenance: { game: 'starter:paper', move: 1, date: '2025-01-01T00:00:00.000Z' } });

    const page = value(await service.library('new', 1));
    // Given by the starter library, not learned: counted apart, and said so.
    expect([page.learned, page.given]).toEqual([0, 5]);
    expect(page.entries.map((e) => e.subgoal.text).sort()).toEqual(['(1) 1:5', ...PAPER].sort());
    expect(await texts(storage, 'new')).toEqual([...PAPER].sort());
    const shown = libraryView(page, discordFrontend).text;
    expect(shown).toContain(`– from the starter library "paper", given ${new Date().toISOString().slice(0, 10)} · recognised in 0 games`);
    expect(shown).toContain('– the rule of the game');
    expect(shown).toMatch(/^\*\*.*\*\*: 0 learned subgoals, 5 given by the starter library and the rule of the game, grouped by node list/);

    expect((await service.library('taught', 1)).ok).toBe(true);
    expect(await texts(storage, 'taught')).toEqual(["(1) 2:4'"]);
    expect((await service.library('half', 1)).ok).toBe(true);
    expect(await texts(storage, 'half')).toEqual([...PAPER].sort());

    const reset = value(await service.resetMemory('new', true));
    expect(reset).toEqual({ forgotten: 5, starter: 'paper' });
    expect(resetDoneView(reset.forgotten, reset.starter).text).toBe(
      'Done: I forgot 5 learned subgoals, their counters and the finished games. I start again from the rule of the game and the starter library "paper" (STARTER_LIBRARY).',
    );
    expect(await texts(storage, 'new')).toEqual([]);
    expect(value(await service.library('new', 1)).given).toBe(5);
  });

  it('is what the bot plays with: a new server\'s bot knows the double three from its first game', async () => {
    const clock = manualClock();
    // test/fixtures/player/double-three.txt with the member black: j8 is two open threes.
    const moves = ['h8', 'b2', 'i8', 'n2', 'j6', 'b14', 'j7', 'n14'].map((m) => expectOk(parsePoint(15, m)));
    const game = (guildId: string): StoredGame => ({ id: `dt-${guildId}`, channelId: 'chan', userId: 'alice', size: 15, human: 'black', level: 3, seed: 1, moves, startedAt: clock.now(), updatedAt: Date.now(), recognised: [], played: [] });
    const withPaper = await setup({ STARTER_LIBRARY: 'paper' });
    await withPaper.storage.guild('new').games.put(gameKey('chan', 'alice'), game('new'));
    const hint = value(await withPaper.service.hint(seat('new')));
    expect(hint.choice.reason.kind).toBe('force');
    // Without the setting the same new server knows only the rule of five, and sees no forced line.
    const without = await setup();
    await without.storage.guild('plain').games.put(gameKey('chan', 'alice'), game('plain'));
    const plain = value(await without.service.hint(seat('plain')));
    expect(plain.choice.reason.kind).not.toBe('force');
    expect(await texts(without.storage, 'plain')).toEqual([]);
  });
});
