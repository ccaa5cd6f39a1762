/**
 * `npx tsx bench/repeats.ts [options]` (also the last part of `npm run match`): does the
 * player ever lose the same game twice, and how many of its losses teach it nothing — issue
 * 25's first "Done when" line. A benchmark, not a timed test: it prints figures for
 * docs/BENCHMARKS.md and never fails.
 *
 * **The learner** is the project's player at level 5, from an empty library (the rule of five
 * only), learning from every game won with a five, its losses and its wins, as `gomoku brain
 * --learn` and the bot do: the finished game is
 * analysed (`analyseGame`, here in a worker thread under a time limit, bench/analyser.ts) and
 * each new subgoal added to its `Library` before the next game; and right after every
 * `--reflect-every` analysed games (10, as `gomoku brain --learn` and the bot; 0: never) it
 * walks back again through every game it has analysed with the library as it stands
 * (src/gomocup/curve.ts `reflect`), adding what is new at the library's end. It is made afresh for every
 * game with that library and always the same seed, 1968 — as if `setLibrary` were called and
 * its generator reseeded — so an identical library plays an identical game. A learner whose
 * generator ran on from game to game (as one `gomoku brain` process's does) could vary a lost
 * game by chance alone, which would hide the very repeats this counts.
 *
 * **Opponents**, all deterministic: `gomokuai` (the npm package), `tss` (the soundness solver
 * as a player, src/cli/solverPlayer.ts) and `elcock-5-paper` (the player at level 5 with a
 * frozen library of the paper's six subgoals, seed 2525, made afresh for every game).
 *
 * **A pass** is every opening × opponent × colour once: openings from
 * `generateOpenings(2525, N, size)` (a seed bench/match.ts does not use: 15 and 19 for its
 * matches, 2026 for its series, 4242 for its evaluation), for each opening each opponent in
 * turn, the learner black then white — 10 openings give 60 games. The learner plays pass after
 * pass, keeping its library.
 *
 * Reported:
 * 1. **Never the same loss twice.** Losses in each pass and, for every loss after the first
 *    pass, whether it repeats an earlier pass's loss move for move (same opponent, opening,
 *    colour and identical move list): the target is none. Also how many games are the very
 *    game of the first pass (what learning changed), and a determinism check: first-pass
 *    losses played again with the library they were played with must give the same game,
 *    or a missing repeat would prove nothing.
 * 2. **Losses that teach nothing new** over the first `--series` games (default 100): losses
 *    whose analysis added no new subgoal — it re-derived known ones, learned nothing, failed
 *    or was given up — and forfeits, as a share of all losses; the target is at most 10 %.
 *    The series is the passes themselves, played on as far as needed: a separate series from
 *    an empty library with the same learner, opponents and openings in the same order would
 *    play exactly the same games. Each such loss is written to `--out` as
 *    `nothing-new-NNN.txt`, with `nothing-new-NNN-library.txt`, the library as it stood
 *    before that game, so `npx gomoku analyse --game FILE --library LIB` shows what it taught.
 *    Repeated losses are written the same way as `repeat-NNN.txt`.
 * 3. **Time**: per opponent, the mean time a game takes and the move times of both sides;
 *    analysis time; the total. `games.tsv` holds every game.
 *
 * Options: `--openings N` (per pass, default 10), `--passes N` (default 2), `--series N`
 * (default 100), `--size N` (default 19), `--opponents a,b` (a subset of gomokuai, tss,
 * elcock-5-paper; all by default), `--analysis-s N` (the time limit on one analysis, default
 * 20), `--determinism N` (first-pass losses played again, default 6), `--reflect-every N`
 * (default 10; 0: the learner never walks back again), `--openings-seed N` (default 2525: other
 * openings, for a check on positions the player was never read against), `--out DIR` (default
 * out/repeats). The learner plays max(passes × pass, series) games: 120 by default.
 * Everything is seeded; only whether an analysis beats its time limit depends on the machine.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { canonicalise, canonicalString } from '../src/notation/canonical.ts';
import { createGomokuaiPlayer } from '../src/cli/gomokuaiPlayer.ts';
import { SolverPlayer } from '../src/cli/solverPlayer.ts';
import { engineOf, reflect, type CurveOpponent } from '../src/gomocup/curve.ts';
import { parseDescription } from '../src/notation/descriptionNotation.ts';
import { describeStatus, type Game } from '../src/rules/game.ts';
import { makeGameRecord, recordOf } from '../src/rules/gameRecord.ts';
import { Library } from '../src/learning/library.ts';
import { generateOpenings, playMatch, type GameOutcome, type Opening } from '../src/gomocup/match.ts';
import { makePoint } from '../src/rules/point.ts';
import { createPlayer } from '../src/play/player.ts';
import { expectOk } from '../src/rules/result.ts';
import { opposite, type Colour } from '../src/rules/types.ts';
import { WorkerAnalyser } from './analyser.ts';
import { PAPER_SUBGOALS } from './libraries.ts';

export interface RepeatsOptions {
  readonly openings: number;
  readonly passes: number;
  readonly series: number;
  readonly size: number;
  readonly opponents: readonly string[];
  readonly analysisSeconds: number;
  readonly determinism: number;
  readonly reflectEvery: number;
  /** The seed of `generateOpenings`: 2525 unless told, so other openings can be checked too. */
  readonly openingsSeed: number;
  readonly out: string;
}

