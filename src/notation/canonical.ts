/**
 * Canonical form of descriptions: "An arbitrary set of rules is used to ensure that
 * descriptions of essentially the same object will always be given in a unique 'canonical'
 * form" (Murray & Elcock 1968, "A formal notation for descriptions"). Our rules are in
 * docs/DESIGN.md, "Canonical form":
 *
 * 1. within a node, lines are ordered by the labels they name (an own line names the node's
 *    own label), then stronger spec first;
 * 2. the labelling is the one whose node list is least token by token (numbers by value,
 *    `/` < `,` < `-`), then whose pattern list is least (stronger spec first);
 * 3. comments follow symmetry: nodes that an automorphism of the comment-free description
 *    exchanges all carry the smallest comment among them.
 *
 * Finding the least labelling is a branch-and-bound search over partial labellings that
 * hand out labels 1, 2, 3, … in turn; see `LeastLabelling`. Everything here expects a valid
 * description (`validateDescription`).
 */
import { MAX_PATTERN, type Description, type DescriptionNode, type LineSpec, type NodeLine } from './description.ts';
import { makeDescription } from './descriptionNotation.ts';

/** Node-list punctuation as tokens: below every label, in the order `/` < `,` < `-`. */
const SLASH = -3;
const COMMA = -2;
const DASH = -1;

/** A spec as one number, stronger first: 5' is 0, 5 is 1, 4' is 2, …, 0 is 11. */
function specKey(s: LineSpec): number {
  return (MAX_PATTERN - s.n) * 2 + (s.dashed ? 0 : 1);
}

/** The description as the search sees it: 0-based nodes, specs as keys (all 0 when ignored). */
interface Line {
  readonly others: readonly number[];
  readonly spec: number;
  /** The other nodes' specs on this same line, parallel to `others`. */
  readonly mateSpecs: readonly number[];
}

interface Structure {
  readonly k: number;
  readonly lines: readonly (readonly Line[])[];
}

