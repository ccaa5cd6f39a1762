/**
 * The control-stream interpreter: given a board, a colour and a candidate point for the
 * stream's entry node (node 1 in the paper's scan), it scans the stream forward, making a
 * choice at each B, C and E element; when an element cannot be met it backscans to the last
 * choice and tries the next; after the last E it reports a realisation and backscans again,
 * so every realisation with that entry point is found. It is one loop over a program
 * counter, with a hard cap on steps.
 *
 * What a realisation is, exactly, is set out in docs/DESIGN.md ("Descriptions"):
 * - each explicit node is a distinct vacant point; the nodes of each line lie on one line
 *   of the board, and the lines through one node have distinct directions;
 * - on each of its lines a node with spec `n` (`n'`) lies in one (two) possible 5-patterns
 *   along that direction holding exactly n − 1 stones of the colour, and those patterns hold
 *   every other node of the line whose spec there is at least as high;
 * - no pattern holds an explicit node its line does not name, and the patterns of two
 *   different lines share no vacant point but explicit nodes on both.
 *
 * Four things cut the search early without changing what is found or in which order:
 * - a node's mask along a line must hold not only its own spec's atom but those of the
 *   line-mates whose spec is no higher, whose patterns pass through it (`selfAtoms`);
 * - a C element places only points of its near set (attemptC): those whose masks also hold,
 *   off the line, every atom the node's other lines need;
 * - once a line has a direction (B, C, D), every placed node on it must still have enough
 *   patterns along it (one, or two for `n'`) with the right number of stones that hold its
 *   placed line-mates of at least its spec and no other placed explicit node — the E
 *   element's own test, on the nodes placed so far;
 * - conflict-directed backjumping: when every alternative of an element fails, the search
 *   backs up to the latest element the failures depended on (which placed a node or named a
 *   line involved), skipping choices in between that cannot help. An E's failure depends on
 *   where the nodes on its board line are and which way the line runs, and on the E's
 *   whose cover marks its options met; a choice with a realisation below it is backed up
 *   from one at a time.
 *
 * A `StreamMachine` is made once per stream (`machineFor` keeps one per stream) and reused for
 * every board and candidate; a run allocates nothing until it finds a realisation. Its
 * tables are typed arrays decoded from the stream once (streamTables.ts: the machine extends
 * StreamTables, so they are its own fields). Runs of different machines must not nest when
 * they share a `ScanScratch`.
 *
 * A run also logs what it read, for incremental recognition (recognise.ts): which atoms it
 * tested in which masks (point and direction), through which points it looked along
 * which direction for possible windows holding how many stones, and each C element's near
 * set with what it asked for (readLog.ts: ScanScratch, near reads). Nothing else about the board
 * decides a run: a candidate point it rejects as occupied has a zero mask, and the emptiness
 * of a pattern's points is part of its window's state (a stone there changes its count or
 * makes it impossible). So a run is sure to find the same realisations again after a move
 * that changed none of the atoms it tested, no window of a kind it looked for, and no near
 * set it used.
 */
import type { Board } from '../rules/board.ts';
import { DEFAULT_STEP_CAP, type ControlStream } from './controlStream.ts';
import { WINDOW } from '../rules/geometry.ts';
import { directionWindows, distinctDirections, highestBit, lowestBit, type DirectionWindows, type ProfileTable } from './profile.ts';
import { rawFromSignature, type RawRealisation } from './rawRealisation.ts';
import { CoverMap, NEAR_OTHERS_SHIFT, NEAR_REACH, NEAR_SET_SHIFT, nearSet, READ_MASK_SHIFT, ScanScratch } from './readLog.ts';
import { MAX_ELEMENTS, MAX_LINES, MAX_NODES, OP_A, OP_B, OP_C, OP_D, OP_E, StreamTables } from './streamTables.ts';
import { MAX_SIZE, type Point } from '../rules/types.ts';

export interface RunStats {
  steps: number;
  capped: boolean;
}

/** Off the line: farther than any window reaches. */
const OFF = 99;

/** The 17 points from eight steps before a line's first node to eight after, as bits. */
const SPAN17 = (1 << 17) - 1;

/**
 * For E's options: which vacant sets (17-bit masks) one working-out has met, as the stamp
 * of that working-out. Shared by every machine, as working-outs never nest.
 */
const vacantSeen = new Float64Array(SPAN17 + 1);
let vacantStamp = 0;

const machines = new WeakMap<ControlStream, StreamMachine>();
/**
 * The working state of a run, one set shared by every machine: node points, line
 * directions, each element's choice and conflict set, the E elements' options, and scratch
 * for pattern checks. Runs never nest — a run refuses to start while another reports a
 * realisation — so one set serves them all. The machines read it here, not through fields of
 * their own: a machine is run once or twice in a play, and every table it reached through
 * itself was a cache miss; this set stays in cache from run to run (docs/BENCHMARKS.md,
 * fourteenth pass). A machine keeps only its stream's tables. Every run leaves the set clean;
 * `dirty` marks a run cut off by an exception.
 */
