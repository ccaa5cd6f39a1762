/**
 * The /threats listing, one line per distinct realisation. Realisations of one subgoal on the
 * same explicit nodes that differ only in their implicit nodes (the same threat made with
 * other pattern windows: an open three whose four can be made at either end, a line that can
 * be extended two ways) look the same on a board and in words; members read three identical
 * lines as a bug. They are one line that says how many ways, the implicit nodes they use and
 * those every way needs — with the explicit nodes, the answers that stop them all.
 */
import { threatJson } from '../recognition/threatJson.ts';
import type { Realisation } from '../recognition/realisation.ts';

export interface ThreatGroup {
  readonly subgoal: string;
  /** Explicit nodes in label order, in point notation. */
  readonly nodes: readonly string[];
  /** Each way's implicit nodes, in the order the recogniser gave them. */
  readonly ways: readonly (readonly string[])[];
  /** Moves to five from the commented node, when the subgoal has a comment. */
  readonly moves: number | null;
}

/** One group per subgoal and node list, quickest first (then as first met). */
export function groupRealisations(size: number, list: readonly Realisation[]): ThreatGroup[] {
  const groups = new Map<string, { subgoal: string; nodes: string[]; ways: string[][]; moves: number | null }>();
  for (const r of list) {
    const j = threatJson(size, r);
    const key = `${j.subgoal}|${j.nodes.join(' ')}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { subgoal: j.subgoal, nodes: j.nodes, ways: [j.implicit], moves: j.moves });
    else g.ways.push(j.implicit);
  }
  return [...groups.values()].map((g, i) => ({ g, i })).sort((a, b) => (a.g.moves ?? Infinity) - (b.g.moves ?? Infinity) || a.i - b.i).map(({ g }) => g);
}

/**
 * "`(1) 2:4'` nodes g8 · implicit f8 k8 · five in 2", or, for several ways, the implicit nodes
 * among them and those in every way (with the nodes, the points that stop all of them):
 * "`(1, 1) 3:3', 3'` nodes l8 · 9 ways, implicit among h8 i8 … (in every way: i8 l7) · five in 3".
 */
export function threatLine(g: ThreatGroup): string {
  let implicit = '';
  if (g.ways.length > 1) {
    const all = [...new Set(g.ways.flat())].sort(byPoint);
    const every = all.filter((p) => g.ways.every((w) => w.includes(p)));
    implicit = ` · ${g.ways.length} ways, implicit among ${all.join(' ')}${every.length > 0 ? ` (in every way: ${every.join(' ')})` : ''}`;
  } else if (g.ways[0].length > 0) {
    implicit = ` · implicit ${g.ways[0].join(' ')}`;
  }
  const moves = g.moves !== null ? ` · five in ${g.moves}` : '';
  return `\`${g.subgoal}\` nodes ${g.nodes.join(' ')}${implicit}${moves}`;
}

/** Point notation in board order: by column letter, then row number. */
function byPoint(a: string, b: string): number {
  return a.charCodeAt(0) - b.charCodeAt(0) || Number(a.slice(1)) - Number(b.slice(1));
}
