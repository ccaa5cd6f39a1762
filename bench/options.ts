/**
 * What the benchmark scripts that take a library and counted options share: a whole-number
 * option read with its bounds named, and a library file (or `empty`) read with its fault
 * named. bench/frozen.ts and bench/decisive.ts use them.
 */
import { readFileSync } from 'node:fs';
import { Library } from '../src/learning/library.ts';

/** `value` of option `flag` as a whole number from min to max, or an error naming both. */
export function wholeOption(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} needs a whole number from ${min} to ${max}, not ${value}`);
  return n;
}

/** The library in a library file, or the empty library (the rule of five alone) for `empty`. */
export function readLibraryOption(path: string): Library {
  if (path === 'empty') return Library.empty();
  const read = Library.fromFile(readFileSync(path, 'utf8'));
  if (!read.ok) throw new Error(`${path}: ${read.error.message}`);
  return read.value;
}