const runState = {
  /** P[x]: node x's point, -1 while unplaced. */
  P: new Int32Array(MAX_NODES + 1).fill(-1),
  /** Each line's direction, -1 while unnamed; each node's directions taken by its lines. */
  lineDir: new Int8Array(MAX_LINES).fill(-1),
  usedDirs: new Uint8Array(MAX_NODES + 1),
  /**
   * Per node line slot, for the node's current point: the directions along which its mask
   * holds the slot's atoms (set by logNode when the node is placed; masks do not change
   * during a run).
   */
  slotDirs: new Int32Array((MAX_NODES + 1) * 4),
  /**
   * Conflict-directed backjumping (see scan): which element placed each node and named each
   * line; alt[pc], the next alternative of element pc; conf[pc], the elements whose choices
   * made its alternatives fail so far (a bit per element); sol[pc], whether a realisation was
   * found below its current choice.
   */
  placedBy: new Int32Array(MAX_NODES + 1),
  dirBy: new Int32Array(MAX_LINES),
  alt: new Int32Array(MAX_ELEMENTS),
  conf: new Int32Array(MAX_ELEMENTS),
  sol: new Uint8Array(MAX_ELEMENTS),
  /**
   * Per C element: its near set, worked out when the element is first tried with its f and
   * direction, and used again when it is taken up after a backtrack (nothing before it has
   * changed then).
   */
  nearSets: new Int32Array(MAX_ELEMENTS),
  /** Scratch for pattern checks: fitting windows and their vacant masks (optionsFor), positions along a line (linePositions). */
  fits: new Int32Array(WINDOW),
  wmask: new Int32Array(WINDOW),
  offs: new Int32Array(MAX_NODES),
  /** The labels of the placed nodes on the board line of linePositions' line, ascending. */
  onLine: new Int32Array(MAX_NODES),
  digits: new Int32Array(MAX_NODES),
  /**
   * Per E element: the placement it last worked out options for (`generation`), and its
   * line's direction then. `generation` is bumped whenever any machine places a node, so a
   * working-out is never met again by a later run.
   */
  eGen: new Float64Array(MAX_ELEMENTS).fill(-1),
  eDir: new Int8Array(MAX_ELEMENTS).fill(-1),
  /** Per E element: the elements its options rest on (linePositions' lineBits when they were worked out). */
  eBits: new Int32Array(MAX_ELEMENTS),
  generation: 0,
  /** Per E element: the points it marked in the cover, eMarkedCount[pc] of them. */
  eMarked: Array.from({ length: MAX_ELEMENTS }, (): number[] => []),
  eMarkedCount: new Int32Array(MAX_ELEMENTS),
  /** Per E element: option count, each option's vacant mask and its choice per member. */
  eOptCount: new Int32Array(MAX_ELEMENTS),
  eOptMask: Array.from({ length: MAX_ELEMENTS }, (): number[] => []),
  eOptPick: Array.from({ length: MAX_ELEMENTS }, (): number[] => []),
  /** Per E element: each member's choices (two window slots each, the second -1 for a single), from eChoiceStart[pc * 8 + m], eChoiceCount of them. */
  eChoices: Array.from({ length: MAX_ELEMENTS }, (): number[] => []),
  eChoiceMask: Array.from({ length: MAX_ELEMENTS }, (): number[] => []),
  eChoiceStart: new Int32Array(MAX_ELEMENTS * 8),
  eChoiceCount: new Int32Array(MAX_ELEMENTS * 8),
  /** Per E element: the option taken. */
  eTaken: new Int32Array(MAX_ELEMENTS),
  /** Scratch for StreamMachine.account (small integers only, so that V8 keeps it a packed array of them). */
  account: new Array<number>(64).fill(0),
  dirty: false,
  reporting: false,
};

/**
 * The machine of a stream, made on first use and kept as long as the stream is.
 * `automorphisms`: the description's (Subgoal.automorphisms), for the machine to report each
 * realisation under its least labelling only (see StreamMachine); the same for every call
 * with one stream, as a stream is compiled from one description. Required, not defaulted:
 * the recogniser counts on each realisation having one run that can find it (recognise.ts,
 * collect), which a machine kept for a stream without them would break for every later user.
 */
export function machineFor(stream: ControlStream, automorphisms: readonly (readonly number[])[]): StreamMachine {
  let m = machines.get(stream);
  if (m === undefined) machines.set(stream, (m = new StreamMachine(stream, undefined, automorphisms)));
  return m;
}

/** The backtracking search over one stream's tables (see the file's header). */
export class StreamMachine extends StreamTables {
  private readonly ownCover: CoverMap | undefined;
  /** The elements a failed lineFeasible depended on. */
  private lineBits = 0;
  // Per-run context.
  private board!: Board;
  private dw!: DirectionWindows;
  private table!: ProfileTable;
  private masks!: Uint16Array;
  private windows!: Int32Array;
  private cover!: Int32Array;
  private scratch!: ScanScratch;
  private steps = 0;
  /** Whether the last run was cut short by the step cap. */
  capped = false;
  /** How many labels linePositions left in runState.onLine. */
  private onCount = 0;

  /**
   * A run takes the board from its profile table. `cover` (optional) is used by `run`.
   * `automorphisms` (perm[i - 1] = image of node i): report only least labellings; none, to
   * report every labelling (as tools and tests that read one run do).
   */
  constructor(stream: ControlStream, cover?: CoverMap, automorphisms: readonly (readonly number[])[] = []) {
    super(stream, automorphisms);
    this.ownCover = cover;
  }

  /**
   * Runs the stream with its entry node at `start` for the colour of `profiles`, calling
   * `emit` for every realisation found. Returns the steps taken and whether the cap cut it short.
   */
  run(profiles: ProfileTable, start: Point, emit: (r: RawRealisation) => void, cap = DEFAULT_STEP_CAP): RunStats {
    const scratch = new ScanScratch(profiles.board.points, this.ownCover);
    const steps = this.scan(profiles, start, scratch, (m) => emit(m.report()), cap);
    return { steps, capped: this.capped };
  }