const LEARNER_SEED = 1968;
const PAPER_PLAYER_SEED = 2525;
const LEARNER = 'learner';
/** A move may take this long before the engine forfeits: generous, as in bench/match.ts. */
const MOVE_TIMEOUT_MS = 60_000;

/** The paper's six subgoals (rule of five included) as a library. */
function paperLibrary(): Library {
  const lib = Library.empty();
  for (const t of PAPER_SUBGOALS) expectOk(lib.add(expectOk(parseDescription(t))));
  return lib;
}

/** The deterministic opponents, by name, each made afresh for every game. */
function opponentsByName(): ReadonlyMap<string, CurveOpponent> {
  const paper = paperLibrary().subgoals();
  const list: CurveOpponent[] = [
    { name: 'gomokuai', create: () => createGomokuaiPlayer() },
    { name: 'tss', create: () => new SolverPlayer() },
    { name: 'elcock-5-paper', create: () => createPlayer({ library: paper, level: 5, seed: PAPER_PLAYER_SEED, name: 'elcock-5-paper' }) },
  ];
  return new Map(list.map((o) => [o.name, o]));
}

export const REPEATS_DEFAULTS: RepeatsOptions = {
  openings: 10,
  passes: 2,
  series: 100,
  size: 19,
  opponents: [...opponentsByName().keys()],
  analysisSeconds: 20,
  determinism: 6,
  reflectEvery: 10,
  openingsSeed: 2525,
  out: 'out/repeats',
};

export function parseRepeatsOptions(args: readonly string[]): RepeatsOptions {
  const o = { ...REPEATS_DEFAULTS };
  const numbers: Record<string, 'openings' | 'passes' | 'series' | 'size' | 'analysisSeconds' | 'determinism' | 'reflectEvery' | 'openingsSeed'> = {
    '--openings': 'openings',
    '--passes': 'passes',
    '--series': 'series',
    '--size': 'size',
    '--analysis-s': 'analysisSeconds',
    '--determinism': 'determinism',
    '--reflect-every': 'reflectEvery',
    '--openings-seed': 'openingsSeed',
  };
  const known = [...opponentsByName().keys()];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--out' || a === '--opponents') {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      if (a === '--out') {
        o.out = v;
      } else {
        const names = v.split(',').filter((n) => n !== '');
        const unknown = names.find((n) => !known.includes(n));
        if (unknown !== undefined || names.length === 0) throw new Error(`--opponents takes names from ${known.join(', ')}${unknown !== undefined ? `, not ${unknown}` : ''}`);
        o.opponents = names;
      }
    } else if (a in numbers) {
      const v = Number(args[++i]);
      const least = a === '--determinism' || a === '--reflect-every' || a === '--openings-seed' ? 0 : 1;
      if (!Number.isInteger(v) || v < least) throw new Error(`${a} needs a whole number from ${least}`);
      o[numbers[a]] = v;
    } else {
      throw new Error(`unknown option ${a}`);
    }
  }
  if (o.size < 5 || o.size > 19) throw new Error('--size must be 5 to 19');
  return o;
}

