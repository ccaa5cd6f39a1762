import { describe, expect, it } from 'vitest';
import {
  compareSpecs,
  descriptionFault,
  descriptionLines,
  descriptionsEqual,
  lineSpec,
  nodeCount,
  relabel,
  validateDescription,
  withoutComments,
  type Description,
} from '../src/notation/description.ts';
import { makeDescription, parseDescription } from '../src/notation/descriptionNotation.ts';
import { seededRandom } from '../src/rules/random.ts';
import { expectOk } from '../src/rules/result.ts';
import { randomDescription, randomPermutation } from './support/randomDescription.ts';

const parse = (text: string): Description => expectOk(parseDescription(text));
const fig6 = () => parse('(1, 2-1) 4, 3-3:4');
const fig8 = () => parse("(1, 2, 3, 4-1, 3/4-1, 2/4-1, 2/3) 6:3', 2', 2', 2'-2', 1'-2', 1'-2', 1'");

describe('description model', () => {
  it('counts nodes', () => {
    expect(nodeCount(fig6())).toBe(2);
    expect(nodeCount(fig8())).toBe(4);
  });

  it('orders specs stronger first: higher n, then dashed before plain', () => {
    const specs = [lineSpec(3), lineSpec(4), lineSpec(3, true), lineSpec(0), lineSpec(5, true), lineSpec(5)];
    expect(specs.sort(compareSpecs).map((s) => `${s.n}${s.dashed ? "'" : ''}`)).toEqual(["5'", '5', '4', "3'", '3', '0']);
  });

  it('gives the lines of Fig 8 as hyperedges, with each member\'s spec', () => {
    const lines = descriptionLines(fig8());
    expect(lines.map((l) => l.nodes)).toEqual([[1], [1, 2], [1, 3], [1, 4], [2, 3, 4]]);
    expect(lines[4].members).toEqual([
      { node: 2, line: 1, spec: lineSpec(1, true) },
      { node: 3, line: 1, spec: lineSpec(1, true) },
      { node: 4, line: 1, spec: lineSpec(1, true) },
    ]);
    expect(lines[0].members).toEqual([{ node: 1, line: 0, spec: lineSpec(3, true) }]);
  });

  it('gives Fig 6\'s shared line with different specs at its two ends', () => {
    const shared = descriptionLines(fig6()).find((l) => l.nodes.length === 2);
    expect(shared?.members.map((m) => [m.node, m.spec.n])).toEqual([
      [1, 3],
      [2, 4],
    ]);
  });

  it('keeps several lines of one node\'s own apart', () => {
    expect(descriptionLines(parse('(1, 1) 2:4, 4')).map((l) => l.nodes)).toEqual([[1], [1]]);
  });

  it('relabels: old node i becomes perm[i - 1], lines keep their order', () => {
    const d = relabel(fig6(), [2, 1]);
    expect(makeDescription(d)).toBe('(2-2, 1) 3:4-4, 3');
    expect(descriptionsEqual(relabel(d, [2, 1]), fig6())).toBe(true);
    expect(() => relabel(fig6(), [1, 1])).toThrow(RangeError);
  });

  it('relabelling a valid description keeps it valid, and back again gives it back', () => {
    const rnd = seededRandom(3);
    for (let i = 0; i < 200; i++) {
      const d = randomDescription(rnd);
      const perm = randomPermutation(rnd, d.nodes.length);
      const inverse = perm.map((_, i) => perm.indexOf(i + 1) + 1);
      const r = relabel(d, perm);
      expect(validateDescription(r).ok).toBe(true);
      expect(relabel(r, inverse)).toStrictEqual(d);
    }
  });

  it('compares exactly, comments and line order included', () => {
    expect(descriptionsEqual(fig6(), fig6())).toBe(true);
    expect(descriptionsEqual(fig6(), withoutComments(fig6()))).toBe(false);
    expect(descriptionsEqual(fig6(), parse('(2, 1-1) 3, 4-3:4'))).toBe(false);
    expect(descriptionsEqual(fig6(), parse("(1, 2-1) 4, 3-3:4'"))).toBe(false);
  });
});

describe('description model: validation', () => {
  const spec = lineSpec(4);
  const cases: [string, Description, string][] = [
    ['no nodes', { nodes: [] }, 'no-nodes'],
    ['a node without lines', { nodes: [{ lines: [] }] }, 'no-lines'],
    ['a label past the last node', { nodes: [{ lines: [{ others: [2], spec }] }] }, 'unknown-label'],
    ['label 0', { nodes: [{ lines: [{ others: [0], spec }] }] }, 'unknown-label'],
    ['the own label among others', { nodes: [{ lines: [{ others: [1, 2], spec }] }, { lines: [{ others: [1], spec }] }] }, 'own-label-in-entry'],
    ['labels out of order', { nodes: [{ lines: [{ others: [3, 2], spec }] }, { lines: [{ others: [1, 3], spec }] }, { lines: [{ others: [1, 2], spec }] }] }, 'unsorted-labels'],
    ['a repeated label', { nodes: [{ lines: [{ others: [2, 2], spec }] }, { lines: [{ others: [1], spec }] }] }, 'repeated-label'],
    ['two lines through one node', { nodes: [{ lines: [{ others: [2], spec }, { others: [2], spec }] }, { lines: [{ others: [1], spec }] }] }, 'duplicate-line'],
    ['five lines', { nodes: [{ lines: Array.from({ length: 5 }, () => ({ others: [], spec })) }] }, 'too-many-lines'],
    ['a one-sided line', { nodes: [{ lines: [{ others: [2], spec }] }, { lines: [{ others: [], spec }] }] }, 'unmatched-entry'],
    ['n = 6', { nodes: [{ lines: [{ others: [], spec: lineSpec(6) }] }] }, 'pattern-out-of-range'],
    ['n = -1', { nodes: [{ lines: [{ others: [], spec: lineSpec(-1) }] }] }, 'pattern-out-of-range'],
    ['n = 2.5', { nodes: [{ lines: [{ others: [], spec: lineSpec(2.5) }] }] }, 'pattern-out-of-range'],
    ['comment 0', { nodes: [{ lines: [{ others: [], spec }], comment: 0 }] }, 'bad-comment'],
    ['comment 1.5', { nodes: [{ lines: [{ others: [], spec }], comment: 1.5 }] }, 'bad-comment'],
  ];

  it.each(cases)('rejects %s', (_, d, code) => {
    const r = validateDescription(d);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(code);
  });

  it('says where: node, entry and label', () => {
    const d: Description = { nodes: [{ lines: [{ others: [], spec }, { others: [3], spec }] }, { lines: [{ others: [], spec }] }] };
    expect(descriptionFault(d)).toMatchObject({ code: 'unknown-label', part: 'nodes', node: 1, line: 1, label: 3 });
  });

  it('blames a bad label before the disagreement it causes', () => {
    const d: Description = { nodes: [{ lines: [{ others: [2], spec }] }, { lines: [{ others: [9], spec }] }] };
    expect(descriptionFault(d)?.code).toBe('unknown-label');
  });

  it('accepts n from 0 to 5, dashed or not, and the paper\'s examples', () => {
    for (let n = 0; n <= 5; n++) {
      expect(validateDescription({ nodes: [{ lines: [{ others: [], spec: lineSpec(n, n % 2 === 0) }] }] }).ok).toBe(true);
    }
    expect(validateDescription(fig8())).toEqual({ ok: true, value: fig8() });
  });
});
