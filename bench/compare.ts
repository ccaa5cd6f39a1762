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
 *
 * Even alternating, the ratio of two identical checkouts is not 1: in the fifteenth pass,
 * A/A trials read 0.96–0.98 for the whole board and about 0.99 for a play, the side loaded
 * later favoured. BASE_TWIN, a second checkout of the base commit, is timed as a third side
 * in the same rounds, and its ratio to the base printed beside the result: a change is only
 * shown when its ratio is clearly below the twin's.
 */
import { existsSync, readFileSync } from 'node:fs';
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

/**
 * A core module of a checkout: under its stage folder (src/recognition/recognise.ts), or, in
 * a checkout from before src/ was cut into stages (issue 29), directly under src/.
 */
function coreModule(root: string, path: string): string {
  const staged = `${root}/src/${path}`;
  return existsSync(staged) ? staged : `${root}/src/${path.slice(path.indexOf('/') + 1)}`;
}

async function load(root: string, library: string): Promise<Side> {
  const recognise = await import(coreModule(root, 'recognition/recognise.ts'));
  const types = await import(coreModule(root, 'rules/types.ts'));
  const positions = await import(`${root}/bench/positions.ts`);
  let lib: unknown;
  if (library === 'generated') {
    lib = (await import(`${root}/bench/libraries.ts`)).benchLibrary(1000);
  } else {
    const { Library } = await import(coreModule(root, 'learning/library.ts'));
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

/** One round's figures for each side, in the order the sides were given. */
function round(sides: readonly Side[], r: number): { whole: number[]; play: number[] } {
  const n = sides.length;
  const whole = new Array<number>(n).fill(0);
  const play = new Array<number>(n).fill(0);
  // Which side goes first turns round by round, and within the whole-board samples: going
  // second is not the same as going first.
  for (let k = 0; k < 4; k++) {
    for (let x = 0; x < n; x++) {
      const at = (x + r + k) % n;
      whole[at] += sides[at].whole() / 4;
    }
  }
  for (let x = 0; x < n; x++) {
    const at = (x + r) % n;
    play[at] = sides[at].play();
  }
  return { whole, play };
}

async function main(args: readonly string[]): Promise<number> {
  const [baseArg, library = 'generated', roundsArg = '15', twinArg] = args;
  const rounds = Number(roundsArg);
  if (baseArg === undefined || (library !== 'generated' && library !== 'learned') || !Number.isInteger(rounds) || rounds < 1) {
    console.error('usage: npx tsx bench/compare.ts BASE [generated|learned] [rounds ≥ 1] [BASE_TWIN]');
    return 2;
  }
  // Sides: the base, this checkout, and (given a second checkout of the same commit) the base's twin.
  const sides = [await load(resolve(baseArg), library), await load(here, library)];
  if (twinArg !== undefined) sides.push(await load(resolve(twinArg), library));
  for (let r = 0; r < 4; r++) round(sides, r);
  const whole: number[][] = sides.map(() => []);
  const play: number[][] = sides.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const f = round(sides, r);
    sides.forEach((_, x) => {
      whole[x].push(f.whole[x]);
      play[x].push(f.play[x]);
    });
  }
  const ratio = (b: readonly number[], o: readonly number[]): number => median(o.map((x, i) => x / b[i]));
  const twin = (what: number[][]): string => (sides.length > 2 ? ` (A/A: twin ${median(what[2]).toFixed(3)} ms, ratio ${ratio(what[0], what[2]).toFixed(3)})` : '');
  console.log(`middle game, ${library} library of 1000, ${rounds} rounds`);
  console.log(`whole board: base ${median(whole[0]).toFixed(2)} ms, this ${median(whole[1]).toFixed(2)} ms, ratio ${ratio(whole[0], whole[1]).toFixed(3)}${twin(whole)}`);
  console.log(`one play:    base ${median(play[0]).toFixed(3)} ms, this ${median(play[1]).toFixed(3)} ms, ratio ${ratio(play[0], play[1]).toFixed(3)}${twin(play)}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
