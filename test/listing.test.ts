import { describe, expect, it } from 'vitest';
import type { Description } from '../src/notation/description.ts';
import { parseDescription } from '../src/notation/descriptionNotation.ts';
import { makeListing } from '../src/notation/listing.ts';
import { seededRandom } from '../src/rules/random.ts';
import { expectOk } from '../src/rules/result.ts';
import { goldenCases } from './support/descriptionFixtures.ts';

const parse = (text: string): Description => expectOk(parseDescription(text));

// The canonical listing of Murray & Elcock (1968), "A formal notation for descriptions",
// with the second member of each group aligned under the first one's pattern list.
const PAPER_LISTING = [
  '(1) 1:5',
  "    2:4'",
  '(1, 1) 2:4, 4',
  "       3:3', 3'",
  '(1, 2-1) 4, 3-3:4',
  "(1, 2-1, 2) 4:3', 2'-4:2', 3'",
].join('\n');

const listed = goldenCases('descriptions/paper.txt').filter((c) => !c.note.startsWith('Fig 8'));

describe('listing', () => {
  it('prints the paper\'s six subgoals as the paper lists them, from any input order', () => {
    const rnd = seededRandom(84);
    for (let t = 0; t < 10; t++) {
      const inputs = rnd.shuffle(listed).map((c) => parse(c.input));
      expect(makeListing(inputs)).toBe(PAPER_LISTING);
    }
  });

  it('lists relabelled variants under their canonical form and drops duplicates', () => {
    const inputs = ['(2-1, 2) 3:4-3, 4', '(1, 2-1) 4, 3-3:4', "(1)2:4'", '(1) 1:5', "(1, 1) 3:3', 3'", '(1,1) 2:4,4', "(1, 2-1, 2) 3', 2'-4:2', 3'"];
    expect(makeListing(inputs.map(parse))).toBe(PAPER_LISTING);
  });

  it('puts uncommented subgoals after commented ones, groups by node count then node list', () => {
    const listing = makeListing(['(1-2) 5-5', '(1) 5', '(1) 3:3', "(1) 2:4'", '(1, 2-1) 4, 3-3:4'].map(parse));
    // With two nodes each, "(1, 2-1)" comes before "(1-2)": ',' < '-'.
    expect(listing.split('\n')).toEqual(["(1) 2:4'", '    3:3', '    5', '(1, 2-1) 4, 3-3:4', '(1-2) 5-5']);
  });

  it('is empty for no subgoals', () => {
    expect(makeListing([])).toBe('');
  });
});
