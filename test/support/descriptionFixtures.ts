// Readers for the description fixtures under test/fixtures/descriptions.
import { fixture } from './fixtures.ts';

export interface GoldenCase {
  /** 1-based line in the fixture file. */
  readonly line: number;
  readonly input: string;
  /** The canonical form it must give: the text after "=>", else the input itself. */
  readonly canonical: string;
  readonly note: string;
}

/** Lines `input [=> canonical] # note`; blank lines and lines starting with `#` are skipped. */
export function goldenCases(path: string): GoldenCase[] {
  const cases: GoldenCase[] = [];
  fixture(path)
    .split(/\r?\n/)
    .forEach((raw, i) => {
      if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
      const hash = raw.indexOf('#');
      const body = hash < 0 ? raw : raw.slice(0, hash);
      const note = hash < 0 ? '' : raw.slice(hash + 1).trim();
      const arrow = body.indexOf('=>');
      const input = (arrow < 0 ? body : body.slice(0, arrow)).trim();
      const canonical = arrow < 0 ? input : body.slice(arrow + 2).trim();
      cases.push({ line: i + 1, input, canonical, note });
    });
  return cases;
}

export interface MalformedCase {
  readonly line: number;
  readonly code: string;
  readonly index: number;
  readonly input: string;
}

/** Lines `code index | input` (input may be empty); `#` lines are comments. */
export function malformedCases(path: string): MalformedCase[] {
  const cases: MalformedCase[] = [];
  fixture(path)
    .split(/\r?\n/)
    .forEach((raw, i) => {
      if (raw.trim() === '' || raw.startsWith('#')) return;
      const m = /^(\S+) (\d+) \|(?: (.*))?$/.exec(raw);
      if (m === null) throw new Error(`${path}:${i + 1}: not "code index | input"`);
      cases.push({ line: i + 1, code: m[1], index: Number(m[2]), input: m[3] ?? '' });
    });
  return cases;
}
