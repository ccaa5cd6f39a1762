/**
 * A realisation: where on the board a subgoal's description is met, for one colour — its
 * explicit nodes, the patterns of each line, its implicit nodes and the moves to five the
 * description's comments promise — and what the stages above ask of one: how quickly it wins,
 * which points destroy it.
 */
import type { RealisedLine } from './rawRealisation.ts';
import type { Subgoal } from './subgoal.ts';
import type { Colour, Point } from '../rules/types.ts';

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
