// A library file that several learners write (src/cli/learnedLibrary.ts, used by
// `gomoku brain --learn`): merged under a lock, written atomically, each lesson under a game id
// of its own. Real files in a temporary folder, real players, real child processes.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { createElcockPlayer } from '../src/cli/elcockPlayer.ts';
import { gameLogFolder, readGameLog } from '../src/cli/gameLog.ts';
import { learnedGameId, saveLearned } from '../src/cli/learnedLibrary.ts';
import type { Description } from '../src/notation/description.ts';
import { makeDescription, parseDescription } from '../src/notation/descriptionNotation.ts';
import type { MovePlayer } from '../src/play/engine.ts';
import { Game } from '../src/rules/game.ts';
import { parseGameRecord, replayRecord } from '../src/rules/gameRecord.ts';
import { toGomocup } from '../src/gomocup/protocol.ts';
import { Library, makeProvenance, parseProvenance } from '../src/learning/library.ts';
import { parseLibraryFile } from '../src/notation/libraryFile.ts';
import { expectOk, ok } from '../src/rules/result.ts';
import { withFileLock } from '../src/storage/fileLock.ts';
import { runCli } from './support/cli.ts';
import { spawnBrain } from './support/brainProcess.ts';
import { distinctDescriptions } from './support/distinctSubgoals.ts';
import { fixture, FIXTURES } from './support/fixtures.ts';

const ROOT = join(FIXTURES, '..', '..');
const SUPPORT = join(FIXTURES, '..', 'support');

/** `elcock-<level>-<process start>-<pid>-<game>`, as learnedGameId documents it. */
const GAME_ID = /^elcock-\d-\d{8}T\d{6}Z-(\d+)-\d+$/;

// What each game of test/fixtures/games/learning teaches from the rule of five alone (its
// comment says so; test/learning.test.ts checks it).
const TEACHES: Record<string, string[]> = {
  'open-four': ["(1) 2:4'"],
  'double-four': ['(1, 1) 2:4, 4'],
  'four-then-double-four': ['(1, 1) 2:4, 4', '(1, 2-1) 4, 3-3:4'],
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gomoku-learned-'));
  dirs.push(dir);
  return dir;
}

function finishedGame(name: string): Game {
  return expectOk(replayRecord(expectOk(parseGameRecord(fixture(`games/learning/${name}.txt`)))));
}

/** The game before the loser's last move: the loser (white in every one of these) to move. */
function beforeLoss(game: Game): Game {
  const g = Game.create(game.size);
  for (const p of game.moves.slice(0, -2)) g.play(p);
  return g;
}

function learner(file: string, reports: string[] = []): MovePlayer {
  return expectOk(createElcockPlayer({ library: file, learn: true, level: 1, seed: 1, report: (m) => void reports.push(m) }));
}

/** The player takes the loser's side of a recorded game: asked for a move, then told the game. */
async function lose(player: MovePlayer, name: string): Promise<void> {
  const game = finishedGame(name);
  await player.chooseMove(beforeLoss(game));
  await player.gameOver!(game);
}

/** The file's entries: canonical text and the game it was learned from. */
function entriesOf(file: string): { text: string; game: string | undefined }[] {
  const lib = expectOk(Library.fromFile(readFileSync(file, 'utf8')));
  return lib.entries.slice(1).map((e) => ({ text: e.subgoal.text, game: e.provenance?.game }));
}

const texts = (file: string) => entriesOf(file).map((e) => e.text).sort();

