import { describe, expect, it } from 'vitest';
import type { Description } from '../src/notation/description.ts';
import {
  makeDescription,
  makeNodeList,
  makePatternList,
  parseDescription,
  parseDescriptionSyntax,
} from '../src/notation/descriptionNotation.ts';
import { seededRandom } from '../src/rules/random.ts';
import { expectOk } from '../src/rules/result.ts';
import { goldenCases, malformedCases } from './support/descriptionFixtures.ts';
import { randomDescription } from './support/randomDescription.ts';

const paper = goldenCases('descriptions/paper.txt');
const malformed = malformedCases('descriptions/malformed.txt');

describe('description notation: the paper', () => {
  it('has the seven examples in its fixture', () => {
    expect(paper.map((c) => c.note.split(/[,:]/)[0])).toEqual([
      'Fig 1',
      'Fig 2',
      'Fig 3',
      'Fig 4',
      'Fig 5',
      'Fig 6',
      'Fig 8',
    ]);
  });

  it.each(paper)('parses and prints $note (line $line)', ({ input, canonical }) => {
    const d = expectOk(parseDescription(input));
    // The paper's listing already has our spacing; Fig 8 prints with it too.
    expect(makeDescription(d)).toBe(canonical);
    expect(parseDescription(makeDescription(d))).toEqual({ ok: true, value: d });
  });

  it('reads Fig 6 as node 1 with an own line and a line to node 2, node 2 commented', () => {
    const d = expectOk(parseDescription('(1, 2-1) 4, 3-3:4'));
    expect(d).toStrictEqual({
      nodes: [
        {
          lines: [
            { others: [], spec: { n: 4, dashed: false } },
            { others: [2], spec: { n: 3, dashed: false } },
          ],
        },
        { lines: [{ others: [1], spec: { n: 4, dashed: false } }], comment: 3 },
      ],
    });
  });

  it('reads Fig 8: node 2 is on a line with nodes 3 and 4, node 1 on four lines', () => {
    const d = expectOk(parseDescription(paper[6].input));
    expect(d.nodes.map((n) => n.lines.map((l) => l.others))).toEqual([
      [[], [2], [3], [4]],
      [[1], [3, 4]],
      [[1], [2, 4]],
      [[1], [2, 3]],
    ]);
    expect(d.nodes.map((n) => n.comment)).toEqual([6, undefined, undefined, undefined]);
    expect(d.nodes[1].lines[1].spec).toEqual({ n: 1, dashed: true });
  });
});

describe('description notation: the written form', () => {
  it('allows whitespace between any two tokens, and none', () => {
    const tight = expectOk(parseDescription("(1,2-1,2)4:3',2'-4:2',3'"));
    const loose = expectOk(parseDescription(" ( 1 , 2 - 1 , 2 ) 4 : 3 ' , 2 ' - 4 : 2 ' , 3 '\t\n"));
    expect(loose).toEqual(tight);
    expect(makeDescription(loose)).toBe("(1, 2-1, 2) 4:3', 2'-4:2', 3'");
  });

  it('takes a typographic prime for the dash', () => {
    expect(makeDescription(expectOk(parseDescription('(1) 2:4\u2019')))).toBe("(1) 2:4'");
    expect(makeDescription(expectOk(parseDescription('(1) 2:4\u2032')))).toBe("(1) 2:4'");
  });

  it('accepts the labels of an entry in any order and keeps them ascending', () => {
    const d = expectOk(parseDescription("(1, 3/2-1/3-2/1) 5, 1'-1'-1'"));
    expect(d.nodes[0].lines[1].others).toEqual([2, 3]);
    expect(makeNodeList(d)).toBe('(1, 2/3-1/3-1/2)');
  });

  it('accepts n = 0 (it parses, though no board realises it) and several own lines', () => {
    const d = expectOk(parseDescription('(1, 1, 1, 1) 0, 0, 5, 1'));
    expect(d.nodes[0].lines).toHaveLength(4);
    expect(makePatternList(d)).toBe('0, 0, 5, 1');
  });

  it('keeps line order and an absent comment as written', () => {
    const d = expectOk(parseDescription('(2, 1-1) 3, 4-3:4'));
    expect(d.nodes[0].lines.map((l) => l.others)).toEqual([[2], []]);
    expect('comment' in d.nodes[0]).toBe(false);
    expect(makeDescription(d)).toBe('(2, 1-1) 3, 4-3:4');
  });

  it('gives a syntax tree with spans into the source', () => {
    const text = "(1, 2-1)  4, 3-3:4'";
    const tree = expectOk(parseDescriptionSyntax(text));
    expect(tree.nodeList).toMatchObject({ start: 0, end: 8 });
    expect(tree.nodeList.elements[0].entries[1]).toMatchObject({ start: 4, end: 5 });
    const second = tree.patternList.elements[1];
    expect(second.comment).toMatchObject({ start: 15, end: 16, value: 3 });
    expect(second.specs[0]).toMatchObject({ start: 17, end: 19, n: 4, dashed: true });
    expect(text.slice(second.start, second.end)).toBe("3:4'");
  });
});

