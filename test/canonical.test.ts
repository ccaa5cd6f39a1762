import { describe, expect, it } from 'vitest';
import {
  automorphisms,
  canonicalise,
  canonicalLabelling,
  canonicalString,
  sameSubgoal,
} from '../src/notation/canonical.ts';
import {
  makeSpec,
  relabel,
  validateDescription,
  withoutComments,
  type Description,
  type LineSpec,
  type NodeLine,
} from '../src/notation/description.ts';
import { makeDescription, makeNodeList, parseDescription } from '../src/notation/descriptionNotation.ts';
import { seededRandom, type Random } from '../src/rules/random.ts';
import { expectOk } from '../src/rules/result.ts';
import { goldenCases } from './support/descriptionFixtures.ts';
import { randomDescription, randomPermutation } from './support/randomDescription.ts';

const paper = goldenCases('descriptions/paper.txt');
const variants = goldenCases('descriptions/variants.txt');
const parse = (text: string): Description => expectOk(parseDescription(text));

// ---- A slow, obviously-correct reference: try every labelling. -------------------------

function permutations(k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (const rest of permutations(k - 1)) {
    for (let at = 0; at <= rest.length; at++) out.push([...rest.slice(0, at), k, ...rest.slice(at)]);
  }
  return out;
}

/** The structure as a string that ignores line order within nodes. */
function structureKey(d: Description): string {
  return d.nodes
    .map((node) =>
      node.lines
        .map((l) => `${l.others.join('/')}#${makeSpec(l.spec)}`)
        .sort()
        .join(' '),
    )
    .join(' | ');
}

/** Tokens of a printed node list: numbers, and '/' < ',' < '-' below them. */
function nodeListTokens(nodeList: string): number[] {
  const punctuation: Record<string, number> = { '/': -3, ',': -2, '-': -1 };
  return [...nodeList.matchAll(/\d+|[/,-]/g)].map((m) => punctuation[m[0]] ?? Number(m[0]));
}

const strength = (s: LineSpec): number[] => [-s.n, s.dashed ? 0 : 1];

