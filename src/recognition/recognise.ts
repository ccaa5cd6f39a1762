/**
 * Whole-board recognition: every realisation of every subgoal of a library, for both
 * colours, kept up to date move by move.
 *
 * Speed comes from not running streams blindly. Each point keeps a pattern profile per
 * colour (profile.ts); a stream is tried with its entry node at a point only when the point's
 * profile can carry that node's whole entry (its specs on different lines, with the patterns
 * its line-mates' specs put through it, see selfAtoms), and streams whose entry nodes look
 * alike share one such check.
 *
 * After a move, only the runs that read something the move changed are done again (see
 * Recogniser), and an undo through the recogniser restores the state before the play from
 * a journal. Realisation objects are built when `realisations` first asks for them.
 *
 * A realisation is reported once: realisations found with node 1 at different points that
 * are the same object under a symmetry of the description (both nodes of
 * `(1, 2-1, 2) 4:3', 2'-4:2', 3'`) are one, labelled by the least node tuple. The machine
 * looks only for that labelling (StreamMachine, symInverse), so each realisation is found by
 * one run: the run of its stream from the point of its entry node.
 */
import type { Board } from '../rules/board.ts';
import { automorphisms, canonicalise, canonicalString } from '../notation/canonical.ts';
import { compileDescription } from './compile.ts';
import type { ControlStream } from './controlStream.ts';
import type { Description } from '../notation/description.ts';
import { eachAlongLines, WINDOW } from '../rules/geometry.ts';
import { entryGate, GateReads, gateShut, type EntryGate } from './entryGate.ts';
import { machineFor, type StreamMachine } from './interpret.ts';
import { rawFromSignature, type RealisedLine } from './rawRealisation.ts';
import { ANY_POSSIBLE, NEAR_GREW, NEAR_OTHERS_SHIFT, NEAR_REACH, nearReadChange, nearReadNow, READ_MASK_SHIFT, ScanScratch } from './readLog.ts';
import { selfAtoms } from './streamTables.ts';
import { canMeetAll, directionWindows, othersOf, ProfileTable, specAtom, type DirectionWindows } from './profile.ts';
import { ok, type Result } from '../rules/result.ts';
import { BLACK, WHITE, type Colour, type Point, type Stone } from '../rules/types.ts';

/** A library entry ready for recognition: canonical text, description and compiled stream. */
export interface Subgoal {
  readonly text: string;
  readonly description: Description;
  /** The stream for whole-board scans, entered at the most demanding node. */
  readonly stream: ControlStream;
  /** Node permutations mapping the description onto itself (perm[i - 1] = image of node i). */
  readonly automorphisms: readonly (readonly number[])[];
  /** The OR of the atoms the stream's entry node needs: a point lacking one cannot be it. */
  readonly need: number;
}

export function compileSubgoal(d: Description): Result<Subgoal> {
  const canonical = canonicalise(d);
  const stream = compileDescription(canonical);
  if (!stream.ok) return stream;
  const need = canonical.nodes[stream.value.entry - 1].lines.reduce((m, l) => m | specAtom(l.spec), 0);
  return ok({
    text: canonicalString(canonical),
    description: canonical,
    stream: stream.value,
    automorphisms: automorphisms(canonical),
    need,
  });
}

export interface Realisation {
  readonly subgoal: Subgoal;
  readonly colour: Colour;
  /** Explicit nodes in label order: nodes[0] is node 1. */
  readonly nodes: readonly Point[];
  readonly lines: readonly RealisedLine[];
  /** Vacant points of the patterns other than the explicit nodes, ascending. */
  readonly implicit: readonly Point[];
  /** For each node, the moves to five when play starts there (the description's comment). */
  readonly comments: readonly (number | undefined)[];
  /** Every point the realisation depends on: nodes, pattern points and the patterns' flanks. */
  readonly footprint: readonly Point[];
  /** Its nodes and pattern points: a stone of either colour on one of them destroys it. */
  readonly span: readonly Point[];
  /** Identity: colour, subgoal, nodes and implicit nodes. */
  readonly key: string;
}

