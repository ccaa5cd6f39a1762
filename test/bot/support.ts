// Shared pieces of the bot's tests: storage in a temporary folder or a Redis namespace of
// its own, a clock the test moves, playing a game out with the bot's own hints, and reading
// stones back out of a board PNG.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openBotStorage } from '../../src/bot/config.ts';
import type { BotLog } from '../../src/bot/log.ts';
import type { BoardSize } from '../../src/bot/gameTerms.ts';
import { subgoalKey, type BotSchema, type StoredGame } from '../../src/bot/records.ts';
import type { GameService } from '../../src/bot/service.ts';
import type { Moved } from '../../src/bot/gameViews.ts';
import type { Seat } from '../../src/bot/store.ts';
import type { Game } from '../../src/rules/game.ts';
import type { Library } from '../../src/learning/library.ts';
import { makePoint } from '../../src/rules/point.ts';
import { boardLayout, defaultTheme, pointToPixel } from '../../src/render/index.ts';
import { StorageUnavailable, type Backend, type Storage } from '../../src/storage/index.ts';
import { BLACK, EMPTY, WHITE, type Cell } from '../../src/rules/types.ts';
import { decode, luminance } from '../render/png.ts';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  readonly detail: unknown;
}

export function collectingLog(): { log: BotLog; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const keep = (level: LogLine['level']) => (message: string, detail?: unknown) => void lines.push({ level, message, detail });
  return { log: { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') }, lines };
}

export function uniqueNamespace(tag: string): string {
  return `gomoku-test-bot-${tag}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

export async function tempDir(tag: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `gomoku-bot-${tag}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Storage in a fresh temporary folder (the embedded file store). */
export async function fileStorage(tag: string, log: BotLog): Promise<{ storage: Storage<BotSchema>; remove: () => Promise<void> }> {
  const { dir, remove } = await tempDir(tag);
  const storage = await openBotStorage({ DATA_DIR: dir }, log, { durable: false });
  return {
    storage,
    remove: async () => {
      await storage.close();
      await remove();
    },
  };
}

/**
 * `inner` with its writes (`set`) failing as storage that is out of reach fails, for the keys
 * `fails` picks while it says so; everything else is passed through.
 */
export function faultyBackend(inner: Backend, fails: (key: string) => boolean): Backend {
  return {
    kind: inner.kind,
    namespace: inner.namespace,
    adapter: inner.adapter,
    get: (key) => inner.get(key),
    set: (key, value) => (fails(key) ? Promise.reject(new StorageUnavailable('put', 'test outage')) : inner.set(key, value)),
    delete: (key) => inner.delete(key),
    deleteMany: (keys) => inner.deleteMany(keys),
    entries: (prefix) => inner.entries(prefix),
    keys: () => inner.keys(),
    rename: (from, to) => inner.rename(from, to),
    clearAll: () => inner.clearAll(),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
}

/** A clock that stands still until the test moves it. */
export function manualClock(start = Date.UTC(2025, 5, 1, 12)): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/**
 * Plays the member's side with the bot's own hints (the full-strength player) until the game
 * ends; returns the last move's outcome. Against a level-1 bot this usually wins.
 */
export async function playWithHints(service: GameService, seat: Seat, maxMoves = 150): Promise<Moved> {
  for (let i = 0; i < maxMoves; i++) {
    const hint = await service.hint(seat);
    if (!hint.ok) throw new Error(`hint: ${hint.problem.code}`);
    const moved = await service.move(seat, makePoint(hint.value.game.size, hint.value.choice.point));
    if (!moved.ok) throw new Error(`move: ${moved.problem.code}`);
    if (moved.value.stored.finished !== undefined) return moved.value;
  }
  throw new Error('the game did not end');
}

/**
 * Challenges (15×15, level 1) and plays with hints until the bot loses a game: usually the
 * first, but a change to the player may make one a draw or a win for the bot, and the tests
 * are about what happens after a loss.
 */
export async function loseAGame(service: GameService, seat: Seat, attempts = 5): Promise<Moved> {
  for (let i = 0; i < attempts; i++) {
    const started = await service.challenge(seat, { size: 15, level: 1 });
    if (!started.ok) throw new Error(`challenge: ${started.problem.code}`);
    const last = await playWithHints(service, seat);
    if (last.stored.finished?.outcome === 'bot-lost') return last;
  }
  throw new Error(`the bot did not lose in ${attempts} games`);
}

/**
 * A library as a server's learned records, dated in the library's order, so that the service
 * reads it back in that order (it sorts by provenance).
 */
export async function storeLibrary(storage: Pick<Storage<BotSchema>, 'guild'>, guildId: string, library: Library): Promise<void> {
  const start = Date.UTC(2025, 0, 1);
  const memory = storage.guild(guildId).library;
  let i = 0;
  for (const e of library.entries.slice(1)) {
    const provenance = { game: 'seed', move: 1, date: new Date(start + 1000 * i++).toISOString() };
    await memory.put(subgoalKey(e.subgoal.text), { subgoal: e.subgoal, provenance });
  }
}

/**
 * A won game (a fixture) as the member's game one move before its end, the member playing the
 * winner: their next move, `last`, is the five, and the bot has lost.
 */
export function oneMoveFromTheEnd(game: Game, seat: Seat, id: string, now = Date.now()): { stored: StoredGame; last: string } {
  const status = game.status;
  if (status.kind !== 'won') throw new Error('the game is not won');
  const size = game.size as BoardSize;
  const stored: StoredGame = {
    id,
    channelId: seat.channelId,
    userId: seat.userId,
    size,
    human: status.winner,
    level: 3,
    seed: 1,
    moves: game.moves.slice(0, -1),
    startedAt: now,
    updatedAt: now,
    recognised: [],
    played: [],
  };
  return { stored, last: makePoint(size, game.moves[game.moves.length - 1]) };
}

/** Checks a board PNG: its size for the board, and at every point a stone of the right colour or none. */
export async function expectBoardImage(png: Buffer, size: number, cells: readonly Cell[]): Promise<void> {
  const image = await decode(png);
  const layout = boardLayout(size, defaultTheme);
  expect([image.width, image.height]).toEqual([layout.width, layout.height]);
  for (let p = 0; p < size * size; p++) {
    const centre = pointToPixel(layout, p);
    // A third of a cell right of the centre: clear of the grid lines, the move numbers and
    // both last-move rings (radius 0.22 plain, 0.4 numbered), and still on the stone (0.47).
    const at = { x: centre.x + layout.cell * 0.32, y: centre.y - layout.cell * 0.08 };
    const lum = luminance(image.at(at));
    const what = `${makePoint(size, p)} (${cells[p] === BLACK ? 'black' : cells[p] === WHITE ? 'white' : 'empty'})`;
    if (cells[p] === BLACK) expect(lum, what).toBeLessThan(80);
    else if (cells[p] === WHITE) expect(lum, what).toBeGreaterThan(190);
    else if (cells[p] === EMPTY) {
      expect(lum, what).toBeGreaterThan(80);
      expect(lum, what).toBeLessThan(215);
    }
  }
}
