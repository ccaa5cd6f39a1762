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

/**
 * Someone's input as an error message shows it: control characters (a terminal's escape
 * sequences, a byte-order mark, binary junk) written as `\u001b`, so the message neither
 * hides nor acts on them, and at most `max` characters, so a megabyte typed by mistake
 * comes back as a line that says how long it was.
 */
export function shownInput(text: string, max = 60): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  const visible = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return visible.length <= max ? visible : `${visible.slice(0, max - 1)}… (${text.length} characters)`;
}