/** The least number of moves to five among the realisation's commented nodes, if any. */
export function movesToFive(r: Realisation): number | undefined {
  let best: number | undefined;
  for (const c of r.comments) if (c !== undefined && (best === undefined || c < best)) best = c;
  return best;
}

/** Every point whose occupation destroys the realisation: its explicit and implicit nodes. */
export function destroyingPoints(r: Realisation): Point[] {
  return [...r.nodes, ...r.implicit].sort((a, b) => a - b);
}

/** The quickest realisation of a list (the first among equals), if any carries a comment. */
export function quickest(rs: readonly Realisation[]): Realisation | undefined {
  let best: Realisation | undefined;
  for (const r of rs) {
    const k = movesToFive(r);
    if (k !== undefined && (best === undefined || k < movesToFive(best)!)) best = r;
  }
  return best;
}

/** The points that destroy every realisation of the list, ascending: one move that stops them all. */
export function commonDestroyers(rs: readonly Realisation[]): Point[] {
  let common: Set<Point> | undefined;
  for (const r of rs) {
    const pts = destroyingPoints(r);
    common = common === undefined ? new Set(pts) : new Set(pts.filter((p) => common!.has(p)));
    if (common.size === 0) return [];
  }
  return common === undefined ? [] : [...common].sort((a, b) => a - b);
}

/** Sorts a short list of point ids ascending, in place (insertion sort: no comparator call per step). */
function sortPoints(a: number[]): number[] {
  for (let i = 1; i < a.length; i++) {
    const x = a[i];
    let j = i - 1;
    for (; j >= 0 && a[j] > x; j--) a[j + 1] = a[j];
    a[j + 1] = x;
  }
  return a;
}

/** Per board size: a stamp per point, so that building a footprint needs no Set. */
const stamps = new Map<number, { marks: Int32Array; stamp: number }>();

/** The points of a realisation's patterns besides its nodes (`span`), and their flanks too (`footprint`). */
function spanAndFootprint(g: Board['geometry'], nodes: readonly Point[], lines: readonly RealisedLine[]): { span: Point[]; footprint: Point[] } {
  let st = stamps.get(g.points);
  if (st === undefined) stamps.set(g.points, (st = { marks: new Int32Array(g.points), stamp: 0 }));
  const marks = st.marks;
  // Stamp s marks the span, s + 1 a flank only.
  const s = (st.stamp += 2);
  const span: number[] = [];
  for (const p of nodes) {
    if (marks[p] !== s) {
      marks[p] = s;
      span.push(p);
    }
  }
  const flanks: number[] = [];
  for (const l of lines) {
    for (const pat of l.patterns) {
      for (const w of pat.windows) {
        for (let i = 0; i < WINDOW; i++) {
          const p = g.windowPoints[w * WINDOW + i];
          if (marks[p] !== s) {
            if (marks[p] === s + 1) flanks.splice(flanks.indexOf(p), 1);
            marks[p] = s;
            span.push(p);
          }
        }
        for (let i = 0; i < 2; i++) {
          const f = g.windowFlanks[w * 2 + i];
          if (f >= 0 && marks[f] !== s && marks[f] !== s + 1) {
            marks[f] = s + 1;
            flanks.push(f);
          }
        }
      }
    }
  }
  sortPoints(span);
  return { span, footprint: sortPoints(span.concat(flanks)) };
}

/**
 * A realisation as the recogniser hands it out. Its nodes, implicit nodes and comments are
 * read at once; its lines, key, span and footprint are worked out when first read — a
 * player's look-ahead asks for hundreds of realisations a move and reads only their nodes
 * and comments, and building the rest for each took most of its time.
 */
class FoundRealisation implements Realisation {
  readonly nodes: readonly Point[];
  readonly implicit: readonly Point[];
  readonly comments: readonly (number | undefined)[];
  #lines: readonly RealisedLine[] | undefined;
  #key: string | undefined;
  #extent: { span: Point[]; footprint: Point[] } | undefined;
  readonly #geometry: Board['geometry'];
  readonly #sig: readonly number[];