/** One game of a pass: an opening, an opponent and the learner's colour. */
interface Slot {
  readonly opponent: CurveOpponent;
  /** 0-based index into the openings. */
  readonly opening: number;
  readonly learner: Colour;
}

type Result = 'win' | 'loss' | 'draw';

interface RepeatGame {
  /** 0-based, across passes. */
  readonly index: number;
  /** 0-based. */
  readonly pass: number;
  readonly slot: Slot;
  readonly result: Result;
  readonly how: GameOutcome['how'];
  readonly game: Game;
  /** Learned subgoals in the library when the game was played (the rule of five not counted). */
  readonly libraryBefore: number;
  /** New subgoals learned by walking back again through the games analysed so far, just after this one. */
  readonly reflected: number;
  /** What the analysis of a loss gave, new or known, nearest the win first. */
  readonly taught: readonly string[];
  /** How many of those were new. */
  readonly learned: number;
  /** Why a loss was not analysed, or its analysis failed or was given up. */
  readonly failure?: string;
  /** The earliest earlier loss this loss repeats move for move. */
  readonly repeatOf?: number;
  readonly gameMs: number;
  readonly analysisMs: number;
  readonly learnerMs: readonly number[];
  readonly opponentMs: readonly number[];
}

/** One game, learner against opponent, on a fresh learner with `library` and the fixed seed. */
async function playOne(library: Library, slot: Slot, opening: Opening, size: number): Promise<GameOutcome> {
  const subgoals = library.subgoals();
  const learner = engineOf(LEARNER, () => createPlayer({ library: subgoals, level: 5, seed: LEARNER_SEED, name: LEARNER }));
  const them = engineOf(slot.opponent.name, () => slot.opponent.create(0));
  const black = slot.learner === 'black' ? learner : them;
  const white = slot.learner === 'black' ? them : learner;
  const report = await playMatch(black, white, { size, games: 1, openings: [opening], timeoutMs: MOVE_TIMEOUT_MS });
  return report.outcomes[0];
}

/** The first `n` learned subgoals of a library that only grew, with their provenance: the library as it was. */
function libraryPrefix(library: Library, n: number): Library {
  const lib = Library.empty();
  for (const e of library.entries.slice(1, 1 + n)) expectOk(lib.add(e.subgoal, e.provenance));
  return lib;
}

const sameMoves = (a: Game, b: Game) => a.moves.length === b.moves.length && a.moves.every((p, i) => b.moves[i] === p);
const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);
const max = (xs: readonly number[]) => xs.reduce((m, x) => Math.max(m, x), 0);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const pad = (i: number) => String(i + 1).padStart(3, '0');

