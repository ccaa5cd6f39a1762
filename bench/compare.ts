/**
 * `npx tsx bench/compare.ts BASE [generated|learned] [rounds]`: the recognition figures of
 * two checkouts, this one and the one at directory BASE (a `git worktree` of an earlier
 * commit, say), measured in one process, alternating, so that the machine's drift between
 * minutes falls on both alike. The development machine is shared and its speed swings by
 * half between runs; only ratios measured this way are worth quoting.
 *
 * Each round times four whole-board recognitions and then one play (alone, as in the
 * recognition benchmark) at each of the benchmark's 40 moves, on the middle game with the
 * generated or the learned library of 1000, for the base and for this checkout by turns.
 * Which side goes first alternates: an A/A trial (a checkout against itself) with the base
 * always first read 0.912 for the whole board, the side going second favoured; alternating,
 * 0.982 and 1.033 for a play. Prints the medians and the median of the per-round ratios (this
 * checkout over the base: below 1 is faster). Both checkouts need their own node_modules (a
 * symbolic link will do).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './harness.ts';
import { reRecognitionMoves } from './positions.ts';

interface Side {
  readonly whole: () => number;
  readonly play: () => number;
}

/** What the script needs of a checkout's modules, as far as this file relies on it. */
interface RecogniserLike {
  readonly board: { isEmpty(p: number): boolean };
  play(p: number, stone: number): void;
  undo(): number;
}

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));

async function load(root: string, library: string): Promise<Side> {
  const recognise = await import(`${root}/src/recognise.ts`);
  const types = await import(`${root}/src/types.ts`);
  const positions = await import(`${root}/bench/positions.ts`);
  let lib: unknown;
  if (library === 'generated') {
    lib = (await import(`${root}/bench/libraries.ts`)).benchLibrary(1000);
  } else {
    const { Library } = await import(`${root}/src/library.ts`);
    const read = Library.fromFile(readFileSync(`${here}/bench/fixtures/learned-library.txt`, 'utf8'));
    if (!read.ok) throw new Error(`${root}: the learned library does not read`);
    lib = read.value.subgoals();
  }
  const game = positions.generateGame(1968, 60);
  const live: RecogniserLike = new recognise.Recogniser(game.board.clone(), lib);
  // The same moves for both sides, chosen by this checkout's rule.
  const moves = reRecognitionMoves(live.board);
  const stone = game.moves.length % 2 === 0 ? types.BLACK : types.WHITE;
  return {
    whole: () => {
      const t0 = process.hrtime.bigint();
      new recognise.Recogniser(game.board.clone(), lib);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    },
    play: () => {
      let total = 0n;
      for (const p of moves) {
        const t0 = process.hrtime.bigint();
        live.play(p, stone);
        total += process.hrtime.bigint() - t0;
        live.undo();
      }
      return Number(total) / 1e6 / moves.length;
    },
  };
}

async function main(args: readonly string[]): Promise<number> {
  const [baseArg, library = 'generated', roundsArg = '15'] = args;
  const rounds = Number(roundsArg);
  if (baseArg === undefined || (library !== 'generated' && library !== 'learned') || !Number.isInteger(rounds) || rounds < 1) {
    console.error('usage: npx tsx bench/compare.ts BASE [generated|learned] [rounds ≥ 1]');
    return 2;
  }
  const base = await load(resolve(baseArg), library);
  const ours = await load(here, library);
  for (let r = 0; r < 4; r++) {
    base.whole();
    ours.whole();
    base.play();
    ours.play();
  }
  const wb: number[] = [];
  const wo: number[] = [];
  const pb: number[] = [];
  const po: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let b = 0;
    let o = 0;
    // Which side goes first alternates (base, ours, ours, base, …): going second is not the same as going first.
    for (let k = 0; k < 4; k++) {
      if ((r + k) % 2 === 0) {
        b += base.whole();
        o += ours.whole();
      } else {
        o += ours.whole();
        b += base.whole();
      }
    }
    wb.push(b / 4);
    wo.push(o / 4);
    if (r % 2 === 0) {
      pb.push(base.play());
      po.push(ours.play());
    } else {
      po.push(ours.play());
      pb.push(base.play());
    }
  }
  const ratio = (b: readonly number[], o: readonly number[]): number => median(o.map((x, i) => x / b[i]));
  console.log(`middle game, ${library} library of 1000, ${rounds} rounds`);
  console.log(`whole board: base ${median(wb).toFixed(2)} ms, this ${median(wo).toFixed(2)} ms, ratio ${ratio(wb, wo).toFixed(3)}`);
  console.log(`one play:    base ${median(pb).toFixed(3)} ms, this ${median(po).toFixed(3)} ms, ratio ${ratio(pb, po).toFixed(3)}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
