/**
 * The read log: what a run of a stream read of the board, kept so that the recogniser knows
 * which runs a move can change (recognise.ts). A run reads three kinds of thing, and nothing
 * else about the board decides it:
 * - atoms of a point's mask along a direction (a test of what patterns the point could be in);
 * - windows along a direction through a point: whether they are possible, holding how many
 *   stones;
 * - a C element's *near set*: the points near an earlier node that could carry the next one.
 *
 * `ScanScratch` is where a run writes its log (with the cover marks every run on a board
 * shares), packed into words whose layout (READ_MASK_SHIFT, NEAR_*) the recogniser's change
 * words share; `nearReadChange` and `nearReadNow` tell whether a near read would find
 * something else on the board as it is now.
 */
import { WINDOW } from '../rules/geometry.ts';
import { NEAR, reachOfWindows, type ProfileTable } from './profile.ts';

/** Cover marks shared by every machine on one board: which line's patterns hold a vacant point. */
export class CoverMap {
  readonly marks: Int32Array;
  constructor(points: number) {
    this.marks = new Int32Array(points);
  }
}

/**
 * Per-board working memory for runs: the cover marks, and the log of what the last run read.
 *
 * For a point p and direction d (pair `p * 4 + d`), `interest[pd]` packs what the run looked
 * for there (see READ_* below): bits 0-5 windows along d through p (bit c: possible windows
 * holding c stones), bits 7-16 atoms of p's mask along d. A move changes a run's outcome
 * only if it changes something of that kind there. `readPairs[0 .. readCount)` lists the
 * pairs read.
 *
 * Beside those, *near reads*: a C element's candidate set, the points within four steps of
 * the earlier node f along d that carry the node's atoms (ProfileTable.candidates) inside
 * the reach of f's possible windows. Its outcome depends on that set alone, so the log keeps
 * the set itself with what it was asked for (a word, see NEAR_SET_SHIFT), one per distinct question,
 * at pair `pd` of f and d; a move that changes the answer is one that changes the run.
 */
export class ScanScratch {
  readonly cover: Int32Array;
  readonly interest: Int32Array;
  readonly readPairs: Int32Array;
  readCount = 0;
  /** Near reads: pair and word, nearCount of them, no two the same. */
  nearPairs: Int32Array = new Int32Array(64);
  nearWords: Int32Array = new Int32Array(64);
  nearCount = 0;
  /** Per pair, 1 + the latest near read there (0: none); earlier ones by nearPrev. */
  private readonly nearLatest: Int32Array;
  private nearPrev: Int32Array = new Int32Array(64);
  constructor(points: number, cover?: CoverMap) {
    this.cover = cover?.marks ?? new Int32Array(points);
    this.interest = new Int32Array(points * 4);
    this.readPairs = new Int32Array(points * 4);
    this.nearLatest = new Int32Array(points * 4);
  }

  /** Logs a near read (see the class doc), once. */
  readNear(pd: number, word: number): void {
    for (let x = this.nearLatest[pd] - 1; x >= 0; x = this.nearPrev[x]) if (this.nearWords[x] === word) return;
    const n = this.nearCount;
    if (n === this.nearWords.length) {
      this.nearPairs = doubled(this.nearPairs);
      this.nearWords = doubled(this.nearWords);
      this.nearPrev = doubled(this.nearPrev);
    }
    this.nearPairs[n] = pd;
    this.nearWords[n] = word;
    this.nearPrev[n] = this.nearLatest[pd] - 1;
    this.nearLatest[pd] = n + 1;
    this.nearCount = n + 1;
  }

  /**
   * Writes the log of the last run into `out` from `at` — each pair and its interest, then
   * each near read's pair (plus `nearBase`) and word — and forgets it, in one pass.
   */
  moveReads(out: Int32Array, at: number, nearBase: number): void {
    const n = this.readCount;
    for (let t = 0; t < n; t++) {
      const pd = this.readPairs[t];
      out[at + 2 * t] = pd;
      out[at + 2 * t + 1] = this.interest[pd];
      this.interest[pd] = 0;
    }
    this.readCount = 0;
    const nn = this.nearCount;
    for (let t = 0, o = at + 2 * n; t < nn; t++, o += 2) {
      const pd = this.nearPairs[t];
      out[o] = nearBase + pd;
      out[o + 1] = this.nearWords[t];
      this.nearLatest[pd] = 0;
    }
    this.nearCount = 0;
  }

  /** Forgets the log of the last run. */
  clearReads(): void {
    for (let i = 0; i < this.readCount; i++) this.interest[this.readPairs[i]] = 0;
    this.readCount = 0;
    for (let i = 0; i < this.nearCount; i++) this.nearLatest[this.nearPairs[i]] = 0;
    this.nearCount = 0;
  }
}

/**
 * A copy of `a` twice as long. (A module function, not a closure in readNear: a closure
 * capturing a local makes V8 allocate a context on every call, grown or not.)
 */
function doubled(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Where each kind of interest sits in a packed interest word. */
export const READ_MASK_SHIFT = 7;

/** Window interest: whether windows are possible at all, whatever they hold (a change bit; no run reads it alone). */
export const ANY_POSSIBLE = 64;

/**
 * A near read's word: bits 0-9 the atoms asked for along the line, from NEAR_OTHERS_SHIFT
 * the atoms asked for on the other directions, from NEAR_SET_SHIFT the 9-bit candidate set
 * found (bits 20-28), and NEAR_REACH, always set. A move's change word at a near pair
 * (moveChange.ts) sets the atom bits that flipped within four steps along the line, and
 * NEAR_REACH when the reach of the windows through f may have changed: sharing a bit with
 * the word means the set may have changed, and `nearReadChange` tells for sure.
 *
 * A word stays below 2^30, a small integer to V8: a bit 30 would make every near word a
 * heap number wherever it is passed or returned untyped, an allocation per C element.
 */
export const NEAR_OTHERS_SHIFT = 10;
export const NEAR_SET_SHIFT = 20;
export const NEAR_REACH = 1 << 29;

/** A C element's candidate set: the candidates (ProfileTable.candidates) within the reach of f's windows along d, f itself left out. */
export function nearSet(table: ProfileTable, pd: number, along: number, others: number): number {
  return table.candidates(pd >> 2, pd & 3, along, others) & reachOfWindows(table.windows[pd]) & ~(1 << (WINDOW - 1));
}

/** The candidate set the near read `word` at pair pd asks for (its atoms), on the board as it is now. */
function nearSetAsked(table: ProfileTable, pd: number, word: number): number {
  return nearSet(table, pd, word & 1023, (word >> NEAR_OTHERS_SHIFT) & 1023);
}

/**
 * What the near read `word` at pair pd would find on the board as it is now, against what it
 * found: 0 when the candidate set is the same, NEAR_SHRANK when it only lost points, and
 * NEAR_GREW when it has a point it did not have.
 */
export function nearReadChange(table: ProfileTable, pd: number, word: number): number {
  const set = nearSetAsked(table, pd, word);
  const was = (word >> NEAR_SET_SHIFT) & NEAR;
  if (set === was) return 0;
  return (set & ~was) === 0 ? NEAR_SHRANK : NEAR_GREW;
}
export const NEAR_SHRANK = 1;
export const NEAR_GREW = 2;

/** The near read `word` at pair pd with the candidate set it would find on the board as it is now. */
export function nearReadNow(table: ProfileTable, pd: number, word: number): number {
  const set = nearSetAsked(table, pd, word);
  return (word & ~(NEAR << NEAR_SET_SHIFT)) | (set << NEAR_SET_SHIFT);
}
