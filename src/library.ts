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
import { canonicalise, canonicalString } from './canonical.ts';
import { STREAM_FORMAT_VERSION } from './controlStream.ts';
import type { Description } from './description.ts';
import { parseDescription } from './descriptionNotation.ts';
import { RULE_OF_FIVE } from './libraryFile.ts';
import { makeListing } from './listing.ts';
import { compileSubgoal, type Subgoal } from './recognise.ts';
import { err, ok, type Result } from './result.ts';

export interface Provenance {
  /** Which game it came from: a game id or file name. */
  readonly game: string;
  /** 1-based number of the move it was learned at (the winner's move p). */
  readonly move: number;
  /** When: an ISO date (YYYY-MM-DD) or date-time. */
  readonly date: string;
}

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
    const lines = header.map((h) => (h === '' ? '#' : `# ${h}`));
    for (const e of this.list) {
      if (e.subgoal.text === RULE_OF_FIVE) continue;
      if (e.provenance !== undefined) lines.push(`# ${makeProvenance(e.provenance)}`);
      lines.push(e.subgoal.text);
    }
    return `${lines.join('\n')}\n`;
  }

  /**
   * Reads a library file. A comment line `# learned from <game>, move <n>, <date>` gives the
   * provenance of the entry right after it; other comments are skipped. Errors name the line
   * and column.
   */
  static fromFile(text: string): Result<Library> {
    const lib = Library.empty();
    let pending: Provenance | undefined;
    const rows = text.split(/\r?\n/);
    for (let i = 0; i < rows.length; i++) {
      const raw = rows[i];
      const trimmed = raw.trim();
      if (trimmed === '') continue;
      if (trimmed.startsWith('#')) {
        pending = parseProvenance(trimmed.slice(1).trim()) ?? pending;
        continue;
      }
      const d = parseDescription(trimmed);
      if (!d.ok) {
        const lead = raw.length - raw.trimStart().length;
        return err({ ...d.error, line: i + 1, column: lead + (d.error.index ?? 0) + 1, index: undefined });
      }
      const added = lib.add(d.value, pending);
      if (!added.ok) return err({ ...added.error, line: i + 1, column: lead(raw) + 1 });
      pending = undefined;
    }
    return ok(lib);
  }
}

function lead(raw: string): number {
  return raw.length - raw.trimStart().length;
}

export function makeProvenance(p: Provenance): string {
  return `learned from ${p.game}, move ${p.move}, ${p.date}`;
}

const PROVENANCE = /^learned from (.+), move (\d+), (\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?)$/;

export function parseProvenance(text: string): Provenance | undefined {
  const m = PROVENANCE.exec(text);
  return m === null ? undefined : { game: m[1], move: Number(m[2]), date: m[3] };
}
