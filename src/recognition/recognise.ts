/**
 * Whole-board recognition: every realisation of every subgoal of a library, for both
 * colours, kept up to date move by move.
 *
 * Speed comes from not running streams blindly. Each point keeps a pattern profile per
 * colour (profile.ts); a stream is tried with its entry node at a point only when the point's
 * profile can carry that node's whole entry (its specs on different lines, with the patterns
 * its line-mates' specs put through it, see selfAtoms), and streams whose entry nodes look
 * alike share one such check (entryGroups.ts).
 *
 * After a move, only the runs that read something the move changed are done again (see
 * Recogniser): what the move changed (moveChange.ts) is looked up in the index of what each
 * run read (runIndex.ts). An undo through the recogniser restores the state before the play
 * from a journal. Realisation objects are built when `realisations` first asks for them
 * (foundRealisation.ts).
 *
 * A realisation is reported once: realisations found with node 1 at different points that
 * are the same object under a symmetry of the description (both nodes of
 * `(1, 2-1, 2) 4:3', 2'-4:2', 3'`) are one, labelled by the least node tuple. The machine
 * looks only for that labelling (StreamMachine, symInverse), so each realisation is found by
 * one run: the run of its stream from the point of its entry node.
 */
import type { Board } from '../rules/board.ts';
import { carriesEntry, groupsFor, groupStreams, type Grouping, type ScanStream } from './entryGroups.ts';
import { GateReads, gateShut } from './entryGate.ts';
import { FoundRealisation, NONE, sameRealisation, type Found } from './foundRealisation.ts';
import type { StreamMachine } from './interpret.ts';
import { MoveChange } from './moveChange.ts';
import { ProfileTable } from './profile.ts';
import { nearReadNow, ScanScratch } from './readLog.ts';
import type { Realisation } from './realisation.ts';
import { RunIndex, type RunRecord } from './runIndex.ts';
import type { Subgoal } from './subgoal.ts';
import { WINDOW } from '../rules/geometry.ts';
import { BLACK, WHITE, type Colour, type Point, type Stone } from '../rules/types.ts';

export interface RecogniseStats {
  /** Interpreter runs (subgoal × node-1 candidate that passed the profile index). */
  runs: number;
  steps: number;
  /** Runs stopped by the step cap: their results may be incomplete. Zero in every test. */
  capped: number;
  /** Runs not made because the stream's entry gate was shut at the point (see EntryGate). */
  gated: number;
  /**
   * Runs not made again because the move only took away from what they read: their
   * realisations were sorted, the lost from the kept (see Recogniser.withoutLost).
   */
  pruned: number;
  /** Sweeps of the read arena (RunIndex.compactReads) made while the journal held dead runs an undo may bring back. */
  journaledSweeps: number;
}

/**
 * What one play through the recogniser changed, so that undoing it restores the state before
 * it exactly, instead of working it out again: the runs it ended and made, and the cells it
 * changed with what they held.
 */
interface Frame {
  readonly id: number;
  readonly point: Point;
  /** board.moves.length after the play. */
  readonly moves: number;
  readonly killed: RunRecord[];
  readonly installed: RunRecord[];
  /** Per change to a cell: the cell array, the index changed (-1: the whole array was replaced) and what was there. */
  readonly cells: { colour: number; point: Point; at: number; was: RunRecord | RunRecord[] }[];
  /**
   * The top of the read arena when the play's runs began: every read above it is a run's the
   * play made, so undoing the play gives that room back. -1 once compactReads has moved reads.
   */
  arenaMark: number;
}

/** A run rescanCells is to make, and the cell slot it goes in. */
interface RunJob {
  readonly cell: RunRecord[];
  readonly at: number;
  readonly point: Point;
  readonly scan: ScanStream;
  readonly prev: RunRecord | undefined;
}

/** The order in which runs are made (see scanBoard): stream by stream, then by point. */
function byStreamThenPoint(a: { readonly scan: ScanStream; readonly point: Point }, b: { readonly scan: ScanStream; readonly point: Point }): number {
  return a.scan.order - b.scan.order || a.point - b.point;
}

/**
 * What a cell slot holds from the moment rescanCells plans a new run there until the run is
 * made, later in the same call; nothing reads a cell in between. Never alive.
 */
