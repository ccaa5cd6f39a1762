/**
 * The realisations a run found, as the recogniser keeps them: a few numbers each (`Found`, the
 * machine's account), and the `Realisation` object built from them only when someone asks
 * (`FoundRealisation`, which works out its lines, key, span and footprint when first read).
 * The colour's realisation lists are the live runs' `found` lists (recognise.ts, collect).
 */
import type { Board } from '../rules/board.ts';
import { scanStreamOf } from './entryGroups.ts';
import { rawFromSignature, type RealisedLine } from './rawRealisation.ts';
import type { Realisation } from './realisation.ts';
import type { Subgoal } from './subgoal.ts';
import { WINDOW } from '../rules/geometry.ts';
import type { Colour, Point } from '../rules/types.ts';

/**
 * A realisation as a run found it, in few numbers: the machine's account of it (its
 * signature — node points by label, then each E line's windows — and from `implicitAt` on its
 * implicit nodes, StreamMachine.account). The node tuple is the least labelling's (the
 * machine looks for no other), so nothing needs relabelling; the Realisation object, with its
 * public key, is built from these when first asked for.
 */
export interface Found {
  readonly sig: readonly number[];
  readonly implicitAt: number;
  real: Realisation | undefined;
}

/** What most runs find: nothing. Shared, never added to. */
export const NONE: Found[] = [];

/**
 * Whether the found realisation `f` has the node tuple and implicit nodes of the account
 * `sig` (implicit nodes from `implicitAt`): the same realisation, found another way.
 */
export function sameRealisation(f: Found, sig: readonly number[], k: number, implicitAt: number): boolean {
  if (f.sig.length - f.implicitAt !== sig.length - implicitAt) return false;
  for (let i = 0; i < k; i++) if (f.sig[i] !== sig[i]) return false;
  for (let t = implicitAt, u = f.implicitAt; t < sig.length; t++, u++) if (f.sig[u] !== sig[t]) return false;
  return true;
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
export class FoundRealisation implements Realisation {
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

