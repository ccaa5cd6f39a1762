/**
 * A library's streams made ready for the whole-board scan: each subgoal's stream with what a
 * run of it needs at hand (`ScanStream`: its machine, its entry node's atoms, its entry gate),
 * and the streams grouped by entry node, so that one profile check at a point serves every
 * stream of a group and one gate check every stream of a gate (`Grouping`, in scan order).
 * Groupings of the last few libraries are kept, as a bot alternates between its servers'.
 */
import type { ControlStream } from './controlStream.ts';
import { entryGate, type EntryGate } from './entryGate.ts';
import { machineFor, type StreamMachine } from './interpret.ts';
import { canMeetAll } from './profile.ts';
import { selfAtoms } from './streamTables.ts';
import type { Subgoal } from './subgoal.ts';
import type { Point } from '../rules/types.ts';

/** A subgoal's whole-board stream, with what a run needs at hand. */
export interface ScanStream {
  readonly subgoal: Subgoal;
  /** The subgoal's number of nodes (read for every realisation reported: kept here, one load away). */
  readonly k: number;
  readonly machine: StreamMachine;
  /** Its place in the scan order at one point. */
  order: number;
  /** Realisation key prefixes for black and white. */
  readonly prefix: readonly [string, string];
  /**
   * The atoms each line of the entry node needs (selfAtoms), strongest first, and as a
   * string: streams with equal ones share a group.
   */
  readonly atoms: readonly number[];
  readonly signature: string;
  /** What its first C needs (EntryGate), and as a string: streams with equal ones run next to each other. */
  readonly gate: EntryGate | undefined;
  readonly gateKey: string;
}

/** Streams whose entry nodes carry the same specs: one profile check serves them all. */
export interface EntryGroup {
  /** Its place among the grouping's groups. */
  readonly index: number;
  /** The OR of the entry node's atoms. */
  readonly need: number;
  readonly atoms: Int32Array;
  readonly streams: ScanStream[];
  /**
   * For a stream with a gate, the index in `streams` just past the last stream with the same
   * gate: the streams of one gate are next to each other, and one check serves them all.
   */
  readonly gateEnd: Int32Array;
}

const scanStreams = new WeakMap<Subgoal, ScanStream>();

export function scanStreamOf(subgoal: Subgoal): ScanStream {
  let s = scanStreams.get(subgoal);
  if (s === undefined) {
    const stream = subgoal.stream;
    const atoms = stream.nodes[stream.entry - 1].lines.map((l) => selfAtoms(stream, stream.entry, l)).sort((a, b) => b - a);
    const gate = entryGate(stream);
    s = {
      subgoal,
      k: subgoal.description.nodes.length,
      machine: machineFor(stream, subgoal.automorphisms),
      order: 0,
      prefix: [`black|${subgoal.text}|`, `white|${subgoal.text}|`],
      atoms,
      signature: atoms.join(','),
      gate,
      gateKey: gate === undefined ? '' : `${gate.along},${gate.atom},${gate.others}`,
    };
    scanStreams.set(subgoal, s);
  }
  return s;
}

/**
 * The last few libraries grouped, most recent first, each reused when a library holds the same
 * subgoals in the same order. A few, not one: a bot playing in several servers alternates
 * between their libraries, and grouping 1000 subgoals again costs 40 to 100 ms a time.
 */
const recentGroupings: { subgoals: readonly Subgoal[]; groups: Grouping }[] = [];
const RECENT_GROUPINGS = 16;

/**
 * A library's streams in groups, in scan order, and for each profile union (the OR of a
 * point's masks) the groups whose need it covers, made when first asked for.
 */
export interface Grouping {
  readonly groups: readonly EntryGroup[];
  readonly byUnion: (readonly EntryGroup[] | undefined)[];
}

/**
 * A stream's elements as a string in which two streams whose first elements do the same
 * search (the same kinds of element, placing nodes with the same entries, relabelled in the
 * order they are placed) share a prefix.
 */