const PLACEHOLDER = { colour: -1, point: -1, readStart: 0, readLen: 0, found: NONE, empty: true, capped: false, alive: false, journaled: false, indexed: false, born: 0, visit: 0, gate: false } as unknown as RunRecord;

/** Recogniser.freshFrom before a run has made any realisation anew. */
const FRESH_NONE = 1 << 30;

/** Plays remembered for undo. */
const JOURNAL_DEPTH = 16;

/**
 * Keeps the realisations of a library on one board for both colours. Play and undo through
 * the recogniser (not the board directly) so that it can bring its state up to date.
 *
 * The whole-board scan runs each subgoal's stream (entered at its most demanding node) from
 * every vacant point whose profile can carry that node and where its entry gate is open
 * (EntryGate; where it is shut, one gate record stands for the gate's streams), and keeps a
 * record of every run:
 * what it found and what it read — which masks, and through which points it looked at windows
 * along which directions. A move at q changes only windows through q or flanked by q; for each
 * colour, the masks that changed and the (point, direction) pairs with a window whose state
 * for that colour changed are the only data that changed. The runs from a point whose masks
 * changed are done again from scratch (the profile check there may now pass for other
 * streams), and so is every other run that read something that changed; every other run
 * would find what it found before. So the realisations after a move are exactly those of a
 * fresh whole-board scan. A run done again that finds what it found before, the same way,
 * after reading the same things, keeps its old record. A run due again whose reads the move
 * only took from is spared the search where it can be: one that found nothing finds nothing
 * (MoveChange.readChanged), and one that found something keeps those of its realisations the
 * move left standing (withoutLost).
 *
 * Play and undo through the recogniser keep a journal of the last plays: what runs each one
 * ended and made, so that undo puts them back instead of working anything out. `changed`
 * (after editing the board directly) and `recogniseAll` clear it.
 */
export class Recogniser {
  readonly board: Board;
  private subgoals: readonly Subgoal[] = [];
  private grouping: Grouping = { groups: [], byUnion: [] };
  private readonly profiles: readonly [ProfileTable, ProfileTable];
  /** cells[colour][p]: the live runs from p. */
  private readonly cells: readonly [RunRecord[][], RunRecord[][]];
  /** The runs' reads, and the index of runs by the pairs they read. */
  private readonly index: RunIndex;
  /** What the move being processed changed, for the colour under way. */
  private readonly change: MoveChange;
  private readonly scratch: ScanScratch;
  /** Where near reads' pairs start: points * 4. */
  private readonly nearBase: number;
  // The run in progress.
  private current: ScanStream | undefined;
  private currentFound: Found[] = NONE;
  private previous: RunRecord | undefined;
  private readonly onFound = (m: StreamMachine): void => this.collect(m);
  private visits = 0;
  /** Plays that undo can take back without working anything out; the one being made. */
  private journal: Frame[] = [];
  private frames = 0;
  private frame: Frame | undefined;
  private profilesFresh = false;
  /** Scratch for rescanCells: the runs to make. */
  private readonly jobs: RunJob[] = [];
  /** Scratch for scanBoard: per group, the points whose profile can carry its entry node. */
  private readonly groupPoints: Int32Array[] = [];
  /** How many points groupPoints holds per group in the scan under way. */
  private groupCount = new Int32Array(0);
  /** Scratch: the points where a gate is open (scanBoard), and the reads of a shut gate (gateShut). */
  private readonly gateOpen: Int32Array;
  private readonly gateReads = new GateReads();
  /** In the run under way's list, where the first realisation it made anew (not one of its old run's) stands, or FRESH_NONE. */
  private freshFrom = FRESH_NONE;
  readonly stats: RecogniseStats = { runs: 0, steps: 0, capped: 0, gated: 0, pruned: 0, journaledSweeps: 0 };
  /** The point whose change the update under way is for; -1 between updates. */
  private changing: Point = -1;

  constructor(board: Board, library: readonly Subgoal[]) {
    this.board = board;
    this.scratch = new ScanScratch(board.points);
    this.gateOpen = new Int32Array(board.points);
    this.profiles = [new ProfileTable(board, BLACK), new ProfileTable(board, WHITE)];
    this.cells = [[], []];
    this.nearBase = board.points * 4;
    this.index = new RunIndex(board.points);
    this.change = new MoveChange(board, this.profiles);
    // The tables were just made from the board: the first scan need not make them again.
    this.profilesFresh = true;
    this.setLibrary(library);
  }