export async function runRepeats(o: RepeatsOptions, print: (line?: string) => void = (s = '') => process.stdout.write(`${s}\n`)): Promise<void> {
  const started = performance.now();
  const byName = opponentsByName();
  const opponents = o.opponents.map((n) => byName.get(n)!);
  const openings = generateOpenings(o.openingsSeed, o.openings, o.size);
  const slots: Slot[] = [];
  for (let opening = 0; opening < openings.length; opening++) {
    for (const opponent of opponents) for (const learner of ['black', 'white'] as const) slots.push({ opponent, opening, learner });
  }
  const passSize = slots.length;
  const total = Math.max(o.passes * passSize, o.series);
  const date = new Date().toISOString().slice(0, 10);

  const library = Library.empty();
  const analyser = new WorkerAnalyser(o.analysisSeconds);
  const games: RepeatGame[] = [];
  // The games analysed so far, for reflection.
  const analysed: { game: Game; index: number }[] = [];
  let reflectionMs = 0;
  let progressAt = performance.now();
  for (let index = 0; index < total; index++) {
    const pass = Math.floor(index / passSize);
    const slot = slots[index % passSize];
    const libraryBefore = library.size - 1;
    const gameStarted = performance.now();
    const outcome = await playOne(library, slot, openings[slot.opening], o.size);
    const gameMs = performance.now() - gameStarted;
    const result: Result = outcome.winner === undefined ? 'draw' : outcome.winner === slot.learner ? 'win' : 'loss';
    let taught: string[] = [];
    let learned = 0;
    let failure: string | undefined;
    const analysisStarted = performance.now();
    if (result === 'loss' && outcome.how !== 'five') {
      failure = `forfeit (${outcome.forfeit?.code ?? outcome.how}): not analysed`;
    } else if (result === 'loss' || (result === 'win' && outcome.how === 'five')) {
      analysed.push({ game: outcome.game, index });
      const analysis = await analyser.analyse(outcome.game, library);
      if ('error' in analysis) {
        failure = analysis.error;
      } else {
        learned = library.addLessons(analysis.learned, `repeats-${index + 1}`, date);
        taught = analysis.learned.map((l) => ('text' in l.subgoal ? l.subgoal.text : canonicalString(canonicalise(l.subgoal))));
      }
    }
    const analysisMs = outcome.how === 'five' && result !== 'draw' ? performance.now() - analysisStarted : 0;
    // As the bot: right after every `reflectEvery` analysed games, a pass over all of them.
    let reflected = 0;
    if (o.reflectEvery > 0 && analysed.at(-1)?.index === index && analysed.length % o.reflectEvery === 0) {
      const reflectionStarted = performance.now();
      reflected = await reflect(analysed, library, (g, lib) => analyser.analyse(g, lib), date, 'repeats');
      reflectionMs += performance.now() - reflectionStarted;
    }
    const earlier = result === 'loss' ? games.find((g) => g.slot === slot && g.result === 'loss' && sameMoves(g.game, outcome.game)) : undefined;
    games.push({
      index,
      pass,
      slot,
      result,
      how: outcome.how,
      game: outcome.game,
      libraryBefore,
      reflected,
      taught,
      learned,
      ...(failure !== undefined ? { failure } : {}),
      ...(earlier !== undefined ? { repeatOf: earlier.index } : {}),
      gameMs,
      analysisMs,
      learnerMs: outcome.moveMs[slot.learner],
      opponentMs: outcome.moveMs[opposite(slot.learner)],
    });
    if ((index + 1) % 20 === 0 || (index + 1) % passSize === 0 || index + 1 === total) {
      const now = performance.now();
      process.stderr.write(`  … ${index + 1} of ${total} games, ${games.filter((g) => g.result === 'loss').length} lost, library ${library.size - 1}, ${seconds(now - progressAt)}\n`);
      progressAt = now;
    }
  }
  await analyser.close();
  const playedMs = performance.now() - started;

  // First-pass losses (then other first-pass games, if there are too few) played again with
  // the library each was played with: an identical library must give an identical game.
  const checkStarted = performance.now();
  const firstPass = games.filter((g) => g.pass === 0);
  const toCheck = [...firstPass.filter((g) => g.result === 'loss'), ...firstPass.filter((g) => g.result !== 'loss')].slice(0, o.determinism);
  const differing: RepeatGame[] = [];
  for (const g of toCheck) {
    const again = await playOne(libraryPrefix(library, g.libraryBefore), g.slot, openings[g.slot.opening], o.size);
    if (!sameMoves(again.game, g.game)) differing.push(g);
  }
  const checkMs = performance.now() - checkStarted;

  writeOutput(o, games, library, openings);
  report(o, { games, library, openings, passSize, total, differing, checked: toCheck.length, checkMs, playedMs, reflectionMs, totalMs: performance.now() - started, date }, print);
}

