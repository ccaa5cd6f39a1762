/**
 * `npx tsx bench/frozen.ts --library FILE|empty|tss-N [--opponent tss|tss-N|gomokuai] [--games N] [--seed S]
 * [--level L] [--out DIR] [--seed-each-game]`: one library, frozen, against one opponent — the player (seed 1968)
 * in colour-swapped pairs on `generateOpenings(S, N / 2, 19)`, the learning curve's evaluation
 * (src/gomocup/curve.ts `evaluationGames`), with the score split by colour and each game's
 * result in order.
 *
 * Why it exists: the series' own evaluation is 40 games, whose score has a standard error of
 * about 8 points near 50 %, and issue 25's changes moved scores by less than that. A change to
 * the player or the learning needs 160 games or more a side, on openings the series did not
 * use (the series plays 2026, its evaluation 4242; 777 and 999 were used for 2026-11-27's
 * comparisons), old and new on the same openings. Scores are deterministic — budgets count
 * plays, not milliseconds — so a loaded machine changes the times printed, never the games.
 * `--library tss-N` seats no learner but tss reading N attacker moves (3–9; tss itself reads 6)
 * in the learner's place, on the same openings: a reference for what a score against tss means
 * (2026-11-27: tss-7 scored 61.6 % against tss on openings 777).
 * `--out DIR` writes every game as a record (`game-NNN-COLOUR-W|L|D.txt`, the learner's colour
 * and result) for `gomoku analyse --walk` and `gomoku replay`.
 * `--seed-each-game` starts the player's generator again before every game (EvaluationOptions
 * `seedEachGame`): for comparing two variants game by game, since otherwise a decision that
 * differs in one game changes the positional draws of all the games after it (2026-12-02).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { SolverPlayer } from '../src/cli/solverPlayer.ts';
import { engineOf, evaluationGames, type CurveOpponent } from '../src/gomocup/curve.ts';
import { generateOpenings, makeOutcomeRecord, playMatch, type MatchReport } from '../src/gomocup/match.ts';
import { Library } from '../src/learning/library.ts';
import type { Level } from '../src/play/player.ts';
import { readLibraryOption, wholeOption } from './options.ts';
import { RESULTS_LINE } from './paired.ts';

interface Options {
  library: string;
  /** `tss`, `tss-N` (tss reading N attacker moves) or `gomokuai`. */
  opponent: string;
  games: number;
  seed: number;
  level: Level;
  out?: string;
  seedEachGame: boolean;
}

function parseOptions(args: readonly string[]): Options {
  const o: Partial<Options> = { opponent: 'tss', games: 160, seed: 777, level: 5, seedEachGame: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--seed-each-game') {
      o.seedEachGame = true;
      continue;
    }
    const v = args[++i];
    if (v === undefined) throw new Error(`${a} needs a value`);
    const whole = (min: number, max: number) => wholeOption(a, v, min, max);
    if (a === '--library') o.library = v;
    else if (a === '--opponent') {
      if (v !== 'tss' && v !== 'gomokuai' && referenceDepth(v) === undefined) throw new Error(`--opponent is tss, tss-N or gomokuai, not ${v}`);
      o.opponent = v;
    } else if (a === '--games') {
      o.games = whole(2, 10_000);
      if (o.games % 2 !== 0) throw new Error('--games must be even: the games go in colour-swapped pairs');
    } else if (a === '--seed') o.seed = whole(0, 2 ** 31 - 1);
    else if (a === '--level') o.level = whole(1, 5) as Level;
    else if (a === '--out') o.out = v;
    else throw new Error(`unknown option ${a}`);
  }
  if (o.library === undefined) throw new Error('--library FILE (or empty) is needed');
  return o as Options;
}

/** The depth N of `tss-N` (for `--library` or `--opponent`), or undefined for anything else. */
function referenceDepth(name: string): number | undefined {
  const m = /^tss-(\d+)$/.exec(name);
  if (m === null) return undefined;
  const n = Number(m[1]);
  if (n < 3 || n > 9) throw new Error(`tss-N needs N from 3 to 9, not ${m[1]}`);
  return n;
}

function readLibrary(path: string): Library {
  return referenceDepth(path) !== undefined ? Library.empty() : readLibraryOption(path);
}

const pct = (x: number) => `${x.toFixed(1)} %`;

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const library = readLibrary(o.library);
  const opponentDepth = referenceDepth(o.opponent);
  const opponent: CurveOpponent =
    o.opponent === 'gomokuai'
      ? { name: 'gomokuai', create: () => createGomokuaiPlayer() }
      : { name: o.opponent, create: () => new SolverPlayer(opponentDepth === undefined ? {} : { maxMoves: opponentDepth, name: o.opponent }) };
  const started = performance.now();
  const openings = generateOpenings(o.seed, o.games / 2, 19);
  const depth = referenceDepth(o.library);
  // The reference sits in the learner's seat under the learner's name, so the report reads the same.
  const report: MatchReport =
    depth === undefined
      ? await evaluationGames(library, opponent, { size: 19, games: o.games, openings, level: o.level, seedEachGame: o.seedEachGame })
      : await playMatch(engineOf('learner', () => new SolverPlayer({ maxMoves: depth, name: o.library })), engineOf(opponent.name, () => opponent.create(0)), { size: 19, games: o.games, openings, timeoutMs: 60_000 });
  const standing = report.standings[0];
  const byColour = { black: 0, white: 0 };
  let results = '';
  if (o.out !== undefined) mkdirSync(o.out, { recursive: true });
  for (const g of report.outcomes) {
    const colour = g.black === 'learner' ? 'black' : 'white';
    const score = g.winner === undefined ? 0.5 : g.winner === colour ? 1 : 0;
    byColour[colour] += score;
    const mark = score === 1 ? 'W' : score === 0 ? 'L' : 'D';
    results += mark;
    if (o.out !== undefined) writeFileSync(join(o.out, `game-${String(g.index + 1).padStart(3, '0')}-${colour}-${mark}.txt`), makeOutcomeRecord(g, o.games));
  }
  const half = o.games / 2;
  process.stdout.write(
    [
      `${o.library}${depth === undefined ? ` (${library.size - 1} learned subgoals), level ${o.level}` : ' (no library: the reference)'}, against ${o.opponent}, ${o.games} games on generateOpenings(${o.seed})`,
      `score ${pct(standing.scorePercent)} (${standing.wins}–${standing.losses}–${standing.draws}); as black ${pct((100 * byColour.black) / half)}, as white ${pct((100 * byColour.white) / half)}`,
      `move time mean ${standing.meanMs.toFixed(1)} ms, worst ${standing.maxMs.toFixed(0)} ms; ${((performance.now() - started) / 1000).toFixed(0)} s in all`,
      `${RESULTS_LINE}${results}`,
      '',
    ].join('\n'),
  );
}

try {
  await main();
} catch (e) {
  process.stderr.write(`frozen: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
