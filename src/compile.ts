/**
 * The compiler from a description to a control stream ("a component of the total program
 * which can transform the 'written' description … into the equivalent control stream").
 *
 * Order of the stream: A for node 1; then, breadth first from node 1, each node's lines in
 * written order: a line no other placed node is on gets a B (choose its direction through
 * this node) and one C per node on it not yet placed; a line whose nodes were all, or partly,
 * placed by other lines gets a D (check they share it) and C's for the rest. Finally one E
 * per line, in the order the lines were named, once every explicit node is placed — E's
 * check that no pattern holds an explicit node that its line does not name, which needs
 * them all.
 */
import { STREAM_FORMAT_VERSION, type ControlStream, type Element, type StreamLine, type StreamNode } from './controlStream.ts';
import { descriptionLines, type Description } from './description.ts';
import { WINDOW } from './geometry.ts';
import { err, ok, problem, type Result } from './result.ts';

/** Cover marks are bit sets of lines; 31 lines is far beyond any subgoal a game teaches. */
export const MAX_STREAM_LINES = 31;

export function compileDescription(d: Description): Result<ControlStream> {
  const hyper = descriptionLines(d);
  if (hyper.length > MAX_STREAM_LINES) {
    return err(problem('too-complex', `a description may have at most ${MAX_STREAM_LINES} lines; this one has ${hyper.length}`));
  }
  const k = d.nodes.length;
  const lines: StreamLine[] = hyper.map((h) => ({ nodes: h.members.map((m) => m.node), specs: h.members.map((m) => m.spec) }));
  // For each node, the id of the line behind each of its written entries.
  const nodeLineIds: number[][] = d.nodes.map((n) => new Array<number>(n.lines.length).fill(-1));
  hyper.forEach((h, id) => h.members.forEach((m) => (nodeLineIds[m.node - 1][m.line] = id)));
  const nodes: StreamNode[] = d.nodes.map((n, i) => ({
    lines: nodeLineIds[i],
    specs: n.lines.map((l) => l.spec),
    ...(n.comment !== undefined ? { comment: n.comment } : {}),
  }));

  const elements: Element[] = [{ op: 'A', node: 1 }];
  const placed = new Array<boolean>(k + 1).fill(false);
  const depth = new Array<number>(k + 1).fill(0);
  const named: number[] = [];
  const isNamed = new Array<boolean>(hyper.length).fill(false);
  placed[1] = true;
  const queue = [1];
  while (queue.length > 0) {
    const i = queue.shift()!;
    for (const h of nodeLineIds[i - 1]) {
      if (isNamed[h]) continue;
      const onLine = lines[h].nodes;
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
  const stray = placed.findIndex((p, j) => j >= 1 && !p);
  if (stray >= 1) {
    return err(problem('disconnected', `node ${stray} shares no line, directly or through other nodes, with node 1`));
  }
  for (const h of named) elements.push({ op: 'E', line: h });
  // A node t hops from node 1 is at most 4t king steps away (each hop stays inside one
  // window); its patterns reach 4 further and their flanks one more.
  const radius = (WINDOW - 1) * Math.max(...depth.slice(1)) + WINDOW;
  return ok({ version: STREAM_FORMAT_VERSION, nodes, lines, elements, radius });
}