describe('description notation: malformed input', () => {
  it.each(malformed)('line $line: $code at $index for "$input"', ({ input, code, index }) => {
    const r = parseDescription(input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(r.error.index).toBe(index);
    expect(r.error.message.length).toBeGreaterThan(10);
  });

  it('says what was expected and what was found', () => {
    const r = parseDescription('(1 x) 1:5');
    expect(r).toEqual({
      ok: false,
      error: { code: 'syntax', message: "expected '/' or ',' or '-' or ')' but found 'x'", index: 3 },
    });
    const end = parseDescription('(1, 2-1)');
    expect(!end.ok && end.error.message).toBe('expected a pattern (0 to 5) or a comment but found end of input');
  });

  it('shows what was found as input is shown: an escape named, not sent to the terminal; an emoji whole', () => {
    const escape = parseDescription('(1) 1:5 \u001b[31mred');
    expect(!escape.ok && escape.error.message).toBe("expected ',' or '-' or end of input but found '\\u001b'");
    const huge = parseDescription('(1) 99999999999999999999');
    expect(!huge.ok && huge.error.message).toBe('pattern of more than 15 digits is out of range: n runs from 0 to 5');
    const hugeComment = parseDescription('(1) 99999999999999999999:5');
    expect(!hugeComment.ok && hugeComment.error.message).toBe("node 1's comment of more than 15 digits is not a number of moves (1 or more)");
    const emoji = parseDescription('(😀) 1:5');
    expect(!emoji.ok && emoji.error.message).toMatch(/found '😀'$/);
  });

  it('names the disagreeing entries', () => {
    const r = parseDescription('(1, 2-2) 4, 3-3:4');
    expect(!r.ok && r.error.message).toBe('node 1 names 2 on a line, but node 2 has no entry 1');
  });

  it('never throws, whatever the input', () => {
    const rnd = seededRandom(20260101);
    const alphabet = "()0123456789,-/:' x\u2019";
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: rnd.int(24) }, () => rnd.pick([...alphabet])).join('');
      const r = parseDescription(text);
      if (!r.ok) {
        expect(r.error.index).toBeGreaterThanOrEqual(0);
        expect(r.error.index).toBeLessThanOrEqual(text.length);
      }
    }
  });

  it('never throws on mutations of valid descriptions, and positions stay in the text', () => {
    const rnd = seededRandom(7);
    const pieces = ['(', ')', ',', '-', '/', ':', "'", '9', '0', ' '];
    for (let i = 0; i < 500; i++) {
      const text = makeDescription(randomDescription(rnd));
      const at = rnd.int(text.length + 1);
      const cut = rnd.int(3);
      const mutated = text.slice(0, at) + (rnd.next() < 0.7 ? rnd.pick(pieces) : '') + text.slice(at + cut);
      const r = parseDescription(mutated);
      if (!r.ok) expect(r.error.index).toBeLessThanOrEqual(mutated.length);
    }
  });
});

describe('description notation: round trip', () => {
  it('parse(print(d)) is d for a few hundred random valid descriptions', () => {
    const rnd = seededRandom(1968);
    for (let i = 0; i < 400; i++) {
      const d: Description = randomDescription(rnd);
      const text = makeDescription(d);
      expect(parseDescription(text), text).toStrictEqual({ ok: true, value: d });
    }
  });
});