  /** Replaces the library and recognises the whole board afresh. */
  setLibrary(library: readonly Subgoal[]): void {
    this.subgoals = library.slice();
    this.grouping = groupStreams(this.subgoals);
    this.recogniseAll();
  }

  get library(): readonly Subgoal[] {
    return this.subgoals;
  }

  /** Recognises the whole board from scratch, for both colours. */
  recogniseAll(): void {
    this.clearJournal();
    this.index.clear();
    for (let i = 0; i < 2; i++) {
      if (!this.profilesFresh) this.profiles[i].refreshAll();
      const cells = this.cells[i];
      cells.length = 0;
      for (let p = 0; p < this.board.points; p++) cells.push([]);
      this.scanBoard(i);
    }
    this.profilesFresh = false;
  }

  play(p: Point, s: Stone): void {
    this.change.recordBefore(p);
    this.board.play(p, s);
    const frame: Frame = { id: ++this.frames, point: p, moves: this.board.moves.length, killed: [], installed: [], cells: [], arenaMark: -1 };
    this.frame = frame;
    try {
      this.update(p, true);
    } finally {
      this.frame = undefined;
    }
    this.journal.push(frame);
    if (this.journal.length > JOURNAL_DEPTH) this.forget(this.journal.shift()!);
  }

  undo(): Point {
    const moves = this.board.moves;
    const top = this.journal[this.journal.length - 1];
    if (top !== undefined && moves.length === top.moves && moves[moves.length - 1] === top.point) {
      this.journal.pop();
      const p = this.board.undo();
      for (const t of this.profiles) t.refreshAround(p);
      this.revert(top);
      return p;
    }
    this.clearJournal();
    if (moves.length > 0) this.change.recordBefore(moves[moves.length - 1]);
    const p = this.board.undo();
    this.update(p, true);
    return p;
  }

  /** Restores the state before the play `frame` recorded. */
  private revert(frame: Frame): void {
    // The runs the play made head the index lists they read, in the order they were made:
    // take their entries out, last first.
    const index = this.index;
    // Runs the play made that no update has indexed since are only in the pending list.
    index.pending.length = 0;
    for (let x = frame.installed.length - 1; x >= 0; x--) {
      const rec = frame.installed[x];
      if (rec.indexed) index.unindex(rec);
    }
    for (let x = frame.installed.length - 1; x >= 0; x--) this.kill(frame.installed[x]);
    for (let x = frame.killed.length - 1; x >= 0; x--) {
      const rec = frame.killed[x];
      if (!rec.alive && rec.born !== frame.id) this.install(rec);
    }
    for (let x = frame.cells.length - 1; x >= 0; x--) {
      const c = frame.cells[x];
      if (c.at < 0) this.cells[c.colour][c.point] = c.was as RunRecord[];
      else this.cells[c.colour][c.point][c.at] = c.was as RunRecord;
    }
    // The reads above the mark are the play's runs', all dead for good now and out of the
    // index (a play is undone only from the top of the journal, and any update not journaled
    // empties the journal first), so their room is given back; else the arena fills with
    // them play after play, and is swept (compactReads) every few moves.
    if (frame.arenaMark >= 0) index.arenaTop = frame.arenaMark;
  }

  /** A frame that can no longer be undone: its dead runs are dead for good. */
  private forget(frame: Frame): void {
    for (const rec of frame.killed) {
      if (rec.journaled && !rec.alive) this.index.indexDead += rec.readLen >> 1;
      rec.journaled = false;
    }
  }

  private clearJournal(): void {
    for (const f of this.journal) this.forget(f);
    this.journal = [];
  }

  /**
   * Brings everything up to date after the content of point q changed (a stone placed there
   * or taken away) on the board directly. With no record of the windows
   * before the change, every window through q or flanked by q counts as changed for both
   * colours; the masks are compared exactly.
   */
  changed(q: Point): void {
    this.clearJournal();
    this.change.touchedAround(q);
    this.update(q, false);
  }

  private update(q: Point, recorded: boolean): void {
    this.changing = q;
    try {
      this.updateAt(q, recorded);
    } finally {
      this.changing = -1;
    }
  }

