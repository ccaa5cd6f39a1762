// gomoku memory list / export / import, against the embedded file store and a real Redis:
// the bot's own records, read and written through the same storage settings the bot uses;
// an import merges, canonicalises, skips what is known and makes a running service read
// the library again; a server's memory moves from files to Redis by export and import.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { openBotStorage } from '../src/bot/config.ts';
import { botCodecs, LIBRARY_VERSION_KEY, gameKey, subgoalKey, type BotSchema, type StoredGame } from '../src/bot/records.ts';
import { GameService } from '../src/bot/service.ts';
import type { CliIO } from '../src/bot/io.ts';
import { processIO } from '../src/bot/io.ts';
import { memoryTool, type OpenMemory } from '../src/cli/memory.ts';
import { Library } from '../src/learning/library.ts';
import { expectOk } from '../src/rules/result.ts';
import { Memory, openMemory, type Storage, type StorageEnv } from '../src/storage/index.ts';
import { collectingLog, faultyBackend, REDIS_URL, storeLibrary, tempDir, uniqueNamespace } from './bot/support.ts';
import { FIXTURES, fixture } from './support/fixtures.ts';

const run = promisify(execFile);
const PAPER_FILE = join(FIXTURES, 'libraries', 'paper.txt');
const PAPER = expectOk(Library.fromFile(fixture('libraries/paper.txt')));
const learnedTexts = (lib: Library) => lib.entries.slice(1).map((e) => e.subgoal.text);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function memory(env: StorageEnv, args: string[], open?: OpenMemory): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`), readFile: (p, max) => processIO.readFile(p, max) };
  const code = await memoryTool(() => env, open).run(args, io);
  return { code, out, err };
}

async function storageFor(env: StorageEnv): Promise<Storage<BotSchema>> {
  const storage = await openBotStorage(env, collectingLog().log, { durable: false });
  cleanups.push(() => storage.close());
  return storage;
}

const kinds: Array<[string, () => Promise<StorageEnv>]> = [
  [
    'the file store',
    async () => {
      const { dir, remove } = await tempDir('memory-cli');
      cleanups.push(remove);
      return { DATA_DIR: dir };
    },
  ],
  [
    'Redis',
    async () => {
      const { dir, remove } = await tempDir('memory-cli');
      const env = { REDIS_URL, STORAGE_NAMESPACE: uniqueNamespace('memory-cli'), DATA_DIR: dir };
      cleanups.push(async () => {
        const storage = await openBotStorage(env, collectingLog().log);
        await storage.backend.clearAll();
        await storage.close();
        await remove();
      });
      return env;
    },
  ],
];

describe.each(kinds)('gomoku memory on %s', (_name, makeEnv) => {
  it('lists the servers with their library sizes, games and finished games', async () => {
    const env = await makeEnv();
    expect((await memory(env, ['list'])).out).toMatch(/^no server has anything stored in /);
    const storage = await storageFor(env);
    await storeLibrary(storage, 'guild-a', PAPER);
    const game: StoredGame = { id: 'g1', channelId: 'c', userId: 'u', size: 15, human: 'black', level: 1, seed: 1, moves: [], startedAt: 1, updatedAt: 1, recognised: [], played: [] };
    await storage.guild('guild-b').games.put(gameKey('c', 'u'), game);
    // A game that has ended is kept a while for /board: it is not being played.
    await storage.guild('guild-b').games.put(gameKey('c', 'v'), { ...game, id: 'g2', userId: 'v', finished: { outcome: 'bot-won', ending: 'resigned', at: 2, learned: [] } });
    const r = await memory(env, ['list']);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual(['server   learned  playing  finished', `guild-a        ${PAPER.size - 1}        0         0`, 'guild-b        0        1         0']);
  });

  it('exports a library file that reads back as the same library, and imports it into another server', async () => {
    const env = await makeEnv();
    const storage = await storageFor(env);
    await storeLibrary(storage, 'guild-a', PAPER);
    const { dir, remove } = await tempDir('memory-out');
    cleanups.push(remove);
    const out = join(dir, 'guild-a.txt');
    expect(await memory(env, ['export', '--guild', 'guild-a', '--out', out])).toMatchObject({ code: 0, err: `gomoku memory: wrote ${out}\n` });
    // A server with nothing learned (or a mistyped id) still gets its file, with a warning.
    const none = await memory(env, ['export', '--guild', 'guild-typo']);
    expect(none.code).toBe(0);
    expect(none.err).toContain('gomoku memory: server guild-typo has no learned subgoals on this storage (a new server, or a mistyped id?');
    expect(expectOk(Library.fromFile(none.out)).size).toBe(1);
    const text = await readFile(out, 'utf8');
    const exported = expectOk(Library.fromFile(text));
    expect(learnedTexts(exported)).toEqual(learnedTexts(PAPER));
    expect(exported.entries[1].provenance).toEqual({ game: 'seed', move: 1, date: '2025-01-01T00:00:00.000Z' });

    const imported = await memory(env, ['import', '--guild', 'guild-c', '--library', out]);
    // guild-c has nothing stored: a server moved here, or a mistyped id. It goes ahead, and says so.
    expect(imported).toMatchObject({ code: 0, err: 'gomoku memory: server guild-c had nothing stored on this storage (a server moved here, or a mistyped id? gomoku memory list shows the servers)\n' });
    expect(imported.out.trim()).toBe(`imported ${PAPER.size - 1} new subgoals into server guild-c; its library holds ${PAPER.size - 1} learned subgoals (it had none before)`);
    const page = await new GameService({ store: storage, seed: 1 }).library('guild-c');
    expect(page.ok && page.value.learned).toBe(PAPER.size - 1);
    expect(await storage.guild('guild-c').versions.get(LIBRARY_VERSION_KEY)).toMatchObject({ n: 1 });
  });

  it('merges: canonicalises, skips what the server knows and what the file repeats, and changes nothing twice', async () => {
    const env = await makeEnv();
    const storage = await storageFor(env);
    await storeLibrary(storage, 'guild-m', expectOk(Library.fromFile("(1) 2:4'\n")));
    const { dir, remove } = await tempDir('memory-in');
    cleanups.push(remove);
    const file = join(dir, 'mixed.txt');
    // Fig. 6 written in another labelling, the same again, one the server knows, the rule of five, and Fig. 3.
    await writeFile(file, "(2-1, 2) 3:4-3, 4\n(1, 2-1) 4, 3-3:4\n(1) 2:4'\n(1) 1:5\n(1, 1) 3:3', 3'\n");
    const first = await memory(env, ['import', '--guild', 'guild-m', '--library', file]);
    expect(first.out.trim()).toBe('imported 2 new subgoals into server guild-m (skipped 2 already known, 1 repeated in the file); its library holds 3 learned subgoals');
    const held = (await storage.guild('guild-m').library.list()).map((e) => e.value);
    expect(held.map((r) => r.subgoal.text).sort()).toEqual(["(1) 2:4'", "(1, 1) 3:3', 3'", '(1, 2-1) 4, 3-3:4'].sort());
    expect(held.find((r) => r.subgoal.text === "(1, 1) 3:3', 3'")?.provenance).toMatchObject({ game: 'mixed.txt (imported)', move: 5 });
    // Marked imported, not a loss of the bot's; /library says the file and its line.
    expect(held.filter((r) => r.subgoal.text !== "(1) 2:4'").map((r) => r.origin)).toEqual([{ kind: 'imported' }, { kind: 'imported' }]);
    const service = new GameService({ store: storage, seed: 1 });
    const listed = await service.library('guild-m');
    expect(listed.ok && listed.value.entries.map((e) => e.origin?.kind)).toContain('imported');
    const standings = await service.ratings.standings('guild-m');
    expect(standings.ok && [...standings.value.library].sort()).toEqual(['imported', 'imported', 'loss']);
    // Imported before imports were marked: no origin, but the provenance names the file.
    const [fig3] = expectOk(Library.fromFile("(1, 1) 3:3', 3'\n")).entries.slice(1);
    await storage.guild('guild-old').library.put(subgoalKey(fig3.subgoal.text), { subgoal: fig3.subgoal, provenance: { game: 'old.txt (imported)', move: 2, date: '2026-11-01T00:00:00.000Z' } });
    const old = await service.ratings.standings('guild-old');
    expect(old.ok && old.value.library).toEqual(['imported']);
    const version = await storage.guild('guild-m').versions.get(LIBRARY_VERSION_KEY);

    const again = await memory(env, ['import', '--guild', 'guild-m', '--library', file]);
    expect(again.out.trim()).toBe('imported 0 new subgoals into server guild-m (skipped 4 already known, 1 repeated in the file); its library holds 3 learned subgoals');
    expect(await storage.guild('guild-m').versions.get(LIBRARY_VERSION_KEY)).toEqual(version);
  });

  it('says how much of an import storage took before it failed, and a second import adds the rest', async () => {
    const env = await makeEnv();
    const storage = await storageFor(env);
    const series = join(FIXTURES, 'libraries', 'series-187.txt');
    const total = expectOk(Library.fromFile(fixture('libraries/series-187.txt'))).size - 1;
    let writes = 0;
    let down = true;
    // Storage that takes 12 learned subgoals, then fails every write while `down`.
    const failing: OpenMemory = async (e, log) => {
      const opened = await openMemory(e, botCodecs, { log });
      const backend = faultyBackend(opened.memory.backend, (key) => down && key.includes('::library::') && ++writes > 12);
      return { ...opened, memory: new Memory<BotSchema>(backend, botCodecs, log) };
    };
    const r = await memory(env, ['import', '--guild', 'guild-f', '--library', series], failing);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(
      new RegExp(`^gomoku memory: storage unavailable \\(put\\): test outage at .*; 12 of the ${total} new subgoals were saved before it failed, and a running bot sees them at its next command; import the file again to add the rest: what is saved is skipped$`),
    );
    expect(await storage.guild('guild-f').library.list()).toHaveLength(12);
    expect(await storage.guild('guild-f').versions.get(LIBRARY_VERSION_KEY)).toMatchObject({ n: 1 });

    down = false;
    const again = await memory(env, ['import', '--guild', 'guild-f', '--library', series], failing);
    expect(again.out.trim()).toBe(`imported ${total - 12} new subgoals into server guild-f (skipped 12 already known); its library holds ${total} learned subgoals`);
  });

  it('says so when every subgoal was saved but the library\'s version was not', async () => {
    const env = await makeEnv();
    const storage = await storageFor(env);
    const paper = PAPER.size - 1;
    const versionDown: OpenMemory = async (e, log) => {
      const opened = await openMemory(e, botCodecs, { log });
      return { ...opened, memory: new Memory<BotSchema>(faultyBackend(opened.memory.backend, (key) => key.includes('::versions::')), botCodecs, log) };
    };
    const r = await memory(env, ['import', '--guild', 'guild-v', '--library', PAPER_FILE], versionDown);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(
      new RegExp(`^gomoku memory: storage unavailable \\(put\\): test outage at .*; all ${paper} new subgoals were saved, but the library's version could not be written, so a running bot sees them only when its library next changes or it restarts$`),
    );
    expect(await storage.guild('guild-v').library.list()).toHaveLength(paper);
    expect(await storage.guild('guild-v').versions.get(LIBRARY_VERSION_KEY)).toBeUndefined();
  });

  it('refuses a file with a bad line, naming it, and writes nothing', async () => {
    const env = await makeEnv();
    const storage = await storageFor(env);
    const bad = join(FIXTURES, 'libraries', 'bad-shape.txt');
    const r = await memory(env, ['import', '--guild', 'guild-x', '--library', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad-shape\.txt, line 3, column \d+: .*\(shape-mismatch\); nothing was imported/);
    expect(await storage.guild('guild-x').library.list()).toEqual([]);
    const tooMany = await memory(env, ['import', '--guild', 'guild-x', '--library', join(FIXTURES, 'libraries', 'too-many-nodes.txt')]);
    expect(tooMany.err).toMatch(/line 3, column 18: a description may have at most 8 nodes/);
    expect(await storage.guild('guild-x').library.list()).toEqual([]);
  });
});

