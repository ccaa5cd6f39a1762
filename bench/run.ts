/**
 * `npm run bench` / `gomoku bench [suite…]`: runs the benchmark suites and prints one table.
 * Figures go into docs/BENCHMARKS.md with the date.
 */
import { benchAnalysis } from './analysis.ts';
import { benchBoard } from './board.ts';
import { formatTable, type Measurement } from './harness.ts';
import { benchMoveTime } from './movetime.ts';
import { benchRecognition } from './recognition.ts';
import { benchRender } from './render.ts';
import { benchSolver } from './solver.ts';

export const SUITES: Record<string, () => Measurement[] | Promise<Measurement[]>> = {
  board: benchBoard,
  recognition: benchRecognition,
  analysis: benchAnalysis,
  solver: benchSolver,
  render: async () =>
    (await benchRender()).map((r) => ({
      name: `render: ${r.name}`,
      medianUs: r.medianMs * 1000,
      worstUs: r.worstMs * 1000,
      samples: 50,
      inner: 1,
      note: `${(r.bytes / 1024).toFixed(1)} KB PNG`,
    })),
  player: benchMoveTime,
};

/**
 * Suites run only when named: `load` starts the bot against the fake Discord with Redis and
 * the file store (bench/load.ts), about a minute and a half, and needs a Redis server.
 */
export const ON_REQUEST: Record<string, () => Promise<Measurement[]>> = {
  load: async () => (await import('./load.ts')).benchLoad(),
};

export async function runBenchmarks(names: readonly string[], print: (s: string) => void): Promise<number> {
  const chosen = names.length > 0 ? names : Object.keys(SUITES);
  const suites = { ...SUITES, ...ON_REQUEST };
  for (const n of chosen) {
    if (!(n in suites)) {
      print(`unknown suite "${n}"; suites: ${Object.keys(suites).join(', ')}`);
      return 2;
    }
  }
  print(`gomoku bench — ${new Date().toISOString().slice(0, 10)}, node ${process.version}`);
  for (const n of chosen) {
    const rows = await suites[n]();
    print(`\n[${n}]\n${formatTable(rows)}`);
  }
  return 0;
}