  /**
   * The fast form of `run`: calls `found(this)` for every realisation, while the machine's
   * state describes it (`account`, `report`), and logs what it reads in
   * `scratch`, which the caller clears. Returns the steps taken; `capped` tells whether the
   * cap cut the run short.
   */
  scan(profiles: ProfileTable, start: Point, scratch: ScanScratch, found: (m: StreamMachine) => void, cap = DEFAULT_STEP_CAP): number {
    const board = profiles.board;
    this.capped = false;
    if (!board.isEmpty(start)) return 0;
    if (this.table !== profiles) {
      this.board = board;
      this.dw = directionWindows(board.geometry);
      this.table = profiles;
      this.masks = profiles.masks;
      this.windows = profiles.windows;
    }
    this.scratch = scratch;
    this.cover = scratch.cover;
    const P = runState.P;
    if (runState.reporting) throw new Error('a stream run was started while another reported a realisation: runs must not nest');
    // Every run leaves the state clean, unless a callback threw in the middle of it.
    if (runState.dirty) {
      P.fill(-1);
      runState.usedDirs.fill(0);
      runState.lineDir.fill(-1);
      runState.eMarkedCount.fill(0);
      runState.dirty = false;
    }
    const entry = this.entry;
    // The A element: the entry node's whole pattern entry, before any state is touched.
    P[entry] = start;
    this.logNode(entry, -1, -1);
    const fits = this.nodeFits(entry);
    P[entry] = -1;
    if (!fits) return 1;
    this.steps = 0;
    const n = this.n;
    const elOp = this.elOp;
    const alt = runState.alt;
    const conf = runState.conf;
    const sol = runState.sol;
    // Backjumping needs a bit per element; longer streams backtrack one element at a time.
    const jumps = n <= 31;
    runState.dirty = true;
    let pc = 0;
    alt[0] = 0;
    conf[0] = 0;
    sol[0] = 0;
    while (pc >= 0) {
      if (this.steps > cap) {
        this.capped = true;
        break;
      }
      if (pc === n) {
        runState.reporting = true;
        try {
          found(this);
        } finally {
          runState.reporting = false;
        }
        for (let x = 0; x < n; x++) sol[x] = 1;
        pc--;
        this.retract(pc);
        continue;
      }
      const taken = this.attempt(pc, alt[pc], start);
      if (taken >= 0) {
        if (elOp[pc] === OP_C || elOp[pc] === OP_A) runState.generation++;
        alt[pc] = taken + 1;
        pc++;
        if (pc < n) {
          alt[pc] = 0;
          conf[pc] = 0;
          sol[pc] = 0;
        }
        continue;
      }
      // Every alternative of pc failed. Unless a realisation was found below it, the failures
      // depended only on the elements in conf[pc]: back up to the latest of them, skipping the
      // choices in between, which cannot help, and hand it the rest of the conflict. (An E's
      // options rest on where the nodes on its line's board line are and which way it runs;
      // an option fails on the cover marks of other lines, made by their E's choices.)
      let h = pc - 1;
      if (jumps && sol[pc] === 0) {
        const cs = conf[pc] & ((1 << pc) - 1);
        h = highestBit(cs);
        if (h >= 0) conf[h] |= cs & ~(1 << h);
      }
      for (let x = pc - 1; x >= h && x >= 0; x--) this.retract(x);
      pc = h;
    }
    // Leave the state and the shared cover marks clean for the next run, even after the cap.
    for (; pc >= 0; pc--) this.retract(pc);
    runState.dirty = false;
    return this.steps;
  }

  /**
   * The realisation being reported as numbers, its *signature*: its node points by label, then
   * for each E element each node's windows on that line (two slots, the second -1 for a
   * single pattern). Written at the start of `out`; returns its length (signatureLength()).
   */
  private writeSignature(out: number[]): number {
    let at = 0;
    for (let x = 1; x <= this.k; x++) out[at++] = runState.P[x];
    for (let pc = 0; pc < this.n; pc++) {
      if (this.elOp[pc] !== OP_E) continue;
      const choices = runState.eChoices[pc];
      for (let m = 0; m < this.lineLen[this.elLine[pc]]; m++) {
        const c = this.takenSlot(pc, m);
        out[at++] = choices[c];
        out[at++] = choices[c + 1];
      }
    }
    return at;
  }

  /**
   * The signature of the realisation being reported followed by its implicit nodes, ascending,
   * in one array: what a recogniser keeps of a realisation it has not met before
   * (`signatureLength()` tells where the implicit nodes start).
   */
  account(): number[] {
    const len = this.signatureLength();
    let count = len;
    for (let pc = 0; pc < this.n; pc++) if (this.elOp[pc] === OP_E) count += runState.eMarkedCount[pc];
    // Written in shared scratch and copied out: `new Array(count)` took most of this method's time.
    const out = runState.account;
    while (out.length < count) out.push(0);
    let at = this.writeSignature(out);
    for (let pc = 0; pc < this.n; pc++) {
      if (this.elOp[pc] !== OP_E) continue;
      const marked = runState.eMarked[pc];
      for (let t = 0; t < runState.eMarkedCount[pc]; t++) {
        // Insertion into the sorted tail.
        const x = marked[t];
        let j = at - 1;
        for (; j >= len && out[j] > x; j--) out[j + 1] = out[j];
        out[j + 1] = x;
        at++;
      }
    }
    return out.slice(0, count);
  }