describe('gomoku memory', () => {
  it('moves a server from the file store to Redis', async () => {
    const [, files] = kinds[0];
    const [, redis] = kinds[1];
    const fileEnv = await files();
    const redisEnv = await redis();
    await storeLibrary(await storageFor(fileEnv), '1234567890', PAPER);
    const { dir, remove } = await tempDir('memory-move');
    cleanups.push(remove);
    const out = join(dir, 'backup.txt');
    expect((await memory(fileEnv, ['export', '--guild', '1234567890', '--out', out])).code).toBe(0);
    expect((await memory(redisEnv, ['import', '--guild', '1234567890', '--library', out])).code).toBe(0);
    const moved = (await (await storageFor(redisEnv)).guild('1234567890').library.list()).map((e) => e.value);
    expect(moved.map((r) => r.subgoal.text).sort()).toEqual(learnedTexts(PAPER).sort());
    // Provenance travels with the subgoals.
    expect(moved.every((r) => r.provenance.game === 'seed')).toBe(true);
  });

  it('an import is seen by a running service at its next command', async () => {
    const [, redis] = kinds[1];
    const env = await redis();
    const storage = await storageFor(env);
    const service = new GameService({ store: storage, seed: 1 });
    cleanups.push(() => service.idle());
    const learned = async () => {
      const page = await service.library('guild-s');
      return page.ok ? page.value.learned : page.problem.code;
    };
    expect(await learned()).toBe(0);
    expect((await memory(env, ['import', '--guild', 'guild-s', '--library', PAPER_FILE])).code).toBe(0);
    expect(await learned()).toBe(PAPER.size - 1);
  });

  it('says what is wrong with its arguments', async () => {
    const env = { DATA_DIR: '/nonexistent' };
    expect((await memory(env, [])).code).toBe(2);
    expect((await memory(env, ['frob'])).err).toContain('unknown action "frob"');
    expect((await memory(env, ['export'])).err).toContain('export needs --guild ID');
    expect((await memory(env, ['import', '--guild', 'g'])).err).toContain('import needs --library FILE');
    expect((await memory(env, ['list', '--guild', 'g'])).err).toContain('list takes no --guild');
    for (const id of [' 123', 'not a snowflake!', '123\n(1, 2) 4:4, 4-4, 4']) {
      for (const action of [['export', '--guild', id], ['import', '--guild', id, '--library', PAPER_FILE]]) {
        const r = await memory(env, action);
        expect(r.code).toBe(2);
        expect(r.err).toContain('is not a server id');
      }
    }
    expect((await memory(env, ['list'])).out).not.toMatch(/snowflake|^ 123/m);
    const missing = await memory(env, ['import', '--guild', 'g', '--library', '/nonexistent/lib.txt']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('cannot read /nonexistent/lib.txt');
  });

  it('says so in one line when Redis does not answer', async () => {
    const { dir, remove } = await tempDir('memory-dead');
    cleanups.push(remove);
    const r = await memory({ REDIS_URL: 'redis://127.0.0.1:1', DATA_DIR: dir }, ['list']);
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n').at(-1)).toMatch(/^gomoku memory: storage unavailable \(list\): .* at redis \(namespace gomoku\)$/);
  });

  it('runs as the installed command, with the storage settings of the environment', async () => {
    const [, redis] = kinds[1];
    const env = await redis();
    await storeLibrary(await storageFor(env), 'guild-p', PAPER);
    const bin = join(FIXTURES, '..', '..', 'bin', 'gomoku.mjs');
    const { stdout } = await run('node', [bin, 'memory', 'list'], { env: { ...process.env, ...env } });
    expect(stdout).toContain(`guild-p        ${PAPER.size - 1}        0         0`);
  });
});