function shapeKey(stream: ControlStream): string {
  const nodes = new Map<number, number>();
  const lines = new Map<number, number>();
  const node = (x: number): number => nodes.get(x) ?? (nodes.set(x, nodes.size), nodes.size - 1);
  const line = (x: number): number => lines.get(x) ?? (lines.set(x, lines.size), lines.size - 1);
  const entry = (j: number): string => stream.nodes[j - 1].lines.map((l) => `${line(l)}:${selfAtoms(stream, j, l)}`).join(',');
  return stream.elements
    .map((e) => {
      switch (e.op) {
        case 'A':
          return `A${node(e.node)}[${entry(e.node)}]`;
        case 'B':
          return `B${node(e.node)}.${line(e.line)}.${e.after === undefined ? '' : line(e.after)}`;
        case 'C':
          return `C${node(e.node)}.${node(e.from)}.${line(e.line)}[${entry(e.node)}]`;
        default:
          return `${e.op}${line(e.line)}`;
      }
    })
    .join(' ');
}

/** Whether the point whose masks start at `masks[p * 4]` can carry the entry node of the group's streams. */
export function carriesEntry(masks: Uint16Array, p: Point, grp: EntryGroup): boolean {
  return canMeetAll(masks, p * 4, grp.atoms, grp.atoms.length);
}

export function groupsFor(grouping: Grouping, union: number): readonly EntryGroup[] {
  let list = grouping.byUnion[union];
  if (list === undefined) grouping.byUnion[union] = list = grouping.groups.filter((g) => (g.need & ~union) === 0);
  return list;
}

/**
 * Groups a library's streams now and keeps the grouping among the recent ones, so that the
 * first recogniser made with it does not pay for it (a play worker, as a library arrives).
 */
export function groupLibrary(subgoals: readonly Subgoal[]): void {
  groupStreams(subgoals);
}

export function groupStreams(subgoals: readonly Subgoal[]): Grouping {
  const hit = recentGroupings.findIndex((g) => g.subgoals.length === subgoals.length && g.subgoals.every((s, i) => s === subgoals[i]));
  if (hit >= 0) {
    const [found] = recentGroupings.splice(hit, 1);
    recentGroupings.unshift(found);
    return found.groups;
  }
  const bySig = new Map<string, EntryGroup>();
  // A subgoal listed twice is scanned once, as a fresh scan would find the same keys twice.
  const seen = new Set<Subgoal>();
  for (const subgoal of subgoals) {
    if (seen.has(subgoal)) continue;
    seen.add(subgoal);
    const s = scanStreamOf(subgoal);
    let grp = bySig.get(s.signature);
    if (grp === undefined) {
      grp = { index: bySig.size, need: s.atoms.reduce((m, a) => m | a, 0), atoms: Int32Array.from(s.atoms), streams: [], gateEnd: new Int32Array(0) };
      bySig.set(s.signature, grp);
    }
    grp.streams.push(s);
  }
  const groups = Array.from(bySig.values());
  // Within a group, the streams of one entry gate run one after another, and among them those
  // whose searches begin alike (see shapeKey).
  for (const grp of groups) {
    const keys = new Map(grp.streams.map((x) => [x, `${x.gateKey}|${shapeKey(x.subgoal.stream)}`]));
    grp.streams.sort((a, b) => (keys.get(a)! < keys.get(b)! ? -1 : keys.get(a)! > keys.get(b)! ? 1 : 0));
  }
  // Scan order at a point is group by group. ScanStreams are shared by every library holding
  // the subgoal, so the order lives in a per-grouping copy.
  let order = 0;
  const numbered = groups.map((g) => {
    const streams = g.streams.map((s) => ({ ...s, order: order++ }));
    const gateEnd = new Int32Array(streams.length);
    for (let x = streams.length - 1; x >= 0; x--) gateEnd[x] = x + 1 < streams.length && streams[x + 1].gateKey === streams[x].gateKey ? gateEnd[x + 1] : x + 1;
    return { ...g, streams, gateEnd };
  });
  const grouping: Grouping = { groups: numbered, byUnion: [] };
  recentGroupings.unshift({ subgoals: subgoals.slice(), groups: grouping });
  recentGroupings.length = Math.min(recentGroupings.length, RECENT_GROUPINGS);
  return grouping;
}
