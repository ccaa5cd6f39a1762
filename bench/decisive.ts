/**
 * `npx tsx bench/decisive.ts --games DIR --library FILE|empty [--depth D] [--nodes N]`: where
 * each lost game of a frozen run was decided. For every `game-*-L.txt` in DIR (the records
 * bench/frozen.ts `--out` writes, which say the learner's colour and the opening's length), it
 * walks back from the end to the last of the learner's moves at which some move still held —
 * after which the soundness solver, reading the opponent's fours and threes D moves deep with
 * counter-fours, finds no forced win within N positions (9 and 200 000 unless told) — and prints that move, what the player (level 5, the
 * given library, seed 1968) chooses there and why, and the moves that held; then a tally of
 * the readings by that reason and the learner's colour, with how many were decided within
 * the learner's first three moves and how many were lost later.
 *
 * The solver is the judge here and nowhere in the player. Its "held" means only that no
 * threat sequence of D moves wins: a game the learner lost where the move it played held was
 * lost later, to quiet moves or a longer line. Issue 25's readings (BENCHMARKS, 2026-11-27
 * and 2026-11-29) were made this way with scripts that did not outlive their sessions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { solve } from '../src/learning/solver.ts';
import { explain, Player, type MoveChoice } from '../src/play/player.ts';
import type { Subgoal } from '../src/recognition/subgoal.ts';
import { parseGame } from '../src/rules/gameRecord.ts';
import { makePoint } from '../src/rules/point.ts';
import { opposite, stoneOf, type Colour, type Point } from '../src/rules/types.ts';
import { readLibraryOption, wholeOption } from './options.ts';

interface Options {
  games: string;
  library: string;
  depth: number;
  nodes: number;
}

function parseOptions(args: readonly string[]): Options {
  const o: Partial<Options> = { depth: 9, nodes: 200_000 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = args[++i];
    if (v === undefined) throw new Error(`${a} needs a value`);
    if (a === '--games') o.games = v;
    else if (a === '--library') o.library = v;
    else if (a === '--depth') o.depth = wholeOption(a, v, 1, 15);
    else if (a === '--nodes') o.nodes = wholeOption(a, v, 1000, 100_000_000);
    else throw new Error(`unknown option ${a}`);
  }
  if (o.games === undefined) throw new Error('--games DIR (records from bench/frozen.ts --out) is needed');
  if (o.library === undefined) throw new Error('--library FILE (or empty) is needed');
  return o as Options;
}

/** What bench/frozen.ts writes in a record's header: the learner's colour and the opening's stones. */
function header(name: string, text: string): { learner: Colour; opening: number } {
  const colour = /^# (black|white): learner$/m.exec(text);
  const stones = /^# opening: .*\((\d+) stones\)$/m.exec(text);
  if (colour === null || stones === null) throw new Error(`${name}: not a record of bench/frozen.ts --out (no "# black: learner" or "# opening: … (N stones)" line)`);
  return { learner: colour[1] as Colour, opening: Number(stones[1]) };
}

/** Where one lost game was decided (see the file's comment), or undefined if no move of the learner's held. */
export interface Decisive {
  readonly learner: Colour;
  /** 0-based index of the learner's move. */
  readonly index: number;
  /** Which of the learner's moves after the opening it is (1: its first). */
  readonly learnerMove: number;
  readonly played: Point;
  readonly held: readonly Point[];
  /** The board's size, for naming points. */
  readonly size: number;
  readonly choice: MoveChoice;
}

/** The readings counted by the player's reason at the decisive move, split by the learner's colour. */
export interface Tally {
  /** Lost games read, those where no move of the learner's held included. */
  readonly games: number;
  /** Reason kind → [as black, as white]. */
  readonly byReason: ReadonlyMap<string, readonly [number, number]>;
  /** Games where no move of the learner's after the opening held. */
  readonly noneHeld: number;
  /** Decided within the learner's first three moves after the opening. */
  readonly early: number;
  /** The move played held: the game was lost later, to quiet moves or a longer line. */
  readonly lostLater: number;
}

