/**
 * A stream's entry gate: what the first C element of a stream that begins A, B, C needs at the
 * entry point, checked before any run, so that the recogniser runs none of the streams that
 * share a shut gate there (recognise.ts keeps one record for them all). The check reads what
 * the C would read, its near sets, and logs them the way a run logs its near reads (readLog.ts).
 */
import type { ControlStream } from './controlStream.ts';
import { NEAR_OTHERS_SHIFT, NEAR_REACH, nearSet } from './readLog.ts';
import type { ProfileTable } from './profile.ts';
import { othersAtoms, selfAtoms } from './streamTables.ts';
import type { Point } from '../rules/types.ts';

/**
 * A stream's *entry gate*: what its first C element needs, read before any run. A stream that
 * begins A, B (a line through the entry node), C (the next node on that line, from the entry)
 * finds nothing from a point p unless, along some direction d in which p's mask holds the B
 * line's atoms (`along`), the C's near set at (p, d) — the points carrying the node's atoms
 * along the line (`atom`) and off it (`others`), inside the reach of p's windows — is not
 * empty: B tries only those directions, and C only those points. So a point where the gate is
 * shut needs no run of any stream with that gate (recognise.ts keeps one record for them all).
 * Undefined for a stream that begins otherwise, which is always run.
 */
export interface EntryGate {
  readonly along: number;
  readonly atom: number;
  readonly others: number;
}

export function entryGate(stream: ControlStream): EntryGate | undefined {
  const [a, b, c] = stream.elements;
  if (a?.op !== 'A' || b?.op !== 'B' || c?.op !== 'C') return undefined;
  if (b.node !== stream.entry || b.after !== undefined || c.from !== stream.entry || c.line !== b.line) return undefined;
  return { along: selfAtoms(stream, b.node, b.line), atom: selfAtoms(stream, c.node, c.line), others: othersAtoms(stream, c.node, c.line) };
}

/**
 * Whether the gate is shut at p (see EntryGate). When it is, `reads` holds what that rests
 * on, as pairs and words the way a run logs its near reads (ScanScratch.readNear): for each
 * direction the B could take, the C's near set, found empty. A C whose node has no atom on
 * the line (spec n = 0) never has candidates and reads nothing; then nothing but p's own
 * masks can open the gate.
 */
export function gateShut(table: ProfileTable, p: Point, gate: EntryGate, reads: GateReads): boolean {
  reads.count = 0;
  if (gate.atom === 0) return true;
  const masks = table.masks;
  const word = gate.atom | (gate.others << NEAR_OTHERS_SHIFT) | NEAR_REACH;
  const out = reads.words;
  let n = 0;
  for (let d = 0; d < 4; d++) {
    const pd = p * 4 + d;
    if ((masks[pd] & gate.along) !== gate.along) continue;
    if (nearSet(table, pd, gate.atom, gate.others) !== 0) return false;
    out[n++] = pd;
    out[n++] = word;
  }
  reads.count = n;
  return true;
}

/**
 * Where gateShut leaves the reads of a shut gate: words[0 .. count), pair and word by turns.
 * Reused from check to check (a plain array emptied and refilled would be given new storage
 * each time).
 */
export class GateReads {
  readonly words = new Int32Array(8);
  count = 0;
}
