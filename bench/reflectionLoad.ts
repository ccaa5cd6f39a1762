/**
 * Does the bot keep answering while it reflects? `npx tsx bench/reflectionLoad.ts [--games N]
 * [--phase-s N]`. A benchmark, not a timed test: it prints figures for docs/BENCHMARKS.md.
 *
 * The game service as the Discord bot runs it (play workers for its moves, two analysis
 * workers, WORKER_NICE's default) on the file store, with 5 servers each holding the project's
 * 1000-subgoal learned library (bench/fixtures/learned-library.txt) and `--games` finished games
 * won with a five (default 100: the fixture games of test/fixtures/games, 19×19, in turn). 20
 * members (4 a server) play level-3 games against it without pause, each a move as soon as the
 * last is answered — a heavier load than members at a keyboard. First for `--phase-s` seconds
 * (default 20) with nothing else running; then every server's reflection pass is started
 * (src/bot/reflection.ts: one pass at a time, one game at a time in its background worker,
 * under the 2-minute budget) and the members play another `--phase-s` seconds, after which
 * the service is stopped as the bot stops (`idle`), which ends the passes. Reported for each
 * phase, in one run so the two compare on the same noisy machine: the time of each /move
 * (p50, p95, max; Discord's deadline is 3 s for the reply) and the longest event-loop block
 * of the answering thread; and how far the passes got.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openBotStorage } from '../src/bot/config.ts';
import { silentLog } from '../src/bot/log.ts';
import type { FinishedGame } from '../src/bot/records.ts';
import { GameService } from '../src/bot/service.ts';
import type { Seat } from '../src/bot/store.ts';
import { importLibrary } from '../src/cli/memory.ts';
import { parseGame } from '../src/rules/gameRecord.ts';
import type { Game } from '../src/rules/game.ts';
import { makePoint, parsePoint } from '../src/rules/point.ts';
import { seededRandom, type Random } from '../src/rules/random.ts';
import { expectOk } from '../src/rules/result.ts';
import { percentile } from './load.ts';

const LIBRARY = new URL('./fixtures/learned-library.txt', import.meta.url);
const FIXTURE_GAMES = new URL('../test/fixtures/games/', import.meta.url);
const GUILDS = 5;
const MEMBERS_PER_GUILD = 4;

/** Every 19×19 fixture game won with a five, in name order. */
function fixtureGames(): Game[] {
  const games: Game[] = [];
  const walk = (dir: URL) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(new URL(`${entry.name}/`, dir));
      else if (entry.name.endsWith('.txt')) {
        const parsed = parseGame(readFileSync(new URL(entry.name, dir), 'utf8'));
        if (parsed.ok && parsed.value.size === 19 && parsed.value.status.kind === 'won') games.push(parsed.value);
      }
    }
  };
  walk(FIXTURE_GAMES);
  return games;
}