  private updateAt(q: Point, recorded: boolean): void {
    const index = this.index;
    const change = this.change;
    // Between moves, no run is half made: a safe time to sweep the arena.
    if (index.crowded) this.compactReads();
    if (this.frame !== undefined) this.frame.arenaMark = index.arenaTop;
    change.saveMasks(q);
    for (const t of this.profiles) t.refreshAround(q);
    const heads = index.ensure(this.cells);
    const diffs = change.diff;
    const pairs = change.pairs;
    const cellChanged = change.cellChanged;
    const cells = change.cells;
    const visit = ++this.visits;
    for (let i = 0; i < 2; i++) {
      change.colour(i, recorded);
      // Runs that read something that changed, from points whose masks did not: done again
      // below. Collected first, so that runs made below are not visited.
      let redo: RunRecord[] = [];
      let reopened = false;
      const head = heads[i];
      const entRec = index.entRec;
      const entNext = index.entNext;
      const entInterest = index.entInterest;
      const table = this.profiles[i];
      for (const pd of pairs) {
        const pdDiff = diffs[pd];
        let prev = -1;
        let e = head[pd];
        while (e >= 0) {
          const next = entNext[e];
          const word = entInterest[e];
          // A read that shares nothing with the change is passed over without touching its
          // run's record (half the entries a play walks; a record is often out of cache).
          if ((word & pdDiff) === 0) {
            prev = e;
            e = next;
            continue;
          }
          const rec = entRec[e]!;
          if (!rec.alive && !rec.journaled) {
            // Dead for good: unlink the entry on the way.
            if (prev < 0) head[pd] = next;
            else entNext[prev] = next;
            index.dropDead(e);
          } else {
            if (rec.alive && cellChanged[rec.point] === 0 && rec.visit !== visit && change.readChanged(table, pd, word, pdDiff, rec.empty)) {
              rec.visit = visit;
              if (rec.gate) {
                // A gate that may have opened: its point is looked at again as a whole, below.
                cellChanged[rec.point] = 1;
                cells.push(rec.point);
                reopened = true;
              } else {
                redo.push(rec);
              }
            }
            prev = e;
          }
          e = next;
        }
      }
      // Runs at a point looked at again below are left to that.
      if (reopened) redo = redo.filter((rec) => cellChanged[rec.point] === 0);
      // At a point whose masks changed, or whose gates may have opened, the profile checks
      // afresh, and the runs that read something that changed.
      this.rescanCells(i, cells);
      // Stream by stream too, for the same reason.
      if (redo.length > 1) redo.sort(byStreamThenPoint);
      for (const rec of redo) {
        const fresh = this.runOne(i, rec.point, rec.scan, rec);
        if (fresh === rec) continue;
        const cell = this.cells[i][rec.point];
        const at = cell.indexOf(rec);
        this.frame?.cells.push({ colour: i, point: rec.point, at, was: rec });
        cell[at] = fresh;
      }
      change.clear();
    }
    index.compactIfMostlyDead();
  }