  /** How long a signature of this stream is: k node points, then two window slots per node on each E's line. */
  signatureLength(): number {
    if (this.sigLength < 0) {
      let count = this.k;
      for (let pc = 0; pc < this.n; pc++) if (this.elOp[pc] === OP_E) count += 2 * this.lineLen[this.elLine[pc]];
      this.sigLength = count;
    }
    return this.sigLength;
  }
  private sigLength = -1;

  /**
   * Whether the realisation being reported has signature `sig` (writeSignature, without
   * building it); `sig` may run on past the signature (as account() does), and the rest is not
   * compared.
   */
  hasSignature(sig: readonly number[]): boolean {
    let at = 0;
    for (let x = 1; x <= this.k; x++) if (sig[at++] !== runState.P[x]) return false;
    for (let pc = 0; pc < this.n; pc++) {
      if (this.elOp[pc] !== OP_E) continue;
      const choices = runState.eChoices[pc];
      for (let m = 0; m < this.lineLen[this.elLine[pc]]; m++) {
        const c = this.takenSlot(pc, m);
        if (sig[at++] !== choices[c] || sig[at++] !== choices[c + 1]) return false;
      }
    }
    return at <= sig.length;
  }

  /** Where in E element pc's choices the windows of its line's member m sit, for the option taken. */
  private takenSlot(pc: number, m: number): number {
    const len = this.lineLen[this.elLine[pc]];
    return (runState.eChoiceStart[pc * 8 + m] + runState.eOptPick[pc][runState.eTaken[pc] * len + m]) * 2;
  }

  /** The realisation being reported, as a plain object. */
  report(): RawRealisation {
    const account = this.account();
    return rawFromSignature(this.stream, this.board.geometry, account, account.slice(this.signatureLength()));
  }

  /** Logs interest bits (packed as in ScanScratch) at pair pd. */
  private read(pd: number, bits: number): void {
    const s = this.scratch;
    const had = s.interest[pd];
    if ((had & bits) === bits) return;
    if (had === 0) s.readPairs[s.readCount++] = pd;
    s.interest[pd] = had | bits;
  }

  /**
   * Logs the tests node j, just placed, will have made of its masks while it stays there:
   * for each line slot and direction, whether the mask holds the slot's atoms. A test that
   * passes can only fail if one of those bits goes; one that fails can only pass if the bits
   * it misses come. Notes the directions that pass in slotDirs.
   *
   * A node a C element placed (`skipSlot`, `skipDir`: the slot of the element's line and
   * its direction; -1 for the entry) makes fewer tests than that, and only those are
   * logged. Its slot on the C's line is only ever tested along that line's direction, and
   * the near read already holds that its atoms are there (the point is in the near set).
   * Its other lines can never take that direction, which the node already uses. So
   * neither is logged: a move that changes only those bits cannot change the run.
   */
  private logNode(j: number, skipSlot: number, skipDir: number): void {
    const p = runState.P[j];
    const base = p * 4;
    const cnt = this.nodeLineCount[j];
    const slotDirs = runState.slotDirs;
    const atoms = this.nodeAtoms;
    const masks = this.masks;
    for (let i = 0; i < cnt; i++) slotDirs[j * 4 + i] = 0;
    for (let d = 0; d < 4; d++) {
      const m = masks[base + d];
      let mi = 0;
      for (let i = 0; i < cnt; i++) {
        const atom = atoms[j * 4 + i];
        if (atom !== 0 && (m & atom) === atom) {
          if (i !== skipSlot) mi |= atom;
          slotDirs[j * 4 + i] |= 1 << d;
        } else if (i !== skipSlot) {
          mi |= atom & ~m;
        }
      }
      if (mi !== 0 && d !== skipDir) this.read(base + d, mi << READ_MASK_SHIFT);
    }
  }

  /** Logs that the run looked at the windows along d through p (`what`: window interest bits). */
  private readWindows(p: Point, d: number, what: number): void {
    this.read(p * 4 + d, what);
  }


  /**
   * Can node j still meet its whole entry, given the directions its lines have so far? Each
   * line needs its atoms (selfAtoms) in j's mask along a direction of its own.
   */
  private nodeFits(j: number): boolean {
    const slotDirs = runState.slotDirs;
    const cnt = this.nodeLineCount[j];
    let taken = 0;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let nFree = 0;
    for (let i = 0; i < cnt; i++) {
      const a = slotDirs[j * 4 + i];
      const d = runState.lineDir[this.nodeLineIds[j * 4 + i]];
      if (d >= 0) {
        if ((a & (1 << d)) === 0 || (taken & (1 << d)) !== 0) return false;
        taken |= 1 << d;
      } else {
        if (a === 0) return false;
        if (nFree === 0) a0 = a;
        else if (nFree === 1) a1 = a;
        else if (nFree === 2) a2 = a;
        else a3 = a;
        nFree++;
      }
    }
    if (nFree === 0) return true;
    return distinctDirections(a0 & ~taken, a1 & ~taken, a2 & ~taken, a3 & ~taken, nFree);
  }

  /**
   * Can every placed node on `line` (which has a direction) still find its patterns along it:
   * one (two for n') possible windows with n − 1 stones that hold its placed line-mates of at
   * least its spec and no other placed explicit node? With `placed` > 0, that node was just
   * placed on the line and the others were fine before: only it, and the nodes whose patterns
   * must hold it, are checked.
   */
  private lineFeasible(line: number, placed: number): boolean {
    const d = runState.lineDir[line];
    const st = this.lineStart[line];
    const len = this.lineLen[line];
    const P = runState.P;
    const k = this.k;
    this.linePositions(line);
    const placedN = placed > 0 ? this.lineSpecN[line * (k + 1) + placed] : 0;
    for (let m = 0; m < len; m++) {
      const j = this.memNode[st + m];
      if (P[j] < 0) continue;
      const nm = this.memN[st + m];
      if (placed > 0 && j !== placed && nm > placedN) continue;
      if (nm < 1) return false;
      this.readWindows(P[j], d, 1 << (nm - 1));
      const fit = this.fitStarts(line, m);
      // Two patterns for n', one for n.
      if (fit === 0 || (this.memDashed[st + m] === 1 && (fit & (fit - 1)) === 0)) return false;
    }
    return true;
  }

