/**
 * The balanced openings the match tools play from, as files in assets/openings/: each is
 * `generateOpenings(seed, count, size)` (src/gomocup/match.ts) written one opening a line, so a match
 * can be replayed, read or run with `gomoku match --openings assets/openings/<name>.txt` without
 * knowing the seed. The tools still call the generator; a test checks each file is exactly
 * what it gives (generated openings of one seed are a prefix of the longer list, so a run that
 * needs fewer uses the first lines). `npx tsx bench/writeOpenings.ts` writes them again.
 */
import { generateOpenings, makeOpenings } from '../src/gomocup/match.ts';

export interface OpeningSet {
  readonly name: string;
  readonly seed: number;
  readonly count: number;
  readonly size: number;
  /** Who plays from it. */
  readonly usedBy: string;
}

export const OPENING_SETS: readonly OpeningSet[] = [
  { name: 'matches-15', seed: 15, count: 10, size: 15, usedBy: 'npm run match: every 15×15 match (--match-games 20 uses all 10)' },
  { name: 'matches-19', seed: 19, count: 10, size: 19, usedBy: 'npm run match: every 19×19 match (--match-games 20 uses all 10)' },
  { name: 'curve-19', seed: 2026, count: 150, size: 19, usedBy: 'npm run match: the 300-game learning curve; bench/learnedLibrary.ts goes on past them' },
  { name: 'eval-19', seed: 4242, count: 80, size: 19, usedBy: 'npm run match: the frozen libraries after the curve (--eval-games 160)' },
  { name: 'repeats-19', seed: 2525, count: 10, size: 19, usedBy: 'bench/repeats.ts: a pass (--openings 10)' },
  { name: 'movetime-19', seed: 1968, count: 3, size: 19, usedBy: 'the player suite of npm run bench: move times' },
  { name: 'default-15', seed: 1, count: 50, size: 15, usedBy: 'gomoku match --size 15 without --openings or --seed (100 games)' },
  { name: 'default-19', seed: 1, count: 50, size: 19, usedBy: 'gomoku match without --openings or --seed (100 games)' },
];

/** The file of a set: a header naming the generator call and who uses it, then the openings. */
export function openingsFile(set: OpeningSet): string {
  const header = [
    `# generateOpenings(${set.seed}, ${set.count}, ${set.size}) (src/gomocup/match.ts): ${set.count} balanced openings on ${set.size}×${set.size},`,
    '# one a line, black first; each is played twice, the colours swapped.',
    `# Used by ${set.usedBy}.`,
    '# Written by npx tsx bench/writeOpenings.ts; a test checks it is what the generator gives.',
  ];
  return `${header.join('\n')}\n${makeOpenings(generateOpenings(set.seed, set.count, set.size), set.size)}`;
}