  /**
   * The record of a run that found something, after a move that only took away from what it
   * read (readsChanged, counting gains only): made again, it would find a subset of what it found, as every test it
   * makes is monotone in what it reads (MoveChange.readChanged) — no choice it made would pass a test
   * it failed — so the search is not made: its realisations are sorted instead. Only the
   * point q the update is for has changed. A realisation with q among its nodes or implicit
   * nodes is lost (q was vacant, and is not now; any other way to the same nodes and
   * implicit nodes has q there too); one whose footprint — nodes, pattern points and their
   * flanks — misses q stands as it was. Any other (q a stone in, or a flank of, one of its
   * patterns) leaves the question open, and undefined is returned: the run is made.
   *
   * The record rests on the same reads: what the search would read now is among them (it
   * makes a subset of the same tests). A near read holds the candidate set it found, and
   * each is brought up to date, so that every record's near reads hold the sets of the board
   * as it is when the record is made, as a run's do (nearReadChange compares with them).
   */
  private withoutLost(i: number, prev: RunRecord): RunRecord | undefined {
    const q = this.changing;
    const g = this.board.geometry;
    const k = prev.scan.k;
    let kept: Found[] | undefined;
    for (let x = 0; x < prev.found.length; x++) {
      const f = prev.found[x];
      const sig = f.sig;
      let lost = false;
      for (let t = 0; t < k && !lost; t++) lost = sig[t] === q;
      for (let t = f.implicitAt; t < sig.length && !lost; t++) lost = sig[t] === q;
      if (!lost) {
        for (let t = k; t < f.implicitAt; t++) {
          const w = sig[t];
          if (w < 0) continue;
          for (let u = 0; u < WINDOW; u++) if (g.windowPoints[w * WINDOW + u] === q) return undefined;
          if (g.windowFlanks[w * 2] === q || g.windowFlanks[w * 2 + 1] === q) return undefined;
        }
      }
      if (lost && kept === undefined) kept = prev.found.slice(0, x);
      else if (!lost && kept !== undefined) kept.push(f);
    }
    // The near reads' sets, as they are now.
    const table = this.profiles[i];
    const a = this.index.arena;
    const end = prev.readStart + prev.readLen;
    let stale = false;
    for (let t = prev.readStart; t < end && !stale; t += 2) if (a[t] >= this.nearBase) stale = nearReadNow(table, a[t] - this.nearBase, a[t + 1]) !== a[t + 1];
    this.stats.pruned++;
    if (kept === undefined && !stale) return prev;
    let readStart = prev.readStart;
    if (stale) {
      readStart = this.index.allocReads(prev.readLen);
      const b = this.index.arena;
      for (let t = 0; t < prev.readLen; t += 2) {
        const pd = b[prev.readStart + t];
        b[readStart + t] = pd;
        b[readStart + t + 1] = pd >= this.nearBase ? nearReadNow(table, pd - this.nearBase, b[prev.readStart + t + 1]) : b[prev.readStart + t + 1];
      }
    }
    // A record left with nothing is as a run that found nothing (RunRecord.empty): its reads
    // hold what the search would read, and a realisation now needs a gain among them.
    const found = kept ?? prev.found;
    const empty = found.length === 0;
    const rec = this.newRecord(i, prev.point, prev.scan, readStart, prev.readLen, empty ? NONE : found, empty, false, false);
    this.kill(prev);
    this.install(rec);
    return rec;
  }

  /**
   * Whether a move changed anything the run read (in the way MoveChange.readChanged counts): with
   * `gainsOnly`, only an addition counts, as for a run that found nothing.
   */
  private readsChanged(rec: RunRecord, gainsOnly: boolean): boolean {
    const a = this.index.arena;
    const end = rec.readStart + rec.readLen;
    const table = this.profiles[rec.colour];
    const change = this.change;
    const diff = change.diff;
    for (let t = rec.readStart; t < end; t += 2) if (change.readChanged(table, a[t], a[t + 1], diff[a[t]], gainsOnly)) return true;
    return false;
  }

  /** Moves the reads of the live runs, and of the dead ones an undo may bring back, together. */
  private compactReads(): void {
    const kept: RunRecord[] = [];
    for (const f of this.journal) for (const rec of f.killed) if (!rec.alive && rec.journaled) kept.push(rec);
    if (kept.length > 0) this.stats.journaledSweeps++;
    this.index.compactReads(this.cells, kept);
    // Reads have moved: no frame's mark means anything now.
    for (const f of this.journal) f.arenaMark = -1;
  }