interface RunSummary {
  readonly games: readonly RepeatGame[];
  readonly library: Library;
  readonly openings: readonly Opening[];
  readonly passSize: number;
  readonly total: number;
  readonly differing: readonly RepeatGame[];
  readonly checked: number;
  readonly checkMs: number;
  readonly playedMs: number;
  readonly reflectionMs: number;
  readonly totalMs: number;
  readonly date: string;
}

/** Whether a loss taught nothing new, and why, in words; undefined when it taught something (or was no loss). */
function nothingNew(g: RepeatGame): string | undefined {
  if (g.result !== 'loss' || g.learned > 0) return undefined;
  if (g.failure !== undefined) return g.failure;
  if (g.taught.length === 0) return 'the analysis learned no subgoal';
  const shown = g.taught.slice(0, 3).map((t) => `\`${t}\``).join(', ');
  return `only known subgoals: ${shown}${g.taught.length > 3 ? ` and ${g.taught.length - 3} more` : ''}`;
}

function openingText(openings: readonly Opening[], i: number, size: number): string {
  return `${openings[i].map((p) => makePoint(size, p)).join(' ')} (${openings[i].length} stones)`;
}

function recordText(o: RepeatsOptions, g: RepeatGame, openings: readonly Opening[], lines: readonly string[]): string {
  const s = g.slot;
  const [black, white] = s.learner === 'black' ? [`${LEARNER} (level 5, seed ${LEARNER_SEED})`, s.opponent.name] : [s.opponent.name, `${LEARNER} (level 5, seed ${LEARNER_SEED})`];
  return makeGameRecord(
    recordOf(g.game, [
      `game ${g.index + 1} of bench/repeats.ts (pass ${g.pass + 1}), ${o.size}×${o.size}: black ${black}, white ${white}`,
      `opening ${s.opening + 1}: ${openingText(openings, s.opening, o.size)}`,
      `result: ${describeStatus(g.game)}`,
      ...lines,
    ]),
  );
}

