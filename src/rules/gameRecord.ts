/**
 * Game records: moves in point notation separated by white space or newlines, black first.
 * Lines starting with `#` are comments; an optional first line `# size 15` sets the board
 * size (19 when absent).
 *
 *     # size 15
 *     # a short game: black makes five on row 8
 *     h8 h9 i8 i9 j8 j9 k8 k9 l8
 */
import { Game } from './game.ts';
import { makePoint, parsePoint, validSize } from './point.ts';
import { err, ok, problem, shownInput, type Result } from './result.ts';
import { DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, type Point } from './types.ts';
import { oneLine, splitLines } from './textLines.ts';

export interface GameRecord {
  readonly size: number;
  readonly moves: readonly Point[];
  /** Comment lines other than the size line, without their `#`. */
  readonly comments: readonly string[];
}

/** Where each move stood in the text, for errors found when the moves are played. */
export interface ParsedGameRecord extends GameRecord {
  readonly positions: readonly { readonly line: number; readonly column: number }[];
}

const SIZE_LINE = /^#\s*size\s+(\S+)\s*$/i;
/** A comment that means to give the size but is not a size line (`# size: 15`, `#size15`, `# size 15 (small)`). */
const SIZE_ATTEMPT = /^#\s*size\s*[:=]?\s*\d/i;

export function parseGameRecord(text: string): Result<ParsedGameRecord> {
  const lines = splitLines(text);
  let size = DEFAULT_SIZE;
  const comments: string[] = [];
  const moves: Point[] = [];
  const positions: { line: number; column: number }[] = [];
  let seenContent = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const trimmed = raw.trim();
    if (trimmed === '') continue;
    const sizeMatch = SIZE_LINE.exec(trimmed);
    if (sizeMatch !== null) {
      // The value is the line's last word (it may be a letter that "size" holds too: "# size e").
      const column = raw.lastIndexOf(sizeMatch[1]) + 1;
      if (seenContent) {
        return err(problem('misplaced-size', 'the "# size N" line must be the first line of the record', { line: i + 1, column: 1 }));
      }
      const n = Number(sizeMatch[1]);
      if (!/^\d+$/.test(sizeMatch[1]) || !validSize(n)) {
        return err(problem('bad-size', `board size must be a whole number from ${MIN_SIZE} to ${MAX_SIZE}, not "${shownInput(sizeMatch[1])}"`, { line: i + 1, column }));
      }
      size = n;
      seenContent = true;
      continue;
    }
    if (SIZE_ATTEMPT.test(trimmed)) {
      // Read as a comment it would leave the game on a 19×19 board without a word.
      return err(problem('bad-size', `"${shownInput(trimmed)}" is not a size line: write "# size N" alone on the first line`, { line: i + 1, column: 1 }));
    }
    seenContent = true;
    if (trimmed.startsWith('#')) {
      comments.push(trimmed.slice(1).trim());
      continue;
    }
    const token = /\S+/g;
    for (let m = token.exec(raw); m !== null; m = token.exec(raw)) {
      const parsed = parsePoint(size, m[0]);
      if (!parsed.ok) {
        return err({ ...parsed.error, message: `move ${moves.length + 1}: ${parsed.error.message}`, line: i + 1, column: m.index + 1 });
      }
      moves.push(parsed.value);
      positions.push({ line: i + 1, column: m.index + 1 });
    }
  }
  return ok({ size, moves, comments, positions });
}

/**
 * Plays a record's moves from the empty board. A move on an occupied point, or after a
 * five has ended the game, is an error naming that move's line and column.
 */
export function replayRecord(record: GameRecord | ParsedGameRecord): Result<Game> {
  const game = Game.create(record.size);
  const positions = 'positions' in record ? record.positions : undefined;
  for (let i = 0; i < record.moves.length; i++) {
    const played = game.play(record.moves[i]);
    if (!played.ok) {
      const where = positions?.[i] ?? {};
      const point = makePoint(record.size, record.moves[i]);
      return err({ ...played.error, message: `move ${i + 1} (${point}): ${played.error.message}`, ...where });
    }
  }
  return ok(game);
}

export function parseGame(text: string): Result<Game> {
  const record = parseGameRecord(text);
  return record.ok ? replayRecord(record.value) : record;
}

/** Prints a record: the size line, the comments, then one move pair (black, white) a line. */
export function makeGameRecord(record: GameRecord): string {
  const out = [`# size ${record.size}`];
  for (const c of record.comments) out.push(c === '' ? '#' : commentLine(c));
  for (let i = 0; i < record.moves.length; i += 2) {
    out.push(record.moves.slice(i, i + 2).map((p) => makePoint(record.size, p)).join(' '));
  }
  return `${out.join('\n')}\n`;
}

/**
 * One comment line that reads back as that comment: a line break or other control character
 * (an engine's message, say) becomes a space, and a comment that would read as a size line, or
 * as a mistyped one ("size 15"), is quoted.
 */
function commentLine(c: string): string {
  const one = oneLine(c);
  const line = `# ${one}`;
  return SIZE_LINE.test(line) || SIZE_ATTEMPT.test(line) ? `# "${one}"` : line;
}

export function recordOf(game: Game, comments: readonly string[] = []): GameRecord {
  return { size: game.size, moves: game.moves.slice(), comments: comments.slice() };
}
