/**
 * Recognition benchmarks: whole-board recognition for both colours and re-recognition after
 * one move, on the three fixed positions, with the generated libraries of 10, 100 and 1000
 * subgoals (bench/libraries.ts) and the learned library of 1000 (bench/learnedLibrary.ts,
 * read from bench/fixtures/learned-library.txt); and the speed-up over the slow reference
 * matcher (test/support/referenceMatcher.ts) on the same work, measured in the same run.
 *
 * For the two libraries of 1000 the re-recognition figure is also split into its halves, the
 * play alone and the undo alone over the same moves: an undo puts back what the play
 * replaced, so the two cost very different amounts and the mean of them hides both.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { boardFromPicture } from '../src/rules/boardText.ts';
import { Library } from '../src/learning/library.ts';
import { Recogniser } from '../src/recognition/recognise.ts';
import type { Subgoal } from '../src/recognition/subgoal.ts';
import { describeProblem } from '../src/rules/result.ts';
import { BLACK, WHITE, type Stone } from '../src/rules/types.ts';
import { referenceRealisations } from '../test/support/referenceMatcher.ts';
import { measure, median, type Measurement } from './harness.ts';
import { benchLibrary } from './libraries.ts';
import { BENCH_POSITIONS, generateGame, reRecognitionMoves } from './positions.ts';

/** The learned library's file, written by bench/learnedLibrary.ts. */
const LEARNED_LIBRARY = fileURLToPath(new URL('./fixtures/learned-library.txt', import.meta.url));

interface BenchLibrary {
  /** How rows name it: "1000 subgoals", "learned 1000 subgoals". */
  readonly label: string;
  readonly lib: readonly Subgoal[];
  /** A library of 1000: fewer samples of the whole board, and the play and undo timed apart. */
  readonly large: boolean;
}

export function benchRecognition(): Measurement[] {
  const out: Measurement[] = [];
  const learned = learnedLibrary();
  const libs: BenchLibrary[] = [
    ...[10, 100, 1000].map((n) => ({ label: `${n} subgoals`, lib: benchLibrary(n), large: n === 1000 })),
    // The rule of five is not counted, as in the learning series: the file's 1000 learned subgoals are 1001 compiled.
    { label: `learned ${learned.length - 1} subgoals`, lib: learned, large: true },
  ];
  for (const pos of BENCH_POSITIONS) {
    const game = generateGame(pos.seed, pos.moves);
    for (const { label, lib, large } of libs) {
      const probe = new Recogniser(game.board.clone(), lib);
      const found = probe.realisations('black').length + probe.realisations('white').length;
      out.push(
        measure(`recognise whole board, both colours: ${pos.name}, ${label}`, () => new Recogniser(game.board.clone(), lib), {
          samples: large ? 9 : 15,
          note: `${found} realisations, ${probe.stats.runs} stream runs, library of ${librarySize(lib)}`,
        }),
      );
      // Re-recognition after one move: play each of a fixed set of empty points and take it back.
      const live = new Recogniser(game.board.clone(), lib);
      const moves = reRecognitionMoves(live.board);
      const stone = game.moves.length % 2 === 0 ? BLACK : WHITE;
      const m = measure(
        `re-recognise after one move: ${pos.name}, ${label}`,
        () => {
          for (const p of moves) {
            live.play(p, stone);
            live.undo();
          }
        },
        { samples: 9, warmup: 2 },
      );
      // Each iteration is 2 × moves.length updates (the play and the undo).
      const per = 2 * moves.length;
      out.push({ ...m, medianUs: m.medianUs / per, worstUs: m.worstUs / per, note: `per play or undo, over ${moves.length} moves, library of ${lib.length}` });
      if (large) out.push(...playAndUndo(live, moves, stone, `${pos.name}, ${label}`));
    }
  }
  out.push(...benchReference());
  return out;
}

/**
 * The learned library as the bot has a library: the file read by the project's one reader
 * (Library.fromFile, which canonicalises and compiles each entry), then its subgoals, the
 * rule of five first. Another library file with `path`.
 */
export function learnedLibrary(path: string = LEARNED_LIBRARY): Subgoal[] {
  const lib = Library.fromFile(readFileSync(path, 'utf8'));
  if (!lib.ok) throw new Error(describeProblem(lib.error, path));
  return lib.value.subgoals();
}

/**
 * The play and the undo of the re-recognition figure timed apart over the same moves: each
 * is timed on its own with the clock read around it, so a sample's play time and undo time
 * add up to (about) the whole loop's. Per play and per undo; median and worst of 9 samples
 * after 2 warm-up samples, as the combined figure.
 */
function playAndUndo(live: Recogniser, moves: readonly number[], stone: Stone, what: string): Measurement[] {
  const samples = 9;
  const plays: number[] = [];
  const undos: number[] = [];
  for (let s = -2; s < samples; s++) {
    let play = 0n;
    let undo = 0n;
    for (const p of moves) {
      const t0 = process.hrtime.bigint();
      live.play(p, stone);
      const t1 = process.hrtime.bigint();
      live.undo();
      const t2 = process.hrtime.bigint();
      play += t1 - t0;
      undo += t2 - t1;
    }
    if (s < 0) continue;
    plays.push(Number(play) / 1000 / moves.length);
    undos.push(Number(undo) / 1000 / moves.length);
  }
  const row = (name: string, times: readonly number[], note: string): Measurement => ({ name, medianUs: median(times), worstUs: Math.max(...times), samples, inner: moves.length, note });
  return [
    row(`  play alone: ${what}`, plays, `per play, over ${moves.length} moves`),
    row(`  undo alone: ${what}`, undos, `per undo, over the same moves`),
  ];
}

/** "1000 subgoals (1-5 nodes: 8/20/101/453/418)": the library's real size and its subgoals by number of nodes. */
function librarySize(lib: readonly Subgoal[]): string {
  const byNodes: number[] = [];
  for (const s of lib) byNodes[s.description.nodes.length - 1] = (byNodes[s.description.nodes.length - 1] ?? 0) + 1;
  return `${lib.length} subgoals (1-${byNodes.length} nodes: ${Array.from(byNodes, (x) => x ?? 0).join('/')})`;
}

/** Reference matcher vs recogniser on the same board and library, in one run. */
function benchReference(): Measurement[] {
  const game = generateGame(1968, 60);
  const pic = game.board.snapshot();
  const lib = benchLibrary(10).filter((s) => s.description.nodes.length <= 2);
  const ours = measure('recognise, ≤2-node subgoals of the 10-library, middle game', () => new Recogniser(boardFromPicture(pic), lib), { samples: 15 });
  const ref = measure(
    'reference matcher, same work',
    () => {
      for (const s of lib) {
        referenceRealisations(pic, s.description, BLACK, s.automorphisms);
        referenceRealisations(pic, s.description, WHITE, s.automorphisms);
      }
    },
    { samples: 3, warmup: 1 },
  );
  return [ours, { ...ref, note: `recogniser is ${(ref.medianUs / ours.medianUs).toFixed(0)}× faster (${lib.length} subgoals)` }];
}
