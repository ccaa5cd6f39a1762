/**
 * Whole-board recognition: every realisation of every subgoal of a library, for both
 * colours, kept up to date move by move.
 *
 * Speed comes from not running streams blindly. Each point keeps a pattern profile per
 * colour (profile.ts); a stream is tried with its entry node at a point only when the point's
 * profile holds every atom that node's entry needs, and streams are indexed by that need so a
 * point tests each distinct need once.
 *
 * After a move at q only realisations whose footprint (nodes, pattern points and the
 * patterns' flanks) holds q can die, and only ones whose footprint holds q can be born. Such a
 * realisation has a node on one of the four lines through q within five steps (q lies in one
 * of that node's patterns, or flanks one) — so every subgoal is compiled once per node as
 * entry, and after a move only those forty-odd points are re-run, each with the streams whose
 * entry node could have a pattern through q from there.
 *
 * A realisation is reported once: realisations found with node 1 at different points that
 * are the same object under a symmetry of the description (both nodes of
 * `(1, 2-1, 2) 4:3', 2'-4:2', 3'`) are one, labelled by the least node tuple.
 */
import type { Board } from './board.ts';
import { automorphisms, canonicalise, canonicalString } from './canonical.ts';
import { compileDescription } from './compile.ts';
import type { ControlStream } from './controlStream.ts';
import type { Description } from './description.ts';
import { WINDOW } from './geometry.ts';
import { CoverMap, StreamMachine, type RawRealisation, type RealisedLine } from './interpret.ts';
import { ProfileTable, specAtom } from './profile.ts';
import { err, ok, type Result } from './result.ts';
import { BLACK, colourOf, DIRECTIONS, WHITE, type Colour, type Point, type Stone } from './types.ts';

/** A library entry ready for recognition: canonical text, description and compiled stream. */
export interface Subgoal {
  readonly text: string;
  readonly description: Description;
  /** The stream for whole-board scans, entered at the most demanding node. */
  readonly stream: ControlStream;
  /** streams[j - 1] enters at node j: used after a move, from whichever node the move touched. */
  readonly streams: readonly ControlStream[];
  /** needs[j - 1]: the OR of node j's atoms. */
  readonly needs: readonly number[];
  /** Node permutations mapping the description onto itself (perm[i - 1] = image of node i). */
  readonly automorphisms: readonly (readonly number[])[];
  /** The OR of the atoms the stream's entry node needs: a point lacking one cannot be it. */
  readonly need: number;
}

export function compileSubgoal(d: Description): Result<Subgoal> {
  const canonical = canonicalise(d);
  const stream = compileDescription(canonical);
  if (!stream.ok) return stream;
  const streams: ControlStream[] = [];
  for (let j = 1; j <= canonical.nodes.length; j++) {
    const sj = compileDescription(canonical, j);
    if (!sj.ok) return sj;
    streams.push(sj.value);
  }
  const needs = canonical.nodes.map((n) => n.lines.reduce((m, l) => m | specAtom(l.spec), 0));
  const need = needs[stream.value.entry - 1];
  return ok({
    text: canonicalString(canonical),
    description: canonical,
    stream: stream.value,
    streams,
    needs,
    automorphisms: automorphisms(canonical),
    need,
  });
}