  /**
   * Fills `offs[x - 1]` with the position along the board line of `line` (which has a
   * direction) of every placed node on that board line, OFF for the rest.
   */
  private linePositions(line: number): void {
    const d = runState.lineDir[line];
    const st = this.lineStart[line];
    const P = runState.P;
    const lineOf = this.dw.lineOf;
    const posOf = this.dw.posOf;
    const offs = runState.offs;
    // Also notes, in lineBits, the elements that placed those nodes and named the line.
    let origin = -1;
    for (let m = 0; m < this.lineLen[line] && origin < 0; m++) origin = P[this.memNode[st + m]];
    const oline = lineOf[origin * 4 + d];
    let bits = 1 << runState.dirBy[line];
    const on = runState.onLine;
    let count = 0;
    for (let x = 1; x <= this.k; x++) {
      const p = P[x];
      if (p >= 0 && lineOf[p * 4 + d] === oline) {
        offs[x - 1] = posOf[p * 4 + d];
        bits |= 1 << runState.placedBy[x];
        on[count++] = x;
      } else {
        offs[x - 1] = OFF;
      }
    }
    this.onCount = count;
    this.lineBits = bits;
  }

  /**
   * The patterns member m of `line` may take, given the placed nodes (positions from
   * `linePositions`): as a window-start set (see ProfileTable.windows), the possible windows
   * through it along the line with n − 1 stones that hold every placed line-mate of at least
   * its spec and no placed explicit node off the line.
   */
  private fitStarts(line: number, m: number): number {
    const at = this.lineStart[line] + m;
    const j = this.memNode[at];
    const offs = runState.offs;
    const tp = offs[j - 1] - HOLDING_BIAS;
    const hold = this.memHold[at];
    const off = this.lineOff[line];
    let fit = (this.windows[runState.P[j] * 4 + runState.lineDir[line]] >> (5 * (this.memN[at] - 1))) & 31;
    const on = runState.onLine;
    for (let i = 0; i < this.onCount && fit !== 0; i++) {
      const x = on[i];
      // The windows holding the point t steps from j's are those starting at bits t … t + 4.
      if (((hold >> x) & 1) !== 0) fit &= STARTS_HOLDING[offs[x - 1] - tp];
      else if (((off >> x) & 1) !== 0) fit &= ~STARTS_HOLDING[offs[x - 1] - tp];
    }
    return fit;
  }

  private attempt(pc: number, a: number, start: Point): number {
    switch (this.elOp[pc]) {
      case OP_A:
        if (a > 0) return -1;
        this.steps++;
        runState.P[this.elNode[pc]] = start;
        runState.placedBy[this.elNode[pc]] = pc;
        return 0;
      case OP_B:
        return this.attemptB(pc, a);
      case OP_C:
        return this.attemptC(pc, a);
      case OP_D:
        return a > 0 ? -1 : this.attemptD(pc, this.elLine[pc]);
      default:
        return this.attemptE(pc, this.elLine[pc], a);
    }
  }

  private attemptB(pc: number, a: number): number {
    const node = this.elNode[pc];
    const line = this.elLine[pc];
    const slot = node * 4 + this.elSlot[pc];
    const after = this.elAfter[pc];
    const from = after >= 0 ? Math.max(a, runState.lineDir[after] + 1) : a;
    const placed = 1 << runState.placedBy[node];
    let why = after >= 0 ? 1 << runState.dirBy[after] : 0;
    for (let d = from; d < 4; d++) {
      this.steps++;
      if ((runState.usedDirs[node] & (1 << d)) !== 0) {
        why |= this.directedBy(node, d);
        continue;
      }
      if ((runState.slotDirs[slot] & (1 << d)) === 0) {
        why |= placed;
        continue;
      }
      runState.lineDir[line] = d;
      runState.dirBy[line] = pc;
      runState.usedDirs[node] |= 1 << d;
      if (!this.nodeFits(node)) why |= placed | this.directedBits(node);
      else if (!this.aloneAlong(node, d) && !this.lineFeasible(line, node)) why |= placed | this.lineBits;
      else {
        runState.conf[pc] |= why;
        return d;
      }
      runState.lineDir[line] = -1;
      runState.usedDirs[node] &= ~(1 << d);
    }
    runState.conf[pc] |= why;
    return -1;
  }

  /**
   * Whether no other placed node lies within four steps of node j along d. Then a line B
   * names through j along d, on which no other node is placed, is feasible: j's patterns
   * along it need only the right number of stones, which its mask (read when j was placed)
   * already showed.
   */
  private aloneAlong(j: number, d: number): boolean {
    const P = runState.P;
    const lineOf = this.dw.lineOf;
    const posOf = this.dw.posOf;
    const line = lineOf[P[j] * 4 + d];
    const pos = posOf[P[j] * 4 + d];
    for (let x = 1; x <= this.k; x++) {
      const p = P[x];
      if (x === j || p < 0 || lineOf[p * 4 + d] !== line) continue;
      const t = posOf[p * 4 + d] - pos;
      if (t >= -(WINDOW - 1) && t <= WINDOW - 1) return false;
    }
    return true;
  }

