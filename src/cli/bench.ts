/** `gomoku bench [suite…]` runs the benchmarks (the same as `npm run bench`). */
import type { Command } from './command.ts';
import type { CliIO } from '../bot/io.ts';

const help = `usage: gomoku bench [suite ...]

Runs the benchmark suites (all when none is named) and prints medians and worst samples.
Record the figures, with the date, in docs/BENCHMARKS.md.`;

export const benchCommand: Command = {
  name: 'bench',
  summary: 'run the speed benchmarks',
  help,
  async run(args: readonly string[], io: CliIO): Promise<number> {
    const { runBenchmarks } = await import('../../bench/run.ts');
    return runBenchmarks(args, (s) => io.out(s));
  },
};
