/**
 * The index of runs and reads: what the recogniser remembers of every run it made, so that
 * after a move it finds the runs that read something the move changed without looking at
 * the others. Each run's record (`RunRecord`) keeps its reads in one arena of numbers, back to
 * back; the index files every read under the (point, direction) pair it was made at, so that
 * an update walks only the lists of the pairs the move changed (recognise.ts, updateAt).
 *
 * The index is built on the first move (a board recognised once and never played on needs
 * none); the runs made since the last update wait in `pending` and are indexed when the next
 * update starts, so that a play taken back at once never indexes its runs. Entries of runs
 * dead for good linger until a walk meets them or they dominate (compactIfMostlyDead); the
 * arena's gaps are swept out when it fills (compactReads).
 */
import type { ScanStream } from './entryGroups.ts';
import type { Found } from './foundRealisation.ts';
import type { Point } from '../rules/types.ts';

/**
 * One run of a stream from one point, for one colour, as the last scan left it: the
 * realisations it found (each once, the first way it found it, by its signature) and what it
 * read, so that it is run again when a move changed something it read:
 * Its reads are `readLen` numbers from `readStart` in the read arena (RunIndex.arena): pairs
 * (point * 4 + direction) and the interest there (ScanScratch), alternately; a near read
 * (ScanScratch) is filed under its pair plus the board's `points * 4`, with its word.
 */
export interface RunRecord {
  readonly colour: number;
  readonly point: Point;
  readonly scan: ScanStream;
  readStart: number;
  readonly readLen: number;
  readonly found: readonly Found[];
  /**
   * Found nothing, and was not cut short by the step cap: such a run is done again only when
   * a move adds something it read (MoveChange.readChanged).
   */
  readonly empty: boolean;
  /** Cut short by the step cap: what it found may be incomplete. */
  readonly capped: boolean;
  alive: boolean;
  /** Dead, but an undo may bring it back: its index entries are kept. */
  journaled: boolean;
  /** Its reads are in the index (see RunIndex.pending). */
  indexed: boolean;
  /** The id of the play that made it, or 0. */
  born: number;
  /** The last update that listed it to be run again. */
  visit: number;
  /**
   * A gate record: no run, but the shut entry gate of the streams from `scan` on that share
   * its gate (next to each other in scan order, up to EntryGroup.gateEnd), which found
   * nothing; its reads are the gate's (gateShut). A move that adds to them has its point
   * looked at again (rescanCells).
   */
  readonly gate: boolean;
}

/** The read arena and the index of runs by the pairs they read, for one board (see the file's header). */
export class RunIndex {
  /** Where near reads' pairs start: points * 4. */
  readonly nearBase: number;
  /**
   * The index of runs by what they read, built on the first move: heads[colour][pair] starts
   * a list of entries, newest first, linked by entNext; an entry names a run that read the
   * pair (entRec) and what it read there (entInterest, packed as in ScanScratch). Free
   * entries are linked from entFree.
   */
  heads: [Int32Array, Int32Array] | undefined;
  entRec: (RunRecord | undefined)[] = [];
  entInterest = new Int32Array(1 << 14);
  entNext = new Int32Array(1 << 14);
  private entFree = -1;
  private entTop = 0;
  /**
   * Runs made since the last update, not yet in the index: an update indexes them when it
   * starts, before it looks anything up, and an undo of the play that made them drops them
   * unindexed. A play taken back at once (as a player's search does) so never indexes its runs.
   */
  readonly pending: RunRecord[] = [];
  /** Entries in the index, and how many of them belong to runs dead for good (not ones an undo may bring back). */
  indexSize = 0;
  indexDead = 0;
  /** Every run's reads, back to back; runs dead for good leave gaps, swept out by compactReads. */
  arena = new Int32Array(1 << 16);
  arenaTop = 0;

  constructor(points: number) {
    this.nearBase = points * 4;
  }

  /** Forgets every run: no index, an empty arena (a whole-board scan starts again). */
  clear(): void {
    this.heads = undefined;
    this.pending.length = 0;
    this.entRec = [];
    this.entFree = -1;
    this.entTop = 0;
    this.arenaTop = 0;
  }

  /** A run made: the index is to learn what it read, when the next update starts. */
  added(rec: RunRecord): void {
    if (this.heads !== undefined && !rec.indexed) this.pending.push(rec);
  }

  /**
   * The index of runs by the pairs they read, built from the records in `cells` (per colour,
   * per point, the live runs) when first needed; else brought up to date with the pending runs.
   */
  ensure(cells: readonly [RunRecord[][], RunRecord[][]]): [Int32Array, Int32Array] {
    if (this.heads !== undefined) {
      // The runs the last update made, in the order it made them. All are alive: only an
      // update or an undo ends a run, and an undo of that update would have dropped them.
      for (const rec of this.pending) this.indexRecord(rec);
      this.pending.length = 0;
      return this.heads;
    }
    const n = this.nearBase * 2;
    this.heads = [new Int32Array(n).fill(-1), new Int32Array(n).fill(-1)];
    this.indexSize = 0;
    this.indexDead = 0;
    this.pending.length = 0;
    for (let i = 0; i < 2; i++) for (const cell of cells[i]) for (const rec of cell) this.indexRecord(rec);
    return this.heads;
  }

