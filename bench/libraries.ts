/**
 * Benchmark libraries of 10, 100 and 1000 subgoals, made by a documented generator (a
 * learning program needs many lost games to grow a library this large, so the benchmark
 * builds one the way synthesis does, on descriptions alone):
 *
 * - the pool starts with the paper's six canonical subgoals;
 * - from the seed, pick pool members and unite them through a new node p, as the paper's
 *   synthesis unites downgraded realisations through the move that created them: p joins one
 *   line of each member, every spec on a joined line drops by one (the stone at p is
 *   "unplayed"), a node whose only line that was becomes implicit — its pattern moves onto
 *   p — and p's comment is one more than the largest of the members' comments;
 * - the result is canonicalised and kept when its comment-free form is new, it compiles, and
 *   it has at most four nodes (the paper's largest example has four); earlier (smaller) pool
 *   members are picked more often.
 *
 * Unions of two members through one line each run dry after about 150 subgoals, so the
 * generator widens in stages, each time 2000 tries in a row have given nothing new:
 *
 * 1. two members, p on one line of each (the first 100 subgoals all come from this stage);
 * 2. also three members (three in ten unions), and p on two lines of one member (each member
 *    independently, three times in ten) — a stone that lay on two lines of a realisation, so
 *    that unplaying it downgrades both. The two lines must share no node, as two board lines
 *    through p meet nowhere else;
 * 3. as stage 2, with up to five nodes.
 *
 * Such subgoals are conjunctions of threats, so, as with learned ones, their realisations are
 * rare on a board. benchLibrary(1000) takes a few seconds; the libraries are nested (the
 * first n subgoals of a larger library are the library of n).
 */
import { canonicalString } from '../src/notation/canonical.ts';
import { descriptionLines, validateDescription, withoutComments, type Description, type LineSpec } from '../src/notation/description.ts';
import { parseDescription } from '../src/notation/descriptionNotation.ts';
import { seededRandom, type Random } from '../src/rules/random.ts';
import { compileSubgoal, type Subgoal } from '../src/recognition/subgoal.ts';
import { expectOk } from '../src/rules/result.ts';

export const PAPER_SUBGOALS = [
  '(1) 1:5',
  "(1) 2:4'",
  '(1, 1) 2:4, 4',
  "(1, 1) 3:3', 3'",
  '(1, 2-1) 4, 3-3:4',
  "(1, 2-1, 2) 4:3', 2'-4:2', 3'",
];

/** Tries in a row without a new subgoal after which the generator widens to its next stage. */
const STALL = 2000;

interface Member {
  node: number;
  spec: LineSpec;
}

interface Hyper {
  /** Members of each line: node id and spec. */
  lines: Member[][];
  comments: Map<number, number>;
  nodes: number;
}

function toHyper(d: Description): Hyper {
  const lines: Member[][] = descriptionLines(d).map((l) => l.members.map((m) => ({ node: m.node, spec: m.spec })));
  const comments = new Map<number, number>();
  d.nodes.forEach((n, i) => n.comment !== undefined && comments.set(i + 1, n.comment));
  return { lines, comments, nodes: d.nodes.length };
}

function maxComment(h: Hyper): number {
  return Math.max(1, ...h.comments.values());
}

/**
 * The members `parts` united through a new node p, as described above; `joins[i]` (1 or 2) is
 * how many lines of member i p joins, drawn from `rnd`. Undefined when it cannot be done or
 * the result has more than `maxNodes` nodes.
 */
export function compose(parts: readonly Description[], rnd: Random, joins: readonly number[] = parts.map(() => 1), maxNodes = 4): Description | undefined {
  const hypers = parts.map(toHyper);
  const lines: Member[][] = [];
  let next = 1;
  const p = 0; // renumbered below
  const pLines: number[] = [];
  for (let h = 0; h < hypers.length; h++) {
    const hyper = hypers[h];
    const offset = next - 1;
    next += hyper.nodes;
    const first = rnd.int(hyper.lines.length);
    let second = -1;
    if (joins[h] === 2) {
      if (hyper.lines.length < 2) return undefined;
      const x = rnd.int(hyper.lines.length - 1);
      second = x >= first ? x + 1 : x;
    }
    for (let i = 0; i < hyper.lines.length; i++) {
      const members = hyper.lines[i].map((m) => ({ node: m.node + offset, spec: m.spec }));
      if (i !== first && i !== second) {
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
  if (order.length > maxNodes) return undefined;
  const label = new Map(order.map((n, i) => [n, i + 1]));
  const comment = 1 + Math.max(...hypers.map(maxComment));
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
  let stage = 1;
  let lastNew = 0;
  for (let tries = 0; out.length < count && tries < 200 * count; tries++) {
    if (tries - lastNew > STALL && stage < 3) {
      stage++;
      lastNew = tries;
    }
    // Earlier (smaller) members are picked more often, as simple subgoals are learned first
    // and built on most.
    const early = () => out[Math.floor(out.length * rnd.next() ** 2)].description;
    let d: Description | undefined;
    if (stage === 1) {
      d = compose([early(), early()], rnd);
    } else {
      const parts = Array.from({ length: rnd.next() < 0.3 ? 3 : 2 }, early);
      const joins = parts.map(() => (rnd.next() < 0.3 ? 2 : 1));
      d = compose(parts, rnd, joins, stage === 3 ? 5 : 4);
    }
    if (d === undefined) continue;
    // The comment-free canonical form does not depend on comments, so it can be checked
    // before the (dearer) compilation.
    const bare = canonicalString(withoutComments(d));
    if (seen.has(bare)) continue;
    const s = compileSubgoal(d);
    if (!s.ok) continue;
    seen.add(bare);
    out.push(s.value);
    lastNew = tries;
  }
  return out.slice(0, count);
}
