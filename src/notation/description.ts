/**
 * A subgoal description (Murray & Elcock 1968, "A formal notation for descriptions"): a
 * colour-free set of explicit nodes 1, 2, 3, … and, for each node, the lines through it that
 * matter, each with the pattern the node must be a constituent of on that line.
 *
 * This module is the typed model only. The written form `(node list) pattern list` is parsed
 * and printed by descriptionNotation.ts; the canonical labelling lives in canonical.ts. See
 * docs/DESIGN.md, "Descriptions", for what a spec means on the board.
 */
import { err, ok, problem, type Result } from '../rules/result.ts';

/** "up to four elements each referring to a different line through the parent node". */
export const MAX_LINES_PER_NODE = 4;
/** "an integer n (0 ≤ n ≤ 5) equal to the number of pieces in the pattern after play". */
export const MAX_PATTERN = 5;

/** One line's pattern entry: `n`, or `n'` when the node must be in two such 5-patterns. */
export interface LineSpec {
  readonly n: number;
  readonly dashed: boolean;
}

/** One entry of a node's element: a line through the node and the pattern it must carry. */
export interface NodeLine {
  /**
   * Labels of the other explicit nodes on this line, strictly ascending. Empty for a line
   * of its own, which the written form shows as the parent's own label.
   */
  readonly others: readonly number[];
  readonly spec: LineSpec;
}

export interface DescriptionNode {
  /** The lines through this node, in written order (1 to 4 of them). */
  readonly lines: readonly NodeLine[];
  /** `k:` — player's moves to complete a five when play starts here. Absent: not a winning start. */
  readonly comment?: number;
}

export interface Description {
  /** `nodes[0]` is node 1: labels are 1-based. */
  readonly nodes: readonly DescriptionNode[];
}

/** One node's place on a line of the description: which node, which of its entries, its spec. */
export interface LineMember {
  readonly node: number;
  /** Index of this line in `nodes[node - 1].lines`. */
  readonly line: number;
  readonly spec: LineSpec;
}

/**
 * A line of the description as a hyperedge: the explicit nodes on it (ascending) and each
 * one's spec along it. A line of its own has a single member.
 */
export interface DescriptionLine {
  readonly nodes: readonly number[];
  readonly members: readonly LineMember[];
}

export function lineSpec(n: number, dashed = false): LineSpec {
  return { n, dashed };
}

export function nodeCount(d: Description): number {
  return d.nodes.length;
}

/** The written form of a spec: `4` or `4'`. */
export function makeSpec(s: LineSpec): string {
  return s.dashed ? `${s.n}'` : `${s.n}`;
}

/**
 * Orders specs stronger first, as the canonical form does: higher n first, and at equal n
 * the dashed spec (two patterns) before the plain one. Negative when `a` is stronger.
 */
export function compareSpecs(a: LineSpec, b: LineSpec): number {
  if (a.n !== b.n) return b.n - a.n;
  return Number(b.dashed) - Number(a.dashed);
}

/**
 * What is wrong with a description and where: node `node` (1-based), entry `line` of that
 * node (0-based), and for a bad label its value. `part` says whether the fault is in the
 * node list, the pattern list or the comment, so a parser can point into its source.
 */
export interface DescriptionFault {
  readonly code: string;
  readonly message: string;
  readonly part: 'nodes' | 'patterns' | 'comment';
  readonly node: number;
  readonly line?: number;
  readonly label?: number;
}

function fault(
  code: string,
  message: string,
  where: { part: DescriptionFault['part']; node: number; line?: number; label?: number },
): DescriptionFault {
  return { code, message, ...where };
}

function entryText(label: number, others: readonly number[]): string {
  return others.length === 0 ? `${label}` : others.join('/');
}