function lexicographic(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function sortLinesWithinNodes(d: Description): Description {
  return {
    nodes: d.nodes.map((node, i) => {
      const names = (l: NodeLine) => (l.others.length === 0 ? [i + 1] : l.others);
      const lines = node.lines
        .slice()
        .sort((a, b) => lexicographic(names(a), names(b)) || lexicographic(strength(a.spec), strength(b.spec)));
      return { ...node, lines };
    }),
  };
}

function bruteAutomorphisms(d: Description): number[][] {
  const plain = withoutComments(d);
  const key = structureKey(plain);
  return permutations(d.nodes.length)
    .filter((p) => structureKey(relabel(plain, p)) === key)
    .sort(lexicographic);
}

function bruteCanonical(d: Description): string {
  const autos = bruteAutomorphisms(d);
  const nodes = d.nodes.map((node, v) => {
    const orbit = autos.map((p) => p[v] - 1);
    const comments = orbit.map((w) => d.nodes[w].comment).filter((c): c is number => c !== undefined);
    return comments.length === 0 ? { lines: node.lines } : { lines: node.lines, comment: Math.min(...comments) };
  });
  let best: { d: Description; nodes: number[]; patterns: number[] } | undefined;
  for (const p of permutations(d.nodes.length)) {
    const candidate = sortLinesWithinNodes(relabel({ nodes }, p));
    const tokens = nodeListTokens(makeNodeList(candidate));
    const patterns = candidate.nodes.flatMap((node) => node.lines.flatMap((l) => strength(l.spec)));
    const c = best === undefined ? -1 : lexicographic(tokens, best.nodes) || lexicographic(patterns, best.patterns);
    if (c < 0) best = { d: candidate, nodes: tokens, patterns };
  }
  return makeDescription(best!.d);
}

// ---- Hand-made structures, for symmetry and size. ---------------------------------------

/** A description from its lines as lists of 1-based nodes; `spec` picks each member's spec. */
function fromLines(k: number, lines: number[][], spec: (node: number, line: number) => LineSpec): Description {
  return {
    nodes: Array.from({ length: k }, (_, v) => ({
      lines: lines.flatMap((members, l) =>
        members.includes(v + 1) ? [{ others: members.filter((w) => w !== v + 1), spec: spec(v + 1, l) }] : [],
      ),
    })),
  };
}

const plainSpec = (n: number): LineSpec => ({ n, dashed: false });

function shuffleLines(rnd: Random, d: Description): Description {
  return { nodes: d.nodes.map((node) => ({ ...node, lines: rnd.shuffle(node.lines) })) };
}

// ---------------------------------------------------------------------------------------

describe('canonical form: the paper', () => {
  it.each(paper)('$note is canonical as the paper prints it', ({ input, canonical }) => {
    expect(canonicalString(parse(input))).toBe(canonical);
  });

  it.each(variants)('line $line: $note', ({ input, canonical }) => {
    expect(canonicalString(parse(input))).toBe(canonical);
  });

  it('puts the node with more lines first in Fig 6, not the commented one', () => {
    const d = canonicalise(parse('(2-1, 2) 3:4-3, 4'));
    expect(d.nodes[0].comment).toBeUndefined();
    expect(d.nodes[1].comment).toBe(3);
  });

  it('agrees with trying every labelling on the paper and its variants', () => {
    for (const c of [...paper, ...variants]) expect(bruteCanonical(parse(c.input))).toBe(c.canonical);
  });
});

describe('canonical form: symmetry', () => {
  it('finds the swap of Fig 5, the identity alone for Fig 6, and the six of Fig 8', () => {
    expect(automorphisms(parse("(1, 2-1, 2) 4:3', 2'-4:2', 3'"))).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(automorphisms(parse('(1, 2-1) 4, 3-3:4'))).toEqual([[1, 2]]);
    const fig8 = automorphisms(parse(paper[6].input));
    expect(fig8).toHaveLength(6);
    expect(fig8.every((p) => p[0] === 1)).toBe(true);
  });

  it('judges symmetry on specs too: a different spec breaks it', () => {
    expect(automorphisms(parse("(1, 2-1, 2) 3', 2'-2', 2'"))).toEqual([[1, 2]]);
    expect(canonicalString(parse("(1, 2-1, 2) 3', 2'-4:2', 2'"))).toBe("(1, 2-1, 2) 3', 2'-4:2', 2'");
  });

  it('agrees with brute force on random descriptions', () => {
    const rnd = seededRandom(5);
    for (let i = 0; i < 200; i++) {
      const d = randomDescription(rnd, { maxNodes: 6 });
      expect(automorphisms(d), makeDescription(d)).toEqual(bruteAutomorphisms(d));
    }
  });
});

describe('canonical form: properties', () => {
  const rnd = seededRandom(1968);
  const samples = Array.from({ length: 300 }, () => randomDescription(rnd, { maxNodes: 6 }));

  it('every sample is valid', () => {
    for (const d of samples) expect(validateDescription(d).ok, makeDescription(d)).toBe(true);
  });

  it('is the least labelling, found by trying them all', () => {
    for (const d of samples) expect(canonicalString(d), makeDescription(d)).toBe(bruteCanonical(d));
  });

  it('gives one string for every relabelling and line order', () => {
    const r = seededRandom(99);
    for (const d of samples) {
      const expected = canonicalString(d);
      for (let t = 0; t < 3; t++) {
        const other = shuffleLines(r, relabel(d, randomPermutation(r, d.nodes.length)));
        expect(canonicalString(other), makeDescription(other)).toBe(expected);
        expect(sameSubgoal(other, d)).toBe(true);
      }
    }
  });

  it('is idempotent, valid, and parses back from its string', () => {
    for (const d of samples) {
      const c = canonicalise(d);
      expect(validateDescription(c).ok).toBe(true);
      expect(canonicalise(c)).toStrictEqual(c);
      expect(parseDescription(makeDescription(c))).toStrictEqual({ ok: true, value: c });
    }
  });

  it('canonicalLabelling is the relabelling canonicalise uses', () => {
    for (const d of samples.slice(0, 50)) {
      const renamed = relabel(withoutComments(d), canonicalLabelling(d));
      expect(structureKey(renamed)).toBe(structureKey(withoutComments(canonicalise(d))));
    }
  });

  it('does not mix up subgoals that differ', () => {
    expect(sameSubgoal(parse('(1, 2-1) 4, 3-3:4'), parse('(1, 2-1) 4, 3-4:4'))).toBe(false);
    expect(sameSubgoal(parse("(1) 2:4'"), parse('(1) 2:4'))).toBe(false);
    expect(sameSubgoal(parse('(1) 2:4'), parse('(1) 4'))).toBe(false);
  });
});

describe('canonical form: larger and very symmetric descriptions stay quick', () => {
  const ring = (k: number): number[][] => Array.from({ length: k }, (_, i) => [i + 1, ((i + 1) % k) + 1]);
  const grid: number[][] = [
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
    [1, 4, 7],
    [2, 5, 8],
    [3, 6, 9],
  ];
  const cases: [string, Description][] = [
    ['8 lone nodes, all alike', fromLines(8, ring(8).map((_, i) => [i + 1]), () => plainSpec(5))],
    ['8 lone nodes, all different', fromLines(8, ring(8).map((_, i) => [i + 1]), (v) => ({ n: v % 6, dashed: v > 5 }))],
    ['a ring of 8', fromLines(8, ring(8), () => plainSpec(3))],
    ['a ring of 10 with specs', fromLines(10, ring(10), (v, l) => plainSpec((v * 7 + l) % 6))],
    ['a 3×3 grid', fromLines(9, grid, () => ({ n: 2, dashed: true }))],
    ['four copies of Fig 6', fromLines(8, [[1], [1, 2], [3], [3, 4], [5], [5, 6], [7], [7, 8]], (v, l) => plainSpec(l % 2 === 0 || v % 2 === 0 ? 4 : 3))],
    ['two copies of Fig 8', fromLines(8, [[1], [1, 2], [1, 3], [1, 4], [2, 3, 4], [5], [5, 6], [5, 7], [5, 8], [6, 7, 8]], () => ({ n: 2, dashed: true }))],
    ['a star of four lines of three', fromLines(13, [[1, 2, 3, 4], [1, 5, 6, 7], [1, 8, 9, 10], [1, 11, 12, 13]], (v) => plainSpec(1 + (v % 4)))],
  ];

  it.each(cases)('%s', (_, d) => {
    expect(validateDescription(d).ok).toBe(true);
    const started = performance.now();
    const expected = canonicalString(d);
    const rnd = seededRandom(d.nodes.length);
    for (let t = 0; t < 5; t++) {
      expect(canonicalString(shuffleLines(rnd, relabel(d, randomPermutation(rnd, d.nodes.length))))).toBe(expected);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('handles random descriptions of 8 to 12 nodes', () => {
    const rnd = seededRandom(12);
    const started = performance.now();
    for (let i = 0; i < 60; i++) {
      const d = randomDescription(rnd, { minNodes: 8, maxNodes: 12 });
      const expected = canonicalString(d);
      expect(canonicalString(relabel(d, randomPermutation(rnd, d.nodes.length)))).toBe(expected);
    }
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('matches brute force on the 8-node cases that are cheap enough to try (8! labellings)', () => {
    const d = cases[5][1];
    expect(canonicalString(d)).toBe(bruteCanonical(d));
  });
});
