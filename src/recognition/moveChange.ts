/**
 * What a move changed, in the terms a run's reads are kept in (readLog.ts): for one colour at
 * a time, per (point, direction) pair, a change word packed as a read's interest is — the
 * window kinds whose state changed and the mask bits that flipped, and for the near reads the
 * atoms that flipped nearby and whether the windows' reach did (NEAR_REACH) — and what of it
 * the move added (`gain`); the pairs with any change, and the points whose masks changed.
 * A read shares a bit with its pair's change word only if the move may have changed what it
 * saw (readChanged). The recogniser (recognise.ts, updateAt) walks the index of runs
 * (runIndex.ts) at those pairs alone.
 *
 * A move at q changes only windows through q or flanked by q, and masks along the lines
 * through q: their states are recorded before the move (recordBefore, saveMasks) and
 * compared after.
 */
import type { Board } from '../rules/board.ts';
import { eachAlongLines, WINDOW } from '../rules/geometry.ts';
import { directionWindows, othersOf, type DirectionWindows, type ProfileTable } from './profile.ts';
import { ANY_POSSIBLE, NEAR_GREW, NEAR_OTHERS_SHIFT, NEAR_REACH, nearReadChange, READ_MASK_SHIFT } from './readLog.ts';
import { BLACK, WHITE, type Point, type Stone } from '../rules/types.ts';

/** The change a move makes to what runs read, one colour at a time (see the file's header). */
export class MoveChange {
  /**
   * What the move being processed changed for the colour under way, by pair, packed as
   * interest is (ScanScratch): the window kinds whose state changed and the mask bits that
   * flipped, and above `nearBase`, the near reads' change words (NEAR_REACH).
   */
  readonly diff: Int32Array;
  /**
   * Of the diff at a mask or window pair, what the move added: mask bits now set, and the
   * window kind a window changed into. A run that found nothing is run again only when
   * something it read was added (see readChanged).
   */
  readonly gain: Int32Array;
  /** Where near reads' pairs start: points * 4. */
  readonly nearBase: number;
  /** The pairs with a change, and the points with a changed mask, whose runs and profile checks are all looked at again. */
  readonly pairs: number[] = [];
  readonly cellChanged: Uint8Array;
  readonly cells: number[] = [];
  private readonly board: Board;
  private readonly profiles: readonly [ProfileTable, ProfileTable];
  private readonly dw: DirectionWindows;
  /** Per pair, the bits of its mask the move being processed flipped (zero between moves). */
  private readonly maskFlip: Uint16Array;
  /** Window states (per colour) around a point about to change, recorded by play and undo. */
  private readonly before: Int8Array;
  private readonly touchedWindows: number[] = [];
  /** Masks of both colours along the lines through the point being changed, before the change. */
  private readonly maskPoints: number[] = [];
  private readonly maskBefore: number[] = [];

  constructor(board: Board, profiles: readonly [ProfileTable, ProfileTable]) {
    this.board = board;
    this.profiles = profiles;
    this.nearBase = board.points * 4;
    this.dw = directionWindows(board.geometry);
    this.diff = new Int32Array(board.points * 8);
    this.gain = new Int32Array(board.points * 4);
    this.maskFlip = new Uint16Array(board.points * 4);
    this.cellChanged = new Uint8Array(board.points);
    this.before = new Int8Array(2 * (board.geometry.pointWindows.length + board.geometry.pointFlanks.length));
  }

  /** Lists the windows through q or flanked by q in `touchedWindows`. */
  touchedAround(q: Point): void {
    const g = this.board.geometry;
    const list = this.touchedWindows;
    list.length = 0;
    for (let i = g.pointWindowStart[q]; i < g.pointWindowStart[q + 1]; i++) list.push(g.pointWindows[i]);
    for (let i = g.pointFlankStart[q]; i < g.pointFlankStart[q + 1]; i++) list.push(g.pointFlanks[i]);
  }

  /** The state of every window through q or flanked by q, for each colour, before q changes. */
  recordBefore(q: Point): void {
    this.touchedAround(q);
    const list = this.touchedWindows;
    for (let i = 0; i < list.length; i++) {
      this.before[2 * i] = this.windowState(list[i], BLACK);
      this.before[2 * i + 1] = this.windowState(list[i], WHITE);
    }
  }

  /** What a run can see of window w for colour s: not possible (0), or possible with k stones (k + 1). */
  private windowState(w: number, s: Stone): number {
    return this.board.isPossible(w, s) ? 1 + this.board.stonesIn(w, s) : 0;
  }

  /** The masks refreshAround(q) may change, as point * 4 + direction, with their values for both colours. */
  saveMasks(q: Point): void {
    const size = this.board.size;
    const pts = this.maskPoints;
    const vals = this.maskBefore;
    pts.length = 0;
    vals.length = 0;
    const [b, w] = this.profiles;
    const save = (pd: number): void => {
      pts.push(pd);
      vals.push(b.masks[pd], w.masks[pd]);
    };
    for (let d = 0; d < 4; d++) save(q * 4 + d);
    eachAlongLines(size, q, WINDOW, (p, d) => save(p * 4 + d));
  }

