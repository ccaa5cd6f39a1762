// Reads a library file over and over, as fast as it can, while other processes write it:
// `node --import tsx libraryWatcher.ts FILE FIRST_LINE`. Prints "watching" once it has begun,
// and when a line arrives on standard input, one JSON line: how many reads found the file,
// and every read (the first few) that was not a whole library — it did not start with
// FIRST_LINE (the writer's header), did not end with a newline, did not parse, or held fewer
// entries than a read before it (the file only grows).
import { readFileSync } from 'node:fs';
import { parseLibraryFile } from '../../src/notation/libraryFile.ts';

const [file, firstLine] = [process.argv[2], process.argv[3]];
let stop = false;
process.stdin.on('data', () => void (stop = true));
let reads = 0;
let most = 0;
const bad: string[] = [];
console.log('watching');
while (!stop) {
  for (let i = 0; i < 200; i++) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    reads++;
    const parsed = parseLibraryFile(text);
    const entries = parsed.ok ? parsed.value.length : -1;
    const whole = text.startsWith(`${firstLine}\n`) && text.endsWith('\n') && parsed.ok && entries >= most;
    if (!whole && bad.length < 5) bad.push(`${text.length} chars, ${entries} entries after ${most}: ${JSON.stringify(text.slice(0, 60))}`);
    most = Math.max(most, entries);
  }
  await new Promise((resolve) => setImmediate(resolve));
}
console.log(JSON.stringify({ reads, most, bad }));