/** Compiles several descriptions; the first failure stops it. */
export function compileSubgoals(ds: readonly Description[]): Result<Subgoal[]> {
  const out: Subgoal[] = [];
  for (const d of ds) {
    const s = compileSubgoal(d);
    if (!s.ok) return err(s.error);
    out.push(s.value);
  }
  return ok(out);
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

function lexLess(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** The least image of the raw node tuple under the description's automorphisms, and the permutation giving it. */
function leastLabelling(subgoal: Subgoal, raw: RawRealisation): { nodes: readonly Point[]; perm?: readonly number[] } {
  let nodes = raw.nodes;
  let perm: readonly number[] | undefined;
  for (let a = 1; a < subgoal.automorphisms.length; a++) {
    const sigma = subgoal.automorphisms[a];
    const image = new Array<number>(nodes.length);
    sigma.forEach((to, from) => (image[to - 1] = raw.nodes[from]));
    if (lexLess(image, nodes)) {
      nodes = image;
      perm = sigma;
    }
  }
  return perm === undefined ? { nodes } : { nodes, perm };
}

function realisationKey(subgoal: Subgoal, colour: Colour, raw: RawRealisation): string {
  return `${colour}|${subgoal.text}|${leastLabelling(subgoal, raw).nodes.join(',')}|${raw.implicit.join(',')}`;
}

function realise(board: Board, subgoal: Subgoal, colour: Colour, raw: RawRealisation, key: string): Realisation {
  // Relabel by the automorphism giving the least node tuple, so one object has one key.
  const { nodes, perm } = leastLabelling(subgoal, raw);
  let lines = raw.lines;
  if (perm !== undefined) {
    lines = raw.lines.map((l) => ({ ...l, patterns: l.patterns.map((x) => ({ ...x, node: perm[x.node - 1] })).sort((a, b) => a.node - b.node) }));
  }
  const g = board.geometry;
  const span = new Set<number>(nodes);
  const flanks = new Set<number>();
  for (const l of raw.lines) {
    for (const pat of l.patterns) {
      for (const w of pat.windows) {
        for (let i = 0; i < WINDOW; i++) span.add(g.windowPoints[w * WINDOW + i]);
        for (let i = 0; i < 2; i++) if (g.windowFlanks[w * 2 + i] >= 0) flanks.add(g.windowFlanks[w * 2 + i]);
      }
    }
  }
  const foot = new Set([...span, ...flanks]);
  return {
    subgoal,
    colour,
    nodes,
    lines,
    implicit: raw.implicit,
    comments: subgoal.description.nodes.map((n) => n.comment),
    footprint: Array.from(foot).sort((a, b) => a - b),
    span: Array.from(span).sort((a, b) => a - b),
    key,
  };
}

export interface RecogniseStats {
  /** Interpreter runs (subgoal × node-1 candidate that passed the profile index). */
  runs: number;
  steps: number;
  /** Runs stopped by the step cap: their results may be incomplete. Zero in every test. */
  capped: number;
}

/**
 * Keeps the realisations of a library on one board for both colours. Play and undo through
 * the recogniser (not the board directly) so that it can bring its state up to date.
 */
interface StreamGroup {
  readonly need: number;
  readonly entries: { readonly subgoal: Subgoal; readonly stream: ControlStream }[];
}

function groupByNeed(entries: { subgoal: Subgoal; stream: ControlStream; need: number }[]): StreamGroup[] {
  const byNeed = new Map<number, StreamGroup>();
  for (const e of entries) {
    let grp = byNeed.get(e.need);
    if (grp === undefined) byNeed.set(e.need, (grp = { need: e.need, entries: [] }));
    grp.entries.push({ subgoal: e.subgoal, stream: e.stream });
  }
  return Array.from(byNeed.values());
}

/**
 * Keeps the realisations of a library on one board for both colours. Play and undo through
 * the recogniser (not the board directly) so that it can bring its state up to date.
 */
export class Recogniser {
  readonly board: Board;
  private subgoals: readonly Subgoal[] = [];
  /** Whole-board scan: one stream per subgoal, grouped by its entry node's need. */
  private wholeGroups: StreamGroup[] = [];
  /** After a move: every (subgoal, entry node) stream, grouped by that node's need. */
  private moveGroups: StreamGroup[] = [];
  private readonly profiles: readonly [ProfileTable, ProfileTable];
  private readonly found: readonly [Map<string, Realisation>, Map<string, Realisation>];
  private readonly cover: CoverMap;
  private readonly machines = new Map<ControlStream, StreamMachine>();
  readonly stats: RecogniseStats = { runs: 0, steps: 0, capped: 0 };

  constructor(board: Board, library: readonly Subgoal[]) {
    this.board = board;
    this.cover = new CoverMap(board.points);
    this.profiles = [new ProfileTable(board, BLACK), new ProfileTable(board, WHITE)];
    this.found = [new Map(), new Map()];
    this.setLibrary(library);
  }

  /** Replaces the library and recognises the whole board afresh. */
  setLibrary(library: readonly Subgoal[]): void {
    this.subgoals = library.slice();
    this.machines.clear();
    this.wholeGroups = groupByNeed(this.subgoals.map((s) => ({ subgoal: s, stream: s.stream, need: s.need })));
    this.moveGroups = groupByNeed(this.subgoals.flatMap((s) => s.streams.map((stream, j) => ({ subgoal: s, stream, need: s.needs[j] }))));
    this.recogniseAll();
  }

  get library(): readonly Subgoal[] {
    return this.subgoals;
  }

  /** Recognises the whole board from scratch, for both colours. */
  recogniseAll(): void {
    for (const [i, table] of this.profiles.entries()) {
      for (let p = 0; p < this.board.points; p++) table.refresh(p);
      this.found[i].clear();
      for (let p = 0; p < this.board.points; p++) this.runAt(i, p, this.wholeGroups, -1, -1);
    }
  }

  play(p: Point, s: Stone): void {
    this.board.play(p, s);
    this.changed(p, s);
  }

  undo(): Point {
    const p = this.board.undo();
    this.changed(p);
    return p;
  }

  /**
   * Brings everything up to date after the content of point q changed. `placed` is the colour
   * of a stone just placed there. Such a stone only takes patterns away from the other colour
   * (a pattern dies when the other colour enters it; a stone on its flank spoils it only for
   * its own colour), so that colour loses the realisations whose nodes or pattern points
   * hold q and gains none.
   */
  changed(q: Point, placed?: Stone): void {
    for (const t of this.profiles) t.refreshAround(q);
    for (let i = 0; i < 2; i++) {
      const found = this.found[i];
      const ownOrUndo = placed === undefined || placed - 1 === i;
      for (const [k, r] of found) if ((ownOrUndo ? r.footprint : r.span).includes(q)) found.delete(k);
    }
    const size = this.board.size;
    const qc = q % size;
    const qr = Math.floor(q / size);
    const colours = placed === undefined ? [0, 1] : [placed - 1];
    for (const i of colours) this.runAt(i, q, this.moveGroups, q, -1);
    for (let d = 0; d < 4; d++) {
      const [dc, dr] = DIRECTIONS[d];
      for (let t = -WINDOW; t <= WINDOW; t++) {
        if (t === 0) continue;
        const c = qc + dc * t;
        const r = qr + dr * t;
        if (c < 0 || c >= size || r < 0 || r >= size) continue;
        for (const i of colours) this.runAt(i, r * size + c, this.moveGroups, q, d);
      }
    }
  }

  /**
   * Runs every stream whose entry need p's profile meets. With `touched` ≥ 0, only
   * realisations whose footprint holds that point are new; the rest are known already. With
   * `direction` ≥ 0 the touched point lies that way from p, so the entry node must have a
   * pattern along it: some atom of its need must be met in that direction.
   */
  private runAt(colourIndex: number, p: Point, groups: readonly StreamGroup[], touched: number, direction = -1): void {
    if (!this.board.isEmpty(p)) return;
    const table = this.profiles[colourIndex];
    const have = table.union[p];
    if (have === 0) return;
    const along = direction >= 0 ? table.masks[p * 4 + direction] : have;
    if (along === 0) return;
    const colour = colourOf((colourIndex + 1) as Stone);
    const found = this.found[colourIndex];
    for (const grp of groups) {
      if ((grp.need & ~have) !== 0 || (grp.need & along) === 0) continue;
      for (const { subgoal, stream } of grp.entries) {
        this.stats.runs++;
        let machine = this.machines.get(stream);
        if (machine === undefined) this.machines.set(stream, (machine = new StreamMachine(stream, this.board, this.cover)));
        const st = machine.run(table, p, (raw) => {
          const key = realisationKey(subgoal, colour, raw);
          if (found.has(key)) return;
          const r = realise(this.board, subgoal, colour, raw, key);
          if (touched < 0 || r.footprint.includes(touched)) found.set(key, r);
        });
        this.stats.steps += st.steps;
        if (st.capped) this.stats.capped++;
      }
    }
  }

  /** The realisations of one colour, in library order, then by nodes, then by implicit nodes. */
  realisations(colour: Colour): Realisation[] {
    const order = new Map(this.subgoals.map((s, i) => [s, i]));
    const list = Array.from(this.found[colour === 'black' ? 0 : 1].values());
    return list.sort((a, b) => {
      const d = order.get(a.subgoal)! - order.get(b.subgoal)!;
      if (d !== 0) return d;
      return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    });
  }
}

/** One-shot recognition of a board for one or both colours. */
export function recognise(board: Board, library: readonly Subgoal[]): { black: Realisation[]; white: Realisation[] } {
  const r = new Recogniser(board, library);
  return { black: r.realisations('black'), white: r.realisations('white') };
}