  /** The element that named the line of node j running along direction d. */
  private directedBy(j: number, d: number): number {
    for (let i = 0; i < this.nodeLineCount[j]; i++) {
      const l = this.nodeLineIds[j * 4 + i];
      if (runState.lineDir[l] === d) return 1 << runState.dirBy[l];
    }
    return 0;
  }

  /** The elements that named node j's lines so far. */
  private directedBits(j: number): number {
    let bits = 0;
    for (let i = 0; i < this.nodeLineCount[j]; i++) {
      const l = this.nodeLineIds[j * 4 + i];
      if (runState.lineDir[l] >= 0) bits |= 1 << runState.dirBy[l];
    }
    return bits;
  }

  /**
   * Candidates are the points 1..4 steps either way from the earlier node f along the line, in
   * that order: -4..-1, 1..4, inside a possible 5-pattern through f, whose mask along the
   * line holds the element's atoms and whose other masks hold the atoms of the node's other
   * lines (which must run along other directions) — the near set, one bit per point, read
   * off the profile table's line bit boards. (An occupied point has zero masks.) The rest
   * are tried one by one: placed, with the node's whole entry and the line's patterns checked.
   */
  private attemptC(pc: number, a: number): number {
    const node = this.elNode[pc];
    const line = this.elLine[pc];
    const d = runState.lineDir[line];
    const f = runState.P[this.elFrom[pc]];
    const atom = this.elAtom[pc];
    let set = 0;
    if (a > 0) {
      // Taken up again after a backtrack: f and d are as they were, and so is the set.
      set = runState.nearSets[pc];
    } else if (atom !== 0) {
      const pd = f * 4 + d;
      const others = this.elOthers[pc];
      set = nearSet(this.table, pd, atom, others);
      this.scratch.readNear(pd, atom | (others << NEAR_OTHERS_SHIFT) | (set << NEAR_SET_SHIFT) | NEAR_REACH);
      runState.nearSets[pc] = set;
    }
    const step = this.board.geometry.step[d];
    const bit = 1 << d;
    // Where the candidates are depends on where f is and which way the line runs.
    let why = (1 << runState.placedBy[this.elFrom[pc]]) | (1 << runState.dirBy[line]);
    this.steps++;
    // Alternative i is the point t = i - 4 (i < 4) or i - 3 steps away: bit i or i + 1 of the set.
    let rest = set & ~((1 << (a < 4 ? a : a + 1)) - 1);
    while (rest !== 0) {
      const b = lowestBit(rest);
      rest &= rest - 1;
      this.steps++;
      const q = f + (b - 4) * step;
      const other = this.nodeAt(q);
      if (other > 0) {
        why |= 1 << runState.placedBy[other];
        continue;
      }
      if (this.symCount > 0) {
        runState.P[node] = q;
        const least = this.mayBeLeast();
        runState.P[node] = -1;
        if (!least) {
          // Decided by where the nodes are: the elements that placed them.
          why |= this.placedBits();
          continue;
        }
      }
      runState.P[node] = q;
      runState.placedBy[node] = pc;
      runState.usedDirs[node] = bit;
      this.logNode(node, this.elSlot[pc], d);
      if (!this.nodeFits(node)) why |= this.directedBits(node);
      else if (!this.lineFeasible(line, node)) why |= this.lineBits;
      else {
        runState.conf[pc] |= why;
        return b < 4 ? b : b - 1;
      }
      runState.P[node] = -1;
      runState.usedDirs[node] = 0;
    }
    runState.conf[pc] |= why;
    return -1;
  }

  /** Whether the nodes placed so far leave the labelling possibly least (see symInverse). */
  private mayBeLeast(): boolean {
    const P = runState.P;
    const k1 = this.k + 1;
    for (let s = 0; s < this.symCount; s++) {
      for (let i = 1; i < k1; i++) {
        const a = P[i];
        const b = P[this.symInverse[s * k1 + i]];
        if (a < 0 || b < 0) break;
        if (a === b) continue;
        if (a > b) return false;
        break;
      }
    }
    return true;
  }

  /** The elements that placed the nodes placed so far. */
  private placedBits(): number {
    let bits = 0;
    for (let x = 1; x <= this.k; x++) if (runState.P[x] >= 0) bits |= 1 << runState.placedBy[x];
    return bits;
  }

  /** The label of the node placed at p, or 0. */
  private nodeAt(p: Point): number {
    const P = runState.P;
    for (let x = 1; x <= this.k; x++) if (P[x] === p) return x;
    return 0;
  }