/**
 * The first structural fault of a description, in written order (node list, then pattern
 * list), or undefined when it is valid. Checked: at least one node and one line per node;
 * labels 1…k; an entry names neither its own node (that is only written alone, for a line
 * of its own) nor any node twice; no node has two lines through the same other node (two
 * lines meet in at most one point); at most four lines a node; entries agree (node i naming
 * {j, …} needs node j to name exactly the rest of that line plus i); 0 ≤ n ≤ 5; comments ≥ 1.
 */
export function descriptionFault(d: Description): DescriptionFault | undefined {
  const k = d.nodes.length;
  if (k === 0) return fault('no-nodes', 'a description needs at least one node', { part: 'nodes', node: 1 });
  // Local faults first, so that an unmatched entry is never blamed on a typo elsewhere.
  for (let i = 1; i <= k; i++) {
    const lines = d.nodes[i - 1].lines;
    if (lines.length === 0) {
      return fault('no-lines', `node ${i} has no lines`, { part: 'nodes', node: i });
    }
    const seen = new Set<number>();
    for (let l = 0; l < lines.length; l++) {
      const where = { part: 'nodes' as const, node: i, line: l };
      if (l === MAX_LINES_PER_NODE) {
        return fault('too-many-lines', `node ${i} has more than ${MAX_LINES_PER_NODE} lines through it`, where);
      }
      const others = lines[l].others;
      for (let m = 0; m < others.length; m++) {
        const j = others[m];
        if (!Number.isInteger(j) || j < 1 || j > k) {
          return fault('unknown-label', `node ${j} does not exist: labels run from 1 to ${k}`, { ...where, label: j });
        }
        if (m > 0 && others[m - 1] === j) {
          return fault('repeated-label', `node ${i} names node ${j} twice on one line`, { ...where, label: j });
        }
        if (m > 0 && others[m - 1] > j) {
          return fault('unsorted-labels', `node ${i}'s line names its nodes out of order`, { ...where, label: j });
        }
        if (j === i) {
          return fault(
            'own-label-in-entry',
            `node ${i}'s own label may only stand alone, for a line with no other node`,
            { ...where, label: j },
          );
        }
        if (seen.has(j)) {
          return fault(
            'duplicate-line',
            `node ${i} has two lines through node ${j}, but two lines meet in at most one point`,
            { ...where, label: j },
          );
        }
        seen.add(j);
      }
    }
  }
  for (let i = 1; i <= k; i++) {
    const lines = d.nodes[i - 1].lines;
    for (let l = 0; l < lines.length; l++) {
      const others = lines[l].others;
      for (const j of others) {
        const expected = others.filter((x) => x !== j).concat(i).sort((a, b) => a - b);
        const match = d.nodes[j - 1].lines.some((line) => sameLabels(line.others, expected));
        if (!match) {
          return fault(
            'unmatched-entry',
            `node ${i} names ${entryText(i, others)} on a line, but node ${j} has no entry ${expected.join('/')}`,
            { part: 'nodes', node: i, line: l },
          );
        }
      }
    }
  }
  for (let i = 1; i <= k; i++) {
    const node = d.nodes[i - 1];
    if (node.comment !== undefined && !(Number.isSafeInteger(node.comment) && node.comment >= 1)) {
      return fault('bad-comment', `node ${i}'s comment ${numberText(node.comment)} is not a number of moves (1 or more)`, {
        part: 'comment',
        node: i,
      });
    }
    for (let l = 0; l < node.lines.length; l++) {
      const n = node.lines[l].spec.n;
      if (!Number.isInteger(n) || n < 0 || n > MAX_PATTERN) {
        return fault('pattern-out-of-range', `pattern ${numberText(n)} is out of range: n runs from 0 to ${MAX_PATTERN}`, {
          part: 'patterns',
          node: i,
          line: l,
        });
      }
    }
  }
  // A comment claims a five in that many moves. Once the node is played, the fullest of the
  // description's possible 5-patterns holds at most n stones, so a five takes at least 6 - n
  // moves: `(1) 1:4'` claims what its patterns make impossible.
  const fullest = Math.max(...d.nodes.flatMap((node) => node.lines.map((line) => line.spec.n)));
  for (let i = 1; i <= k; i++) {
    const c = d.nodes[i - 1].comment;
    if (c !== undefined && c < 6 - fullest) {
      return fault(
        'impossible-comment',
        `node ${i}'s comment says five in ${c}, but no pattern holds more than ${fullest} stone${fullest === 1 ? '' : 's'} once played, so a five takes at least ${6 - fullest} moves`,
        { part: 'comment', node: i },
      );
    }
  }
  return undefined;
}