describe('two learners, one library file', () => {
  it('two players that lose at the same moment both keep their lesson, each under its own game id', async () => {
    const file = join(tempFolder(), 'lib.txt');
    const [a, b] = [learner(file), learner(file)];
    await Promise.all([lose(a, 'open-four'), lose(b, 'double-four')]);
    expect(texts(file)).toEqual(["(1) 2:4'", '(1, 1) 2:4, 4']);
    const games = entriesOf(file).map((e) => e.game!);
    expect(new Set(games).size).toBe(2);
    for (const g of games) expect(g).toMatch(GAME_ID);
    // No temporary file and no lock is left beside it: the library and the games it learned
    // from, one file each under its game id (gameLog.ts).
    expect(readdirSync(join(file, '..')).sort()).toEqual(['lib.txt', 'lib.txt.games']);
    expect(readdirSync(gameLogFolder(file)).sort()).toEqual(games.map((g) => `${g}.txt`).sort());
  });

  it('a player knows what another learner wrote once it has merged, and keeps it', async () => {
    const file = join(tempFolder(), 'lib.txt');
    const [a, b] = [learner(file), learner(file)];
    await lose(a, 'open-four');
    await lose(b, 'double-four');
    // b merged a's (1) 2:4' when it wrote. Take the file away: b's next loss writes from
    // memory, and (1) 2:4' can only come from what b merged (this game does not teach it).
    rmSync(file);
    await lose(b, 'four-then-double-four');
    expect(texts(file)).toEqual(["(1) 2:4'", '(1, 1) 2:4, 4', '(1, 2-1) 4, 3-3:4']);
  });

  it('gomoku analyse --write merges with what a learner wrote while it analysed', async () => {
    const file = join(tempFolder(), 'lib.txt');
    // A learner holds the file's lock; the analysis runs, then waits for the lock, while the
    // learner writes (1) 2:4' — which this game does not teach — and lets go.
    let analysed: Promise<{ code: number; out: string; err: string }> | undefined;
    const brain = Library.empty();
    brain.add(expectOk(parseDescription("(1) 2:4'")), { game: 'brain-game', move: 1, date: '2026-11-29' });
    const held = await withFileLock(file, async () => {
      analysed = runCli(['analyse', '--game', join(FIXTURES, 'games', 'learning', 'double-four.txt'), '--library', file, '--write']);
      await new Promise((r) => setTimeout(r, 50));
      writeFileSync(file, brain.toFile(['written by a learner']));
      return ok(undefined);
    });
    expect(held.ok).toBe(true);
    const r = await analysed!;
    expect(r.code).toBe(0);
    expect(texts(file)).toEqual(["(1) 2:4'", '(1, 1) 2:4, 4']);
  });

  it('a save keeps the file\'s own lines, a person\'s notes among them, and appends what it lacks', async () => {
    const file = join(tempFolder(), 'notes.txt');
    const mine = "# my precious notes\n#   about Fig. 5, keep\n(1) 2:4'\n\n# the end of my notes";
    writeFileSync(file, mine);
    const learned = Library.empty();
    learned.add(expectOk(parseDescription("(1) 2:4'")), { game: 'g-1', move: 3, date: '2026-12-03' });
    learned.add(expectOk(parseDescription('(1, 1) 3:3\', 3\'')), { game: 'g-1', move: 5, date: '2026-12-03' });
    const saved = expectOk(await saveLearned(file, learned, ['a header that must not replace theirs']));
    expect(saved.size).toBe(3);
    expect(readFileSync(file, 'utf8')).toBe(`${mine}\n# learned from g-1, move 5, 2026-12-03\n(1, 1) 3:3', 3'\n`);
    // Saved again with nothing new, the file is left as it is.
    expectOk(await saveLearned(file, learned, []));
    expect(readFileSync(file, 'utf8')).toBe(`${mine}\n# learned from g-1, move 5, 2026-12-03\n(1, 1) 3:3', 3'\n`);
  });

  it('a game named with a line break is written on one comment line, so the file reads back', async () => {
    const file = join(tempFolder(), 'lib.txt');
    const learned = Library.empty();
    learned.add(expectOk(parseDescription("(1) 2:4'")), { game: 'bad\nname.txt\r(9) 9:9', move: 11, date: '2026-12-03' });
    expectOk(await saveLearned(file, learned, ['server\n(1, 2) 4:4, 4-4, 4']));
    const back = expectOk(Library.fromFile(readFileSync(file, 'utf8')));
    expect(back.entries.slice(1).map((e) => [e.subgoal.text, e.provenance?.game])).toEqual([["(1) 2:4'", 'bad name.txt (9) 9:9']]);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('# server (1, 2) 4:4, 4-4, 4');
  });

  it('a brain refuses a library file too large to be one (/dev/zero) rather than reading it for ever', () => {
    const r = createElcockPlayer({ library: '/dev/zero', learn: true, level: 1, seed: 1 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('/dev/zero is too large for a library: it holds more than 16 MiB');
  });

  it('twelve saves at once in one process lose nothing', async () => {
    const file = join(tempFolder(), 'lib.txt');
    const descriptions = distinctDescriptions(12);
    const saves = descriptions.map((d, i) => {
      const lib = Library.empty();
      lib.add(d, { game: `save-${i}`, move: 1, date: '2026-11-21' });
      return saveLearned(file, lib, ['twelve savers']);
    });
    for (const r of await Promise.all(saves)) expect(r.ok).toBe(true);
    expect(texts(file)).toEqual(descriptions.map(canonicalText).sort());
    expect(readdirSync(join(file, '..'))).toEqual(['lib.txt']);
  });

  it('six processes saving ten subgoals each, one save at a time, lose nothing', async () => {
    const file = join(tempFolder(), 'lib.txt');
    const [processes, each] = [6, 10];
    const children = Array.from({ length: processes }, (_, i) =>
      spawn(process.execPath, ['--import', 'tsx', join(SUPPORT, 'saveLearnedChild.ts'), file, String(i), String(each)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    const said = children.map(async (c) => {
      const lines = createInterface({ input: c.stdout })[Symbol.asyncIterator]();
      return (await lines.next()).value as string | undefined;
    });
    // Every child waits for this line, so that they write together.
    for (const c of children) c.stdin.end('go\n');
    expect(await Promise.all(said)).toEqual(Array.from({ length: processes }, () => 'done'));
    expect(texts(file)).toEqual(distinctDescriptions(processes * each).map(canonicalText).sort());
    expect(readdirSync(join(file, '..'))).toEqual(['lib.txt']);
  });

  it('two gomoku brain processes that lose at the same moment both keep their lesson', async () => {
    const file = join(tempFolder(), 'lib.txt');
    const brains = ['open-four', 'double-four'].map((name) => ({ name, brain: spawnBrain(['--library', file, '--learn', '--level', '1']) }));
    await Promise.all(brains.map(({ name, brain }) => playLostPosition(brain, name)));
    // Both games end together; each brain learns at END.
    for (const { brain } of brains) brain.send('END');
    for (const { brain } of brains) {
      expect(await brain.exited).toBe(0);
      expect(brain.stderr()).toBe('');
    }
    const entries = entriesOf(file);
    expect(entries.map((e) => e.text).sort()).toEqual(["(1) 2:4'", '(1, 1) 2:4, 4']);
    // Each lesson is named after the brain that learned it: its pid is in the game id.
    for (const { name, brain } of brains) {
      const entry = entries.find((e) => e.text === TEACHES[name][0])!;
      expect(GAME_ID.exec(entry.game!)?.[1]).toBe(String(brain.pid));
    }
    expect(readdirSync(join(file, '..')).sort()).toEqual(['lib.txt', 'lib.txt.games']);
    expect(readGameLog(gameLogFolder(file)).games).toHaveLength(2);
  });
});

describe('reflection: a learner walks back again through the games it kept', () => {
  // Game 13 of a learning series and the library the series had after 40 games: walked back
  // again with that library, the game teaches two subgoals it did not teach when it was played
  // (test/curve.test.ts walks the same pair in process).
  const REFLECT = join(FIXTURES, 'games', 'reflect');
  const LESSON = "(1, 2-1, 3-2, 3) 5:3', 3-3, 2'-2', 3'";
  /** A library file holding the 40-game library, and game 13 kept beside it by an earlier run, an hour old. */
  function earlierRun(): string {
    const file = join(tempFolder(), 'lib.txt');
    writeFileSync(file, readFileSync(join(REFLECT, 'series-40-library.txt')));
    const folder = gameLogFolder(file);
    mkdirSync(folder);
    const kept = join(folder, 'elcock-5-20261128T100000Z-1-13.txt');
    writeFileSync(kept, readFileSync(join(REFLECT, 'series-game-13.txt')));
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(kept, hourAgo, hourAgo);
    return file;
  }

  it('keeps each game it learns from, and every reflectEvery games learns from the old ones what they could not teach before', async () => {
    const file = earlierRun();
    const reports: string[] = [];
    const player = expectOk(createElcockPlayer({ library: file, learn: true, level: 1, seed: 1, reflectEvery: 1, report: (m) => void reports.push(m) }));
    expect(texts(file)).not.toContain(LESSON);
    await lose(player, 'open-four');
    expect(reports).toEqual([]);
    const entry = entriesOf(file).find((e) => e.text === LESSON);
    expect(entry?.game).toBe('elcock-5-20261128T100000Z-1-13-reflected');
    // The game just lost is kept too, after the older one.
    const kept = readGameLog(gameLogFolder(file));
    expect(kept.problems).toEqual([]);
    expect(kept.games.map((g) => g.id)[0]).toBe('elcock-5-20261128T100000Z-1-13');
    expect(kept.games[1].id).toMatch(GAME_ID);
    expect(kept.games[1].game.moves).toEqual(finishedGame('open-four').moves);
  });

  it('does not walk back before reflectEvery games, nor keep games with reflection off', async () => {
    const file = earlierRun();
    const twice = expectOk(createElcockPlayer({ library: file, learn: true, level: 1, seed: 1, reflectEvery: 2 }));
    await lose(twice, 'open-four');
    expect(texts(file)).not.toContain(LESSON);
    await lose(twice, 'double-four');
    expect(texts(file)).toContain(LESSON);

    const off = join(tempFolder(), 'lib.txt');
    const never = expectOk(createElcockPlayer({ library: off, learn: true, level: 1, seed: 1, reflectEvery: 0 }));
    await lose(never, 'open-four');
    expect(readdirSync(join(off, '..'))).toEqual(['lib.txt']);
    expect(() => expectOk(createElcockPlayer({ library: off, learn: true, seed: 1, reflectEvery: -2 }))).toThrow(/--reflect-every must be a whole number of games \(0: never\), not -2/);
  });

  it('skips a kept file that is not a game won with a five, says which, and walks the others', async () => {
    const file = earlierRun();
    writeFileSync(join(gameLogFolder(file), 'by-hand.txt'), '# size 19\nj10 k11\n');
    const reports: string[] = [];
    const player = expectOk(createElcockPlayer({ library: file, learn: true, level: 1, seed: 1, reflectEvery: 1, report: (m) => void reports.push(m) }));
    await lose(player, 'open-four');
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/skipped a kept game it cannot read: .*by-hand\.txt: the game is not won with a five/);
    expect(texts(file)).toContain(LESSON);
  });
});

describe('writing the library file', () => {
  it('keeps what the file holds first, in its order and with its provenance, then adds what it lacks', async () => {
    const file = join(tempFolder(), 'lib.txt');
    // Another learner's file: two of the paper's subgoals.
    writeFileSync(file, "# theirs\n# learned from their-game, move 9, 2026-11-20\n(1, 1) 3:3', 3'\n(1) 2:4'\n");
    const ours = Library.empty();
    ours.add(expectOk(parseDescription("(1) 2:4'")), { game: 'our-game', move: 7, date: '2026-11-21' });
    ours.add(expectOk(parseDescription('(1, 1) 2:4, 4')), { game: 'our-game', move: 5, date: '2026-11-21' });
    const merged = expectOk(await saveLearned(file, ours, ['ours']));
    const written = expectOk(parseLibraryFile(readFileSync(file, 'utf8')));
    expect(written.map((e) => [makeDescription(e.description), e.provenance?.game])).toEqual([
      ["(1, 1) 3:3', 3'", 'their-game'],
      ["(1) 2:4'", undefined],
      ['(1, 1) 2:4, 4', 'our-game'],
    ]);
    // What the player goes on with is what was written.
    expect(merged.entries.slice(1).map((e) => e.subgoal.text)).toEqual(["(1, 1) 3:3', 3'", "(1) 2:4'", '(1, 1) 2:4, 4']);
    // Saved again with nothing new, the file is left as it is.
    const before = readFileSync(file, 'utf8');
    expectOk(await saveLearned(file, merged, ['a header that would differ']));
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a reader in another process only ever sees a whole library file, and no temporary file is left', async () => {
    const dir = tempFolder();
    const file = join(dir, 'lib.txt');
    // A long header makes each file big enough that a write in place could be seen half done.
    const header = ['watched file', ...Array.from({ length: 400 }, (_, i) => `padding line ${i} of the header, there to make the file long`)];
    const watcher = spawn(process.execPath, ['--import', 'tsx', join(SUPPORT, 'libraryWatcher.ts'), file, '# watched file'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: watcher.stdout })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('watching');
    let library = Library.empty();
    const descriptions = distinctDescriptions(150);
    for (const d of descriptions) {
      library.add(d);
      library = expectOk(await saveLearned(file, library, header));
    }
    watcher.stdin.end('stop\n');
    const seen = JSON.parse((await lines.next()).value as string) as { reads: number; most: number; bad: string[] };
    expect(seen.bad).toEqual([]);
    expect(seen.reads).toBeGreaterThan(100);
    expect(seen.most).toBe(150);
    expect(readdirSync(dir)).toEqual(['lib.txt']);
  });
});

describe('a library file that does not parse when the player writes', () => {
  it('is left as it is; the player says why, keeps what it learned, and writes it all once it can', async () => {
    const file = join(tempFolder(), 'lib.txt');
    const reports: string[] = [];
    const player = learner(file, reports);
    // Someone broke the file after the player started (it started with none).
    const broken = "# edited by hand\n(1) 2:4'\n(1, 1) 3:3', nonsense\n";
    writeFileSync(file, broken);
    await lose(player, 'open-four');
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/lib\.txt, line 3, column \d+: .*left as it is/);
    expect(reports[0]).toContain('keeps the 1 new subgoal(s) in memory');
    // Mended (here: emptied), the next loss writes the lesson kept, though that game
    // teaches nothing new (it is the same game).
    writeFileSync(file, '');
    await lose(player, 'open-four');
    expect(texts(file)).toEqual(["(1) 2:4'"]);
    await lose(player, 'double-four');
    expect(texts(file)).toEqual(["(1) 2:4'", '(1, 1) 2:4, 4']);
    expect(reports).toHaveLength(1);
  });

  it('gomoku brain reports it on standard error, and its standard output stays the protocol', async () => {
    const file = join(tempFolder(), 'lib.txt');
    const brain = spawnBrain(['--library', file, '--learn', '--level', '1']);
    await playLostPosition(brain, 'double-four');
    const broken = 'not a library\n';
    writeFileSync(file, broken);
    brain.send('END');
    expect(await brain.exited).toBe(0);
    expect(await brain.next()).toBeUndefined();
    expect(brain.stderr()).toMatch(/^gomoku brain: elcock-1 could not save what it learned: .*lib\.txt, line 1, column 1: /);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });
});

describe('game ids', () => {
  it('are readable, new for every game in a process, and read back whole from a provenance comment', () => {
    const ids = [learnedGameId('elcock-5'), learnedGameId('elcock-5'), learnedGameId('elcock-3')];
    for (const id of ids) expect(id).toMatch(GAME_ID);
    expect(new Set(ids).size).toBe(3);
    expect(GAME_ID.exec(ids[0])?.[1]).toBe(String(process.pid));
    const provenance = { game: ids[0], move: 13, date: '2026-11-21' };
    expect(parseProvenance(makeProvenance(provenance))).toEqual(provenance);
    const lib = Library.empty();
    lib.add(distinctDescriptions(1)[0], provenance);
    expect(expectOk(parseLibraryFile(lib.toFile()))[0].provenance).toEqual(provenance);
  });
});

/**
 * Sets the brain the position of a recorded game just before its loser's last move (the
 * brain is the loser, white) and lets it answer; the game is lost whatever it plays. Like a
 * Gomocup manager, the test never sends the winning move: the brain finds it at END.
 */
async function playLostPosition(brain: ReturnType<typeof spawnBrain>, name: string): Promise<void> {
  const game = beforeLoss(finishedGame(name));
  brain.send(`START ${game.size}`);
  expect(await brain.next()).toBe('OK');
  brain.send('BOARD');
  game.moves.forEach((p, i) => {
    const { x, y } = toGomocup(game.size, p);
    // Field 1 is the brain's own stone (white: odd moves), 2 the opponent's.
    brain.send(`${x},${y},${i % 2 === 1 ? 1 : 2}`);
  });
  brain.send('DONE');
  expect(await brain.next()).toMatch(/^\d+,\d+$/);
}

/** The canonical text a library keeps a description under. */
function canonicalText(d: Description): string {
  const lib = Library.empty();
  lib.add(d);
  return lib.entries[1].subgoal.text;
}
