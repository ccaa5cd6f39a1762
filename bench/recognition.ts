/**
 * Recognition benchmarks: whole-board recognition for both colours and re-recognition after
 * one move, on the three fixed positions, with libraries of 10, 100 and 1000 subgoals; and
 * the speed-up over the slow reference matcher (test/support/referenceMatcher.ts) on the same
 * work, measured in the same run.
 */
import { boardFromPicture } from '../src/boardText.ts';
import { Recogniser, type Subgoal } from '../src/recognise.ts';
import { BLACK, WHITE } from '../src/types.ts';
import { referenceRealisations } from '../test/support/referenceMatcher.ts';
import { measure, type Measurement } from './harness.ts';
import { benchLibrary } from './libraries.ts';
import { BENCH_POSITIONS, generateGame } from './positions.ts';

export function benchRecognition(): Measurement[] {
  const out: Measurement[] = [];
  const libs = [10, 100, 1000].map((n) => ({ n, lib: benchLibrary(n) }));
  for (const pos of BENCH_POSITIONS) {
    const game = generateGame(pos.seed, pos.moves);
    for (const { n, lib } of libs) {
      const probe = new Recogniser(game.board.clone(), lib);
      const found = probe.realisations('black').length + probe.realisations('white').length;
      out.push(
        measure(`recognise whole board, both colours: ${pos.name}, ${n} subgoals`, () => new Recogniser(game.board.clone(), lib), {
          samples: n === 1000 ? 9 : 15,
          note: `${found} realisations, ${probe.stats.runs} stream runs, library of ${librarySize(lib)}`,
        }),
      );
      // Re-recognition after one move: play each of a fixed set of empty points and take it back.
      const live = new Recogniser(game.board.clone(), lib);
      const empties = Array.from({ length: 361 }, (_, p) => p).filter((p) => live.board.isEmpty(p));
      const moves = empties.filter((_, i) => i % 7 === 0).slice(0, 40);
      const stone = game.moves.length % 2 === 0 ? BLACK : WHITE;
      const m = measure(
        `re-recognise after one move: ${pos.name}, ${n} subgoals`,
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
    }
  }
  out.push(...benchReference());
  return out;
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
