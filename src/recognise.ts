/**
 * Whole-board recognition: every realisation of every subgoal of a library, for both
 * colours, kept up to date move by move.
 *
 * Speed comes from not running streams blindly. Each point keeps a pattern profile per
 * colour (profile.ts); a subgoal is tried with node 1 at a point only when the point's
 * profile holds every atom node 1's entry needs, and subgoals are indexed by that need so a
 * point tests each distinct need once. After a move at q only realisations whose footprint
 * (nodes, pattern points and the patterns' flanks) holds q can die, and only ones whose
 * footprint holds q can be born, so only node-1 points within a subgoal's radius of q are
 * re-run.
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
import { Interpreter, type RawRealisation, type RealisedLine } from './interpret.ts';
import { ProfileTable, specAtom } from './profile.ts';
import { err, ok, type Result } from './result.ts';
import { BLACK, colourOf, WHITE, type Colour, type Point, type Stone } from './types.ts';

/** A library entry ready for recognition: canonical text, description and compiled stream. */
export interface Subgoal {
  readonly text: string;
  readonly description: Description;
  readonly stream: ControlStream;
  /** Node permutations mapping the description onto itself (perm[i - 1] = image of node i). */
  readonly automorphisms: readonly (readonly number[])[];
  /** The OR of the atoms node 1's entry needs: a point lacking one cannot be node 1. */
  readonly need: number;
}

export function compileSubgoal(d: Description): Result<Subgoal> {
  const canonical = canonicalise(d);
  const stream = compileDescription(canonical);
  if (!stream.ok) return stream;
  let need = 0;
  for (const l of canonical.nodes[0].lines) need |= specAtom(l.spec);
  return ok({
    text: canonicalString(canonical),
    description: canonical,
    stream: stream.value,
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

function realise(board: Board, subgoal: Subgoal, colour: Colour, raw: RawRealisation): Realisation {
  // Relabel by the automorphism giving the least node tuple, so one object has one key.
  let nodes = raw.nodes;
  let perm: readonly number[] | undefined;
  for (const sigma of subgoal.automorphisms) {
    const image = new Array<number>(nodes.length);
    sigma.forEach((to, from) => (image[to - 1] = raw.nodes[from]));
    if (lexLess(image, nodes)) {
      nodes = image;
      perm = sigma;
    }
  }
  let lines = raw.lines;
  if (perm !== undefined) {
    const p = perm;
    lines = raw.lines.map((l) => ({ ...l, patterns: l.patterns.map((x) => ({ ...x, node: p[x.node - 1] })).sort((a, b) => a.node - b.node) }));
  }
  const g = board.geometry;
  const foot = new Set<number>(nodes);
  for (const l of raw.lines) {
    for (const pat of l.patterns) {
      for (const w of pat.windows) {
        for (let i = 0; i < WINDOW; i++) foot.add(g.windowPoints[w * WINDOW + i]);
        for (let i = 0; i < 2; i++) if (g.windowFlanks[w * 2 + i] >= 0) foot.add(g.windowFlanks[w * 2 + i]);
      }
    }
  }
  const key = `${colour}|${subgoal.text}|${nodes.join(',')}|${raw.implicit.join(',')}`;
  return {
    subgoal,
    colour,
    nodes,
    lines,
    implicit: raw.implicit,
    comments: subgoal.description.nodes.map((n) => n.comment),
    footprint: Array.from(foot).sort((a, b) => a - b),
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
export class Recogniser {
  readonly board: Board;
  private subgoals: readonly Subgoal[] = [];
  private groups: { need: number; radius: number; subgoals: Subgoal[] }[] = [];
  private maxRadius = 0;
  private readonly profiles: readonly [ProfileTable, ProfileTable];
  private readonly found: readonly [Map<string, Realisation>, Map<string, Realisation>];
  private readonly interpreter: Interpreter;
  readonly stats: RecogniseStats = { runs: 0, steps: 0, capped: 0 };

  constructor(board: Board, library: readonly Subgoal[]) {
    this.board = board;
    this.interpreter = new Interpreter(board);
    this.profiles = [new ProfileTable(board, BLACK), new ProfileTable(board, WHITE)];
    this.found = [new Map(), new Map()];
    this.setLibrary(library);
  }

  /** Replaces the library and recognises the whole board afresh. */
  setLibrary(library: readonly Subgoal[]): void {
    this.subgoals = library.slice();
    const byNeed = new Map<string, { need: number; radius: number; subgoals: Subgoal[] }>();
    for (const s of this.subgoals) {
      const k = `${s.need}/${s.stream.radius}`;
      let grp = byNeed.get(k);
      if (grp === undefined) byNeed.set(k, (grp = { need: s.need, radius: s.stream.radius, subgoals: [] }));
      grp.subgoals.push(s);
    }
    this.groups = Array.from(byNeed.values());
    this.maxRadius = Math.max(0, ...this.groups.map((g) => g.radius));
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
      for (let p = 0; p < this.board.points; p++) this.runAt(i, p, -1);
    }
  }

  play(p: Point, s: Stone): void {
    this.board.play(p, s);
    this.changed(p);
  }

  undo(): Point {
    const p = this.board.undo();
    this.changed(p);
    return p;
  }

  /** Brings everything up to date after the content of point q changed. */
  changed(q: Point): void {
    for (const t of this.profiles) t.refreshAround(q);
    for (let i = 0; i < 2; i++) {
      const found = this.found[i];
      for (const [k, r] of found) if (r.footprint.includes(q)) found.delete(k);
    }
    const size = this.board.size;
    const qc = q % size;
    const qr = Math.floor(q / size);
    const R = this.maxRadius;
    for (let r = Math.max(0, qr - R); r <= Math.min(size - 1, qr + R); r++) {
      for (let c = Math.max(0, qc - R); c <= Math.min(size - 1, qc + R); c++) {
        const dist = Math.max(Math.abs(r - qr), Math.abs(c - qc));
        const p = r * size + c;
        this.runAt(0, p, dist);
        this.runAt(1, p, dist);
      }
    }
  }

  /** Runs every subgoal whose need p's profile meets; `dist` < 0 means no radius limit. */
  private runAt(colourIndex: number, p: Point, dist: number): void {
    if (!this.board.isEmpty(p)) return;
    const table = this.profiles[colourIndex];
    const have = table.union[p];
    const colour = colourOf((colourIndex + 1) as Stone);
    const found = this.found[colourIndex];
    for (const grp of this.groups) {
      if ((grp.need & ~have) !== 0 || (dist >= 0 && dist > grp.radius)) continue;
      for (const s of grp.subgoals) {
        this.stats.runs++;
        const st = this.interpreter.run(s.stream, table, p, (raw) => {
          const r = realise(this.board, s, colour, raw);
          if (!found.has(r.key)) found.set(r.key, r);
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
