/** Writes assets/openings/ again from the generator (bench/openings.ts): `npx tsx bench/writeOpenings.ts`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { OPENING_SETS, openingsFile } from './openings.ts';

const dir = new URL('../assets/openings/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const set of OPENING_SETS) {
  writeFileSync(new URL(`${set.name}.txt`, dir), openingsFile(set));
  process.stdout.write(`assets/openings/${set.name}.txt: ${set.count} openings, ${set.size}×${set.size}, seed ${set.seed}\n`);
}