interface Phase {
  readonly moves: number[];
  /** Moves refused as `game-moved-on` (sent before the last one's bookkeeping ended), tried again. */
  refused: number;
  loopMaxMs: number;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    const v = Number(args[i + 1]);
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} needs a whole number from 1`);
    return v;
  };
  const gamesEach = option('--games', 100);
  const phaseMs = option('--phase-s', 20) * 1000;
  const work = await mkdtemp(join(tmpdir(), 'gomoku-bench-reflect-'));
  const storage = await openBotStorage({ DATA_DIR: work }, silentLog, { durable: false });
  const service = new GameService({ store: storage, seed: 26, log: silentLog, playWorkers: 2, reflectEvery: 0 });
  try {
    const games = fixtureGames();
    const library = readFileSync(LIBRARY, 'utf8');
    const guilds = Array.from({ length: GUILDS }, (_, g) => `guild-${g + 1}`);
    const start = Date.UTC(2026, 0, 1);
    for (const guildId of guilds) {
      const imported = await importLibrary(storage.memory, guildId, library, 'learned-library.txt');
      if (!imported.ok) throw new Error(imported.problem.message);
      const records = storage.guild(guildId).records;
      for (let i = 0; i < gamesEach; i++) {
        const game = games[i % games.length];
        const id = `old-${String(i + 1).padStart(4, '0')}`;
        const winner = game.status.kind === 'won' ? game.status.winner : 'black';
        const record: FinishedGame = { id, channelId: 'c', userId: 'u', size: 19, human: winner, level: 3, outcome: 'bot-lost', ending: 'five', startedAt: start + i * 60_000, endedAt: start + i * 60_000 + 30_000, moves: game.moves.slice(), learned: [] };
        await records.put(id, record);
      }
    }
    await service.warm(guilds);
    process.stderr.write(`${GUILDS} servers, each with ${gamesEach} finished games (${games.length} fixture games in turn) and the 1000-subgoal library\n`);

    const challenge = async (seat: Seat): Promise<Game> => {
      const started = await service.challenge(seat, { size: 19, level: 3 });
      if (!started.ok) throw new Error(`challenge: ${started.problem.code}`);
      return started.value.game;
    };
    const loop = monitorEventLoopDelay({ resolution: 5 });
    let phase: Phase = { moves: [], refused: 0, loopMaxMs: 0 };
    let stop = false;
    const rnd = seededRandom(26);
    const member = async (seat: Seat, r: Random, warmed: Game) => {
      let current: Game | undefined = warmed;
      while (!stop) {
        let game = current ?? (await challenge(seat));
        current = undefined;
        while (!stop && game.status.kind === 'playing') {
          const point = nextTo(game, r);
          // A member reads the answer before moving again; without a pause the next move could
          // arrive while the last one's lock is being let go, and be refused as moved on.
          await new Promise((resolve) => setTimeout(resolve, 5));
          const t0 = performance.now();
          const moved = await service.move(seat, makePoint(19, point));
          if (!moved.ok && moved.problem.code === 'game-moved-on') {
            // The last move's bookkeeping still holds the game: as a member would, try again.
            phase.refused++;
            await new Promise((resolve) => setTimeout(resolve, 20));
            continue;
          }
          phase.moves.push(performance.now() - t0);
          if (!moved.ok) throw new Error(`move: ${moved.problem.code}`);
          game = moved.value.game;
        }
      }
    };
    const seats = guilds.flatMap((guildId) => Array.from({ length: MEMBERS_PER_GUILD }, (_, m): Seat => ({ guildId, channelId: `${guildId}-chan-${m + 1}`, userId: `member-${m + 1}` })));
    // Untimed warm-up: each play worker compiles each server's library on first use.
    const warmed: Game[] = [];
    for (const seat of seats) {
      await challenge(seat);
      const moved = await service.move(seat, 'j10');
      if (!moved.ok) throw new Error(`move: ${moved.problem.code}`);
      warmed.push(moved.value.game);
    }
    loop.enable();
    const playing = Promise.all(seats.map((s, i) => member(s, seededRandom(Math.floor(rnd.next() * 1e9) + i), warmed[i])));
    await new Promise((resolve) => setTimeout(resolve, phaseMs));
    const quiet = { ...phase, loopMaxMs: loop.max / 1e6 };
    loop.reset();
    phase = { moves: [], refused: 0, loopMaxMs: 0 };
    const passesStarted = performance.now();
    const passes = guilds.map((g) => service.reflection.reflect(g));
    await new Promise((resolve) => setTimeout(resolve, phaseMs));
    const reflecting = { ...phase, loopMaxMs: loop.max / 1e6 };
    stop = true;
    await playing;
    loop.disable();
    // The bot stopping ends the passes at once (GameService.idle); how long that took is reported.
    const stopping = performance.now();
    await service.idle();
    const stopMs = performance.now() - stopping;
    const ended = await Promise.all(passes);
    const passMs = stopping - passesStarted;

    const row = (name: string, p: Phase) =>
      `| ${name} | ${p.moves.length} | ${percentile(p.moves, 50).toFixed(0)} | ${percentile(p.moves, 95).toFixed(0)} | ${Math.max(...p.moves).toFixed(0)} | ${p.loopMaxMs.toFixed(0)} | ${p.refused} |`;
    console.log(`bench/reflectionLoad.ts — ${new Date().toISOString().slice(0, 10)}, node ${process.version}`);
    console.log('\n| phase | moves | /move p50 ms | p95 ms | max ms | event-loop block max ms | refused, tried again |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    console.log(row('members only', quiet));
    console.log(row('members while the servers reflect', reflecting));
    console.log(`\n- p95 ratio, reflecting / quiet: ${(percentile(reflecting.moves, 95) / percentile(quiet.moves, 95)).toFixed(2)}`);
    const walked = ended.reduce((s, p) => s + p.walked, 0);
    const learned = ended.reduce((s, p) => s + p.learned.length, 0);
    console.log(`- passes: ${walked} of ${ended.reduce((s, p) => s + p.games, 0)} games walked back again in ${(passMs / 1000).toFixed(1)} s (${ended.map((p) => p.stopped ?? 'done').join(', ')}), ${learned} new subgoals; stopping them took ${stopMs.toFixed(0)} ms`);
  } finally {
    await service.idle();
    await storage.close();
    await rm(work, { recursive: true, force: true });
  }
}

/** A vacant point next to a stone, chosen by `r`; the centre on an empty board. */
function nextTo(game: Game, r: Random): number {
  const board = game.board;
  const near = board.emptyNear(1);
  if (near.length === 0) return expectOk(parsePoint(19, 'j10'));
  return near[Math.floor(r.next() * near.length)];
}

await main();
