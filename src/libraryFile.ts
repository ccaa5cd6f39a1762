/**
 * Library files: one subgoal description a line in the paper's written notation; blank lines
 * and lines starting with `#` are comments.
 *
 *     # learned on this server
 *     (1) 2:4'
 *     (1, 1) 3:3', 3'
 *
 * The rule of the game, `(1) 1:5`, is built in: every library holds it whether or not its
 * file names it (see `withRule`).
 */
import { canonicalString } from './canonical.ts';
import type { Description } from './description.ts';
import { parseDescription } from './descriptionNotation.ts';
import { err, ok, type Result } from './result.ts';

export const RULE_OF_FIVE = '(1) 1:5';

export interface LibraryEntry {
  /** 1-based line of the file the description stood on. */
  readonly line: number;
  readonly description: Description;
}

/** Parses a library file; a bad description is an error naming its line and column. */
export function parseLibraryFile(text: string): Result<LibraryEntry[]> {
  const out: LibraryEntry[] = [];
  const rows = text.split(/\r?\n/);
  for (let i = 0; i < rows.length; i++) {
    const raw = rows[i];
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const lead = raw.length - raw.trimStart().length;
    const d = parseDescription(trimmed);
    if (!d.ok) {
      const column = lead + (d.error.index ?? 0) + 1;
      return err({ ...d.error, line: i + 1, column, index: undefined });
    }
    out.push({ line: i + 1, description: d.value });
  }
  return ok(out);
}

/** Prints descriptions one a line in canonical form, after optional header comment lines. */
export function makeLibraryFile(descriptions: readonly Description[], header: readonly string[] = []): string {
  const lines = header.map((h) => (h === '' ? '#' : `# ${h}`));
  for (const d of descriptions) lines.push(canonicalString(d));
  return `${lines.join('\n')}\n`;
}

/** The descriptions with `(1) 1:5` first and duplicates (same canonical form) dropped. */
export function withRule(descriptions: readonly Description[]): Description[] {
  const rule = parseDescription(RULE_OF_FIVE);
  if (!rule.ok) throw new Error('the rule of five does not parse');
  const seen = new Set<string>();
  const out: Description[] = [];
  for (const d of [rule.value, ...descriptions]) {
    const key = canonicalString(d);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}
