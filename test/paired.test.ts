import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPaired, pair, readFrozenRun, signTest } from '../bench/paired.ts';
import { FIXTURES } from './support/fixtures.ts';

// Two real runs of bench/frozen.ts (series-187 against gomokuai on openings 4242, the
// generator started again each game, 2026-12-03): as landed, and with every ranked
// defence checked while the move's plays last.
const log = (name: string) => readFileSync(join(FIXTURES, 'frozen', name), 'utf8');

describe('bench/paired.ts: two frozen runs read game by game', () => {
  it('pairs the two runs and counts the games each did better in', () => {
    const base = readFrozenRun('base', log('series-187-gomokuai-4242.txt'));
    const variant = readFrozenRun('variant', log('series-187-gomokuai-4242-every-defence.txt'));
    expect(base.results).toHaveLength(320);
    expect(base.results.filter((r) => r === 'L')).toHaveLength(13);
    expect(variant.results.filter((r) => r === 'L')).toHaveLength(14);
    const paired = pair(base.results, variant.results);
    // 13 and 14 losses, but not 1 game apart: 5 games changed, 2 one way and 3 the other.
    expect(paired).toMatchObject({ games: 320, better: 2, worse: 3 });
    expect(paired.p).toBe(1);
    const text = formatPaired(base, variant, paired);
    expect(text).toContain('better in 2, worse in 3; sign test p = 1.000');
    expect(text).not.toContain('different opponents');
  });

  it('computes the exact two-sided sign test', () => {
    expect(signTest(0, 0)).toBe(1);
    expect(signTest(0, 6)).toBeCloseTo(2 / 64, 12);
    expect(signTest(9, 1)).toBeCloseTo((2 * 11) / 1024, 12);
    expect(signTest(3, 3)).toBe(1);
    // Large counts do not overflow: 100 against 140 is a real difference (p ≈ 0.012).
    expect(signTest(100, 140)).toBeGreaterThan(0.005);
    expect(signTest(100, 140)).toBeLessThan(0.02);
  });

  it('counts a draw between a win and a loss, and refuses runs of different lengths', () => {
    expect(pair(['W', 'D', 'L', 'W'], ['D', 'W', 'D', 'W'])).toMatchObject({ better: 2, worse: 1 });
    expect(() => pair(['W', 'L'], ['W'])).toThrow(/differ in length \(2 and 1 games\)/);
  });

  it('names a file that is not a frozen run, and runs against different opponents', () => {
    expect(() => readFrozenRun('notes.txt', 'score 95 %\n')).toThrow(/notes\.txt: no "results in order/);
    const a = readFrozenRun('a', log('series-187-gomokuai-4242.txt'));
    const b = { title: a.title.replace('against gomokuai', 'against tss'), results: a.results };
    expect(formatPaired(a, b, pair(a.results, b.results))).toContain('different opponents or openings');
  });
});