  /**
   * After the masks of `points` changed: at each, every stream whose entry node the point's
   * profile can now carry is run unless its last run from there read nothing that changed;
   * runs of the others are dropped. The runs are made stream by stream, as in scanBoard, so
   * that a machine's tables stay in cache from point to point.
   */
  private rescanCells(i: number, points: readonly Point[]): void {
    const jobs = this.jobs;
    jobs.length = 0;
    const table = this.profiles[i];
    const masks = table.masks;
    for (const p of points) {
      const old = this.cells[i][p];
      this.frame?.cells.push({ colour: i, point: p, at: -1, was: old });
      const cell: RunRecord[] = (this.cells[i][p] = []);
      let o = 0;
      const have = this.board.isEmpty(p) ? table.union[p] : 0;
      if (have !== 0) {
        for (const grp of groupsFor(this.grouping, have)) {
          if (!carriesEntry(masks, p, grp)) continue;
          const streams = grp.streams;
          for (let x = 0; x < streams.length; ) {
            const first = streams[x];
            const end = first.gate === undefined ? x + 1 : grp.gateEnd[x];
            // Old records come in the same order as the streams.
            while (o < old.length && old[o].scan.order < first.order) this.kill(old[o++]);
            if (first.gate !== undefined && gateShut(table, p, first.gate, this.gateReads)) {
              // Shut: one gate record for the gate's streams, the old one if it rests on the same reads.
              if (o < old.length && old[o].gate && old[o].scan === first && this.sameGateReads(old[o])) cell.push(old[o++]);
              else cell.push(this.gateRecord(i, p, first, end - x));
              const last = streams[end - 1].order;
              while (o < old.length && old[o].scan.order <= last) this.kill(old[o++]);
              x = end;
              continue;
            }
            // Open: a gate record that stood for these streams goes, and each is run or kept.
            if (o < old.length && old[o].gate && old[o].scan === first) this.kill(old[o++]);
            for (; x < end; x++) {
              const scan = streams[x];
              while (o < old.length && old[o].scan.order < scan.order) this.kill(old[o++]);
              const prev = o < old.length && old[o].scan === scan ? old[o++] : undefined;
              if (prev !== undefined && !this.readsChanged(prev, prev.empty)) {
                cell.push(prev);
              } else {
                // Run below; until then the slot holds the old run or the placeholder.
                jobs.push({ cell, at: cell.length, point: p, scan, prev });
                cell.push(prev ?? PLACEHOLDER);
              }
            }
          }
        }
      }
      while (o < old.length) this.kill(old[o++]);
    }
    if (jobs.length > 1) jobs.sort(byStreamThenPoint);
    for (const job of jobs) job.cell[job.at] = this.runOne(i, job.point, job.scan, job.prev);
  }

  /**
   * Runs, for colour i, every stream from every point whose profile can carry its entry node:
   * stream by stream rather than point by point. A run is short, and a machine run at point
   * after point keeps its tables and branches in the processor's caches: a run made again at
   * once takes under half the time (docs/BENCHMARKS.md, ninth pass). Each cell still lists
   * its runs in scan order, and nothing else depends on the order in which they are made.
   */
  private scanBoard(i: number): void {
    const table = this.profiles[i];
    const masks = table.masks;
    const groups = this.grouping.groups;
    const at = this.groupPoints;
    const count = this.groupCount.length >= groups.length ? this.groupCount : (this.groupCount = new Int32Array(groups.length));
    while (at.length < groups.length) at.push(new Int32Array(this.board.points));
    count.fill(0);
    for (let p = 0; p < this.board.points; p++) {
      const have = table.union[p];
      if (have === 0 || !this.board.isEmpty(p)) continue;
      for (const grp of groupsFor(this.grouping, have)) if (carriesEntry(masks, p, grp)) at[grp.index][count[grp.index]++] = p;
    }
    const cells = this.cells[i];
    const open = this.gateOpen;
    for (let g = 0; g < groups.length; g++) {
      const n = count[g];
      if (n === 0) continue;
      const points = at[g];
      const streams = groups[g].streams;
      for (let x = 0; x < streams.length; ) {
        const first = streams[x];
        if (first.gate === undefined) {
          for (let t = 0; t < n; t++) cells[points[t]].push(this.runOne(i, points[t], first));
          x++;
          continue;
        }
        // One gate check per point for all the streams of the gate.
        const end = groups[g].gateEnd[x];
        let opened = 0;
        for (let t = 0; t < n; t++) {
          const p = points[t];
          if (gateShut(table, p, first.gate, this.gateReads)) cells[p].push(this.gateRecord(i, p, first, end - x));
          else open[opened++] = p;
        }
        for (; x < end; x++) for (let t = 0; t < opened; t++) cells[open[t]].push(this.runOne(i, open[t], streams[x]));
      }
    }
  }

