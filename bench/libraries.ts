/**
 * Benchmark libraries of 10, 100 and 1000 subgoals, made by a documented generator (a
 * learning program needs many lost games to grow a library this large, so the benchmark
 * makes one directly):
 *
 * - always the paper's six canonical subgoals first;
 * - then, from the seed, random connected descriptions of 1 to 4 nodes: each line is shared
 *   by 1 to 3 nodes, a node has 1 to 4 lines, and specs are drawn as learned subgoals carry
 *   them — mostly 3 and 4 (threes and fours), some 2 and 5, dashed half the time — with a
 *   comment on node 1;
 * - each is canonicalised and kept only if new and compilable.
 */
import { parseDescription } from '../src/descriptionNotation.ts';
import type { Description, LineSpec } from '../src/description.ts';
import { seededRandom, type Random } from '../src/random.ts';
import { compileSubgoal, type Subgoal } from '../src/recognise.ts';
import { expectOk } from '../src/result.ts';

export const PAPER_SUBGOALS = [
  '(1) 1:5',
  "(1) 2:4'",
  '(1, 1) 2:4, 4',
  "(1, 1) 3:3', 3'",
  '(1, 2-1) 4, 3-3:4',
  "(1, 2-1, 2) 4:3', 2'-4:2', 3'",
];

function spec(rnd: Random): LineSpec {
  const x = rnd.next();
  const n = x < 0.1 ? 2 : x < 0.55 ? 3 : x < 0.95 ? 4 : 5;
  return { n, dashed: n < 5 && rnd.next() < 0.5 };
}

export function randomSubgoalDescription(rnd: Random): Description {
  const k = 1 + rnd.int(4);
  const lines: number[][] = [];
  const degree = new Array<number>(k).fill(0);
  // A spanning tree of shared lines keeps the description connected.
  for (let v = 1; v < k; v++) {
    const u = rnd.int(v);
    lines.push([u, v]);
    degree[u]++;
    degree[v]++;
  }
  for (let extra = rnd.int(k + 1); extra > 0; extra--) {
    const v = rnd.int(k);
    if (degree[v] < 4) {
      lines.push([v]);
      degree[v]++;
    }
  }
  for (let v = 0; v < k; v++) {
    if (degree[v] === 0) {
      lines.push([v]);
      degree[v]++;
    }
  }
  return {
    nodes: Array.from({ length: k }, (_, v) => {
      const mine = lines.filter((m) => m.includes(v)).map((m) => ({ others: m.filter((w) => w !== v).map((w) => w + 1), spec: spec(rnd) }));
      return v === 0 ? { lines: mine, comment: 2 + rnd.int(5) } : { lines: mine };
    }),
  };
}

export function benchLibrary(count: number, seed = 1968): Subgoal[] {
  const rnd = seededRandom(seed);
  const out: Subgoal[] = PAPER_SUBGOALS.map((t) => expectOk(compileSubgoal(expectOk(parseDescription(t)))));
  const seen = new Set(out.map((s) => s.text));
  while (out.length < count) {
    const s = compileSubgoal(randomSubgoalDescription(rnd));
    if (s.ok && !seen.has(s.value.text)) {
      seen.add(s.value.text);
      out.push(s.value);
    }
  }
  return out.slice(0, count);
}
