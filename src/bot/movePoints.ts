/**
 * Points around a member's move, for the bot's games and games between members alike: the
 * overline through a move (six or more in a row, which does not win), and the vacant points
 * autocomplete offers as a member types one.
 */
import type { Board } from '../rules/board.ts';
import type { Game } from '../rules/game.ts';
import { WINDOW } from '../rules/geometry.ts';
import { makePoint, parsePoint } from '../rules/point.ts';
import { DIRECTIONS, type Direction, type Point } from '../rules/types.ts';
import type { Overline } from './gameViews.ts';

/** Autocomplete shows at most this many points (Discord's limit is 25). */
export const MAX_SUGGESTIONS = 25;

/**
 * The longest run through `p` of its stone's colour, when it is six or more (an overline: the
 * rule is exactly five). Ties between directions go to the first of DIRECTIONS.
 */
export function overlineThrough(board: Board, p: Point): Overline | undefined {
  let longest: Point[] = [];
  for (let d = 0; d < DIRECTIONS.length; d++) {
    const run = board.runThrough(p, d as Direction);
    if (run.length > longest.length) longest = run;
  }
  return longest.length > WINDOW ? { stones: longest } : undefined;
}

/** See `GameService.suggestPoints`. */
export function suggestions(game: Game, typed: string): string[] {
  const size = game.size;
  const want = typed.trim().toLowerCase();
  const moves = game.moves;
  const centre = ((size - 1) / 2) * (size + 1);
  const anchors = moves.length > 0 ? moves : [centre];
  const last = moves.length > 0 ? moves[moves.length - 1] : centre;
  const col = (p: Point) => p % size;
  const row = (p: Point) => Math.floor(p / size);
  const near: Point[] = [];
  for (let p = 0; p < size * size; p++) {
    if (!game.board.isEmpty(p)) continue;
    if (anchors.some((q) => Math.max(Math.abs(col(p) - col(q)), Math.abs(row(p) - row(q))) <= 2)) near.push(p);
  }
  const distance = (p: Point) => (col(p) - col(last)) ** 2 + (row(p) - row(last)) ** 2;
  const names = near
    .sort((a, b) => distance(a) - distance(b) || a - b)
    .map((p) => makePoint(size, p))
    .filter((name) => name.startsWith(want));
  // A vacant point typed in full is offered even when it is far from the stones.
  const exact = parsePoint(size, want);
  if (exact.ok && game.board.isEmpty(exact.value) && !names.includes(makePoint(size, exact.value))) names.unshift(makePoint(size, exact.value));
  // A column typed (but not a whole vacant point): after the points near the stones, the rest
  // of that column's vacant points, nearest the last move first — once, a column far from the
  // stones offered nothing.
  const letter = want.charCodeAt(0) - 97;
  if (!(exact.ok && game.board.isEmpty(exact.value)) && /^[a-z]\d*$/.test(want) && letter < size) {
    const column: Point[] = [];
    for (let r = 0; r < size; r++) if (game.board.isEmpty(r * size + letter)) column.push(r * size + letter);
    column.sort((a, b) => distance(a) - distance(b) || a - b);
    for (const name of column.map((p) => makePoint(size, p))) if (name.startsWith(want) && !names.includes(name)) names.push(name);
  }
  return names.slice(0, MAX_SUGGESTIONS);
}
