// The bot's thinking and drawing in play workers (src/bot/playPool.ts) gives the same answers
// as in this thread, with the project's own 1000-subgoal learned library, and keeps the
// answering thread free: another member's reply does not wait behind a slow one.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalise } from '../../src/notation/canonical.ts';
import { parseGameRecord } from '../../src/rules/gameRecord.ts';
import { compileCached, Library } from '../../src/learning/library.ts';
import { parseLibraryFile } from '../../src/notation/libraryFile.ts';
import { createPlayer, explain } from '../../src/play/player.ts';
import type { CompiledLibrary } from '../../src/bot/libraryCache.ts';
import { afterTurnDrawing, draw, DrawnPictures, heatDrawing, threatsDrawing, type Drawing } from '../../src/bot/picture.ts';
import { PlayPool } from '../../src/bot/playPool.ts';
import { moveSeed, GameService } from '../../src/bot/service.ts';
import type { Seat } from '../../src/bot/store.ts';
import { listingTexts, positionOf, thinkHint, thinkSeen, thinkTurn } from '../../src/bot/thinking.ts';
import { openBotStorage } from '../../src/bot/config.ts';
import { silentLog } from '../../src/bot/log.ts';
import type { Storage } from '../../src/storage/index.ts';
import type { BotSchema } from '../../src/bot/records.ts';
import { REDIS_URL, storeLibrary, tempDir, uniqueNamespace } from './support.ts';
import { expectOk } from '../../src/rules/result.ts';

const LEARNED = new URL('../../bench/fixtures/learned-library.txt', import.meta.url);
const GAME = new URL('../fixtures/games/learning/repeated-loss-gomokuai.txt', import.meta.url);

function learnedLibrary(count = Infinity): Library {
  const library = Library.empty();
  const entries = parseLibraryFile(readFileSync(LEARNED, 'utf8'));
  if (!entries.ok) throw new Error(entries.error.message);
  for (const e of entries.value.slice(0, count)) library.add(expectOk(compileCached(canonicalise(e.description))));
  return library;
}

describe('the play workers answer as this thread does', () => {
  const library = learnedLibrary();
  const held: CompiledLibrary = { library, examples: new Map(), origins: new Map(), reflected: new Set(), version: '1.test' };
  const subgoals = library.subgoals();
  const record = expectOk(parseGameRecord(readFileSync(GAME, 'utf8')));
  const drawn = new DrawnPictures();
  const pool = new PlayPool({ workers: 1, drawn });
  afterAll(() => pool.close());
  /** A picture the worker drew with its answer: kept, and the same bytes as drawing it here. */
  const drawnAhead = async (drawing: Drawing) => {
    const png = await drawn.get(drawing, () => Promise.reject(new Error(`not drawn with the answer: ${drawing.kind}`)));
    expect(Buffer.compare(png, draw(drawing))).toBe(0);
  };

  // Positions of a real game (gomokuai beat the level-5 player), at a few points of it.
  const positions = [0, 1, 10, 21, 40, record.moves.length - 1].map((n) => ({ size: record.size, moves: record.moves.slice(0, n) }));

  it('the same move, reason, recognised subgoals, hint and realisations for the same seed', { timeout: 120_000 }, async () => {
    expect(library.size).toBe(1001);
    for (const [i, p] of positions.entries()) {
      for (const level of [3, 5] as const) {
        const q = { ...p, level, seed: moveSeed(1968 + i, p.moves.length) };
        const here = thinkTurn(createPlayer, subgoals, q);
        const there = await pool.turn('g1', held, q);
        expect(there.before).toEqual(here.before);
        expect(there.after).toEqual(here.after);
        expect(there.choice?.point).toBe(here.choice?.point);
        if (here.choice !== undefined) expect(explain(there.choice!, p.size)).toBe(explain(here.choice, p.size));
        await drawnAhead(afterTurnDrawing(positionOf({ size: p.size, moves: here.choice === undefined ? p.moves : [...p.moves, here.choice.point] })));
        const seenHere = thinkSeen(createPlayer, subgoals, q);
        const human = i % 2 === 0 ? 'black' : 'white';
        const seenThere = await pool.seen('g1', held, { ...q, human });
        await drawnAhead(threatsDrawing(positionOf(q), seenHere, human));
        expect(seenThere.black.map((r) => r.key)).toEqual(seenHere.black.map((r) => r.key));
        expect(seenThere.white.map((r) => r.key)).toEqual(seenHere.white.map((r) => r.key));
        // Subgoals come back as this thread's own objects, not copies.
        for (const r of [...seenThere.black, ...seenThere.white]) expect(r.subgoal).toBe(library.get(r.subgoal.text)!.subgoal);
      }
      {
        const hq = { ...p, seed: 7 + i };
        const hintHere = thinkHint(createPlayer, subgoals, hq);
        const hintThere = await pool.hint('g1', held, hq);
        expect(hintThere.choice.point).toBe(hintHere.choice.point);
        expect(explain(hintThere.choice, p.size)).toBe(explain(hintHere.choice, p.size));
        expect(hintThere.considered).toEqual(hintHere.considered);
        await drawnAhead(heatDrawing(positionOf(hq), hintHere.considered, hintHere.choice.point));
      }
    }
    expect(await pool.listing('g1', held)).toEqual(listingTexts(subgoals));
  });

  it('move after move of one game, the worker\'s kept players answer as new ones do here', { timeout: 180_000 }, async () => {
    // Each question is one member's move on from the last answer (the worker's player goes on
    // from there: takes back the bot's move, plays the record's two), as in a real game.
    const kinds = new Set<string>();
    for (let n = 2; n <= 32; n++) {
      const q = { size: record.size, moves: record.moves.slice(0, n), level: 5 as const, seed: moveSeed(77, n) };
      const here = thinkTurn(createPlayer, subgoals, q);
      const there = await pool.turn('g1', held, q);
      if (here.choice !== undefined) kinds.add(here.choice.reason.kind);
      expect(there.choice?.point, `move ${n}`).toBe(here.choice?.point);
      if (here.choice !== undefined) expect(explain(there.choice!, record.size)).toBe(explain(here.choice, record.size));
      expect(there.before).toEqual(here.before);
      expect(there.after).toEqual(here.after);
      const seenHere = thinkSeen(createPlayer, subgoals, q);
      const seenThere = await pool.seen('g1', held, { ...q, human: 'black' });
      expect(seenThere.black.map((r) => r.key)).toEqual(seenHere.black.map((r) => r.key));
      expect(seenThere.white.map((r) => r.key)).toEqual(seenHere.white.map((r) => r.key));
      if (n % 4 === 0) {
        const hq = { size: q.size, moves: q.moves, seed: n };
        const hintThere = await pool.hint('g1', held, hq);
        const hintHere = thinkHint(createPlayer, subgoals, hq);
        expect(hintThere.choice.point).toBe(hintHere.choice.point);
        expect(hintThere.considered).toEqual(hintHere.considered);
      }
    }
    // A quiet move built toward learned shapes crossed the wire too, with its realisation.
    expect(kinds).toContain('build');
  });

  it('a new library version is sent again; a drawing is the same bytes', { timeout: 60_000 }, async () => {
    const smaller = learnedLibrary(20);
    const next: CompiledLibrary = { library: smaller, examples: new Map(), origins: new Map(), reflected: new Set(), version: '2.test' };
    const q = { ...positions[3], level: 5 as const, seed: 3 };
    const here = thinkTurn(createPlayer, smaller.subgoals(), q);
    const there = await pool.turn('g1', next, q);
    expect(there.before).toEqual(here.before);
    expect(there.choice?.point).toBe(here.choice?.point);
    // The old version is still right for a question asked under it.
    const old = await pool.turn('g1', held, q);
    expect(old.choice?.point).toBe(thinkTurn(createPlayer, subgoals, q).choice?.point);

    const cells = new Array(15 * 15).fill(0);
    cells[112] = 1;
    const drawing: Drawing = { kind: 'board', args: [{ size: 15, cells, lastMove: 112 }, { showMoveNumbers: false }] };
    expect(Buffer.compare(await pool.draw(drawing), draw(drawing))).toBe(0);
  });
});