  /**
   * The record of a shut gate (RunRecord.gate) at p, standing for `streams` streams from
   * `first` on, from the reads gateShut just left in gateReads.
   */
  private gateRecord(i: number, p: Point, first: ScanStream, streams: number): RunRecord {
    this.stats.gated += streams;
    const reads = this.gateReads.words;
    const n = this.gateReads.count;
    const readStart = this.index.allocReads(n);
    const a = this.index.arena;
    for (let t = 0; t < n; t += 2) {
      a[readStart + t] = this.nearBase + reads[t];
      a[readStart + t + 1] = reads[t + 1];
    }
    const rec = this.newRecord(i, p, first, readStart, n, NONE, true, true, false);
    this.install(rec);
    return rec;
  }

  /** A record, not yet installed; every record is made here, so that all share one shape. */
  private newRecord(i: number, p: Point, scan: ScanStream, readStart: number, readLen: number, found: readonly Found[], empty: boolean, gate: boolean, capped: boolean): RunRecord {
    return {
      colour: i,
      point: p,
      scan,
      readStart,
      readLen,
      found,
      empty,
      capped,
      alive: false,
      journaled: false,
      indexed: false,
      born: this.frame?.id ?? 0,
      visit: 0,
      gate,
    };
  }

  /** Whether the gate record `rec` rests on just the reads gateShut left in gateReads. */
  private sameGateReads(rec: RunRecord): boolean {
    const reads = this.gateReads.words;
    const n = this.gateReads.count;
    if (rec.readLen !== n) return false;
    const a = this.index.arena;
    for (let t = 0; t < n; t += 2) if (a[rec.readStart + t] !== this.nearBase + reads[t] || a[rec.readStart + t + 1] !== reads[t + 1]) return false;
    return true;
  }

  /**
   * One run, recorded: its realisations join the colour's, and the index learns what it read.
   * `previous`: the record of the same run before, whose realisation objects are reused when
   * found the same way.
   */
  private runOne(i: number, p: Point, scan: ScanStream, previous?: RunRecord): RunRecord {
    if (previous !== undefined && !previous.empty && !previous.capped && this.changing >= 0 && !this.readsChanged(previous, true)) {
      const rec = this.withoutLost(i, previous);
      if (rec !== undefined) return rec;
    }
    this.stats.runs++;
    this.freshFrom = FRESH_NONE;
    this.current = scan;
    this.currentFound = NONE;
    this.previous = previous;
    const scratch = this.scratch;
    this.stats.steps += scan.machine.scan(this.profiles[i], p, scratch, this.onFound);
    if (scan.machine.capped) this.stats.capped++;
    const n = scratch.readCount;
    const nn = scratch.nearCount;
    const nearBase = this.nearBase;
    // Most runs done again find what they found before the same way: keep the old record.
    const capped = scan.machine.capped;
    if (previous !== undefined && previous.readLen === 2 * (n + nn) && previous.empty === (this.currentFound.length === 0 && !capped) && sameList(previous.found, this.currentFound)) {
      let same = true;
      const a = this.index.arena;
      for (let t = 0; t < n && same; t++) {
        const pd = scratch.readPairs[t];
        same = a[previous.readStart + 2 * t] === pd && a[previous.readStart + 2 * t + 1] === scratch.interest[pd];
      }
      for (let t = 0; t < nn && same; t++) {
        const at = previous.readStart + 2 * (n + t);
        same = a[at] === nearBase + scratch.nearPairs[t] && a[at + 1] === scratch.nearWords[t];
      }
      if (same) {
        scratch.clearReads();
        return previous;
      }
    }
    const readStart = this.index.allocReads(2 * (n + nn));
    scratch.moveReads(this.index.arena, readStart, nearBase);
    const rec = this.newRecord(i, p, scan, readStart, 2 * (n + nn), this.currentFound, this.currentFound.length === 0 && !capped, false, capped);
    if (previous !== undefined) this.kill(previous);
    this.install(rec);
    return rec;
  }

  /**
   * A run's realisations join the colour's (they are the live runs' found lists), and the
   * index is to learn what it read (see RunIndex.pending).
   */
  private install(rec: RunRecord): void {
    rec.alive = true;
    rec.journaled = false;
    this.frame?.installed.push(rec);
    this.index.added(rec);
  }

  /** A run's realisations leave the colour's: no other run finds them (see collect). */
  private kill(rec: RunRecord): void {
    if (!rec.alive) return;
    rec.alive = false;
    if (this.frame !== undefined) {
      this.frame.killed.push(rec);
      rec.journaled = true;
    } else if (rec.indexed) {
      this.index.indexDead += rec.readLen >> 1;
    }
  }