function writeOutput(o: RepeatsOptions, games: readonly RepeatGame[], library: Library, openings: readonly Opening[]): void {
  mkdirSync(o.out, { recursive: true });
  // A rerun's lists differ: the records of an earlier run must not be mistaken for this one's.
  for (const f of readdirSync(o.out)) if (/^(nothing-new|repeat)-\d+(-library)?\.txt$/.test(f)) rmSync(join(o.out, f));
  const withLibrary = (name: string, g: RepeatGame, lines: readonly string[]) => {
    const lib = `${name}-library.txt`;
    writeFileSync(join(o.out, `${name}.txt`), recordText(o, g, openings, [...lines, `the library before this game: ${lib}`]));
    writeFileSync(join(o.out, lib), libraryPrefix(library, g.libraryBefore).toFile([`the learner's library before game ${g.index + 1} of bench/repeats.ts`]));
  };
  for (const g of games.slice(0, o.series)) {
    const why = nothingNew(g);
    if (why !== undefined) withLibrary(`nothing-new-${pad(g.index)}`, g, [`taught nothing new: ${why.replaceAll('`', '')}`]);
  }
  for (const g of games) {
    if (g.repeatOf !== undefined) withLibrary(`repeat-${pad(g.index)}`, g, [`repeats game ${g.repeatOf + 1} move for move`]);
  }
  writeFileSync(join(o.out, 'library.txt'), library.toFile([`learned by the learner of bench/repeats.ts over ${games.length} games`]));
  const rows = games.map((g) =>
    [
      g.index + 1,
      g.pass + 1,
      g.slot.opponent.name,
      g.slot.opening + 1,
      g.slot.learner,
      g.result,
      g.how,
      g.game.moves.length,
      g.learned,
      g.reflected,
      g.taught.length,
      g.libraryBefore,
      g.repeatOf !== undefined ? g.repeatOf + 1 : '',
      g.gameMs.toFixed(0),
      mean(g.learnerMs).toFixed(2),
      max(g.learnerMs).toFixed(2),
      mean(g.opponentMs).toFixed(2),
      g.analysisMs.toFixed(0),
      g.failure ?? '',
    ].join('\t'),
  );
  const header = 'game\tpass\topponent\topening\tlearner\tresult\thow\tmoves\tlearned\treflected\ttaught\tlibrary_before\trepeat_of\tgame_ms\tlearner_ms_mean\tlearner_ms_max\topponent_ms_mean\tanalysis_ms\tfailure';
  writeFileSync(join(o.out, 'games.tsv'), [header, ...rows].join('\n') + '\n');
}

function report(o: RepeatsOptions, r: RunSummary, print: (line?: string) => void): void {
  const { games, passSize } = r;
  const names = o.opponents;
  const losses = (gs: readonly RepeatGame[]) => gs.filter((g) => g.result === 'loss');
  const passes = Math.ceil(r.total / passSize);
  print(`\n### Never the same loss twice (bench/repeats.ts): ${o.size}×${o.size}, ${plural(r.openings.length, 'opening')} × ${plural(names.length, 'opponent')} × 2 colours a pass (${r.date}, node ${process.version})\n`);
  print(
    `The learner: the player at level 5 from an empty library, made afresh each game with seed ${LEARNER_SEED} (an identical library plays an identical game), ` +
      `learning from every game won with a five, lost or won, as \`gomoku brain --learn\` and the bot do. Opponents: ${names.join(', ')}` +
      `${names.includes('elcock-5-paper') ? ` (elcock-5-paper: level 5, the paper's six subgoals frozen, seed ${PAPER_PLAYER_SEED})` : ''}. ` +
      `Openings: generateOpenings(${o.openingsSeed}, ${o.openings}, ${o.size}). Analysis limit ${o.analysisSeconds} s.\n`,
  );
  print(`| pass | games | losses | ${names.map((n) => `lost v ${n}`).join(' | ')} | repeats of an earlier loss | same game as pass 1 | new subgoals | library after | time |`);
  print(`| ---: | ---: | ---: | ${names.map(() => '---:').join(' | ')} | ---: | ---: | ---: | ---: | ---: |`);
  for (let p = 0; p < passes; p++) {
    const gs = games.filter((g) => g.pass === p);
    const per = names.map((n) => {
      const against = gs.filter((g) => g.slot.opponent.name === n);
      return `${losses(against).length}/${against.length}`;
    });
    const same = p === 0 ? '–' : `${gs.filter((g) => sameMoves(g.game, games[g.index % passSize].game)).length}/${gs.length}`;
    const repeats = p === 0 ? '–' : `**${gs.filter((g) => g.repeatOf !== undefined).length}**`;
    const ms = gs.reduce((s, g) => s + g.gameMs + g.analysisMs, 0);
    print(`| ${p + 1}${gs.length < passSize ? ' (part)' : ''} | ${gs.length} | ${losses(gs).length} | ${per.join(' | ')} | ${repeats} | ${same} | ${gs.reduce((s, g) => s + g.learned, 0)} | ${gs.at(-1)!.libraryBefore + gs.at(-1)!.learned} | ${seconds(ms)} |`);
  }

  const repeated = games.filter((g) => g.repeatOf !== undefined);
  print(`\n- losses after the first pass that repeat an earlier loss move for move (target: none): **${repeated.length}**`);
  if (repeated.length > 0) {
    print('\n| game | pass | opponent | opening | learner | moves | repeats game | what that loss taught |');
    print('| ---: | ---: | --- | ---: | --- | ---: | ---: | --- |');
    for (const g of repeated) {
      const first = games[g.repeatOf!];
      const then = first.failure ?? (first.learned > 0 ? `${first.learned} new of ${first.taught.length}` : (nothingNew(first) ?? ''));
      print(`| ${g.index + 1} | ${g.pass + 1} | ${g.slot.opponent.name} | ${g.slot.opening + 1} | ${g.slot.learner} | ${g.game.moves.length} | ${first.index + 1} | ${then} |`);
    }
    print();
  }
  print(
    `- determinism: ${r.checked - r.differing.length} of ${r.checked} first-pass games (losses first), played again with the library they were played with, gave the identical game` +
      (r.differing.length > 0 ? ` — **not** games ${r.differing.map((g) => g.index + 1).join(', ')}: a missing repeat proves nothing` : ''),
  );

  const series = games.slice(0, o.series);
  const seriesLosses = losses(series);
  const barren = seriesLosses.filter((g) => nothingNew(g) !== undefined);
  const share = seriesLosses.length === 0 ? 0 : (100 * barren.length) / seriesLosses.length;
  print(
    `- losses that taught nothing new, games 1–${series.length}: **${barren.length} of ${seriesLosses.length} losses (${share.toFixed(0)} %)** (target ≤ 10 %): ` +
      `${barren.filter((g) => g.failure === undefined).length} gave only known subgoals or none, ${barren.filter((g) => g.failure !== undefined).length} failed, were given up or forfeited`,
  );
  if (barren.length > 0) {
    print('\n| game | opponent | opening | learner | moves | why |');
    print('| ---: | --- | ---: | --- | ---: | --- |');
    for (const g of barren) print(`| ${g.index + 1} | ${g.slot.opponent.name} | ${g.slot.opening + 1} | ${g.slot.learner} | ${g.game.moves.length} | ${nothingNew(g)} |`);
    print(`\nEach is in ${o.out}/nothing-new-NNN.txt with the library before it: \`npx gomoku analyse --game ${o.out}/nothing-new-${pad(barren[0].index)}.txt --library ${o.out}/nothing-new-${pad(barren[0].index)}-library.txt\`.`);
  }

  print('\n| opponent | games | mean game | learner ms/move (mean / max) | opponent ms/move (mean / max) | analysis (total / slowest) |');
  print('| --- | ---: | ---: | ---: | ---: | ---: |');
  const timing = (label: string, gs: readonly RepeatGame[]) => {
    const lm = gs.flatMap((g) => g.learnerMs);
    const om = gs.flatMap((g) => g.opponentMs);
    const am = gs.map((g) => g.analysisMs);
    print(`| ${label} | ${gs.length} | ${mean(gs.map((g) => g.gameMs)).toFixed(0)} ms | ${mean(lm).toFixed(2)} / ${max(lm).toFixed(0)} | ${mean(om).toFixed(2)} / ${max(om).toFixed(0)} | ${seconds(am.reduce((s, x) => s + x, 0))} / ${seconds(max(am))} |`);
  };
  for (const n of names) timing(n, games.filter((g) => g.slot.opponent.name === n));
  timing('all', games);
  const reflected = r.games.reduce((s, g) => s + g.reflected, 0);
  print(
    o.reflectEvery > 0
      ? `\n- reflection after every ${o.reflectEvery} analysed games (every game analysed so far walked back again with the library then): ${plural(reflected, 'subgoal')} of the ${r.library.size - 1} learned that way (not in the passes' "learned" column), ${seconds(r.reflectionMs)} in all`
      : '\n- no reflection (`--reflect-every 0`)',
  );
  print(`\n- time: ${seconds(r.totalMs)} in all — ${r.total} games with their analyses ${seconds(r.playedMs)}, the determinism check ${seconds(r.checkMs)}; every game in ${o.out}/games.tsv, the library in ${o.out}/library.txt`);
}

async function main(): Promise<void> {
  const options = parseRepeatsOptions(process.argv.slice(2));
  await runRepeats(options);
}

// Run when this file is the script, not when bench/match.ts imports it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
