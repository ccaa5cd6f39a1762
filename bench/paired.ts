/**
 * `npx tsx bench/paired.ts BASE.log VARIANT.log`: two frozen runs of bench/frozen.ts on the
 * same openings, read game by game. Each log's "results in order" line gives every game's
 * result for the learner (W, L or D, game 1 black); the two are paired by game, and what is
 * printed is in how many games each side did better than the other, and the exact two-sided
 * sign test (McNemar's) on those discordant games: the chance that a change which altered
 * nothing but which games are lost would split them at least this unevenly.
 *
 * Why it exists: fifteen sessions of issue 25 compared variants against gomokuai by their
 * loss counts (13 against 10, 33 against 33 over 960 games) and read each by eye. With the
 * generator started again each game (`--seed-each-game`) a game depends only on its opening,
 * colour and library, so two runs can be paired and the question asked properly: of the games
 * whose result changed, did more change one way than chance allows? A game is discordant when
 * the learner's result differs; it counts for the side whose result was better (W, then D,
 * then L).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export type GameResult = 'W' | 'L' | 'D';

export interface FrozenRun {
  /** The header line naming the library, the opponent and the openings. */
  readonly title: string;
  readonly results: readonly GameResult[];
}

/** The start of the line bench/frozen.ts prints each game's result on; both files use this one. */
export const RESULTS_LINE = 'results in order (game 1 black): ';
const ORDER = new RegExp(`^${RESULTS_LINE.replace(/[()]/g, '\\$&')}([WLD]+)$`, 'm');

/** The results of one bench/frozen.ts log; a clear error when the text is not one. */
export function readFrozenRun(name: string, text: string): FrozenRun {
  const order = ORDER.exec(text);
  if (order === null) throw new Error(`${name}: no "results in order (game 1 black): …" line — not the output of bench/frozen.ts`);
  const title = text.split('\n').find((l) => / games on generateOpenings\(/.test(l)) ?? '';
  return { title, results: order[1].split('') as GameResult[] };
}

export interface Paired {
  readonly games: number;
  /** Games the variant did better in (a loss or draw became a draw or win). */
  readonly better: number;
  /** Games the variant did worse in. */
  readonly worse: number;
  /** Exact two-sided sign test on the discordant games (1 when there are none). */
  readonly p: number;
}

const RANK: Record<GameResult, number> = { L: 0, D: 1, W: 2 };

/** The two runs paired game by game; they must be the same number of games. */
export function pair(base: readonly GameResult[], variant: readonly GameResult[]): Paired {
  if (base.length !== variant.length) throw new Error(`the runs differ in length (${base.length} and ${variant.length} games): pair runs of the same openings and games`);
  let better = 0;
  let worse = 0;
  for (let i = 0; i < base.length; i++) {
    const d = RANK[variant[i]] - RANK[base[i]];
    if (d > 0) better++;
    else if (d < 0) worse++;
  }
  return { games: base.length, better, worse, p: signTest(better, worse) };
}

/**
 * P(a split at least as uneven as a:b) when each of the a + b discordant games goes either
 * way with chance one half: twice the smaller tail of the binomial, at most 1.
 */
export function signTest(a: number, b: number): number {
  const n = a + b;
  if (n === 0) return 1;
  const k = Math.min(a, b);
  // Sum C(n, i) / 2^n for i ≤ k, term by term so large n does not overflow.
  let term = 2 ** -n;
  let tail = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    tail += term;
  }
  return Math.min(1, 2 * tail);
}

export function formatPaired(base: FrozenRun, variant: FrozenRun, paired: Paired): string {
  const losses = (r: FrozenRun) => r.results.filter((x) => x === 'L').length;
  const lines = [
    `base:    ${base.title} — ${losses(base)} lost`,
    `variant: ${variant.title} — ${losses(variant)} lost`,
    `${paired.games} games paired: the variant did better in ${paired.better}, worse in ${paired.worse}; sign test p = ${paired.p.toFixed(3)}`,
  ];
  const games = (r: FrozenRun) => r.title.slice(r.title.lastIndexOf(' against '));
  if (games(base) !== games(variant)) lines.push('(the two runs name different opponents or openings: a pairing of them means nothing)');
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [a, b] = process.argv.slice(2);
  if (a === undefined || b === undefined) {
    process.stderr.write('usage: npx tsx bench/paired.ts BASE.log VARIANT.log (two outputs of bench/frozen.ts)\n');
    process.exit(2);
  }
  try {
    const base = readFrozenRun(a, readFileSync(a, 'utf8'));
    const variant = readFrozenRun(b, readFileSync(b, 'utf8'));
    process.stdout.write(`${formatPaired(base, variant, pair(base.results, variant.results))}\n`);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
}
