/**
 * `npm run match`: the playing-strength benchmarks (not timed tests). Three parts:
 *
 * 1. **Matches.** The project's player with an empty library (the rule of five only) at each
 *    level 1–5 against `gomokuai` (the npm package, a one-move-lookahead scorer), against
 *    `tss` (the soundness solver as a threat-space player, src/cli/solverPlayer.ts) and, for
 *    levels 1–4, against itself at level 5; plus `tss` against `gomokuai` to place the two
 *    sparring partners, and `tss-7` (tss reading one attacker move deeper) against `tss`, the
 *    yardstick for a learned library's score against tss (61.6 % over 160 games on
 *    2026-11-27). Each on 15×15 and 19×19, in colour-swapped pairs from balanced
 *    openings (`generateOpenings`, src/gomocup/match.ts: 3 to 5 stones near the centre, no open three
 *    or four for either side), engine against engine over the Gomocup protocol in this
 *    process (`builtin` engines) with the match runner's exact-five referee.
 * 2. **Learning curve** (src/gomocup/curve.ts). The player at level 5 starts from an empty library and
 *    plays a series against a fixed rotating mix — `gomokuai`, `tss`, and the player at level
 *    3 with a frozen library of the paper's six subgoals (`elcock-3`), a pair of games each in
 *    turn — learning from every game won with a five (its losses, and its own wins).
 *    Reported: loss rate and library size per block, the rolling score against `gomokuai`
 *    and the games it took to reach 80%, and at the end the scores against each opponent of the learned library and of the empty one, frozen, on
 *    openings the series did not use. The chart goes to docs/images/learning-curve.png.
 *    Losses are analysed in a worker thread (bench/analyser.ts) under a time limit: the
 *    backtrack analysis takes minutes on some games, or throws, and a benchmark must finish;
 *    such a loss teaches nothing, is counted in the report, and is written with the library
 *    it was analysed against to `--out` as `failed-analysis-NNN*.txt` so it can be reproduced.
 * 3. **Repeated losses** (bench/repeats.ts, also runnable alone): a learner from an empty
 *    library against deterministic opponents, two passes over the same openings and colours —
 *    does it lose a game it has lost before, move for move, and how many losses teach it
 *    nothing new. Its records go to `--out`/repeats.
 *
 * Options: `--match-games N` (per match, default 20), `--curve-games N` (default 300),
 * `--curve-size N` (default 19), `--curve-seed N` (the series' openings, default 2026; another
 * seed plays another series, to see how far equally good libraries differ), `--eval-games N` (default 320: 40 games, the default until
 * 2026-11-28, have a standard error near 7 points against tss, and one loss in 40 is 2.5
 * points of a 98 % target; the same library read 73.8 % against tss on the first 40 and
 * 62.8 % on all 160; and on 2026-11-29 one library read 70.6 % on 160 games and 70.9 % on
 * 160 others, so issue 25's targets are judged on 320 — the first 160 are the old 160), `--block N` (default 20),
 * `--window N` (default 20), `--analysis-s N` (the time limit on analysing one loss, default
 * 20; also the repeats' limit), `--reflect-every N` (the series' learner, and the repeats',
 * walk back again through every game analysed so far, with the library as it stands, right
 * after every N analysed games; default 10, as the bot (src/bot/reflection.ts) and `gomoku brain --learn` do, since
 * the series stands for their learning; 0: never; see src/gomocup/curve.ts `reflectEvery`), `--repeat-openings N` (openings a pass of the repeats, default
 * 10), `--repeat-series N` (the repeats' series, default 100), `--skip-matches`, `--skip-curve`,
 * `--skip-repeats`, `--out DIR` (default
 * out/match: results tables, game records and the curve's per-game table), `--chart FILE`.
 * Everything is seeded: a rerun plays the same games, move times aside — and whether an
 * analysis beats the time limit, which depends on the machine and can change what is learned.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderLearningCurve } from '../src/cli/curve.ts';
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { SolverPlayer } from '../src/cli/solverPlayer.ts';
import { evaluate, engineOf, runLearningCurve, targetProgress, type CurveOpponent, type LearningCurve } from '../src/gomocup/curve.ts';
import { parseDescription } from '../src/notation/descriptionNotation.ts';
import type { MovePlayer } from '../src/play/engine.ts';
import { Library } from '../src/learning/library.ts';
import { makeGameRecord, recordOf } from '../src/rules/gameRecord.ts';
import { generateOpenings, makeOutcomeRecord, makeResultsTable, playMatch, type EngineStanding, type MatchReport } from '../src/gomocup/match.ts';
import { createPlayer, type Level } from '../src/play/player.ts';
import { expectOk } from '../src/rules/result.ts';
import { WorkerAnalyser } from './analyser.ts';
import { PAPER_SUBGOALS } from './libraries.ts';
import { REPEATS_DEFAULTS, runRepeats } from './repeats.ts';

interface Options {
  matchGames: number;
  curveGames: number;
  curveSize: number;
  /** The seed of the series' openings (generateOpenings): another seed, another series, to see how far libraries from equally good learning differ. */
  curveSeed: number;
  evalGames: number;
  block: number;
  window: number;
  analysisSeconds: number;
  reflectEvery: number;
  repeatOpenings: number;
  repeatSeries: number;
  skipMatches: boolean;
  skipCurve: boolean;
  skipRepeats: boolean;
  out: string;
  chart: string;
}

