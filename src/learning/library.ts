/**
 * A library of learned subgoals: canonical descriptions with where each was learned
 * (provenance) and how it has fared since (stats), and their compiled control streams.
 *
 * - The rule of the game, `(1) 1:5`, is always the first entry and has no provenance.
 * - Entries are kept in the order they were learned; one entry per canonical form.
 * - Compiled streams are cached by stream format version and canonical text, so a library
 *   read back from storage compiles each subgoal once per process, and a stream saved under
 *   an older format is recompiled rather than trusted.
 * - A library file holds one description a line; provenance is written as a comment line
 *   just before its entry (`# learned from <game>, move <n>, <date>`) and read back from it.
 */
import { canonicalise, canonicalString } from '../notation/canonical.ts';
import { STREAM_FORMAT_VERSION } from '../recognition/controlStream.ts';
import type { Description } from '../notation/description.ts';
import { parseDescription } from '../notation/descriptionNotation.ts';
import { makeLibraryFile, parseLibraryFile, RULE_OF_FIVE, type Provenance } from '../notation/libraryFile.ts';
import { makeListing } from '../notation/listing.ts';
import { compileSubgoal, type Subgoal } from '../recognition/subgoal.ts';
import { err, ok, type Result } from '../rules/result.ts';

export { makeProvenance, parseProvenance, type Provenance } from '../notation/libraryFile.ts';

export interface SubgoalStats {
  /** Games in which one of its realisations was recognised. */
  readonly recognised: number;
  /** Times the player played a node of one of its realisations. */
  readonly played: number;
  /** Of those, how many games the player then won. */
  readonly won: number;
}

export interface LibraryEntry {
  readonly subgoal: Subgoal;
  readonly provenance?: Provenance;
  readonly stats: SubgoalStats;
}

const NO_STATS: SubgoalStats = { recognised: 0, played: 0, won: 0 };

const compiled = new Map<string, Subgoal>();

/** The compiled subgoal of a canonical description, from the cache when it is there. */
export function compileCached(d: Description): Result<Subgoal> {
  const key = `${STREAM_FORMAT_VERSION}|${canonicalString(d)}`;
  const hit = compiled.get(key);
  if (hit !== undefined) return ok(hit);
  const s = compileSubgoal(d);
  if (s.ok) compiled.set(key, s.value);
  return s;
}

function rule(): Subgoal {
  const d = parseDescription(RULE_OF_FIVE);
  if (!d.ok) throw new Error('the rule of five does not parse');
  const s = compileCached(d.value);
  if (!s.ok) throw new Error('the rule of five does not compile');
  return s.value;
}

export class Library {
  private readonly list: LibraryEntry[];
  private readonly byText: Map<string, number>;

  private constructor(list: LibraryEntry[]) {
    this.list = list;
    this.byText = new Map(list.map((e, i) => [e.subgoal.text, i]));
  }

  /** A library holding only the rule of five. */
  static empty(): Library {
    return new Library([{ subgoal: rule(), stats: NO_STATS }]);
  }

  get entries(): readonly LibraryEntry[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  /** The compiled subgoals, the rule of five first: what a recogniser runs. */
  subgoals(): Subgoal[] {
    return this.list.map((e) => e.subgoal);
  }

  has(text: string): boolean {
    return this.byText.has(text);
  }

  get(text: string): LibraryEntry | undefined {
    const i = this.byText.get(text);
    return i === undefined ? undefined : this.list[i];
  }

  /** Adds a subgoal unless its canonical form is there already; true when it was new. */
  add(d: Description | Subgoal, provenance?: Provenance, stats: SubgoalStats = NO_STATS): Result<boolean> {
    const s = 'stream' in d ? ok(d) : compileCached(canonicalise(d));
    if (!s.ok) return s;
    if (this.byText.has(s.value.text)) return ok(false);
    this.byText.set(s.value.text, this.list.length);
    this.list.push({ subgoal: s.value, stats, ...(provenance !== undefined ? { provenance } : {}) });
    return ok(true);
  }

  /**
   * Adds what the walk back through one game taught (each lesson at the winner's move it was
   * learned at, 0-based), with provenance naming `game`; returns how many were new. A lesson
   * that does not compile is not added: it teaches nothing.
   */
  addLessons(lessons: readonly { readonly subgoal: Description | Subgoal; readonly moveIndex: number }[], game: string, date: string): number {
    let added = 0;
    for (const l of lessons) {
      const r = this.add(l.subgoal, { game, move: l.moveIndex + 1, date });
      if (r.ok && r.value) added++;
    }
    return added;
  }

  /** Adds to the stats of a subgoal in the library (unknown texts are ignored). */
  note(text: string, delta: Partial<SubgoalStats>): void {
    const i = this.byText.get(text);
    if (i === undefined) return;
    const e = this.list[i];
    this.list[i] = {
      ...e,
      stats: {
        recognised: e.stats.recognised + (delta.recognised ?? 0),
        played: e.stats.played + (delta.played ?? 0),
        won: e.stats.won + (delta.won ?? 0),
      },
    };
  }

  /** This library's entries, then the other's new ones; stats of shared entries are added up. */
  merge(other: Library): Library {
    const out = new Library(this.list.slice());
    for (const e of other.entries) {
      if (out.has(e.subgoal.text)) out.note(e.subgoal.text, e.stats);
      else out.add(e.subgoal, e.provenance, e.stats);
    }
    return out;
  }

  clone(): Library {
    return new Library(this.list.slice());
  }

  /** The paper's listing: subgoals grouped by node list. */
  listing(): string {
    return makeListing(this.list.map((e) => e.subgoal.description));
  }

  /** A library file: each learned subgoal after a comment line with its provenance. */
  toFile(header: readonly string[] = []): string {
    return makeLibraryFile(
      this.list.map((e) => ({ description: e.subgoal.description, ...(e.provenance !== undefined ? { provenance: e.provenance } : {}) })),
      header,
    );
  }

  /** Reads a library file (see libraryFile.ts); errors name the line and column. */
  static fromFile(text: string): Result<Library> {
    const entries = parseLibraryFile(text);
    if (!entries.ok) return entries;
    const lib = Library.empty();
    for (const e of entries.value) {
      const added = lib.add(e.description, e.provenance);
      if (!added.ok) return err({ ...added.error, line: e.line });
    }
    return ok(lib);
  }
}