  /** Adds a run's reads to the index, at the heads of the lists. */
  private indexRecord(rec: RunRecord): void {
    const head = this.heads![rec.colour];
    const a = this.arena;
    const end = rec.readStart + rec.readLen;
    for (let t = rec.readStart; t < end; t += 2) {
      const pd = a[t];
      const e = this.newEntry();
      this.entRec[e] = rec;
      this.entInterest[e] = a[t + 1];
      this.entNext[e] = head[pd];
      head[pd] = e;
    }
    this.indexSize += rec.readLen >> 1;
    rec.indexed = true;
  }

  /**
   * Takes a run's entries out of the index. They must head their lists: the run is the last
   * indexed of those still in (an undo takes a play's runs out last first).
   */
  unindex(rec: RunRecord): void {
    const head = this.heads![rec.colour];
    const a = this.arena;
    for (let t = rec.readStart + rec.readLen - 2; t >= rec.readStart; t -= 2) {
      const e = head[a[t]];
      head[a[t]] = this.entNext[e];
      this.releaseEntry(e);
    }
    this.indexSize -= rec.readLen >> 1;
    rec.indexed = false;
  }

  /** Frees entry e of a run dead for good, already unlinked from its list. */
  dropDead(e: number): void {
    this.releaseEntry(e);
    this.indexDead--;
    this.indexSize--;
  }

  /** Dead runs linger in the index until their pairs change; sweeps them out when they dominate. */
  compactIfMostlyDead(): void {
    if (this.indexDead > 50_000 && this.indexDead > this.indexSize - this.indexDead) this.compactIndex();
  }

  /** Drops the index entries of runs that are dead for good. */
  private compactIndex(): void {
    for (const head of this.heads!) {
      for (let pd = 0; pd < head.length; pd++) {
        let prev = -1;
        let e = head[pd];
        while (e >= 0) {
          const next = this.entNext[e];
          const rec = this.entRec[e]!;
          if (!rec.alive && !rec.journaled) {
            if (prev < 0) head[pd] = next;
            else this.entNext[prev] = next;
            this.dropDead(e);
          } else {
            prev = e;
          }
          e = next;
        }
      }
    }
  }

  /** A free index entry. */
  private newEntry(): number {
    if (this.entFree >= 0) {
      const e = this.entFree;
      this.entFree = this.entNext[e];
      return e;
    }
    if (this.entTop === this.entNext.length) {
      const next = new Int32Array(this.entTop * 2);
      next.set(this.entNext);
      this.entNext = next;
      const interest = new Int32Array(this.entTop * 2);
      interest.set(this.entInterest);
      this.entInterest = interest;
    }
    return this.entTop++;
  }

  private releaseEntry(e: number): void {
    this.entRec[e] = undefined;
    this.entNext[e] = this.entFree;
    this.entFree = e;
  }

  /** Room for n numbers at the top of the read arena, which grows when full. */
  allocReads(n: number): number {
    if (this.arenaTop + n > this.arena.length) {
      let size = this.arena.length * 2;
      while (this.arenaTop + n > size) size *= 2;
      const bigger = new Int32Array(size);
      bigger.set(this.arena.subarray(0, this.arenaTop));
      this.arena = bigger;
    }
    const at = this.arenaTop;
    this.arenaTop += n;
    return at;
  }

  /** Whether the arena is full enough to be swept (compactReads) before the next update. */
  get crowded(): boolean {
    return this.arenaTop > (this.arena.length * 3) / 4;
  }

  /**
   * Moves the reads of the live runs (`cells`) and of the dead ones an undo may bring back
   * (`kept`) together, at the start of a fresh arena; every other run's reads are gone. Each
   * record gets its own copy: a run remade without reading again (Recogniser.withoutLost)
   * shares its dead predecessor's reads, and both may be here, so what is moved can be more
   * than the old arena held.
   */
  compactReads(cells: readonly [RunRecord[][], RunRecord[][]], kept: readonly RunRecord[]): void {
    const old = this.arena;
    let moved = 0;
    for (let i = 0; i < 2; i++) for (const cell of cells[i]) for (const rec of cell) moved += rec.readLen;
    for (const rec of kept) moved += rec.readLen;
    // Room to spare afterwards, or the next move would sweep again.
    let size = old.length;
    while (moved * 2 > size) size *= 2;
    const fresh = new Int32Array(size);
    let top = 0;
    const move = (rec: RunRecord): void => {
      fresh.set(old.subarray(rec.readStart, rec.readStart + rec.readLen), top);
      rec.readStart = top;
      top += rec.readLen;
    };
    for (let i = 0; i < 2; i++) for (const cell of cells[i]) for (const rec of cell) move(rec);
    for (const rec of kept) move(rec);
    this.arena = fresh;
    this.arenaTop = top;
  }
}
