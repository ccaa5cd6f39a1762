// The read arena's sweep (src/recognition/runIndex.ts, compactReads) on hand-made records: a
// run remade without reading again shares its dead predecessor's reads, so the records moved
// can hold more numbers than the old arena did. Found when the player began to weigh forty
// quiet points a move by trial plays (each undone), which keeps such pairs in the journal.
import { describe, expect, it } from 'vitest';
import { RunIndex, type RunRecord } from '../src/recognition/runIndex.ts';

function record(readStart: number, readLen: number, alive: boolean): RunRecord {
  return { colour: 0, point: 0, scan: undefined as never, readStart, readLen, found: [], empty: true, capped: false, alive, journaled: !alive, indexed: false, born: 0, visit: 0, gate: false };
}

describe('sweeping the read arena', () => {
  it('moves every live and kept record, shared reads included, with its own numbers', () => {
    const index = new RunIndex(19 * 19);
    const size = index.arena.length;
    const len = 2 * Math.floor(size / 4.4);
    const first = index.allocReads(len);
    const second = index.allocReads(len);
    for (let t = 0; t < 2 * len; t++) index.arena[first + t] = t + 1;
    // The live run and the dead one it was remade from share their reads; another dead run
    // an undo may bring back has its own. Together they are more than the arena holds.
    const live = record(first, len, true);
    const predecessor = record(first, len, false);
    const other = record(second, len, false);
    expect(3 * len).toBeGreaterThan(size);
    const cells: [RunRecord[][], RunRecord[][]] = [[[live]], [[]]];
    index.compactReads(cells, [predecessor, other]);
    expect(index.arena.length).toBeGreaterThanOrEqual(2 * 3 * len);
    expect(index.arenaTop).toBe(3 * len);
    const readsOf = (r: RunRecord) => Array.from(index.arena.subarray(r.readStart, r.readStart + r.readLen));
    const expected = (from: number) => Array.from({ length: len }, (_, t) => from + t + 1);
    expect(readsOf(live)).toEqual(expected(0));
    expect(readsOf(predecessor)).toEqual(expected(0));
    expect(readsOf(other)).toEqual(expected(len));
    // Each has its own copy now: no two overlap.
    const spans = [live, predecessor, other].map((r) => [r.readStart, r.readStart + r.readLen]).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]);
  });
});
