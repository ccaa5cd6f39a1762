/**
 * `npx tsx bench/anatomy.ts [generated|learned]`: where a play's re-recognition time goes, on
 * the benchmark's middle game with a library of 1000 (docs/BENCHMARKS.md, fifteenth pass).
 * Not a benchmark of record (the figures in BENCHMARKS come from `npm run bench`): it times
 * every run on its own, which adds about a tenth of a microsecond to each, so its figures are
 * for comparing parts of one play with each other.
 *
 * It prints:
 * 1. each of the benchmark's 40 moves, played and taken back again and again: the median time
 *    of its play, its runs and steps, heaviest first, and the share of the heaviest four;
 * 2. the runs a play makes, by kind — new at a point (no run of that stream there before),
 *    made again (a read changed) or kept (made again, and its old record kept) — and by
 *    whether they find anything, with steps and time per run, the time split into the search
 *    (the machine's scan less its reports), reporting the realisations found (the
 *    recogniser's collect, timed at each call: about 0.05 µs of timer each) and the rest, the
 *    run's record;
 * 3. what a run that finds nothing costs before its first step and per step, by a least-
 *    squares line through the time and steps of every such run;
 * 4. what each kind of run's search costs when its machine is hot, and so how much of a play
 *    is searching at all: passes of the 40 plays in which every run of the kind is searched
 *    twice, once more just before the real run (the second search finds the machine and
 *    board in the caches, so the extra time is a hot search's), against plain passes, by
 *    turns (sixteenth pass).
 */
import { StreamMachine } from '../src/recognition/interpret.ts';
import { makePoint } from '../src/rules/point.ts';
import { Recogniser } from '../src/recognition/recognise.ts';
import type { Subgoal } from '../src/recognition/subgoal.ts';
import { BLACK, WHITE } from '../src/rules/types.ts';
import { median } from './harness.ts';
import { benchLibrary } from './libraries.ts';
import { generateGame, reRecognitionMoves } from './positions.ts';
import { learnedLibrary } from './recognition.ts';

/** What this tool reads of a run's record (runIndex.ts, RunRecord). */
interface RecordView {
  readonly found: readonly unknown[];
  readonly empty: boolean;
}

/** What section 4 relies on of a search's arguments (StreamMachine.scan): the log it writes to, third. */
interface ScratchView {
  clearReads(): void;
}

type RunOne = (this: Recogniser, i: number, p: number, scan: unknown, previous?: RecordView) => RecordView;

/** One run as timed: kind, steps, nanoseconds, and whether it found anything. */
interface Timed {
  readonly kind: string;
  readonly steps: number;
  readonly ns: number;
  /** Of ns: in the machine's scan, and within that, in reporting realisations. */
  readonly scanNs: number;
  readonly reportNs: number;
  readonly found: boolean;
}

type Scan = (this: StreamMachine, ...args: unknown[]) => number;
type Collect = (this: Recogniser, m: StreamMachine) => void;

function library(which: string): Subgoal[] {
  return which === 'generated' ? benchLibrary(1000) : learnedLibrary();
}