function parseOptions(args: readonly string[]): Options {
  const o: Options = {
    matchGames: 20,
    curveGames: 300,
    curveSize: 19,
    curveSeed: 2026,
    evalGames: 320,
    block: 20,
    window: 20,
    analysisSeconds: 20,
    reflectEvery: 10,
    repeatOpenings: REPEATS_DEFAULTS.openings,
    repeatSeries: REPEATS_DEFAULTS.series,
    skipMatches: false,
    skipCurve: false,
    skipRepeats: false,
    out: 'out/match',
    chart: 'docs/images/learning-curve.png',
  };
  const numbers: Record<string, keyof Options> = {
    '--match-games': 'matchGames',
    '--curve-games': 'curveGames',
    '--curve-size': 'curveSize',
    '--curve-seed': 'curveSeed',
    '--eval-games': 'evalGames',
    '--block': 'block',
    '--window': 'window',
    '--analysis-s': 'analysisSeconds',
    '--repeat-openings': 'repeatOpenings',
    '--repeat-series': 'repeatSeries',
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--skip-matches') o.skipMatches = true;
    else if (a === '--skip-curve') o.skipCurve = true;
    else if (a === '--skip-repeats') o.skipRepeats = true;
    else if (a === '--out' || a === '--chart') {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      if (a === '--out') o.out = v;
      else o.chart = v;
    } else if (a === '--reflect-every') {
      const v = Number(args[++i]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${a} needs a whole number from 0 (0: never)`);
      o.reflectEvery = v;
    } else if (a in numbers) {
      const v = Number(args[++i]);
      if (!Number.isInteger(v) || v < 1) throw new Error(`${a} needs a whole number from 1`);
      (o[numbers[a]] as number) = v;
    } else {
      throw new Error(`unknown option ${a}`);
    }
  }
  return o;
}

const print = (s = '') => process.stdout.write(`${s}\n`);
const pct = (x: number) => `${x.toFixed(1)}%`;
const ms = (x: number) => x.toFixed(2);

/** The paper's six subgoals (rule of five included) as a library. */
function paperLibrary(): Library {
  const lib = Library.empty();
  for (const t of PAPER_SUBGOALS) expectOk(lib.add(expectOk(parseDescription(t))));
  return lib;
}

function elcock(level: Level, library: Library, seed: number, name = `elcock-${level}`): MovePlayer {
  return createPlayer({ library: library.subgoals(), level, seed, name });
}

const gomokuai: CurveOpponent = { name: 'gomokuai', create: () => createGomokuaiPlayer() };
const tss: CurveOpponent = { name: 'tss', create: () => new SolverPlayer() };
const tss7: CurveOpponent = { name: 'tss-7', create: () => new SolverPlayer({ maxMoves: 7, name: 'tss-7' }) };

// ---------------------------------------------------------------------------------------
// Part 1: matches

interface MatchRow {
  readonly size: number;
  readonly a: string;
  readonly b: string;
  readonly standing: EngineStanding;
  readonly opponent: EngineStanding;
}

async function match(size: number, a: CurveOpponent, b: CurveOpponent, games: number, seed: number, out: string): Promise<MatchRow> {
  const report: MatchReport = await playMatch(engineOf(a.name, () => a.create(0)), engineOf(b.name, () => b.create(0)), {
    size,
    games,
    openings: generateOpenings(seed, Math.ceil(games / 2), size),
    timeoutMs: 60_000,
  });
  const dir = join(out, `${size}`, `${a.name}-v-${b.name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.md'), makeResultsTable(report));
  for (const o of report.outcomes) writeFileSync(join(dir, `game-${String(o.index + 1).padStart(3, '0')}.txt`), makeOutcomeRecord(o, games));
  return { size, a: a.name, b: b.name, standing: report.standings[0], opponent: report.standings[1] };
}

async function runMatches(o: Options): Promise<void> {
  const empty = Library.empty();
  for (const size of [15, 19]) {
    const started = performance.now();
    const rows: MatchRow[] = [];
    const seed = size; // the same openings for every match on a board size
    rows.push(await match(size, tss, gomokuai, o.matchGames, seed, o.out));
    rows.push(await match(size, tss7, tss, o.matchGames, seed, o.out));
    for (const level of [1, 2, 3, 4, 5] as const) {
      const me: CurveOpponent = { name: `elcock-${level}`, create: () => elcock(level, empty, 1968 + level) };
      rows.push(await match(size, me, gomokuai, o.matchGames, seed, o.out));
      rows.push(await match(size, me, tss, o.matchGames, seed, o.out));
      if (level < 5) {
        const top: CurveOpponent = { name: 'elcock-5', create: () => elcock(5, empty, 5005) };
        rows.push(await match(size, me, top, o.matchGames, seed, o.out));
      }
    }
    print(`\n### Matches on ${size}×${size}: ${o.matchGames} games each (${o.matchGames / 2} balanced openings, colours swapped), empty library (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
    print('| player | opponent | W–L–D | score | mean length | player ms/move (mean / max) | opponent ms/move (mean / max) |');
    print('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
    for (const r of rows) {
      const s = r.standing;
      print(`| ${r.a} | ${r.b} | ${s.wins}–${s.losses}–${s.draws} | ${pct(s.scorePercent)} | ${s.meanLength.toFixed(1)} | ${ms(s.meanMs)} / ${ms(s.maxMs)} | ${ms(r.opponent.meanMs)} / ${ms(r.opponent.maxMs)} |`);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Part 2: the learning curve

function curveTables(curve: LearningCurve): string {
  const out: string[] = [];
  out.push(`| games | losses | draws | loss rate | ${curve.opponents.map((n) => `lost v ${n}`).join(' | ')} | library size | learner ms/move |`);
  out.push(`| --- | ---: | ---: | ---: | ${curve.opponents.map(() => '---:').join(' | ')} | ---: | ---: |`);
  for (const b of curve.blocks) {
    const games = curve.games.slice(b.first, b.first + b.games);
    const meanMs = games.reduce((s, g) => s + g.learnerMeanMs, 0) / games.length;
    const per = curve.opponents.map((n) => {
      const t = b.byOpponent[n];
      return t === undefined ? '–' : `${t.losses}/${t.games}`;
    });
    out.push(`| ${b.first + 1}–${b.first + b.games} | ${b.losses} | ${b.draws} | ${pct(100 * b.lossRate)} | ${per.join(' | ')} | ${b.librarySize} | ${ms(meanMs)} |`);
  }
  return out.join('\n');
}

/** The learned library after the first `games` games of the series (entries are kept in the order learned). */
function libraryUpTo(curve: LearningCurve, games: number): Library {
  const size = games === 0 ? 0 : curve.games[games - 1].librarySize;
  const lib = Library.empty();
  for (const e of curve.library.entries.slice(1, 1 + size)) expectOk(lib.add(e.subgoal, e.provenance));
  return lib;
}

async function runCurve(o: Options): Promise<void> {
  const size = o.curveSize;
  const paper = paperLibrary();
  const mix: CurveOpponent[] = [gomokuai, tss, { name: 'elcock-3', create: (pair) => elcock(3, paper, 300 + pair) }];
  const openings = generateOpenings(o.curveSeed, Math.ceil(o.curveGames / 2), size);
  print(`\n### Learning curve: ${o.curveGames} games on ${size}×${size}, level 5 from an empty library, mix ${mix.map((m) => m.name).join(', ')} in turn`);
  const started = performance.now();
  let blockStarted = started;
  const analyser = new WorkerAnalyser(o.analysisSeconds);
  const curve = await runLearningCurve({
    analyse: (game, library) => analyser.analyse(game, library),
    games: o.curveGames,
    reflectEvery: o.reflectEvery,
    size,
    opponents: mix,
    openings,
    level: 5,
    seed: 1968,
    blockSize: o.block,
    window: o.window,
    target: 'gomokuai',
    targetScore: 80,
    onGame: (g) => {
      if ((g.index + 1) % o.block === 0 || g.index + 1 === o.curveGames) {
        const now = performance.now();
        process.stderr.write(`  … ${g.index + 1} games, library ${g.librarySize}, ${((now - blockStarted) / 1000).toFixed(1)} s for the block\n`);
        blockStarted = now;
      }
    },
  });
  await analyser.close();
  const seconds = (performance.now() - started) / 1000;
  print(`\n${curveTables(curve)}\n`);
  const t = curve.target;
  const analysisMs = curve.games.map((g) => g.analysisMs);
  const failures = curve.games.filter((g) => g.analysisError !== undefined);
  print(`- series time: ${seconds.toFixed(0)} s; analysis of losses: ${(analysisMs.reduce((s, x) => s + x, 0) / 1000).toFixed(1)} s in all, slowest ${(Math.max(...analysisMs) / 1000).toFixed(1)} s`);
  const reflections = curve.games.filter((g) => g.reflectionMs > 0);
  if (reflections.length > 0) {
    const taught = reflections.reduce((s, g) => s + g.reflected, 0);
    const slowest = Math.max(...reflections.map((g) => g.reflectionMs));
    print(`- reflection after every ${o.reflectEvery} analysed games (the games analysed so far walked back again with the library then): ${taught} of the ${curve.library.size - 1} subgoals learned that way, ${(reflections.reduce((s, g) => s + g.reflectionMs, 0) / 1000).toFixed(1)} s in all, slowest ${(slowest / 1000).toFixed(1)} s`);
  }
  if (failures.length > 0) {
    const reasons = new Map<string, number>();
    for (const g of failures) reasons.set(g.analysisError!, (reasons.get(g.analysisError!) ?? 0) + 1);
    print(`- losses whose analysis failed or was given up (they taught nothing): ${failures.length} of ${curve.games.filter((g) => g.result === 'loss').length} — ${[...reasons].map(([r, n]) => `${n} × ${r}`).join('; ')}`);
  }
  print(`- learned subgoals at the end: ${curve.library.size - 1}`);
  if (t.reachedAt !== undefined) {
    print(`- score ≥ ${t.score}% against ${t.name} over its last ${t.window} games first reached after game ${t.reachedAt} of the series (${t.reachedAfterTargetGames} games against ${t.name})`);
  } else {
    print(`- score ≥ ${t.score}% against ${t.name} over its last ${t.window} games: not reached in the series`);
  }
  if (t.best !== undefined) print(`- best rolling score against ${t.name}: ${pct(t.best.score)} (after game ${t.best.at}); at the end: ${pct(t.rolling.at(-1)![1])}`);
  // A window of half the size resolves earlier, with more noise.
  const half = Math.max(2, Math.floor(t.window / 2));
  const early = targetProgress(curve.games, t.name, half, t.score);
  print(`- with a window of ${half} games against ${t.name}: ${early.reachedAt !== undefined ? `≥ ${t.score}% first after game ${early.reachedAt} (${early.reachedAfterTargetGames} games against it)` : 'not reached'}; first window (games against it 1–${half}): ${early.rolling.length > 0 ? pct(early.rolling[0][1]) : '–'}`);

  mkdirSync(o.out, { recursive: true });
  // Each loss whose analysis failed, with the library it was analysed against, to reproduce it.
  let libraryBefore = Library.empty();
  for (const g of curve.games) {
    if (g.analysisError !== undefined) {
      const name = `failed-analysis-${String(g.index + 1).padStart(3, '0')}`;
      writeFileSync(join(o.out, `${name}.txt`), makeGameRecord(recordOf(g.game, [`game ${g.index + 1} of the learning curve`, `analysis: ${g.analysisError}`])));
      writeFileSync(join(o.out, `${name}-library.txt`), libraryBefore.toFile([`the library before game ${g.index + 1}`]));
    }
    libraryBefore = libraryUpTo(curve, g.index + 1);
  }
  writeFileSync(join(o.out, 'curve-library.txt'), curve.library.toFile([`learned in the learning curve of npm run match, ${o.curveGames} games on ${size}×${size}`]));
  writeFileSync(
    join(o.out, 'curve-games.tsv'),
    ['game\topponent\tlearner\tresult\tmoves\tlearned\treflected\tlibrary\tlearner_ms\topponent_ms\tanalysis_ms\treflection_ms']
      .concat(curve.games.map((g) => [g.index + 1, g.opponent, g.learner, g.result, g.moves, g.learned, g.reflected, g.librarySize, ms(g.learnerMeanMs), ms(g.opponentMeanMs), g.analysisMs.toFixed(0), g.reflectionMs.toFixed(0)].join('\t')))
      .join('\n') + '\n',
  );
  mkdirSync(dirname(o.chart), { recursive: true });
  writeFileSync(o.chart, renderLearningCurve(curve));
  print(`- chart: ${o.chart}; library: ${join(o.out, 'curve-library.txt')}`);

  // Frozen libraries against each opponent, on openings the series did not use.
  const evalOpenings = generateOpenings(4242, Math.ceil(o.evalGames / 2), size);
  print(`\n#### After the series: ${o.evalGames} games against each opponent, library frozen, fresh openings\n`);
  print('| opponent | empty library: score (W–L–D) | learned library: score (W–L–D) | ms/move empty (mean / max) | ms/move learned (mean / max) |');
  print('| --- | ---: | ---: | ---: | ---: |');
  for (const opponent of mix) {
    const options = { games: o.evalGames, size, openings: evalOpenings, level: 5 as Level, seed: 1968 };
    const before = await evaluate(Library.empty(), opponent, options);
    const after = await evaluate(curve.library, opponent, options);
    const wld = (s: EngineStanding) => `${s.wins}–${s.losses}–${s.draws}`;
    print(`| ${opponent.name} | ${pct(before.scorePercent)} (${wld(before)}) | ${pct(after.scorePercent)} (${wld(after)}) | ${ms(before.meanMs)} / ${ms(before.maxMs)} | ${ms(after.meanMs)} / ${ms(after.maxMs)} |`);
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  print(`npm run match — ${new Date().toISOString().slice(0, 10)}, node ${process.version}`);
  if (!options.skipMatches) await runMatches(options);
  if (!options.skipCurve) await runCurve(options);
  if (!options.skipRepeats) {
    await runRepeats({
      ...REPEATS_DEFAULTS,
      openings: options.repeatOpenings,
      series: options.repeatSeries,
      analysisSeconds: options.analysisSeconds,
      reflectEvery: options.reflectEvery,
      out: join(options.out, 'repeats'),
    });
  }
  print(`\ntotal: ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

await main();