  /**
   * A realisation the current run found: kept once, the first way it was found. No other run
   * can find it: the machine reports a realisation only under its least labelling (the tuple
   * of node points is less than its image under every other automorphism of the
   * description), whose entry node is where this run started. So a realisation's run is its
   * one holder, and the colour's realisations are the live runs' lists, with no map to keep.
   */
  private collect(m: StreamMachine): void {
    let list = this.currentFound;
    if (list === NONE) this.currentFound = list = [];
    // Found the same way as by this run before (same nodes, same windows): the same
    // realisation, as a stone in one of those windows would have changed its count.
    const prev = this.previous;
    if (prev !== undefined) {
      // Most often in the same order as before: try the next one first.
      let same = prev.found[list.length] as Found | undefined;
      if (same === undefined || !m.hasSignature(same.sig)) {
        same = undefined;
        for (const f of prev.found) {
          if (m.hasSignature(f.sig)) {
            same = f;
            break;
          }
        }
      }
      if (same !== undefined) {
        // A run reports each way once (its signature fixes every choice), so `same`, that
        // way, is not in the list yet; and the old run's realisations are distinct. So the
        // list can hold this realisation only as one made anew in this run, found another
        // way first (from freshFrom on).
        for (let x = this.freshFrom; x < list.length; x++) if (sameRealisation(list[x], same.sig, this.current!.k, same.implicitAt)) return;
        list.push(same);
        return;
      }
    }
    const k = this.current!.k;
    const sig = m.account();
    const implicitAt = m.signatureLength();
    for (const r of list) if (sameRealisation(r, sig, k, implicitAt)) return;
    if (this.freshFrom > list.length) this.freshFrom = list.length;
    list.push({ sig, implicitAt, real: undefined });
  }

  /** The Realisation object of a found realisation, built on first use. */
  private realisation(f: Found, colour: Colour, subgoal: Subgoal): Realisation {
    return (f.real ??= new FoundRealisation(subgoal, colour, this.board.geometry, f.sig, f.implicitAt));
  }

  /**
   * A check for tests: the live gate records (RunRecord.gate) that are not what a gate check
   * at their point gives now — shut, on the same reads — as "colour point order". A sound
   * recogniser has none: a gate record stays only while nothing it read has grown, and its
   * point's masks are as they were.
   */
  staleGates(): string[] {
    const out: string[] = [];
    for (let i = 0; i < 2; i++) {
      for (const cell of this.cells[i]) {
        for (const rec of cell) {
          if (!rec.gate || !rec.alive) continue;
          if (!gateShut(this.profiles[i], rec.point, rec.scan.gate!, this.gateReads) || !this.sameGateReads(rec)) out.push(`${i} ${rec.point} ${rec.scan.order}`);
        }
      }
    }
    return out;
  }

  /** The realisations of one colour, in library order, then by nodes, then by implicit nodes. */
  /**
   * The colour's realisations in the order the board holds them (by the point their run
   * starts from): what `realisations` lists, without sorting it — for a search that looks at
   * every one anyway and plays and takes back a move between two looks.
   */
  live(colour: Colour): Realisation[] {
    const list: Realisation[] = [];
    for (const cell of this.cells[colour === 'black' ? 0 : 1]) {
      for (const rec of cell) if (rec.alive) for (const f of rec.found) list.push(this.realisation(f, colour, rec.scan.subgoal));
    }
    return list;
  }

  realisations(colour: Colour): Realisation[] {
    const order = new Map(this.subgoals.map((s, i) => [s, i]));
    const list: Realisation[] = [];
    for (const cell of this.cells[colour === 'black' ? 0 : 1]) {
      for (const rec of cell) if (rec.alive) for (const f of rec.found) list.push(this.realisation(f, colour, rec.scan.subgoal));
    }
    return list.sort((a, b) => {
      const d = order.get(a.subgoal)! - order.get(b.subgoal)!;
      if (d !== 0) return d;
      return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    });
  }
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** One-shot recognition of a board for one or both colours. */
export function recognise(board: Board, library: readonly Subgoal[]): { black: Realisation[]; white: Realisation[] } {
  const r = new Recogniser(board, library);
  return { black: r.realisations('black'), white: r.realisations('white') };
}