  /**
   * The change words of the move for colour i, from the masks and windows as they are now
   * against what was saved: `recorded`, whether the windows' states were recorded before the
   * move (recordBefore); without, every window through q or flanked by q counts as changed.
   */
  colour(i: number, recorded: boolean): void {
    const g = this.board.geometry;
    const diffs = this.diff;
    const gains = this.gain;
    const pairs = this.pairs;
    const cellChanged = this.cellChanged;
    const cells = this.cells;
    const stone = (i + 1) as Stone;
    const masks = this.profiles[i].masks;
    pairs.length = 0;
    cells.length = 0;
    for (let x = 0; x < this.maskPoints.length; x++) {
      const pd = this.maskPoints[x];
      const flip = masks[pd] ^ this.maskBefore[2 * x + i];
      if (flip === 0) continue;
      if (diffs[pd] === 0) pairs.push(pd);
      diffs[pd] |= flip << READ_MASK_SHIFT;
      gains[pd] |= (flip & masks[pd]) << READ_MASK_SHIFT;
      const p = pd >> 2;
      if (cellChanged[p] === 0) {
        cellChanged[p] = 1;
        cells.push(p);
      }
      // The masks before, for near reads below: the flips, undone.
      this.maskFlip[pd] = flip;
    }
    // What changed for near reads: along each direction through a point whose masks changed,
    // the atoms that flipped in its mask along it, and in the OR of its other masks; marked
    // at every point within four steps along that direction, whose near sets hold it.
    const others = this.profiles[i].others;
    const flip = this.maskFlip;
    for (const p of cells) {
      const b = p * 4;
      const w0 = masks[b] ^ flip[b];
      const w1 = masks[b + 1] ^ flip[b + 1];
      const w2 = masks[b + 2] ^ flip[b + 2];
      const w3 = masks[b + 3] ^ flip[b + 3];
      for (let d = 0; d < 4; d++) {
        const was = othersOf(w0, w1, w2, w3, d);
        const change = flip[b + d] | ((others[b + d] ^ was) << NEAR_OTHERS_SHIFT);
        if (change !== 0) this.markNear(p, d, change);
      }
      for (let d = 0; d < 4; d++) flip[b + d] = 0;
    }
    const list = this.touchedWindows;
    for (let x = 0; x < list.length; x++) {
      const w = list[x];
      let diff = 127;
      let gain = 127;
      if (recorded) {
        const was = this.before[2 * x + i];
        const now = this.windowState(w, stone);
        if (was === now) continue;
        diff = (was > 0 ? 1 << (was - 1) : 0) ^ (now > 0 ? 1 << (now - 1) : 0);
        gain = now > 0 ? 1 << (now - 1) : 0;
        if ((was > 0) !== (now > 0)) diff |= ANY_POSSIBLE;
      }
      const d = g.windowDirection[w];
      for (let t = 0; t < WINDOW; t++) {
        const pd = g.windowPoints[w * WINDOW + t] * 4 + d;
        if (diffs[pd] === 0) pairs.push(pd);
        diffs[pd] |= diff;
        gains[pd] |= gain;
        // A window that became possible or impossible may change the reach of its points' near sets.
        if ((diff & ANY_POSSIBLE) !== 0) {
          if (diffs[this.nearBase + pd] === 0) pairs.push(this.nearBase + pd);
          diffs[this.nearBase + pd] |= NEAR_REACH;
        }
      }
    }
  }

  /** Clears the change words of the colour under way, for the next. */
  clear(): void {
    const diffs = this.diff;
    const gains = this.gain;
    for (const pd of this.pairs) {
      diffs[pd] = 0;
      if (pd < this.nearBase) gains[pd] = 0;
    }
    for (const p of this.cells) this.cellChanged[p] = 0;
  }

  /** Marks the near pairs along d within four steps of p, p's own included, with `change`. */
  private markNear(p: Point, d: number, change: number): void {
    const g = this.board.geometry;
    const dw = this.dw;
    const line = dw.lineOf[p * 4 + d];
    const step = g.step[d];
    const diffs = this.diff;
    for (let t = -(WINDOW - 1); t < WINDOW; t++) {
      const q = p + t * step;
      if (q < 0 || q >= g.points || dw.lineOf[q * 4 + d] !== line) continue;
      const np = this.nearBase + q * 4 + d;
      if (diffs[np] === 0) this.pairs.push(np);
      diffs[np] |= change;
    }
  }

  /**
   * Whether a read (pair pd, interest `word`) may see something else after the move whose
   * change word there is `diff`: it shares a bit with the change, and for a near read, the
   * candidate set is not the one it found.
   *
   * `nothing`: the run found nothing (RunRecord.empty), and then only an addition counts — a mask bit it read
   * now set, a window of a kind it read now there, a near set grown. Every test a run makes
   * is monotone in what it reads (a mask holding atoms, windows of a kind, a candidate set),
   * so a run that found nothing finds nothing again while all that changes is taken away: a
   * realisation now would have to pass the test that cut its branch before, whose reads are
   * in the record (backjumping skips only branches that fail the same test on the same
   * reads), and that test can only pass by gaining something it read. The record, kept,
   * stays a fair account for later moves: whatever the run would need comes in by some
   * later move, as an addition to a read there.
   */
  readChanged(table: ProfileTable, pd: number, word: number, diff: number, nothing: boolean): boolean {
    if ((word & diff) === 0) return false;
    if (pd < this.nearBase) return !nothing || (word & this.gain[pd]) !== 0;
    const change = nearReadChange(table, pd - this.nearBase, word);
    return nothing ? change === NEAR_GREW : change !== 0;
  }
}
