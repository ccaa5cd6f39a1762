// One learner in a process of its own, for the tests of a library file shared between
// processes: `node --import tsx saveLearnedChild.ts FILE INDEX COUNT`. It waits for a line on
// standard input (so that several start writing together), then saves subgoals
// INDEX*COUNT .. INDEX*COUNT+COUNT-1 of `distinctDescriptions` one by one, each in its own
// read-merge-write of FILE, and prints "done", or "failed: <problem>" and exits 1.
import { createInterface } from 'node:readline';
import { saveLearned } from '../../src/cli/learnedLibrary.ts';
import { Library } from '../../src/learning/library.ts';
import { describeProblem } from '../../src/rules/result.ts';
import { distinctDescriptions } from './distinctSubgoals.ts';

const [file, index, count] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const mine = distinctDescriptions((index + 1) * count).slice(index * count);
const input = createInterface({ input: process.stdin });
await input[Symbol.asyncIterator]().next();
input.close();
let library = Library.empty();
for (const [i, d] of mine.entries()) {
  library.add(d, { game: `child-${index}-${i}`, move: 1, date: '2026-11-21' });
  const saved = await saveLearned(file, library, ['written by saveLearnedChild']);
  if (!saved.ok) {
    console.log(`failed: ${describeProblem(saved.error)}`);
    process.exit(1);
  }
  library = saved.value;
}
console.log('done');
