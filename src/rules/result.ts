/**
 * Expected failures are values, not exceptions (house style, after chessops): a parser or
 * validator returns `Result`, and the edge (CLI, Discord) turns a `Problem` into words.
 *
 * A `Problem` carries a stable `code` that tests and callers can match on, a one-line
 * human message, and where in the input it happened. `line` and `column` are 1-based;
 * `index` is a 0-based character offset into a single-line input such as a description.
 */
export interface Problem {
  readonly code: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  readonly index?: number;
}

export type Result<T, E = Problem> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

export function err<E = Problem>(error: E): Result<never, E> {
  return { ok: false, error };
}

export function problem(code: string, message: string, where: Omit<Problem, 'code' | 'message'> = {}): Problem {
  return { code, message, ...where };
}

/** "line 3, column 7: message" — the one place a positioned problem becomes a sentence. */
export function describeProblem(p: Problem, source?: string): string {
  const at: string[] = [];
  if (source !== undefined) at.push(source);
  if (p.line !== undefined) at.push(`line ${p.line}`);
  if (p.column !== undefined) at.push(`column ${p.column}`);
  if (p.index !== undefined && p.line === undefined) at.push(`position ${p.index + 1}`);
  return at.length > 0 ? `${at.join(', ')}: ${p.message}` : p.message;
}

/** Unwraps a result the caller knows is valid (tests, fixtures); throws with the problem. */
export function expectOk<T>(r: Result<T, Problem>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${describeProblem(r.error)}`);
  return r.value;
}

/** Characters that would hide or act rather than show: controls, bidirectional overrides, zero widths, spaces other than the plain one (a no-break space looks like one), the byte-order mark. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNSHOWN = /[\u0000-\u001f\u007f-\u00a0\u061c\u2000-\u200f\u202a-\u202f\u2028\u2029\u205f\u2066-\u2069\u3000\ufeff]/;

/**
 * Someone's input as an error message shows it: characters that would hide or act (a
 * terminal's escape sequence, a right-to-left override, a byte-order mark, binary junk)
 * written as `\u001b`, and at most `max` characters, cut between characters (never inside an
 * escape or a surrogate pair), so a megabyte typed by mistake comes back as a line that says
 * how long it was.
 */
export function shownInput(text: string, max = 60): string {
  let out = '';
  let cut: string | undefined;
  let read = 0;
  for (const ch of text) {
    const piece = UNSHOWN.test(ch) ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}` : ch;
    if (cut === undefined && out.length + piece.length > max - 1) cut = out;
    out += piece;
    read += ch.length;
    if (out.length > max) break;
  }
  if (read === text.length && out.length <= max) return out;
  // Characters, not UTF-16 units: what someone who typed it would count.
  const characters = text.length - (text.match(/[\ud800-\udbff][\udc00-\udfff]/g)?.length ?? 0);
  return `${cut}… (${characters} characters)`;
}
