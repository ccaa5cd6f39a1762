/**
 * Library files: one subgoal description a line in the paper's written notation; blank lines
 * and lines starting with `#` are comments. A comment line `# learned from <game>, move <n>,
 * <date>` just before an entry is that entry's provenance.
 *
 *     # learned on this server
 *     # learned from game-12, move 31, 2026-11-21
 *     (1) 2:4'
 *     (1, 1) 3:3', 3'
 *
 * The rule of the game, `(1) 1:5`, is built into every library (src/learning/library.ts) whether or not
 * its file names it, and is not written out.
 */
import { canonicalString } from './canonical.ts';
import type { Description } from './description.ts';
import { parseDescription } from './descriptionNotation.ts';
import { err, ok, type Result } from '../rules/result.ts';
import { oneLine, splitLines } from '../rules/textLines.ts';

export const RULE_OF_FIVE = '(1) 1:5';

export interface Provenance {
  /** Which game it came from: a game id or file name. */
  readonly game: string;
  /** 1-based number of the move it was learned at (the winner's move p). */
  readonly move: number;
  /** When: an ISO date (YYYY-MM-DD) or date-time. */
  readonly date: string;
}

export interface LibraryFileEntry {
  /** 1-based line of the file the description stood on. */
  readonly line: number;
  readonly description: Description;
  readonly provenance?: Provenance;
}

export function makeProvenance(p: Provenance): string {
  return `learned from ${oneLine(p.game)}, move ${p.move}, ${p.date}`;
}

const PROVENANCE = /^learned from (.+), move (\d+), (\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?)$/;

export function parseProvenance(text: string): Provenance | undefined {
  const m = PROVENANCE.exec(text);
  return m === null ? undefined : { game: m[1], move: Number(m[2]), date: m[3] };
}

/** Parses a library file; a bad description is an error naming its line and column. */
export function parseLibraryFile(text: string): Result<LibraryFileEntry[]> {
  const out: LibraryFileEntry[] = [];
  const rows = splitLines(text);
  let pending: Provenance | undefined;
  for (let i = 0; i < rows.length; i++) {
    const raw = rows[i];
    const trimmed = raw.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      pending = parseProvenance(trimmed.slice(1).trim()) ?? pending;
      continue;
    }
    const lead = raw.length - raw.trimStart().length;
    const d = parseDescription(trimmed);
    if (!d.ok) {
      const column = lead + (d.error.index ?? 0) + 1;
      return err({ ...d.error, line: i + 1, column, index: undefined });
    }
    out.push({ line: i + 1, description: d.value, ...(pending !== undefined ? { provenance: pending } : {}) });
    pending = undefined;
  }
  return ok(out);
}

/**
 * Prints entries one a line in canonical form, each after its provenance comment, after
 * optional header comment lines. The rule of five is left out: every library holds it.
 */
export function makeLibraryFile(entries: readonly { description: Description; provenance?: Provenance }[], header: readonly string[] = []): string {
  const lines = header.map((h) => (h === '' ? '#' : `# ${oneLine(h)}`));
  for (const e of entries) {
    const text = canonicalString(e.description);
    if (text === RULE_OF_FIVE) continue;
    if (e.provenance !== undefined) lines.push(`# ${makeProvenance(e.provenance)}`);
    lines.push(text);
  }
  return `${lines.join('\n')}\n`;
}
