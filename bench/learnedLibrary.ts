/**
 * `npx tsx bench/learnedLibrary.ts [--target N] [--out FILE] [--games N] [--minutes N] [--date YYYY-MM-DD]`:
 * a benchmark library made by real synthesis — the project's own learning from lost games —
 * to be measured beside the generated one of bench/libraries.ts, whose subgoals are unions
 * made on descriptions alone and rarely realise on a board.
 *
 * How the library is made: it is the learning series of `npm run match` (bench/match.ts,
 * part 2; src/gomocup/curve.ts `runLearningCurve`) played on for as long as it takes.
 * - Board 19×19, as the series; a game there takes well under a second, so there is no need
 *   for a smaller board.
 * - The learner is the project's player at level 5, seed 1968, starting from the rule of
 *   five alone; it learns from every loss before the next game.
 * - Opponents, the series' mix in rotation, a colour-swapped pair of games each: `gomokuai`
 *   (the npm package), `tss` (the soundness solver as a threat-space player, its default
 *   depth of 6 moves) and `elcock-3` (the player at level 3 with a frozen library of the
 *   paper's six subgoals, seed 300 + pair). Most losses are to `tss`.
 * - Openings: `generateOpenings(2026, …, 19)`, as the series; generated openings of one seed
 *   are a prefix of a longer list, so the first 300 games are the series' own games.
 * - Each loss is analysed in this process (`analyseInProcess`), not in `npm run match`'s
 *   worker thread under a time limit: the analysis is bounded now (the series' slowest took
 *   0.3 s; with nearly 1000 subgoals, 4.6 s), and a limit that depends on the machine would
 *   make the library depend on it too.
 * - The run stops when the library holds `--target` learned subgoals (default 1000), after
 *   `--games` games (default 6000) or after `--minutes` of wall time (default 45), whichever
 *   comes first.
 *
 * Everything is seeded, so a rerun learns the same library (barring a 60 s move-time forfeit);
 * only the date in the provenance (`--date`, today by default) changes. The file (default
 * bench/fixtures/learned-library.txt) is written with `Library.toFile`: each subgoal in
 * canonical form after its provenance, `# learned from curve-<game>, move <n>, <date>`, in the
 * order learned. One loss can teach several subgoals, so the last game may overshoot the
 * target: the file keeps the first `--target`. Every 50 games the script prints its progress
 * and writes the library so far to the same file, so a run stopped from outside keeps what it
 * learned.
 *
 * The fixture (2026-11-21, `--target 1000`, at nice 19 on the shared 2-core machine): 1000
 * subgoals after 5097 games (1025 lost, none of the analyses failed) in 36 min. The library
 * grew by about 44 subgoals per 100 games over the first 300 games, 13 over the last 1000,
 * 20 over the whole run. Its subgoals have 1 to 8 nodes (4/14/87/319/386/146/35/9).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { SolverPlayer } from '../src/cli/solverPlayer.ts';
import { runLearningCurve, type CurveGame, type CurveOpponent } from '../src/gomocup/curve.ts';
import { parseDescription } from '../src/notation/descriptionNotation.ts';
import { Library } from '../src/learning/library.ts';
import { generateOpenings } from '../src/gomocup/match.ts';
import { createPlayer } from '../src/play/player.ts';
import { expectOk } from '../src/rules/result.ts';
import { PAPER_SUBGOALS } from './libraries.ts';

const SIZE = 19;
const PROGRESS_EVERY = 50;

interface Options {
  target: number;
  games: number;
  minutes: number;
  out: string;
  date: string;
}

function parseOptions(args: readonly string[]): Options {
  const o: Options = { target: 1000, games: 6000, minutes: 45, out: 'bench/fixtures/learned-library.txt', date: new Date().toISOString().slice(0, 10) };
  const numbers: Record<string, 'target' | 'games' | 'minutes'> = { '--target': 'target', '--games': 'games', '--minutes': 'minutes' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = args[++i];
    if (v === undefined) throw new Error(`${a} needs a value`);
    if (a in numbers) {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${a} needs a whole number from 1`);
      o[numbers[a]] = n;
    } else if (a === '--out') {
      o.out = v;
    } else if (a === '--date') {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new Error('--date needs YYYY-MM-DD');
      o.date = v;
    } else {
      throw new Error(`unknown option ${a}`);
    }
  }
  return o;
}

/** The learning series' mix (bench/match.ts): a sparring partner that reads forcing lines, a weak scorer, and a player with the paper's subgoals. */
function opponents(): CurveOpponent[] {
  const paper = Library.empty();
  for (const t of PAPER_SUBGOALS) expectOk(paper.add(expectOk(parseDescription(t))));
  const subgoals = paper.subgoals();
  return [
    { name: 'gomokuai', create: () => createGomokuaiPlayer() },
    { name: 'tss', create: () => new SolverPlayer() },
    { name: 'elcock-3', create: (pair) => createPlayer({ library: subgoals, level: 3, seed: 300 + pair, name: 'elcock-3' }) },
  ];
}