  private attemptD(pc: number, line: number): number {
    this.steps++;
    const P = runState.P;
    const st = this.lineStart[line];
    const len = this.lineLen[line];
    // Whatever fails depends on where the line's nodes are and which ways their lines run.
    let why = 0;
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] >= 0) why |= (1 << runState.placedBy[x]) | this.directedBits(x);
    }
    runState.conf[pc] |= why;
    let first = -1;
    let d = -1;
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] < 0) continue;
      if (first < 0) {
        first = P[x];
        continue;
      }
      const dd = this.directionBetween(first, P[x]);
      if (dd < 0 || (d >= 0 && dd !== d)) return -1;
      d = dd;
    }
    if (d < 0) return -1;
    // Every pair must lie within one window's reach, not just each with the first.
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] < 0) continue;
      for (let m2 = m + 1; m2 < len; m2++) {
        const y = this.memNode[st + m2];
        if (P[y] >= 0 && this.directionBetween(P[x], P[y]) !== d) return -1;
      }
    }
    const masks = this.masks;
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] < 0) continue;
      if ((runState.usedDirs[x] & (1 << d)) !== 0) return -1;
      const atom = this.memAtom[st + m];
      if (atom === 0 || (masks[P[x] * 4 + d] & atom) !== atom) return -1;
    }
    runState.lineDir[line] = d;
    runState.dirBy[line] = pc;
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] >= 0) runState.usedDirs[x] |= 1 << d;
    }
    let ok = true;
    for (let m = 0; m < len && ok; m++) {
      const x = this.memNode[st + m];
      if (P[x] >= 0 && !this.nodeFits(x)) ok = false;
    }
    if (ok) {
      if (this.lineFeasible(line, 0)) return 0;
      runState.conf[pc] |= this.lineBits;
    }
    runState.lineDir[line] = -1;
    for (let m = 0; m < len; m++) {
      const x = this.memNode[st + m];
      if (P[x] >= 0) runState.usedDirs[x] &= ~(1 << d);
    }
    return -1;
  }

  /** Direction of the line through a and b if they lie on one within a window's reach, else -1. */
  private directionBetween(a: Point, b: Point): number {
    const dc = this.dw.col[b] - this.dw.col[a];
    const dr = this.dw.row[b] - this.dw.row[a];
    if (Math.max(Math.abs(dc), Math.abs(dr)) >= WINDOW) return -1;
    if (dr === 0) return 0;
    if (dc === 0) return 1;
    if (dc === dr) return 2;
    if (dc === -dr) return 3;
    return -1;
  }

  /**
   * E's alternatives are the distinct sets of vacant points the line's pattern choices cover:
   * choices covering the same points give the same implicit nodes and meet the same other
   * lines, so only the first of them (in choice order) is tried.
   */
  private attemptE(pc: number, line: number, a: number): number {
    // Options depend only on where the nodes are and which way this line runs, which no E
    // changes: recompute them only when a node has been placed since, or the line turned.
    if (a === 0 && (runState.eGen[pc] !== runState.generation || runState.eDir[pc] !== runState.lineDir[line])) {
      this.optionsFor(pc, line);
      runState.eGen[pc] = runState.generation;
      runState.eDir[pc] = runState.lineDir[line];
      // What the options rest on: where the nodes on the line's board line are, and its direction.
      runState.eBits[pc] = this.lineBits;
    }
    const count = runState.eOptCount[pc];
    const optMask = runState.eOptMask[pc];
    const cover = this.cover;
    const bit = 1 << line;
    const marked = runState.eMarked[pc];
    let nMarked = runState.eMarkedCount[pc];
    const step = this.board.geometry.step[runState.lineDir[line]];
    const origin = runState.P[this.memNode[this.lineStart[line]]];
    // The lines whose patterns an option met: those lines' E elements, whose choices marked them, are why it failed.
    let clashed = 0;
    for (let i = a; i < count; i++) {
      this.steps++;
      const mask = optMask[i];
      let hit = 0;
      for (let rest = mask; rest !== 0 && hit === 0; rest &= rest - 1) hit = cover[origin + (lowestBit(rest) - 8) * step] & ~bit;
      if (hit !== 0) {
        clashed |= hit;
        continue;
      }
      for (let rest = mask; rest !== 0; rest &= rest - 1) {
        const p = origin + (lowestBit(rest) - 8) * step;
        if (cover[p] === 0) {
          cover[p] = bit;
          marked[nMarked++] = p;
        }
      }
      runState.eMarkedCount[pc] = nMarked;
      runState.eTaken[pc] = i;
      runState.conf[pc] |= runState.eBits[pc] | this.markedBy(clashed);
      return i;
    }
    runState.conf[pc] |= runState.eBits[pc] | this.markedBy(clashed);
    return -1;
  }

  /** The E elements of the lines in `lines` (a bit per line): the elements whose choices made those cover marks. */
  private markedBy(lines: number): number {
    let bits = 0;
    for (let rest = lines; rest !== 0; rest &= rest - 1) bits |= 1 << this.lineE[lowestBit(rest)];
    return bits;
  }

  /**
   * The pattern choices of each node on a line (single windows, or pairs for n'), and the
   * distinct vacant sets of their combinations. All the line's patterns lie on one board line
   * within four steps of its nodes, which lie within four steps of each other, so a vacant set
   * fits a bit mask of the 17 points from 8 steps before the first node to 8 after; masks make
   * the duplicates cheap to find.
   */
  private optionsFor(pc: number, line: number): void {
    const dwin = this.dw.windows;
    const doff = this.dw.offsets;
    const d = runState.lineDir[line];
    const st = this.lineStart[line];
    const len = this.lineLen[line];
    const P = runState.P;
    const offs = runState.offs;
    const fits = runState.fits;
    this.linePositions(line);
    // The vacant points within eight steps of the first node, explicit nodes left out, as bits t + 8.
    const origin = P[this.memNode[st]];
    const L = this.table.lineCount;
    let vacant = (this.table.lineEmpty[d * L + this.dw.lineOf[origin * 4 + d]] >>> this.dw.posOf[origin * 4 + d]) & SPAN17;
    const t0 = offs[this.memNode[st] - 1];
    for (let i = 0; i < this.onCount; i++) {
      const t = offs[runState.onLine[i] - 1] - t0;
      if (t >= -8 && t <= 8) vacant &= ~(1 << (t + 8));
    }
    const choices = runState.eChoices[pc];
    let nc = 0;
    const cStart = runState.eChoiceStart;
    const cCount = runState.eChoiceCount;
    runState.eOptCount[pc] = 0;
    // choices[2c], choices[2c + 1] are choice c's windows, cmask[c] the vacant points they
    // cover, as bits at their offset + 8 from the origin.
    const cmask = runState.eChoiceMask[pc];
    let total = 1;
    for (let m = 0; m < len; m++) {
      const j = this.memNode[st + m];
      const p = P[j];
      const nm = this.memN[st + m];
      const tp = offs[j - 1] - offs[this.memNode[st] - 1];
      if (nm < 1) return;
      this.readWindows(p, d, 1 << (nm - 1));
      const fit = this.fitStarts(line, m);
      // The fitting windows in ascending id, as choicesFor listed them.
      let nf = 0;
      const base = (p * 4 + d) * WINDOW;
      for (let i = 0; i < WINDOW; i++) {
        const w = dwin[base + i];
        if (w < 0) break;
        if ((fit & (1 << (4 - doff[base + i]))) !== 0) fits[nf++] = i;
      }
      cStart[pc * 8 + m] = nc;
      // Each fitting window's vacant, non-explicit points, as bits at their offset + 8 from the origin.
      const wmask = runState.wmask;
      for (let x = 0; x < nf; x++) wmask[x] = vacant & (31 << (tp - doff[base + fits[x]] + 8));
      if (this.memDashed[st + m] === 1) {
        for (let x = 0; x < nf; x++) {
          for (let y = x + 1; y < nf; y++) {
            choices[2 * nc] = dwin[base + fits[x]];
            choices[2 * nc + 1] = dwin[base + fits[y]];
            cmask[nc++] = wmask[x] | wmask[y];
          }
        }
      } else {
        for (let x = 0; x < nf; x++) {
          choices[2 * nc] = dwin[base + fits[x]];
          choices[2 * nc + 1] = -1;
          cmask[nc++] = wmask[x];
        }
      }
      const count = nc - cStart[pc * 8 + m];
      if (count === 0) return;
      cCount[pc * 8 + m] = count;
      total *= count;
    }
    // Combinations in order, the last node's choice changing fastest; keep the first of each vacant set.
    const optMask = runState.eOptMask[pc];
    const pick = runState.eOptPick[pc];
    let no = 0;
    const digits = runState.digits;
    for (let m = 0; m < len; m++) digits[m] = 0;
    // A vacant set is seen when its entry in the shared table holds this call's stamp.
    const stamp = ++vacantStamp;
    for (let i = 0; i < total; i++) {
      let mask = 0;
      for (let m = 0; m < len; m++) mask |= cmask[cStart[pc * 8 + m] + digits[m]];
      if (vacantSeen[mask] !== stamp) {
        vacantSeen[mask] = stamp;
        optMask[no] = mask;
        for (let m = 0; m < len; m++) pick[no * len + m] = digits[m];
        no++;
      }
      // The next combination: the last node's choice moves on, carrying into earlier ones.
      for (let m = len - 1; m >= 0; m--) {
        if (++digits[m] < cCount[pc * 8 + m]) break;
        digits[m] = 0;
      }
    }
    runState.eOptCount[pc] = no;
  }

  /** Undo the effect of the alternative element pc took. */
  private retract(pc: number): void {
    switch (this.elOp[pc]) {
      case OP_A:
        runState.P[this.elNode[pc]] = -1;
        break;
      case OP_B: {
        const line = this.elLine[pc];
        runState.usedDirs[this.elNode[pc]] &= ~(1 << runState.lineDir[line]);
        runState.lineDir[line] = -1;
        break;
      }
      case OP_C:
        runState.P[this.elNode[pc]] = -1;
        runState.usedDirs[this.elNode[pc]] = 0;
        break;
      case OP_D: {
        const line = this.elLine[pc];
        const d = runState.lineDir[line];
        const st = this.lineStart[line];
        for (let m = 0; m < this.lineLen[line]; m++) {
          const x = this.memNode[st + m];
          if (runState.P[x] >= 0) runState.usedDirs[x] &= ~(1 << d);
        }
        runState.lineDir[line] = -1;
        break;
      }
      default: {
        const marked = runState.eMarked[pc];
        for (let t = 0; t < runState.eMarkedCount[pc]; t++) this.cover[marked[t]] = 0;
        runState.eMarkedCount[pc] = 0;
        break;
      }
    }
  }
}

/** The window starts (bits b: starting b - 4 steps from p) whose window holds the point t steps from p. */
function startsHolding(t: number): number {
  const lo = t < 0 ? 0 : t;
  const hi = t + 4 > 4 ? 4 : t + 4;
  return lo > hi ? 0 : ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1);
}

/**
 * startsHolding(t) at index t + HOLDING_BIAS, for every t two points on one board line can be
 * apart (|t| < MAX_SIZE, the widest board).
 */
const HOLDING_BIAS = MAX_SIZE;
const STARTS_HOLDING = Int32Array.from({ length: 2 * HOLDING_BIAS }, (_, i) => startsHolding(i - HOLDING_BIAS));
/** Convenience for one-off runs (tests, tools): a machine over a private cover map. */
export function runStream(stream: ControlStream, board: Board, profiles: ProfileTable, start: Point, emit: (r: RawRealisation) => void, cap = DEFAULT_STEP_CAP): RunStats {
  return new StreamMachine(stream, new CoverMap(board.points)).run(profiles, start, emit, cap);
}
