/**
 * A listing of subgoals as the paper prints its own: "note that subgoals having the same node
 * list are grouped together" (Murray & Elcock 1968, "A formal notation for descriptions").
 * The first member of a group prints in full; the others print only their pattern list,
 * aligned under the first one's:
 *
 *     (1) 1:5
 *         2:4'
 *     (1, 1) 2:4, 4
 *            3:3', 3'
 *     (1, 2-1) 4, 3-3:4
 *     (1, 2-1, 2) 4:3', 2'-4:2', 3'
 */
import { canonicalise, compareNodeLists, comparePatternLists } from './canonical.ts';
import type { Description } from './description.ts';
import { makeDescription, makeNodeList, makePatternList } from './descriptionNotation.ts';

/** The quickest win a subgoal offers: its least comment, or Infinity if it has none. */
function quickestWin(d: Description): number {
  return Math.min(...d.nodes.map((node) => node.comment ?? Infinity));
}

/** Comments node by node, a missing comment after any number. */
function compareComments(a: Description, b: Description): number {
  for (let i = 0; i < Math.min(a.nodes.length, b.nodes.length); i++) {
    const ca = a.nodes[i].comment ?? Infinity;
    const cb = b.nodes[i].comment ?? Infinity;
    if (ca !== cb) return ca < cb ? -1 : 1;
  }
  return 0;
}

/**
 * Lists valid descriptions in canonical form, one subgoal a line, duplicates dropped. Groups
 * (one node list each) come by number of nodes, then node list token by token; within a
 * group, subgoals come by quickest win (least comment, uncommented last), then pattern list
 * (stronger first), then comments node by node. Lines are joined by newlines, with no final one.
 */
export function makeListing(descriptions: readonly Description[]): string {
  const byString = new Map<string, Description>();
  for (const d of descriptions) {
    const canonical = canonicalise(d);
    byString.set(makeDescription(canonical), canonical);
  }
  const groups = new Map<string, Description[]>();
  for (const d of byString.values()) {
    const key = makeNodeList(d);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [d]);
    else group.push(d);
  }
  const ordered = [...groups.values()].sort(
    (a, b) => a[0].nodes.length - b[0].nodes.length || compareNodeLists(a[0], b[0]),
  );
  const lines: string[] = [];
  for (const group of ordered) {
    group.sort((a, b) => quickestWin(a) - quickestWin(b) || comparePatternLists(a, b) || compareComments(a, b));
    const nodeList = makeNodeList(group[0]);
    const indent = ' '.repeat(nodeList.length + 1);
    group.forEach((d, i) => lines.push(i === 0 ? `${nodeList} ${makePatternList(d)}` : `${indent}${makePatternList(d)}`));
  }
  return lines.join('\n');
}
