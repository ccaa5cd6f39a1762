/**
 * A realisation as a run of a stream reports it: the points of its nodes, the windows of the
 * patterns on each of its lines, and its implicit nodes — in the stream's terms (lines by
 * index, windows by id), before the recogniser gives it a subgoal and a colour
 * (realisation.ts). `rawFromSignature` builds one back from the few numbers a recogniser keeps
 * of it (StreamMachine.account).
 */
import type { ControlStream } from './controlStream.ts';
import type { Geometry } from '../rules/geometry.ts';
import type { Direction, Point } from '../rules/types.ts';

/** The patterns a realisation uses on one of its lines. */
export interface RealisedLine {
  /** Index into the stream's lines. */
  readonly line: number;
  readonly direction: Direction;
  /** For each node on the line (ascending label), the window ids of its patterns. */
  readonly patterns: readonly { readonly node: number; readonly windows: readonly number[] }[];
}

export interface RawRealisation {
  /** nodes[0] is the point of node 1. */
  readonly nodes: readonly Point[];
  readonly lines: readonly RealisedLine[];
  /** Vacant points of the patterns other than the explicit nodes, ascending. */
  readonly implicit: readonly Point[];
}

/**
 * The realisation a run reported with signature `sig` (StreamMachine.signature) and implicit
 * nodes `implicit`, as `report` gave it then: the signature holds everything else.
 */
export function rawFromSignature(stream: ControlStream, g: Geometry, sig: readonly number[], implicit: readonly Point[]): RawRealisation {
  const k = stream.nodes.length;
  const nodes = sig.slice(0, k);
  const lines: RealisedLine[] = [];
  let at = k;
  for (const e of stream.elements) {
    if (e.op !== 'E') continue;
    const patterns = stream.lines[e.line].nodes.map((node) => {
      const w1 = sig[at++];
      const w2 = sig[at++];
      return { node, windows: w2 >= 0 ? [w1, w2] : [w1] };
    });
    lines.push({ line: e.line, direction: g.windowDirection[patterns[0].windows[0]] as Direction, patterns });
  }
  lines.sort((x, y) => x.line - y.line);
  return { nodes, lines, implicit };
}