/** The description itself when it is structurally valid (see `descriptionFault`). */
export function validateDescription(d: Description): Result<Description> {
  const f = descriptionFault(d);
  return f === undefined ? ok(d) : err(problem(f.code, f.message));
}

function sameLabels(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The lines of a valid description as hyperedges, each once, in the order their first
 * member's entry appears (node 1's entries first). Members are in ascending node order.
 */
export function descriptionLines(d: Description): DescriptionLine[] {
  const out: DescriptionLine[] = [];
  const done = new Set<string>();
  d.nodes.forEach((node, index) => {
    const label = index + 1;
    node.lines.forEach((line, l) => {
      const nodes = [...line.others, label].sort((a, b) => a - b);
      const key = nodes.join('/');
      if (line.others.length > 0 && done.has(key)) return;
      done.add(key);
      const members = nodes.map((j): LineMember => {
        if (j === label) return { node: j, line: l, spec: line.spec };
        const rest = nodes.filter((x) => x !== j);
        const at = d.nodes[j - 1].lines.findIndex((other) => sameLabels(other.others, rest));
        return { node: j, line: at, spec: d.nodes[j - 1].lines[at].spec };
      });
      out.push({ nodes, members });
    });
  });
  return out;
}

/**
 * Renames the nodes: old node i becomes node `perm[i - 1]`. Each node keeps its lines in
 * their order; the labels inside entries are renamed and re-sorted. `perm` must be a
 * permutation of 1…k (a programming error otherwise, so it throws).
 */
export function relabel(d: Description, perm: readonly number[]): Description {
  const k = d.nodes.length;
  const seen = new Set(perm);
  if (perm.length !== k || seen.size !== k || perm.some((p) => !Number.isInteger(p) || p < 1 || p > k)) {
    throw new RangeError(`relabel: [${perm.join(', ')}] is not a permutation of 1…${k}`);
  }
  const nodes: DescriptionNode[] = new Array<DescriptionNode>(k);
  d.nodes.forEach((node, index) => {
    const lines = node.lines.map(
      (line): NodeLine => ({
        others: line.others.map((j) => perm[j - 1]).sort((a, b) => a - b),
        spec: line.spec,
      }),
    );
    nodes[perm[index] - 1] = node.comment === undefined ? { lines } : { lines, comment: node.comment };
  });
  return { nodes };
}

/** The same description with every comment dropped: the structure symmetry is judged on. */
export function withoutComments(d: Description): Description {
  return { nodes: d.nodes.map((node) => ({ lines: node.lines })) };
}

/** Exact equality: same labels, same entries in the same order, same specs and comments. */
export function descriptionsEqual(a: Description, b: Description): boolean {
  return (
    a.nodes.length === b.nodes.length &&
    a.nodes.every((na, i) => {
      const nb = b.nodes[i];
      return (
        na.comment === nb.comment &&
        na.lines.length === nb.lines.length &&
        na.lines.every((la, l) => {
          const lb = nb.lines[l];
          return sameLabels(la.others, lb.others) && la.spec.n === lb.spec.n && la.spec.dashed === lb.spec.dashed;
        })
      );
    })
  );
}

/** A number as an error quotes it: one past exact integers (twenty 9s read as 1e20) is not printed as if it were what was typed. */
function numberText(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : 'of more than 15 digits';
}
