/**
 * The compiler from a description to a control stream ("a component of the total program
 * which can transform the 'written' description … into the equivalent control stream").
 *
 * The stream starts from an *entry node*: the paper scans with node 1 placed first, and so do
 * we when node 1 is as demanding as any other node; otherwise the compiler starts from the
 * node whose entry is hardest to meet (strongest specs: a point rarely carries them), since
 * every later element only looks near the points already placed. Labels are unchanged; only
 * the order of the scan is. Ties go to the lower label.
 *
 * Order of the stream: A for the entry node; then, breadth first from it, each node's shared
 * lines in written order: a line no other placed node is on gets a B (choose its direction
 * through this node) and one C per node on it not yet placed; a line whose nodes were all, or
 * partly, placed by other lines gets a D (check they share it) and C's for the rest. Then a
 * B for each line of a node's own. Finally one E per line, in the order the lines were
 * named, once every explicit node is placed — E's check that no pattern holds an explicit
 * node that its line does not name, which needs them all.
 */
import { STREAM_FORMAT_VERSION, type ControlStream, type Element, type StreamLine, type StreamNode } from './controlStream.ts';
import { descriptionLines, type Description, type LineSpec } from '../notation/description.ts';
import { MAX_DESCRIPTION_NODES } from '../notation/descriptionNotation.ts';
import { WINDOW } from '../rules/geometry.ts';
import { err, ok, problem, type Result } from '../rules/result.ts';

/** Cover marks are bit sets of lines; 31 lines is far beyond any subgoal a game teaches. */
export const MAX_STREAM_LINES = 31;
/**
 * The interpreter keeps its node registers in fixed-size arrays; the paper's largest example
 * has four nodes. As many as a written description may have, so whatever parses compiles.
 */
export const MAX_STREAM_NODES = MAX_DESCRIPTION_NODES;

/**
 * Compiles `d` into a control stream. `entryNode` fixes the node the scan starts from (the
 * incremental recogniser compiles one stream per node, so that it can start from whichever
 * node a move touched); by default it is the most demanding node.
 */
export function compileDescription(d: Description, entryNode?: number): Result<ControlStream> {
  const hyper = descriptionLines(d);
  if (hyper.length > MAX_STREAM_LINES) {
    return err(problem('too-complex', `a description may have at most ${MAX_STREAM_LINES} lines; this one has ${hyper.length}`));
  }
  const k = d.nodes.length;
  if (k > MAX_STREAM_NODES) {
    return err(problem('too-complex', `a description may have at most ${MAX_STREAM_NODES} nodes; this one has ${k}`));
  }
  const lines: StreamLine[] = hyper.map((h) => ({ nodes: h.members.map((m) => m.node), specs: h.members.map((m) => m.spec) }));
  // For each node, the id of the line behind each of its written entries.
  const nodeLineIds: number[][] = d.nodes.map((n) => new Array<number>(n.lines.length).fill(-1));
  hyper.forEach((h, id) => h.members.forEach((m) => (nodeLineIds[m.node - 1][m.line] = id)));
  const nodes: StreamNode[] = d.nodes.map((n, i) => ({
    lines: nodeLineIds[i],
    specs: n.lines.map((l) => l.spec),
    ...(n.comment !== undefined ? { comment: n.comment } : {}),
  }));

  let entry = 1;
  for (let j = 2; j <= k; j++) if (demand(nodes[j - 1]) > demand(nodes[entry - 1])) entry = j;
  if (entryNode !== undefined) {
    if (!Number.isInteger(entryNode) || entryNode < 1 || entryNode > k) {
      return err(problem('bad-entry', `node ${entryNode} does not exist: labels run from 1 to ${k}`));
    }
    entry = entryNode;
  }
  const elements: Element[] = [{ op: 'A', node: entry }];
  const placed = new Array<boolean>(k + 1).fill(false);
  const depth = new Array<number>(k + 1).fill(0);
  const named: number[] = [];
  const isNamed = new Array<boolean>(hyper.length).fill(false);
  placed[entry] = true;
  const queue = [entry];
  // Lines shared with other nodes first: each one places nodes or checks them, so a wrong
  // choice fails early. A line of a node's own only names a direction, and choosing it early
  // would multiply every later choice by up to four; those B's come after every node is placed.
  const ownLines: { node: number; line: number }[] = [];
  while (queue.length > 0) {
    const i = queue.shift()!;
    for (const h of nodeLineIds[i - 1]) {
      if (isNamed[h]) continue;
      const onLine = lines[h].nodes;
      if (onLine.length === 1) {
        ownLines.push({ node: i, line: h });
        isNamed[h] = true;
        continue;
      }
      const placedOnLine = onLine.filter((j) => placed[j]);
      elements.push(placedOnLine.length >= 2 ? { op: 'D', line: h } : { op: 'B', node: i, line: h });
      isNamed[h] = true;
      named.push(h);
      for (const j of onLine) {
        if (placed[j]) continue;
        elements.push({ op: 'C', node: j, from: i, line: h });
        placed[j] = true;
        depth[j] = depth[i] + 1;
        queue.push(j);
      }
    }
  }
  for (const { node, line } of ownLines) {
    // An own line interchangeable with an earlier own line of this node (same spec) takes a
    // later direction, so each realisation is found once, not once per line ordering.
    const twin = named.filter((x) => lines[x].nodes.length === 1 && lines[x].nodes[0] === node && sameSpec(lines[x].specs[0], lines[line].specs[0])).pop();
    elements.push(twin !== undefined ? { op: 'B', node, line, after: twin } : { op: 'B', node, line });
    named.push(line);
  }
  const stray = placed.findIndex((p, j) => j >= 1 && !p);
  if (stray >= 1) {
    return err(problem('disconnected', `node ${stray} shares no line, directly or through other nodes, with node ${entry}`));
  }
  for (const h of named) elements.push({ op: 'E', line: h });
  // A node t hops from the entry node is at most 4t king steps away (each hop stays inside
  // one window); its patterns reach 4 further and their flanks one more.
  const radius = (WINDOW - 1) * Math.max(...depth.slice(1)) + WINDOW;
  return ok({ version: STREAM_FORMAT_VERSION, entry, nodes, lines, elements, radius });
}

function sameSpec(a: LineSpec, b: LineSpec): boolean {
  return a.n === b.n && a.dashed === b.dashed;
}

/**
 * How hard a node's entry is to meet, for choosing the entry node: each spec weighs more the
 * more stones it asks for (a pattern with more stones is rarer on a board), twice as much when
 * dashed.
 */
function demand(node: StreamNode): number {
  let score = 0;
  for (const s of node.specs) score += 4 ** Math.max(0, s.n - 1) * (s.dashed ? 2 : 1);
  return score;
}