describe('a slow answer does not hold up another member', () => {
  let storage: Storage<BotSchema>;
  let remove: () => Promise<void>;
  const GUILD = '510000000000000001';
  const ALICE: Seat = { guildId: GUILD, channelId: '520000000000000001', userId: '530000000000000001' };
  const BOB: Seat = { guildId: GUILD, channelId: '520000000000000001', userId: '530000000000000002' };

  beforeAll(async () => {
    const dir = await tempDir('thinker');
    remove = dir.remove;
    storage = await openBotStorage({ REDIS_URL, STORAGE_NAMESPACE: uniqueNamespace('thinker'), DATA_DIR: dir.dir }, silentLog);
    await storeLibrary(storage, GUILD, learnedLibrary());
  }, 60_000);

  afterAll(async () => {
    await storage.backend.clearAll();
    await storage.close();
    await remove();
  });

  it('with play workers, Bob is answered while Alice waits for her hint', { timeout: 120_000 }, async () => {
    const service = new GameService({ store: storage, seed: 5, playWorkers: 1 });
    try {
      expect(service.thinker.offThread).toBe(true);
      for (const seat of [ALICE, BOB]) expect((await service.challenge(seat, { size: 19 })).ok).toBe(true);
      for (const p of ['j10', 'k11', 'h8']) expect((await service.move(ALICE, p)).ok).toBe(true);
      expect((await service.move(BOB, 'j10')).ok).toBe(true);

      // A new service's worker: Alice's hint is its first question with this library (1000
      // subgoals to take in and group before a level-5 look-ahead), so it is slow. Bob asks
      // for his board 20 ms after her, while it runs.
      const fresh = new GameService({ store: storage, seed: 5, playWorkers: 1 });
      try {
        const start = performance.now();
        const hint = fresh.hint(ALICE).then((r) => (expect(r.ok).toBe(true), performance.now() - start));
        await new Promise((resolve) => setTimeout(resolve, 20));
        const asked = performance.now();
        const board = await fresh.board(BOB);
        const bobMs = performance.now() - asked;
        expect(board.ok).toBe(true);
        const hintMs = await hint;
        expect(hintMs).toBeGreaterThan(200);
        // Bob's answer took a storage read, not Alice's hint's time.
        expect(bobMs).toBeLessThan(hintMs / 4);
      } finally {
        await fresh.idle();
      }
    } finally {
      await service.idle();
    }
  });
});