/** The first `count` learned subgoals of `library`, with their provenance (entries are kept in the order learned). */
function firstLearned(library: Library, count: number): Library {
  const out = Library.empty();
  for (const e of library.entries.slice(1, 1 + count)) expectOk(out.add(e.subgoal, e.provenance));
  return out;
}

function write(path: string, library: Library, header: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, library.toFile(header));
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const print = (s: string) => process.stdout.write(`${s}\n`);
  const mix = opponents();
  const how = [
    `made by bench/learnedLibrary.ts: the learning series of npm run match (src/gomocup/curve.ts) on ${SIZE}×${SIZE}, played on until the library held ${o.target} subgoals`,
    `learner: the player at level 5, seed 1968, from the rule of five; opponents in turn, a colour-swapped pair each: ${mix.map((m) => m.name).join(', ')}`,
    `elcock-3: level 3 with the paper's six subgoals, seed 300 + pair; openings: generateOpenings(2026, ..., 19); each loss analysed in process`,
  ];
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let losses = 0;
  let stopped = `the game budget (${o.games} games) ran out`;
  print(`learned library: target ${o.target} subgoals, at most ${o.games} games or ${o.minutes} min, ${SIZE}×${SIZE}, mix ${mix.map((m) => m.name).join(', ')}`);
  const curve = await runLearningCurve({
    games: o.games,
    size: SIZE,
    opponents: mix,
    openings: generateOpenings(2026, Math.ceil(o.games / 2), SIZE),
    level: 5,
    seed: 1968,
    date: o.date,
    onGame: (g: CurveGame, library: Library) => {
      if (g.result === 'loss') losses++;
      if ((g.index + 1) % PROGRESS_EVERY === 0) {
        print(`  ${g.index + 1} games, ${losses} lost, library ${g.librarySize}, ${elapsed().toFixed(0)} s`);
        write(o.out, library, [...how, `checkpoint after ${g.index + 1} games: the run was not finished`]);
      }
    },
    stop: (g: CurveGame) => {
      if (g.librarySize >= o.target) stopped = 'the target was reached';
      else if (elapsed() > o.minutes * 60) stopped = `the time budget (${o.minutes} min) ran out`;
      else return false;
      return true;
    },
  });
  const games = curve.games.length;
  const learned = curve.library.size - 1;
  const kept = firstLearned(curve.library, o.target);
  const slowest = Math.max(0, ...curve.games.map((g) => g.analysisMs));
  const failed = curve.games.filter((g) => g.analysisError !== undefined).length;
  const rate = (100 * learned) / games;
  write(o.out, kept, [
    ...how,
    `${kept.size - 1} subgoals, learned in ${games} games (${losses} lost) in ${elapsed().toFixed(0)} s; stopped because ${stopped}`,
  ]);
  print(`stopped after ${games} games (${elapsed().toFixed(0)} s): ${stopped}`);
  print(`lost ${losses}; learned ${learned} subgoals (${rate.toFixed(1)} per 100 games); analyses that failed: ${failed}; slowest analysis ${(slowest / 1000).toFixed(2)} s`);
  print(`wrote ${kept.size - 1} subgoals to ${o.out}`);
}

await main();