/** Counts readings (undefined: no move held) by reason, colour and phase: which part of the player the losses point at. */
export function tally(readings: readonly (Decisive | undefined)[]): Tally {
  const byReason = new Map<string, [number, number]>();
  let noneHeld = 0;
  let early = 0;
  let lostLater = 0;
  for (const d of readings) {
    if (d === undefined) {
      noneHeld++;
      continue;
    }
    const counts = byReason.get(d.choice.reason.kind) ?? [0, 0];
    counts[d.learner === 'black' ? 0 : 1]++;
    byReason.set(d.choice.reason.kind, counts);
    if (d.learnerMove <= 3) early++;
    if (d.held.includes(d.played)) lostLater++;
  }
  return { games: readings.length, byReason, noneHeld, early, lostLater };
}

/** The tally as the script prints it after the games. */
export function formatTally(t: Tally): string {
  const rows = [...t.byReason].sort((a, b) => b[1][0] + b[1][1] - (a[1][0] + a[1][1]) || a[0].localeCompare(b[0]));
  const lines = rows.map(([kind, [black, white]]) => `  ${kind}: ${black + white} (as black ${black}, as white ${white})`);
  if (t.noneHeld > 0) lines.push(`  no move of the learner's held: ${t.noneHeld}`);
  return [`${t.games} losses read, by the player's reason at the decisive move:`, ...lines, `  decided within the learner's first three moves: ${t.early}; the move played held (lost later): ${t.lostLater}`].join('\n');
}

/** Which of the learner's moves after the opening move `index` (0-based) is: the learner moves every other turn. */
export function learnerMoveNumber(index: number, opening: number): number {
  return Math.floor((index - opening) / 2) + 1;
}

/** Reads one record of bench/frozen.ts `--out` back to where it was decided. */
export function decisiveMove(name: string, text: string, library: readonly Subgoal[], depth: number, nodes: number): Decisive | undefined {
  const { learner, opening } = header(name, text);
  const parsed = parseGame(text);
  if (!parsed.ok) throw new Error(`${name}: ${parsed.error.message}`);
  const game = parsed.value;
  const moves = game.moves.slice();
  const attacker = stoneOf(opposite(learner));
  const wins = () => solve(game.board, attacker, { maxAttackerMoves: depth, nodeBudget: nodes, counterFours: true }).result === 'win';
  // Walks back from the end: before move i is looked at, the moves from i on are taken back.
  for (let i = moves.length - 1; i >= opening; i--) {
    game.undo();
    if (game.turn !== learner) continue;
    const held: Point[] = [];
    for (const p of game.board.emptyNear(2)) {
      game.play(p);
      if (!wins()) held.push(p);
      game.undo();
    }
    if (held.length === 0) continue;
    return { learner, index: i, learnerMove: learnerMoveNumber(i, opening), played: moves[i], held, size: game.size, choice: new Player({ library, level: 5 }).choose(game) };
  }
  return undefined;
}

function main(): void {
  const o = parseOptions(process.argv.slice(2));
  const library = readLibraryOption(o.library);
  const files = readdirSync(o.games).filter((f) => /^game-.*-L\.txt$/.test(f)).sort();
  if (files.length === 0) throw new Error(`${o.games}: no lost games (game-*-L.txt) to read`);
  const readings: (Decisive | undefined)[] = [];
  for (const name of files) {
    const found = decisiveMove(name, readFileSync(join(o.games, name), 'utf8'), library.subgoals(), o.depth, o.nodes);
    readings.push(found);
    if (found === undefined) {
      process.stdout.write(`${name}: no move of the learner's after the opening held\n`);
      continue;
    }
    const { index, played, held, size, choice } = found;
    const at = (p: Point) => makePoint(size, p);
    const later = held.includes(played) ? `; ${at(played)} held, so the game was lost later` : '';
    process.stdout.write(`${name}: move ${index + 1}, ${at(played)} (${choice.reason.kind}); ${held.length} held: ${held.map(at).join(' ')}${later}\n  ${explain(choice, size)}\n`);
  }
  process.stdout.write(`\n${formatTally(tally(readings))}\n`);
}

// Run as a script, not when a test imports decisiveMove.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main();
  } catch (e) {
    process.stderr.write(`decisive: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  }
}