function main(args: readonly string[]): number {
  const [which = 'generated'] = args;
  if (which !== 'generated' && which !== 'learned') {
    console.error('usage: npx tsx bench/anatomy.ts [generated|learned]');
    return 2;
  }
  const game = generateGame(1968, 60);
  const live = new Recogniser(game.board.clone(), library(which));
  const moves = reRecognitionMoves(live.board);
  const stone = game.moves.length % 2 === 0 ? BLACK : WHITE;
  const size = game.board.size;

  // Every run, timed, while `log` is set.
  const proto = Recogniser.prototype as unknown as { runOne: RunOne; collect: Collect };
  const machine = StreamMachine.prototype as unknown as { scan: Scan };
  const runOne = proto.runOne;
  const scanOf = machine.scan;
  const collect = proto.collect;
  let log: Timed[] | undefined;
  // Section 4: which runs' searches are made twice, whether the run under way's is, and how
  // many extra searches there were and how long.
  let twice: ((previous: RecordView | undefined) => boolean) | undefined;
  let doubleThis = false;
  let extra = 0;
  let extraSteps = 0;
  let scanNs = 0;
  let reportNs = 0;
  // The parts of a run, timed from section 2 on (the timers would weigh on section 1).
  const timeParts = (): void => {
    machine.scan = function (this: StreamMachine, ...args) {
      const t0 = process.hrtime.bigint();
      const steps = scanOf.apply(this, args);
      scanNs += Number(process.hrtime.bigint() - t0);
      return steps;
    };
    proto.collect = function (this: Recogniser, m) {
      const t0 = process.hrtime.bigint();
      collect.call(this, m);
      reportNs += Number(process.hrtime.bigint() - t0);
    };
  };
  proto.runOne = function (this: Recogniser, i, p, scan, previous) {
    doubleThis = twice !== undefined && twice(previous);
    const steps = this.stats.steps;
    scanNs = 0;
    reportNs = 0;
    const t0 = process.hrtime.bigint();
    const rec = runOne.call(this, i, p, scan, previous);
    const ns = Number(process.hrtime.bigint() - t0);
    const kind = previous === undefined ? 'new' : rec === previous ? 'kept' : 'made again';
    log?.push({ kind, steps: this.stats.steps - steps, ns, scanNs, reportNs, found: rec.found.length > 0 });
    return rec;
  };
  try {
    for (let w = 0; w < 3; w++) for (const p of moves) play(live, p, stone);

    // 1. Move by move.
    const rows = moves.map((p) => {
      const times: number[] = [];
      const runs = live.stats.runs;
      const steps = live.stats.steps;
      for (let r = 0; r < 9; r++) times.push(play(live, p, stone));
      return { p, us: median(times), runs: (live.stats.runs - runs) / 9, steps: (live.stats.steps - steps) / 9 };
    });
    rows.sort((a, b) => b.us - a.us);
    const total = rows.reduce((s, r) => s + r.us, 0);
    console.log(`middle game, ${which} library; a play, move by move (median of 9), heaviest first:`);
    for (const r of rows) console.log(`  ${makePoint(size, r.p).padEnd(4)} ${r.us.toFixed(0).padStart(7)} µs ${String(r.runs).padStart(6)} runs ${String(r.steps).padStart(7)} steps`);
    const four = rows.slice(0, 4).reduce((s, r) => s + r.us, 0);
    console.log(`  mean ${(total / rows.length).toFixed(0)} µs; the heaviest four are ${((100 * four) / total).toFixed(0)} % of the whole`);

    // 2. By kind of run, over one pass of the 40 moves, three times; first without the parts
    // timed, for section 3 (the timers inside a run would weigh on its fixed cost).
    const passes = 3;
    const plays = passes * moves.length;
    log = [];
    for (let r = 0; r < passes; r++) for (const p of moves) play(live, p, stone);
    const whole = log;
    timeParts();
    log = [];
    for (let r = 0; r < passes; r++) for (const p of moves) play(live, p, stone);
    const kinds = new Map<string, Timed[]>();
    for (const t of log) {
      const k = `${t.kind}, ${t.found ? 'finding something' : 'finding nothing'}`;
      const list = kinds.get(k);
      if (list === undefined) kinds.set(k, [t]);
      else list.push(t);
    }
    console.log('\nruns a play makes, by kind (timed one by one; µs a run: search + reporting + record):');
    let sums = [0, 0, 0];
    for (const [k, list] of [...kinds.entries()].sort((a, b) => b[1].length - a[1].length)) {
      const steps = list.reduce((s, t) => s + t.steps, 0);
      const ns = list.reduce((s, t) => s + t.ns, 0);
      const search = list.reduce((s, t) => s + t.scanNs - t.reportNs, 0);
      const report = list.reduce((s, t) => s + t.reportNs, 0);
      const record = ns - search - report;
      sums = [sums[0] + search, sums[1] + report, sums[2] + record];
      const us = (x: number): string => (x / list.length / 1000).toFixed(2);
      console.log(`  ${k.padEnd(34)} ${(list.length / plays).toFixed(1).padStart(6)} a play, ${(steps / list.length).toFixed(0).padStart(4)} steps and ${us(ns)} µs a run: ${us(search)} + ${us(report)} + ${us(record)}`);
    }
    const all = sums[0] + sums[1] + sums[2];
    const share = (x: number): string => `${((100 * x) / all).toFixed(0)} %`;
    console.log(`  of the runs' time: search ${share(sums[0])}, reporting ${share(sums[1])}, records ${share(sums[2])}`);

    // 3. The fixed cost of a run that finds nothing, and its cost per step.
    const empty = whole.filter((t) => !t.found);
    const n = empty.length;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let sxy = 0;
    for (const t of empty) {
      sx += t.steps;
      sy += t.ns;
      sxx += t.steps * t.steps;
      sxy += t.steps * t.ns;
    }
    const perStep = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    const fixed = (sy - perStep * sx) / n;
    console.log(`\nruns finding nothing: ${n}; ${(fixed / 1000).toFixed(2)} µs before the first step, ${perStep.toFixed(0)} ns a step (least squares, the timer included)`);

    // 4. Hot searches, by kind of run: a search made (not one a run is spared, see
    // Recogniser.withoutLost) is made once more first, finding nothing and its log cleared.
    proto.collect = collect;
    log = undefined;
    machine.scan = function (this: StreamMachine, ...args) {
      if (doubleThis) {
        extra++;
        extraSteps += scanOf.call(this, args[0], args[1], args[2], () => {});
        (args[2] as ScratchView).clearReads();
      }
      return scanOf.apply(this, args);
    };
    const pass = (): number => moves.reduce((sum, p) => sum + play(live, p, stone), 0) / moves.length;
    const kindsOf: [string, (previous: RecordView | undefined) => boolean][] = [
      ['new', (previous) => previous === undefined],
      ['made again, having found nothing', (previous) => previous !== undefined && previous.empty],
      ['made again, having found something', (previous) => previous !== undefined && !previous.empty],
    ];
    const rounds = 15;
    console.log(`\nsearches made hot, by kind of run (${rounds} rounds of plain and doubled passes by turns):`);
    let searching = 0;
    let whole4 = 0;
    for (const [name, which] of kindsOf) {
      const plain: number[] = [];
      const doubled: number[] = [];
      extra = 0;
      extraSteps = 0;
      for (let r = 0; r < rounds; r++) {
        for (const side of r % 2 === 0 ? [0, 1] : [1, 0]) {
          twice = side === 1 ? which : undefined;
          (side === 1 ? doubled : plain).push(pass());
        }
      }
      twice = undefined;
      const perPlay = extra / (rounds * moves.length);
      const us = (median(doubled) - median(plain)) / perPlay;
      searching += us * perPlay;
      whole4 = median(plain);
      console.log(`  ${name.padEnd(36)} ${perPlay.toFixed(1).padStart(6)} a play, ${(extraSteps / extra).toFixed(0).padStart(4)} steps and ${us.toFixed(2)} µs a search`);
    }
    console.log(`  searching, hot: ${searching.toFixed(0)} µs of a ${whole4.toFixed(0)} µs play (${((100 * searching) / whole4).toFixed(0)} %)`);
  } finally {
    twice = undefined;
    proto.runOne = runOne;
    proto.collect = collect;
    machine.scan = scanOf;
    log = undefined;
  }
  return 0;
}

/** Plays p and takes it back; the play's time in microseconds. */
function play(live: Recogniser, p: number, stone: typeof BLACK | typeof WHITE): number {
  const t0 = process.hrtime.bigint();
  live.play(p, stone);
  const us = Number(process.hrtime.bigint() - t0) / 1000;
  live.undo();
  return us;
}

process.exitCode = main(process.argv.slice(2));