function structureOf(d: Description, withSpecs: boolean): Structure {
  const key = (s: LineSpec): number => (withSpecs ? specKey(s) : 0);
  const lines = d.nodes.map((node, i) =>
    node.lines.map((line): Line => {
      const mateSpecs = line.others.map((j) => {
        const rest = line.others.filter((x) => x !== j).concat(i + 1).sort((a, b) => a - b);
        const mate = d.nodes[j - 1].lines.find((l) => sameNumbers(l.others, rest));
        return mate === undefined ? 0 : key(mate.spec);
      });
      return { others: line.others.map((j) => j - 1), spec: key(line.spec), mateSpecs };
    }),
  );
  return { k: d.nodes.length, lines };
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Lexicographic order of number sequences; a proper prefix comes first. */
function compareSequences(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
}

/** Compares two prefixes only where both are known: 0 when neither has decided yet. */
function compareKnown(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

// ---------------------------------------------------------------------------------------
// Symmetry: colour refinement and a backtracking search for automorphisms.

/** The multiset of a node's lines under a renaming, as one comparable string. */
function signature(s: Structure, v: number, rename: (w: number) => number): string {
  return s.lines[v]
    .map((line) => `${line.others.map(rename).sort((a, b) => a - b).join('/')}#${line.spec}`)
    .sort()
    .join(' ');
}

function isAutomorphism(s: Structure, image: ArrayLike<number>): boolean {
  for (let v = 0; v < s.k; v++) {
    if (signature(s, v, (w) => image[w]) !== signature(s, image[v], (w) => w)) return false;
  }
  return true;
}

/**
 * Colour refinement: nodes get equal colours only if they look alike from their lines, their
 * line-mates' colours and specs, to any depth. An automorphism maps every node to a node of
 * its own colour, so the search below only tries those.
 */
function refineColours(s: Structure): number[] {
  let colours = new Array<number>(s.k).fill(0);
  let classes = 1;
  for (;;) {
    const keys = s.lines.map((lines, v) => {
      const parts = lines.map((line) => {
        const mates = line.others.map((w, i) => `${colours[w]}.${line.mateSpecs[i]}`).sort();
        return `${line.spec}(${mates.join(',')})`;
      });
      return `${colours[v]}|${parts.sort().join(';')}`;
    });
    const distinct = [...new Set(keys)].sort();
    const next = keys.map((key) => distinct.indexOf(key));
    if (distinct.length === classes) return next;
    colours = next;
    classes = distinct.length;
  }
}

/** Nodes in breadth-first order along lines, starting at `root`, then any other components. */
function searchOrder(s: Structure, root: number): number[] {
  const order: number[] = [];
  const seen = new Array<boolean>(s.k).fill(false);
  const starts = [root, ...Array.from({ length: s.k }, (_, v) => v)];
  for (const start of starts) {
    if (seen[start]) continue;
    seen[start] = true;
    order.push(start);
    for (let i = order.length - 1; i < order.length; i++) {
      for (const line of s.lines[order[i]]) {
        for (const w of line.others) {
          if (!seen[w]) {
            seen[w] = true;
            order.push(w);
          }
        }
      }
    }
  }
  return order;
}

/**
 * Calls `visit` with each automorphism of `s` (as an image array), taking `from` to `to`
 * when they are given, until `visit` returns true.
 */
function searchAutomorphisms(
  s: Structure,
  colours: readonly number[],
  visit: (image: Int32Array) => boolean,
  from?: number,
  to?: number,
): void {
  const order = searchOrder(s, from ?? 0);
  const image = new Int32Array(s.k).fill(-1);
  const preimage = new Int32Array(s.k).fill(-1);

  // Lines of x whose placed members are placed on one line of y (in both directions).
  const fits = (x: number, y: number, map: Int32Array, xs: Structure['lines'], ys: Structure['lines']): boolean => {
    for (const line of xs[x]) {
      const placed = line.others.filter((w) => map[w] >= 0).map((w) => map[w]);
      if (placed.length === 0) continue;
      const target = ys[y].find((l) => l.others.includes(placed[0]));
      if (target === undefined || target.others.length !== line.others.length || target.spec !== line.spec) {
        return false;
      }
      if (!placed.every((w) => target.others.includes(w))) return false;
    }
    return true;
  };

  const extend = (t: number): boolean => {
    if (t === s.k) return isAutomorphism(s, image) && visit(image);
    const x = order[t];
    for (let y = 0; y < s.k; y++) {
      if (preimage[y] >= 0 || colours[y] !== colours[x]) continue;
      if (x === from && y !== to) continue;
      if (!fits(x, y, image, s.lines, s.lines) || !fits(y, x, preimage, s.lines, s.lines)) continue;
      image[x] = y;
      preimage[y] = x;
      if (extend(t + 1)) return true;
      image[x] = -1;
      preimage[y] = -1;
    }
    return false;
  };
  extend(0);
}

/** For each node, the least node of its orbit under the automorphisms of `s`. */
function orbitRepresentatives(s: Structure): number[] {
  const parent = Array.from({ length: s.k }, (_, v) => v);
  const find = (v: number): number => (parent[v] === v ? v : (parent[v] = find(parent[v])));
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const colours = refineColours(s);
  for (let u = 0; u < s.k; u++) {
    for (let v = u + 1; v < s.k; v++) {
      if (colours[u] !== colours[v] || find(u) === find(v)) continue;
      searchAutomorphisms(
        s,
        colours,
        (image) => {
          image.forEach((w, x) => union(x, w));
          return true;
        },
        u,
        v,
      );
    }
  }
  return parent.map((_, v) => find(v));
}

/**
 * Every permutation that maps the description, comments aside, onto itself: `perm[i - 1]` is
 * the image of node i (the convention of `relabel`). The identity comes first; the list is
 * in lexicographic order. A description of many interchangeable nodes has many of them
 * (k! for k lone identical nodes), so callers on large inputs should expect a long list.
 */
export function automorphisms(d: Description): number[][] {
  const s = structureOf(d, true);
  const found: number[][] = [];
  searchAutomorphisms(s, refineColours(s), (image) => {
    found.push(Array.from(image, (w) => w + 1));
    return false;
  });
  return found.sort(compareSequences);
}

// ---------------------------------------------------------------------------------------
// The least labelling.

interface Entry {
  /** Least known label on the line (the own label for a line of its own); Infinity if none. */
  readonly first: number;
  readonly known: readonly number[];
  readonly unknown: readonly number[];
  readonly spec: number;
}

/**
 * What a partial labelling already fixes of the written form, and the nodes that may take
 * the next label.
 */
interface Prefix {
  /** Node-list tokens up to the first label not yet handed out: exact. */
  readonly nodes: readonly number[];
  /**
   * Pattern-list keys of the labelled nodes: a lower bound of every completion that reaches
   * the same node list. A node's entries without a known label come after those with one,
   * in an order still open; taking them strongest first gives the least they can give, and
   * since every node's share of the list has a fixed length, node-by-node lower bounds make
   * a lower bound of the whole. Exact once every node is labelled.
   */
  readonly patterns: readonly number[];
  readonly candidates: readonly number[];
  /** True when no label is pending: the labelled nodes make up whole components. */
  readonly closed: boolean;
}

/**
 * Branch-and-bound for the least labelling. Labels are handed out in order; `order[j]` is the
 * node labelled j + 1. Three facts keep the search small:
 *
 * - The next label must go where the written form first needs an unknown label: that token
 *   is the least label of some not-yet-labelled nodes, and giving it anything but the next
 *   label makes the string larger there with everything before it unchanged. When nothing
 *   is pending, a node with a line of its own (it writes its own label first) beats one
 *   without.
 * - Prefixes compare where both are known: a branch whose known prefix is larger than the
 *   best found (or, on the node list, than a sibling's) can only lead to larger strings and
 *   is cut.
 * - Two candidates that a transposition maps onto each other (twins) lead to the same
 *   strings; only one is tried. When no label is pending, the labelled nodes are whole
 *   components, and any two candidates in one orbit of the automorphisms will do: an
 *   automorphism taking u to v can be cut down to one that moves only the components of u
 *   and v, which are still unlabelled, so it fixes every label handed out so far.
 *
 * The search runs twice: first on the node list alone (with specs ignored, so more nodes are
 * twins), then, knowing the least node list, on the pattern list among the labellings that
 * reach it — only then may a bound on the pattern list cut a branch.
 */
class LeastLabelling {
  private readonly labelOf: Int32Array;
  private readonly order: number[] = [];
  private readonly twin: number[];
  private readonly orbit: number[];
  private best: { order: number[]; nodes: readonly number[]; patterns: readonly number[] } | undefined;

  constructor(
    private readonly s: Structure,
    private readonly leastNodeList?: readonly number[],
  ) {
    this.labelOf = new Int32Array(s.k);
    this.twin = twinRepresentatives(s);
    this.orbit = orbitRepresentatives(s);
  }

  /** The nodes in label order. */
  run(): { order: number[]; nodes: readonly number[] } {
    this.search();
    if (this.best === undefined) throw new Error('canonical: the search found no labelling');
    return this.best;
  }

  private search(): void {
    const here = this.prefix();
    if (this.cut(here)) return;
    if (this.order.length === this.s.k) {
      this.consider(here);
      return;
    }
    const children: { node: number; prefix: Prefix }[] = [];
    const tried = new Set<number>();
    const same = here.closed ? this.orbit : this.twin;
    for (const node of here.candidates) {
      if (tried.has(same[node])) continue;
      tried.add(same[node]);
      this.assign(node);
      children.push({ node, prefix: this.prefix() });
      this.unassign(node);
    }
    const viable = children.filter((c) => !this.cut(c.prefix));
    // On the node list, a sibling whose known prefix is smaller beats every completion of a
    // larger one. Not so on the pattern list: a sibling with the smaller bound may still miss
    // the least node list further on, so there the bound only orders the siblings.
    const alive =
      this.leastNodeList === undefined
        ? viable.filter((c) => !viable.some((other) => compareKnown(other.prefix.nodes, c.prefix.nodes) < 0))
        : viable;
    alive.sort((a, b) => this.compare(a.prefix, b.prefix));
    for (const child of alive) {
      this.assign(child.node);
      this.search();
      this.unassign(child.node);
    }
  }

  /** Orders prefixes where both are known: the search tries the smallest first. */
  private compare(a: Prefix, b: Prefix): number {
    return this.leastNodeList === undefined ? compareKnown(a.nodes, b.nodes) : compareKnown(a.patterns, b.patterns);
  }

  private cut(p: Prefix): boolean {
    if (this.leastNodeList !== undefined) {
      if (compareKnown(p.nodes, this.leastNodeList) !== 0) return true;
      return this.best !== undefined && compareKnown(p.patterns, this.best.patterns) > 0;
    }
    return this.best !== undefined && compareKnown(p.nodes, this.best.nodes) > 0;
  }

  private consider(p: Prefix): void {
    const better =
      this.best === undefined ||
      (this.leastNodeList === undefined
        ? compareSequences(p.nodes, this.best.nodes) < 0
        : compareSequences(p.patterns, this.best.patterns) < 0);
    if (better) this.best = { order: this.order.slice(), nodes: p.nodes, patterns: p.patterns };
  }

  private assign(node: number): void {
    this.order.push(node);
    this.labelOf[node] = this.order.length;
  }

  private unassign(node: number): void {
    this.order.pop();
    this.labelOf[node] = 0;
  }

  private prefix(): Prefix {
    const { s, labelOf, order } = this;
    const nodes: number[] = [];
    const patterns: number[] = [];
    let candidates: number[] | undefined;
    for (let index = 0; index < order.length; index++) {
      const label = index + 1;
      const entries = s.lines[order[index]].map((line): Entry => {
        if (line.others.length === 0) return { first: label, known: [label], unknown: [], spec: line.spec };
        const known: number[] = [];
        const unknown: number[] = [];
        for (const w of line.others) {
          if (labelOf[w] > 0) known.push(labelOf[w]);
          else unknown.push(w);
        }
        known.sort((a, b) => a - b);
        return { first: known.length > 0 ? known[0] : Infinity, known, unknown, spec: line.spec };
      });
      // Entries with a known label have their place; those without come last, in an order
      // the next labels will decide (here: stronger spec first, the least they can give).
      entries.sort((a, b) => (a.first === b.first ? a.spec - b.spec : a.first < b.first ? -1 : 1));
      if (candidates === undefined) {
        if (index > 0) nodes.push(DASH);
        for (let e = 0; e < entries.length && candidates === undefined; e++) {
          const entry = entries[e];
          if (e > 0) nodes.push(COMMA);
          if (entry.first === Infinity) {
            candidates = entries.slice(e).flatMap((x) => x.unknown);
            break;
          }
          entry.known.forEach((x, i) => {
            if (i > 0) nodes.push(SLASH);
            nodes.push(x);
          });
          if (entry.unknown.length > 0) {
            nodes.push(SLASH);
            candidates = entry.unknown.slice();
          }
        }
      }
      for (const entry of entries) patterns.push(entry.spec);
    }
    const closed = candidates === undefined;
    if (candidates === undefined && order.length < s.k) {
      if (order.length > 0) nodes.push(DASH);
      const free = Array.from({ length: s.k }, (_, v) => v).filter((v) => labelOf[v] === 0);
      const ownLine = free.filter((v) => s.lines[v].some((line) => line.others.length === 0));
      candidates = ownLine.length > 0 ? ownLine : free;
    }
    return { nodes, patterns, candidates: candidates ?? [], closed };
  }
}

/** For each node, the least node it can be swapped with by an automorphism (itself if none). */
function twinRepresentatives(s: Structure): number[] {
  const rep = Array.from({ length: s.k }, (_, v) => v);
  const image = Array.from({ length: s.k }, (_, v) => v);
  for (let v = 0; v < s.k; v++) {
    for (let u = 0; u < v; u++) {
      if (rep[u] !== u) continue;
      image[u] = v;
      image[v] = u;
      const twins = isAutomorphism(s, image);
      image[u] = u;
      image[v] = v;
      if (twins) {
        rep[v] = u;
        break;
      }
    }
  }
  return rep;
}

/** Each node's comment becomes the least comment in its orbit (DESIGN.md, rule 3). */
function propagatedComments(d: Description): (number | undefined)[] {
  const reps = orbitRepresentatives(structureOf(d, true));
  const least = new Map<number, number>();
  d.nodes.forEach((node, v) => {
    if (node.comment === undefined) return;
    const now = least.get(reps[v]);
    if (now === undefined || node.comment < now) least.set(reps[v], node.comment);
  });
  return d.nodes.map((_, v) => least.get(reps[v]));
}

/**
 * The relabelling that gives the canonical form: old node i becomes node `perm[i - 1]`
 * (the convention of `relabel`). Lines within nodes still need sorting; `canonicalise` does
 * both.
 */
export function canonicalLabelling(d: Description): number[] {
  const nodeList = new LeastLabelling(structureOf(d, false)).run().nodes;
  const { order } = new LeastLabelling(structureOf(d, true), nodeList).run();
  const perm = new Array<number>(d.nodes.length);
  order.forEach((node, index) => (perm[node] = index + 1));
  return perm;
}

/** Rule 1: a node's lines by the labels they name (own label for an own line), then spec. */
function compareLines(label: number, a: NodeLine, b: NodeLine): number {
  const names = (l: NodeLine): readonly number[] => (l.others.length === 0 ? [label] : l.others);
  return compareSequences(names(a), names(b)) || specKey(a.spec) - specKey(b.spec);
}

/** The canonical form of a valid description (see the rules at the top of this file). */
export function canonicalise(d: Description): Description {
  const comments = propagatedComments(d);
  const perm = canonicalLabelling(d);
  const nodes = new Array<DescriptionNode>(d.nodes.length);
  d.nodes.forEach((node, v) => {
    const label = perm[v];
    const lines = node.lines
      .map((line): NodeLine => ({ others: line.others.map((j) => perm[j - 1]).sort((a, b) => a - b), spec: line.spec }))
      .sort((a, b) => compareLines(label, a, b));
    const comment = comments[v];
    nodes[label - 1] = comment === undefined ? { lines } : { lines, comment };
  });
  return { nodes };
}

/** The written canonical form: one string for every labelling of the same subgoal. */
export function canonicalString(d: Description): string {
  return makeDescription(canonicalise(d));
}

/** Whether two descriptions are the same subgoal up to labelling (comments included). */
export function sameSubgoal(a: Description, b: Description): boolean {
  return canonicalString(a) === canonicalString(b);
}

/** The node list as tokens, in written order: labels, and `/` < `,` < `-` below them. */
export function nodeListTokens(d: Description): number[] {
  const tokens: number[] = [];
  d.nodes.forEach((node, i) => {
    if (i > 0) tokens.push(DASH);
    node.lines.forEach((line, l) => {
      if (l > 0) tokens.push(COMMA);
      const names = line.others.length === 0 ? [i + 1] : line.others;
      names.forEach((x, m) => {
        if (m > 0) tokens.push(SLASH);
        tokens.push(x);
      });
    });
  });
  return tokens;
}

/** Compares node lists token by token, as the canonical form does; a prefix comes first. */
export function compareNodeLists(a: Description, b: Description): number {
  return compareSequences(nodeListTokens(a), nodeListTokens(b));
}

/** Compares pattern lists spec by spec, stronger spec first; comments are not looked at. */
export function comparePatternLists(a: Description, b: Description): number {
  const keys = (d: Description): number[] =>
    d.nodes.flatMap((node, i) => [...(i > 0 ? [DASH] : []), ...node.lines.map((line) => specKey(line.spec))]);
  return compareSequences(keys(a), keys(b));
}
