/**
 * Benchmark libraries of 10, 100 and 1000 subgoals, made by a documented generator (a
 * learning program needs many lost games to grow a library this large, so the benchmark
 * builds one the way synthesis does, on descriptions alone):
 *
 * - the pool starts with the paper's six canonical subgoals;
 * - from the seed, pick two pool members A and B and unite them through a new node p, as the
 *   paper's synthesis unites downgraded realisations through the move that created them: p
 *   joins one line of A and one line of B, every spec on those two lines drops by one (the
 *   stone at p is "unplayed"), a node whose only line that was becomes implicit — its pattern
 *   moves onto p — and p's comment is one more than the larger of A's and B's;
 * - the result is canonicalised and kept when its comment-free form is new, it compiles, and
 *   it has at most four nodes (the paper's largest example has four); earlier (smaller) pool members are picked more often.
 * Such subgoals are conjunctions of threats, so, as with learned ones, their realisations are
 * rare on a board.
 */
import { canonicalString } from '../src/canonical.ts';
import { descriptionLines, validateDescription, withoutComments, type Description, type LineSpec } from '../src/description.ts';
import { parseDescription } from '../src/descriptionNotation.ts';
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

interface Hyper {
  /** Members of each line: node id and spec. */
  lines: { node: number; spec: LineSpec }[][];
  comments: Map<number, number>;
  nodes: number;
}

function toHyper(d: Description): Hyper {
  const lines: { node: number; spec: LineSpec }[][] = descriptionLines(d).map((l) => l.members.map((m) => ({ node: m.node, spec: m.spec })));
  const comments = new Map<number, number>();
  d.nodes.forEach((n, i) => n.comment !== undefined && comments.set(i + 1, n.comment));
  return { lines, comments, nodes: d.nodes.length };
}

function maxComment(h: Hyper): number {
  return Math.max(1, ...h.comments.values());
}

/** A and B united through a new node p, as described above; undefined when it cannot be done. */
export function compose(a: Description, b: Description, rnd: Random): Description | undefined {
  const parts = [toHyper(a), toHyper(b)];
  const lines: { node: number; spec: LineSpec }[][] = [];
  let next = 1;
  const p = 0; // renumbered below
  const pLines: number[] = [];
  for (const h of parts) {
    const offset = next - 1;
    next += h.nodes;
    const chosen = rnd.int(h.lines.length);
    for (let i = 0; i < h.lines.length; i++) {
      const members = h.lines[i].map((m) => ({ node: m.node + offset, spec: m.spec }));
      if (i !== chosen) {
        lines.push(members);
        continue;
      }
      if (members.some((m) => m.spec.n < 2)) return undefined;
      const down = members.map((m) => ({ node: m.node, spec: { n: m.spec.n - 1, dashed: m.spec.dashed } }));
      const strongest = down.reduce((x, y) => (y.spec.n > x.spec.n ? y : x));
      pLines.push(lines.length);
      lines.push([...down, { node: p, spec: strongest.spec }]);
    }
  }
  // Nodes left with no line but the one through p become implicit: their pattern is p's.
  const degree = new Map<number, number>();
  for (const l of lines) for (const m of l) degree.set(m.node, (degree.get(m.node) ?? 0) + 1);
  for (const li of pLines) {
    const l = lines[li];
    lines[li] = l.filter((m) => m.node === p || degree.get(m.node)! > 1 || l.length === 1);
  }
  const used = new Set<number>();
  for (const l of lines) for (const m of l) used.add(m.node);
  const order = [p, ...[...used].filter((n) => n !== p).sort((x, y) => x - y)];
  if (order.length > 4) return undefined;
  const label = new Map(order.map((n, i) => [n, i + 1]));
  const comment = 1 + Math.max(maxComment(parts[0]), maxComment(parts[1]));
  const nodes = order.map((n) => {
    const mine = lines
      .filter((l) => l.some((m) => m.node === n))
      .map((l) => ({
        others: l.filter((m) => m.node !== n).map((m) => label.get(m.node)!).sort((x, y) => x - y),
        spec: l.find((m) => m.node === n)!.spec,
      }));
    return n === p ? { lines: mine, comment } : { lines: mine };
  });
  if (nodes.some((n) => n.lines.length > 4)) return undefined;
  const d: Description = { nodes };
  return validateDescription(d).ok ? d : undefined;
}

export function benchLibrary(count: number, seed = 1968): Subgoal[] {
  const rnd = seededRandom(seed);
  const out: Subgoal[] = PAPER_SUBGOALS.map((t) => expectOk(compileSubgoal(expectOk(parseDescription(t)))));
  const seen = new Set(out.map((s) => canonicalString(withoutComments(s.description))));
  for (let tries = 0; out.length < count && tries < 200 * count; tries++) {
    // Earlier (smaller) members are picked more often, as simple subgoals are learned first
    // and built on most.
    const early = () => out[Math.floor(out.length * rnd.next() ** 2)].description;
    const d = compose(early(), early(), rnd);
    if (d === undefined) continue;
    const s = compileSubgoal(d);
    if (!s.ok) continue;
    const bare = canonicalString(withoutComments(s.value.description));
    if (seen.has(bare)) continue;
    seen.add(bare);
    out.push(s.value);
  }
  return out.slice(0, count);
}
