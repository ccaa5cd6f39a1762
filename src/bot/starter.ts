/**
 * A starter library (`STARTER_LIBRARY`): subgoals a new server begins with, from a library
 * file under assets/libraries/ — `paper`, the paper's own six (five and the rule of the game).
 * Off by default: the bot of the paper learns from nothing but its losses, and a server
 * watching it learn should see that from the first game.
 *
 * Decisions:
 * - A server's library is seeded when every entry in it came from the starter (none at all,
 *   for a new server) and some starter subgoal is missing: so a seed cut short by a storage
 *   fault is finished on the next read, and a server that has learned anything of its own is
 *   never touched. A reset forgets the starter with the rest, and a reset server, being new
 *   again, gets it back.
 * - A starter subgoal's provenance names the starter, `starter:<name>`, which no game id can
 *   be; the stored record needs a move number, and 1 stands there (no game, no move).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileCached, type Provenance } from '../learning/library.ts';
import { parseLibraryFile } from '../notation/libraryFile.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import type { Collection, Entry } from '../storage/index.ts';
import { subgoalKey, type LearnedRecord } from './records.ts';

export const LIBRARIES_DIR = fileURLToPath(new URL('../../assets/libraries/', import.meta.url));

export interface StarterLibrary {
  readonly name: string;
  readonly subgoals: readonly Subgoal[];
}

/** The starter libraries there are: the names of the files in assets/libraries/. */
export function starterNames(): string[] {
  return readdirSync(LIBRARIES_DIR)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .sort();
}

/** Reads a starter library; throws a TypeError naming STARTER_LIBRARY and what is wrong. */
export function loadStarterLibrary(name: string): StarterLibrary {
  const names = starterNames();
  if (!names.includes(name)) throw new TypeError(`STARTER_LIBRARY must be one of ${names.join(', ')} (or empty for none), not "${name}"`);
  const path = `${LIBRARIES_DIR}${name}.txt`;
  const parsed = parseLibraryFile(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw new TypeError(`STARTER_LIBRARY ${name}: ${path}, line ${parsed.error.line}, column ${parsed.error.column}: ${parsed.error.message}`);
  const subgoals = parsed.value.map((e) => {
    const s = compileCached(e.description);
    if (!s.ok) throw new TypeError(`STARTER_LIBRARY ${name}: ${path}, line ${e.line}: ${s.error.message}`);
    return s.value;
  });
  return { name, subgoals };
}

export function starterProvenance(name: string, at: number): Provenance {
  return { game: `starter:${name}`, move: 1, date: new Date(at).toISOString() };
}

/** The starter's name when a provenance is a starter's, else undefined. */
export function starterOf(p: Provenance | undefined): string | undefined {
  return p !== undefined && p.game.startsWith('starter:') ? p.game.slice('starter:'.length) : undefined;
}

/**
 * The server's library entries as listed, after seeding the starter into it when the server
 * has learned nothing of its own (see the decisions above).
 */
export async function withStarter(library: Collection<LearnedRecord>, starter: StarterLibrary | undefined, listed: Entry<LearnedRecord>[], now: number): Promise<Entry<LearnedRecord>[]> {
  if (starter === undefined || listed.some((e) => starterOf(e.value.provenance) === undefined)) return listed;
  const have = new Set(listed.map((e) => e.value.subgoal.text));
  const out = [...listed];
  for (const subgoal of starter.subgoals) {
    if (have.has(subgoal.text)) continue;
    const key = subgoalKey(subgoal.text);
    const value: LearnedRecord = { subgoal, provenance: starterProvenance(starter.name, now) };
    await library.put(key, value);
    out.push({ key, value });
  }
  return out;
}
