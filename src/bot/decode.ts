/**
 * Reading plain JSON back, checking as we go: the small helpers every codec of the bot's
 * records uses (records.ts and communityRecords.ts). A decoder throws `Bad` at the first thing
 * wrong and `decoding` turns that into a `decode-failed` problem, so storage logs and skips
 * the record rather than crash. Kept apart from the codecs so that the record modules can
 * share them without importing each other.
 */
import { replayRecord } from '../rules/gameRecord.ts';
import { makePoint, parsePoint } from '../rules/point.ts';
import { err, ok, problem, type Result } from '../rules/result.ts';
import type { Point } from '../rules/types.ts';

export type Json = Record<string, unknown>;

export function isObject(x: unknown): x is Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export class Bad extends Error {}

export function field(o: Json, name: string, check: (x: unknown) => boolean, what: string): unknown {
  if (!check(o[name])) throw new Bad(`${name} is not ${what}`);
  return o[name];
}
export const isString = (x: unknown): boolean => typeof x === 'string' && x !== '';
export const isCount = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 0;
export const isTime = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && x >= 0;
export const isColour = (x: unknown): boolean => x === 'black' || x === 'white';
export const isStrings = (x: unknown): boolean => Array.isArray(x) && x.every((s) => typeof s === 'string');

export function points(o: Json, name: string, size: number): Point[] {
  const raw = field(o, name, isStrings, 'a list of points') as string[];
  return raw.map((text) => {
    const p = parsePoint(size, text);
    if (!p.ok) throw new Bad(`${name}: ${p.error.message}`);
    return p.value;
  });
}

export function notation(size: number, ps: readonly Point[]): string[] {
  return ps.map((p) => makePoint(size, p));
}

/** Runs a decoder that throws `Bad` on the first thing wrong. */
export function decoding<T>(raw: unknown, read: (o: Json) => T): Result<T> {
  if (!isObject(raw)) return err(problem('decode-failed', 'the record is not an object'));
  try {
    return ok(read(raw));
  } catch (e) {
    if (e instanceof Bad) return err(problem('decode-failed', e.message));
    throw e;
  }
}

/** The moves replayed from the empty board: legal, and none after the game ended. */
export function legalMoves(size: number, moves: readonly Point[]): readonly Point[] {
  const replayed = replayRecord({ size, moves, comments: [] });
  if (!replayed.ok) throw new Bad(`moves: ${replayed.error.message}`);
  return moves;
}

export function boardSize(o: Json): 15 | 19 {
  return field(o, 'size', (x) => x === 15 || x === 19, '15 or 19') as 15 | 19;
}
