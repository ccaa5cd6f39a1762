import type { Description } from '../../src/notation/description.ts';
import { Library } from '../../src/learning/library.ts';
import { seededRandom } from '../../src/rules/random.ts';
import { randomDescription } from './randomDescription.ts';

/**
 * `n` descriptions with `n` different canonical forms that all compile, always the same ones
 * for the same `n` (seeded): library entries in bulk for the tests of library files, where
 * what matters is that each is a different subgoal, not what it describes.
 */
export function distinctDescriptions(n: number): Description[] {
  const lib = Library.empty();
  const rnd = seededRandom(25);
  while (lib.size < n + 1) lib.add(randomDescription(rnd, { maxNodes: 3 }));
  return lib.entries.slice(1).map((e) => e.subgoal.description);
}