  constructor(
    readonly subgoal: Subgoal,
    readonly colour: Colour,
    geometry: Board['geometry'],
    sig: readonly number[],
    implicitAt: number,
  ) {
    this.#geometry = geometry;
    this.#sig = sig;
    this.nodes = sig.slice(0, subgoal.stream.nodes.length);
    this.implicit = sig.slice(implicitAt);
    this.comments = subgoal.description.nodes.map((n) => n.comment);
  }

  get lines(): readonly RealisedLine[] {
    return (this.#lines ??= rawFromSignature(this.subgoal.stream, this.#geometry, this.#sig, this.implicit).lines);
  }

  get key(): string {
    return (this.#key ??= `${scanStreamOf(this.subgoal).prefix[this.colour === 'black' ? 0 : 1]}${this.nodes.join(',')}|${this.implicit.join(',')}`);
  }

  get span(): readonly Point[] {
    return (this.#extent ??= spanAndFootprint(this.#geometry, this.nodes, this.lines)).span;
  }

  get footprint(): readonly Point[] {
    return (this.#extent ??= spanAndFootprint(this.#geometry, this.nodes, this.lines)).footprint;
  }
}

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
}

/** A subgoal's whole-board stream, with what a run needs at hand. */
interface ScanStream {
  readonly subgoal: Subgoal;
  /** The subgoal's number of nodes (read for every realisation reported: kept here, one load away). */
  readonly k: number;
  readonly machine: StreamMachine;
  /** Its place in the scan order at one point. */
  order: number;
  /** Realisation key prefixes for black and white. */
  readonly prefix: readonly [string, string];
  /**
   * The atoms each line of the entry node needs (selfAtoms), strongest first, and as a
   * string: streams with equal ones share a group.
   */
  readonly atoms: readonly number[];
  readonly signature: string;
  /** What its first C needs (EntryGate), and as a string: streams with equal ones run next to each other. */
  readonly gate: EntryGate | undefined;
  readonly gateKey: string;
}

/** Streams whose entry nodes carry the same specs: one profile check serves them all. */
interface EntryGroup {
  /** Its place among the grouping's groups. */
  readonly index: number;
  /** The OR of the entry node's atoms. */
  readonly need: number;
  readonly atoms: Int32Array;
  readonly streams: ScanStream[];
  /**
   * For a stream with a gate, the index in `streams` just past the last stream with the same
   * gate: the streams of one gate are next to each other, and one check serves them all.
   */
  readonly gateEnd: Int32Array;
}

/**
 * One run of a stream from one point, for one colour, as the last scan left it: the
 * realisations it found (each once, the first way it found it, by its signature) and what it
 * read, so that it is run again when a move changed something it read:
 * Its reads are `readLen` numbers from `readStart` in the recogniser's read arena: pairs
 * (point * 4 + direction) and the interest there (ScanScratch), alternately; a near read
 * (ScanScratch) is filed under its pair plus the board's `points * 4`, with its word.
 */
interface RunRecord {
  readonly colour: number;
  readonly point: Point;
  readonly scan: ScanStream;
  readStart: number;
  readonly readLen: number;
  readonly found: readonly Found[];
  /**
   * Found nothing, and was not cut short by the step cap: such a run is done again only when
   * a move adds something it read (readChanged).
   */
  readonly empty: boolean;
  /** Cut short by the step cap: what it found may be incomplete. */
  readonly capped: boolean;
  alive: boolean;
  /** Dead, but an undo may bring it back: its index entries are kept. */
  journaled: boolean;
  /** Its reads are in the index (see Recogniser.pending). */
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

/** What most runs find: nothing. Shared, never added to. */
const NONE: Found[] = [];

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
 * A realisation as a run found it, in few numbers: the machine's account of it (its
 * signature — node points by label, then each E line's windows — and from `implicitAt` on its
 * implicit nodes, StreamMachine.account). The node tuple is the least labelling's (the
 * machine looks for no other), so nothing needs relabelling; the Realisation object, with its
 * public key, is built from these when first asked for.
 */
interface Found {
  readonly sig: readonly number[];
  readonly implicitAt: number;
  real: Realisation | undefined;
}

/**
 * Whether the found realisation `f` has the node tuple and implicit nodes of the account
 * `sig` (implicit nodes from `implicitAt`): the same realisation, found another way.
 */
function sameRealisation(f: Found, sig: readonly number[], k: number, implicitAt: number): boolean {
  if (f.sig.length - f.implicitAt !== sig.length - implicitAt) return false;
  for (let i = 0; i < k; i++) if (f.sig[i] !== sig[i]) return false;
  for (let t = implicitAt, u = f.implicitAt; t < sig.length; t++, u++) if (f.sig[u] !== sig[t]) return false;
  return true;
}

const scanStreams = new WeakMap<Subgoal, ScanStream>();

function scanStreamOf(subgoal: Subgoal): ScanStream {
  let s = scanStreams.get(subgoal);
  if (s === undefined) {
    const stream = subgoal.stream;
    const atoms = stream.nodes[stream.entry - 1].lines.map((l) => selfAtoms(stream, stream.entry, l)).sort((a, b) => b - a);
    const gate = entryGate(stream);
    s = {
      subgoal,
      k: subgoal.description.nodes.length,
      machine: machineFor(stream, subgoal.automorphisms),
      order: 0,
      prefix: [`black|${subgoal.text}|`, `white|${subgoal.text}|`],
      atoms,
      signature: atoms.join(','),
      gate,
      gateKey: gate === undefined ? '' : `${gate.along},${gate.atom},${gate.others}`,
    };
    scanStreams.set(subgoal, s);
  }
  return s;
}

/**
 * The last few libraries grouped, most recent first, each reused when a library holds the same
 * subgoals in the same order. A few, not one: a bot playing in several servers alternates
 * between their libraries, and grouping 1000 subgoals again costs 40 to 100 ms a time.
 */
const recentGroupings: { subgoals: readonly Subgoal[]; groups: Grouping }[] = [];
const RECENT_GROUPINGS = 16;

/**
 * A library's streams in groups, in scan order, and for each profile union (the OR of a
 * point's masks) the groups whose need it covers, made when first asked for.
 */
interface Grouping {
  readonly groups: readonly EntryGroup[];
  readonly byUnion: (readonly EntryGroup[] | undefined)[];
}

/**
 * A stream's elements as a string in which two streams whose first elements do the same
 * search (the same kinds of element, placing nodes with the same entries, relabelled in the
 * order they are placed) share a prefix.
 */
function shapeKey(stream: ControlStream): string {
  const nodes = new Map<number, number>();
  const lines = new Map<number, number>();
  const node = (x: number): number => nodes.get(x) ?? (nodes.set(x, nodes.size), nodes.size - 1);
  const line = (x: number): number => lines.get(x) ?? (lines.set(x, lines.size), lines.size - 1);
  const entry = (j: number): string => stream.nodes[j - 1].lines.map((l) => `${line(l)}:${selfAtoms(stream, j, l)}`).join(',');
  return stream.elements
    .map((e) => {
      switch (e.op) {
        case 'A':
          return `A${node(e.node)}[${entry(e.node)}]`;
        case 'B':
          return `B${node(e.node)}.${line(e.line)}.${e.after === undefined ? '' : line(e.after)}`;
        case 'C':
          return `C${node(e.node)}.${node(e.from)}.${line(e.line)}[${entry(e.node)}]`;
        default:
          return `${e.op}${line(e.line)}`;
      }
    })
    .join(' ');
}

/** Whether the point whose masks start at `masks[p * 4]` can carry the entry node of the group's streams. */
function carriesEntry(masks: Uint16Array, p: Point, grp: EntryGroup): boolean {
  return canMeetAll(masks, p * 4, grp.atoms, grp.atoms.length);
}

function groupsFor(grouping: Grouping, union: number): readonly EntryGroup[] {
  let list = grouping.byUnion[union];
  if (list === undefined) grouping.byUnion[union] = list = grouping.groups.filter((g) => (g.need & ~union) === 0);
  return list;
}

/**
 * Groups a library's streams now and keeps the grouping among the recent ones, so that the
 * first recogniser made with it does not pay for it (a play worker, as a library arrives).
 */
export function groupLibrary(subgoals: readonly Subgoal[]): void {
  groupStreams(subgoals);
}

function groupStreams(subgoals: readonly Subgoal[]): Grouping {
  const hit = recentGroupings.findIndex((g) => g.subgoals.length === subgoals.length && g.subgoals.every((s, i) => s === subgoals[i]));
  if (hit >= 0) {
    const [found] = recentGroupings.splice(hit, 1);
    recentGroupings.unshift(found);
    return found.groups;
  }
  const bySig = new Map<string, EntryGroup>();
  // A subgoal listed twice is scanned once, as a fresh scan would find the same keys twice.
  const seen = new Set<Subgoal>();
  for (const subgoal of subgoals) {
    if (seen.has(subgoal)) continue;
    seen.add(subgoal);
    const s = scanStreamOf(subgoal);
    let grp = bySig.get(s.signature);
    if (grp === undefined) {
      grp = { index: bySig.size, need: s.atoms.reduce((m, a) => m | a, 0), atoms: Int32Array.from(s.atoms), streams: [], gateEnd: new Int32Array(0) };
      bySig.set(s.signature, grp);
    }
    grp.streams.push(s);
  }
  const groups = Array.from(bySig.values());
  // Within a group, the streams of one entry gate run one after another, and among them those
  // whose searches begin alike (see shapeKey).
  for (const grp of groups) {
    const keys = new Map(grp.streams.map((x) => [x, `${x.gateKey}|${shapeKey(x.subgoal.stream)}`]));
    grp.streams.sort((a, b) => (keys.get(a)! < keys.get(b)! ? -1 : keys.get(a)! > keys.get(b)! ? 1 : 0));
  }
  // Scan order at a point is group by group. ScanStreams are shared by every library holding
  // the subgoal, so the order lives in a per-grouping copy.
  let order = 0;
  const numbered = groups.map((g) => {
    const streams = g.streams.map((s) => ({ ...s, order: order++ }));
    const gateEnd = new Int32Array(streams.length);
    for (let x = streams.length - 1; x >= 0; x--) gateEnd[x] = x + 1 < streams.length && streams[x + 1].gateKey === streams[x].gateKey ? gateEnd[x + 1] : x + 1;
    return { ...g, streams, gateEnd };
  });
  const grouping: Grouping = { groups: numbered, byUnion: [] };
  recentGroupings.unshift({ subgoals: subgoals.slice(), groups: grouping });
  recentGroupings.length = Math.min(recentGroupings.length, RECENT_GROUPINGS);
  return grouping;
}

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
 * (readChanged), and one that found something keeps those of its realisations the move left
 * standing (withoutLost).
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
  /**
   * The index of runs by what they read, built on the first move: heads[colour][pair] starts
   * a list of entries, newest first, linked by entNext; an entry names a run that read the
   * pair (entRec) and what it read there (entInterest, packed as in ScanScratch). Free
   * entries are linked from entFree.
   */
  private heads: [Int32Array, Int32Array] | undefined;
  private entRec: (RunRecord | undefined)[] = [];
  private entInterest = new Int32Array(1 << 14);
  private entNext = new Int32Array(1 << 14);
  private entFree = -1;
  private entTop = 0;
  /**
   * Runs made since the last update, not yet in the index: an update indexes them when it
   * starts, before it looks anything up, and an undo of the play that made them drops them
   * unindexed. A play taken back at once (as a player's search does) so never indexes its runs.
   */
  private readonly pending: RunRecord[] = [];
  /** Entries in the index, and how many of them belong to runs dead for good (not ones an undo may bring back). */
  private indexSize = 0;
  private indexDead = 0;
  private readonly scratch: ScanScratch;
  /** Every run's reads, back to back; runs dead for good leave gaps, swept out by compactReads. */
  private arena = new Int32Array(1 << 16);
  private arenaTop = 0;
  /**
   * What the move being processed changed for one colour, by pair, packed as interest is
   * (ScanScratch): the window kinds whose state changed and the mask bits that flipped, and
   * above `nearBase`, the near reads' change words (NEAR_REACH); the pairs with any; and the
   * points with a changed mask, whose runs and profile checks are all looked at again.
   */
  private readonly diff: Int32Array;
  /**
   * Of the diff at a mask or window pair, what the move added: mask bits now set, and the
   * window kind a window changed into. A run that found nothing is run again only when
   * something it read was added (see readChanged).
   */
  private readonly gain: Int32Array;
  /** Where near reads' pairs start: points * 4. */
  private readonly nearBase: number;
  private readonly dw: DirectionWindows;
  /** Per pair, the bits of its mask the move being processed flipped (zero between moves). */
  private readonly maskFlip: Uint16Array;
  private readonly changedPairs: number[] = [];
  private readonly cellChanged: Uint8Array;
  private readonly changedCells: number[] = [];
  /** Window states (per colour) around a point about to change, recorded by play and undo. */
  private readonly before: Int8Array;
  private readonly touchedWindows: number[] = [];
  /** Masks of both colours along the lines through the point being changed, before the change. */
  private readonly maskPoints: number[] = [];
  private readonly maskBefore: number[] = [];
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
  readonly stats: RecogniseStats = { runs: 0, steps: 0, capped: 0, gated: 0, pruned: 0 };
  /** The point whose change the update under way is for; -1 between updates. */
  private changing: Point = -1;

  constructor(board: Board, library: readonly Subgoal[]) {
    this.board = board;
    this.scratch = new ScanScratch(board.points);
    this.gateOpen = new Int32Array(board.points);
    this.profiles = [new ProfileTable(board, BLACK), new ProfileTable(board, WHITE)];
    this.cells = [[], []];
    this.nearBase = board.points * 4;
    this.dw = directionWindows(board.geometry);
    this.diff = new Int32Array(board.points * 8);
    this.gain = new Int32Array(board.points * 4);
    this.maskFlip = new Uint16Array(board.points * 4);
    this.cellChanged = new Uint8Array(board.points);
    this.before = new Int8Array(2 * (board.geometry.pointWindows.length + board.geometry.pointFlanks.length));
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
    this.heads = undefined;
    this.pending.length = 0;
    this.entRec = [];
    this.entFree = -1;
    this.entTop = 0;
    this.arenaTop = 0;
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
    this.recordBefore(p);
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
    if (moves.length > 0) this.recordBefore(moves[moves.length - 1]);
    const p = this.board.undo();
    this.update(p, true);
    return p;
  }

  /** Restores the state before the play `frame` recorded. */
  private revert(frame: Frame): void {
    // The runs the play made head the index lists they read, in the order they were made:
    // take their entries out, last first.
    const heads = this.heads!;
    const a = this.arena;
    // Runs the play made that no update has indexed since are only in the pending list.
    this.pending.length = 0;
    for (let x = frame.installed.length - 1; x >= 0; x--) {
      const rec = frame.installed[x];
      if (!rec.indexed) continue;
      const head = heads[rec.colour];
      for (let t = rec.readStart + rec.readLen - 2; t >= rec.readStart; t -= 2) {
        const e = head[a[t]];
        head[a[t]] = this.entNext[e];
        this.releaseEntry(e);
      }
      this.indexSize -= rec.readLen >> 1;
      rec.indexed = false;
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
    if (frame.arenaMark >= 0) this.arenaTop = frame.arenaMark;
  }

  /** A frame that can no longer be undone: its dead runs are dead for good. */
  private forget(frame: Frame): void {
    for (const rec of frame.killed) {
      if (rec.journaled && !rec.alive) this.indexDead += rec.readLen >> 1;
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
    this.touchedAround(q);
    this.update(q, false);
  }

  /** Lists the windows through q or flanked by q in `touchedWindows`. */
  private touchedAround(q: Point): void {
    const g = this.board.geometry;
    const list = this.touchedWindows;
    list.length = 0;
    for (let i = g.pointWindowStart[q]; i < g.pointWindowStart[q + 1]; i++) list.push(g.pointWindows[i]);
    for (let i = g.pointFlankStart[q]; i < g.pointFlankStart[q + 1]; i++) list.push(g.pointFlanks[i]);
  }

  /** The state of every window through q or flanked by q, for each colour, before q changes. */
  private recordBefore(q: Point): void {
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
  private saveMasks(q: Point): void {
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

  private update(q: Point, recorded: boolean): void {
    this.changing = q;
    try {
      this.updateAt(q, recorded);
    } finally {
      this.changing = -1;
    }
  }

  private updateAt(q: Point, recorded: boolean): void {
    // Between moves, no run is half made: a safe time to sweep the arena.
    if (this.arenaTop > (this.arena.length * 3) / 4) this.compactReads();
    if (this.frame !== undefined) this.frame.arenaMark = this.arenaTop;
    this.saveMasks(q);
    for (const t of this.profiles) t.refreshAround(q);
    const g = this.board.geometry;
    const heads = this.ensureIndex();
    const diffs = this.diff;
    const gains = this.gain;
    const pairs = this.changedPairs;
    const cellChanged = this.cellChanged;
    const cells = this.changedCells;
    const visit = ++this.visits;
    for (let i = 0; i < 2; i++) {
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
      // Runs that read something that changed, from points whose masks did not: done again
      // below. Collected first, so that runs made below are not visited.
      let redo: RunRecord[] = [];
      let reopened = false;
      const head = heads[i];
      const entRec = this.entRec;
      const entNext = this.entNext;
      const entInterest = this.entInterest;
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
            this.releaseEntry(e);
            this.indexDead--;
            this.indexSize--;
          } else {
            if (rec.alive && cellChanged[rec.point] === 0 && rec.visit !== visit && this.readChanged(table, pd, word, pdDiff, rec.empty)) {
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
      for (const pd of pairs) {
        diffs[pd] = 0;
        if (pd < this.nearBase) gains[pd] = 0;
      }
      for (const p of cells) cellChanged[p] = 0;
    }
    // Dead runs linger in the index until their pairs change; sweep them out when they dominate.
    if (this.indexDead > 50_000 && this.indexDead > this.indexSize - this.indexDead) this.compactIndex();
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
      if (diffs[np] === 0) this.changedPairs.push(np);
      diffs[np] |= change;
    }
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
            this.releaseEntry(e);
            this.indexDead--;
            this.indexSize--;
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

  /**
   * The record of a run that found something, after a move that only took away from what it
   * read (readsChanged, counting gains only): made again, it would find a subset of what it found, as every test it
   * makes is monotone in what it reads (readChanged) — no choice it made would pass a test
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
    const a = this.arena;
    const end = prev.readStart + prev.readLen;
    let stale = false;
    for (let t = prev.readStart; t < end && !stale; t += 2) if (a[t] >= this.nearBase) stale = nearReadNow(table, a[t] - this.nearBase, a[t + 1]) !== a[t + 1];
    this.stats.pruned++;
    if (kept === undefined && !stale) return prev;
    let readStart = prev.readStart;
    if (stale) {
      readStart = this.allocReads(prev.readLen);
      const b = this.arena;
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
   * Whether a move changed anything the run read (in the way readChanged counts): with
   * `gainsOnly`, only an addition counts, as for a run that found nothing.
   */
  private readsChanged(rec: RunRecord, gainsOnly: boolean): boolean {
    const a = this.arena;
    const end = rec.readStart + rec.readLen;
    const table = this.profiles[rec.colour];
    for (let t = rec.readStart; t < end; t += 2) if (this.readChanged(table, a[t], a[t + 1], this.diff[a[t]], gainsOnly)) return true;
    return false;
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
  private readChanged(table: ProfileTable, pd: number, word: number, diff: number, nothing: boolean): boolean {
    if ((word & diff) === 0) return false;
    if (pd < this.nearBase) return !nothing || (word & this.gain[pd]) !== 0;
    const change = nearReadChange(table, pd - this.nearBase, word);
    return nothing ? change === NEAR_GREW : change !== 0;
  }

  /** Room for n numbers at the top of the read arena, which grows when full. */
  private allocReads(n: number): number {
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

  /** Moves the reads of the live runs, and of the dead ones an undo may bring back, together. */
  private compactReads(): void {
    const old = this.arena;
    let live = 0;
    for (let i = 0; i < 2; i++) for (const cell of this.cells[i]) for (const rec of cell) live += rec.readLen;
    // Room to spare afterwards, or the next move would sweep again.
    const fresh = new Int32Array(live * 2 > old.length ? old.length * 2 : old.length);
    let top = 0;
    const move = (rec: RunRecord): void => {
      fresh.set(old.subarray(rec.readStart, rec.readStart + rec.readLen), top);
      rec.readStart = top;
      top += rec.readLen;
    };
    for (let i = 0; i < 2; i++) for (const cell of this.cells[i]) for (const rec of cell) move(rec);
    for (const f of this.journal) for (const rec of f.killed) if (!rec.alive && rec.journaled) move(rec);
    // Reads have moved: no frame's mark means anything now.
    for (const f of this.journal) f.arenaMark = -1;
    this.arena = fresh;
    this.arenaTop = top;
  }

  /** The index of runs by the pairs they read, built from the records when first needed. */
  private ensureIndex(): [Int32Array, Int32Array] {
    if (this.heads !== undefined) {
      // The runs the last update made, in the order it made them. All are alive: only an
      // update or an undo ends a run, and an undo of that update would have dropped them.
      for (const rec of this.pending) this.indexRecord(rec);
      this.pending.length = 0;
      return this.heads;
    }
    const n = this.board.points * 8;
    this.heads = [new Int32Array(n).fill(-1), new Int32Array(n).fill(-1)];
    this.indexSize = 0;
    this.indexDead = 0;
    this.pending.length = 0;
    for (let i = 0; i < 2; i++) for (const cell of this.cells[i]) for (const rec of cell) this.indexRecord(rec);
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
    const readStart = this.allocReads(n);
    const a = this.arena;
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
    const a = this.arena;
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
      const a = this.arena;
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
    const readStart = this.allocReads(2 * (n + nn));
    scratch.moveReads(this.arena, readStart, nearBase);
    const rec = this.newRecord(i, p, scan, readStart, 2 * (n + nn), this.currentFound, this.currentFound.length === 0 && !capped, false, capped);
    if (previous !== undefined) this.kill(previous);
    this.install(rec);
    return rec;
  }

  /**
   * A run's realisations join the colour's (they are the live runs' found lists), and the
   * index is to learn what it read (see pending).
   */
  private install(rec: RunRecord): void {
    rec.alive = true;
    rec.journaled = false;
    this.frame?.installed.push(rec);
    if (this.heads !== undefined && !rec.indexed) this.pending.push(rec);
  }

  /** A run's realisations leave the colour's: no other run finds them (see collect). */
  private kill(rec: RunRecord): void {
    if (!rec.alive) return;
    rec.alive = false;
    if (this.frame !== undefined) {
      this.frame.killed.push(rec);
      rec.journaled = true;
    } else if (rec.indexed) {
      this.indexDead += rec.readLen >> 1;
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
