/**
 * The stream tables: a control stream decoded once into small typed arrays — each element's
 * kind, node, line and the atoms it needs; each node's lines; each line's members, specs and
 * what their patterns must hold and leave out; the description's symmetries — in the shape
 * the interpreter reads them (interpret.ts, StreamMachine, which extends this class, so that
 * every table is a field of the machine itself, one load away in the search).
 *
 * The tables of every machine are cut from one shared buffer (packed), side by side.
 */
import { MAX_STREAM_LINES, MAX_STREAM_NODES } from './compile.ts';
import type { ControlStream } from './controlStream.ts';
import { specAtom } from './profile.ts';

/** Element kinds as the tables hold them (controlStream.ts names them A-E). */
export const OP_A = 0;
export const OP_B = 1;
export const OP_C = 2;
export const OP_D = 3;
export const OP_E = 4;
const OP_CODES = { A: OP_A, B: OP_B, C: OP_C, D: OP_D, E: OP_E } as const;

/**
 * Where machines keep their tables: one buffer after another, each table 4-byte aligned,
 * so that a machine's tables lie side by side, and machines made one after another (a
 * library's) lie side by side too. A run is short and its machine's tables are mostly out of
 * the processor's caches when it starts; side by side, and in bytes where their numbers are
 * small (labels, lines, elements, counts), they come back in fewer cache lines.
 */
let packBuffer = new ArrayBuffer(1 << 20);
let packTop = 0;

/** A copy of `a` in the pack buffer, to be used (and filled further) in its place. */
function packed<T extends Int8Array | Uint8Array | Int32Array>(a: T): T {
  packTop = (packTop + 3) & ~3;
  if (packTop + a.byteLength > packBuffer.byteLength) {
    packBuffer = new ArrayBuffer(Math.max(1 << 20, a.byteLength));
    packTop = 0;
  }
  const Kind = a.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => T;
  const copy = new Kind(packBuffer, packTop, a.length);
  copy.set(a);
  packTop += a.byteLength;
  return copy;
}

/**
 * The most a machine holds: the compiler's bounds on nodes and lines, and room for the
 * elements they make (A, then per line a D and an E, per node line a B, per node a C).
 */
export const MAX_NODES = MAX_STREAM_NODES;
export const MAX_LINES = MAX_STREAM_LINES;
export const MAX_ELEMENTS = 1 + 2 * MAX_LINES + 4 * MAX_NODES + MAX_NODES;

/** A stream's tables (see the file's header); the machine that searches with them extends it. */
export class StreamTables {
  readonly stream: ControlStream;
  protected readonly k: number;
  protected readonly n: number;
  protected readonly entry: number;
  // Elements, decoded.
  protected readonly elOp: Int8Array;
  protected readonly elNode: Int8Array;
  protected readonly elLine: Int8Array;
  protected readonly elFrom: Int8Array;
  protected readonly elAfter: Int8Array;
  protected readonly elAtom: Int32Array;
  /** For C: the OR of the atoms of the node's other lines, which must be met off the element's line. */
  protected readonly elOthers: Int32Array;
  /** For B and C: which of the node's line slots the element's line is. */
  protected readonly elSlot: Int8Array;
  // Nodes (by label): lines through them and the atom each must meet, four slots each.
  protected readonly nodeLineCount: Int8Array;
  protected readonly nodeLineIds: Int8Array;
  protected readonly nodeAtoms: Int32Array;
  // Lines: members in a flat list (ascending label), and per (line, label) membership.
  protected readonly lineStart: Uint8Array;
  protected readonly lineLen: Int8Array;
  protected readonly memNode: Int8Array;
  protected readonly memN: Int8Array;
  protected readonly memDashed: Uint8Array;
  protected readonly memAtom: Int32Array;
  /** lineSpecN[line * (k + 1) + x]: node x's n on the line, or -1 when x is not on it. */
  protected readonly lineSpecN: Int8Array;
  /**
   * For each line member (as memNode): the labels, as bits, of the line's other members whose
   * spec there is at least its own — its patterns must hold them; and per line, the labels
   * of the nodes not on it — no pattern of the line may hold them (see StreamMachine.fitStarts, interpret.ts).
   */
  protected readonly memHold: Int32Array;
  /** lineE[line]: the E element of the line. */
  protected readonly lineE: Int8Array;
  protected readonly lineOff: Int32Array;

  /**
   * Symmetry breaking: for each automorphism σ of the description but the identity, σ⁻¹ as
   * `symInverse[s * (k + 1) + i]` = the node σ maps onto node i. A realisation and its
   * relabelling by σ are one object, reported once, under the least tuple of node points
   * (recognise.ts); the machine only looks for that labelling. Once the nodes placed so far
   * decide that the tuple (P[1], …, P[k]) is greater than its image (P[σ⁻¹(1)], …, P[σ⁻¹(k)])
   * — the first label where both are placed and differ has the greater point — no
   * completion is least, and the candidate is passed over. The labelling that is least is a
   * realisation too (σ maps the description onto itself), found by the run from the point of
   * its own entry node, so nothing is lost; a symmetric subgoal's search shrinks by up to
   * the number of its automorphisms.
   */
  protected readonly symInverse: Int8Array;
  protected readonly symCount: number;

  /**
   * Decodes `stream`. `automorphisms` (perm[i - 1] = image of node i): those of its
   * description, for symInverse; none, to report every labelling.
   */
  constructor(stream: ControlStream, automorphisms: readonly (readonly number[])[]) {
    this.stream = stream;
    // Every table is made in the shared pack buffer (see packed), filled there after.
    {
      const k1 = stream.nodes.length + 1;
      const others = automorphisms.filter((perm) => perm.some((to, from) => to !== from + 1));
      this.symCount = others.length;
      this.symInverse = packed(new Int8Array(others.length * k1));
      others.forEach((perm, s) => perm.forEach((to, from) => (this.symInverse[s * k1 + to] = from + 1)));
    }
    const k = stream.nodes.length;
    const els = stream.elements;
    const n = els.length;
    const L = stream.lines.length;
    if (k > MAX_NODES) throw new RangeError(`a stream may have at most ${MAX_NODES} nodes`);
    if (L > MAX_LINES || n > MAX_ELEMENTS) throw new RangeError(`a stream may have at most ${MAX_LINES} lines and ${MAX_ELEMENTS} elements`);
    this.k = k;
    this.n = n;
    this.entry = stream.entry;
    this.elOp = packed(Int8Array.from(els, (e) => OP_CODES[e.op]));
    this.elNode = packed(Int8Array.from(els, (e) => ('node' in e ? e.node : 0)));
    this.elLine = packed(Int8Array.from(els, (e) => ('line' in e ? e.line : -1)));
    this.elFrom = packed(Int8Array.from(els, (e) => (e.op === 'C' ? e.from : 0)));
    this.elAfter = packed(Int8Array.from(els, (e) => (e.op === 'B' && e.after !== undefined ? e.after : -1)));
    this.elAtom = packed(Int32Array.from(els, (e) => (e.op === 'B' || e.op === 'C' ? selfAtoms(stream, e.node, e.line) : 0)));
    this.elSlot = packed(Int8Array.from(els, (e) => (e.op === 'B' || e.op === 'C' ? stream.nodes[e.node - 1].lines.indexOf(e.line) : 0)));
    this.elOthers = packed(Int32Array.from(els, (e) => (e.op === 'C' ? othersAtoms(stream, e.node, e.line) : 0)));
    this.nodeLineCount = packed(new Int8Array(k + 1));
    this.nodeLineIds = packed(new Int8Array((k + 1) * 4));
    this.nodeAtoms = packed(new Int32Array((k + 1) * 4));
    stream.nodes.forEach((nd, i) => {
      this.nodeLineCount[i + 1] = nd.lines.length;
      nd.lines.forEach((l, s) => {
        this.nodeLineIds[(i + 1) * 4 + s] = l;
        this.nodeAtoms[(i + 1) * 4 + s] = selfAtoms(stream, i + 1, l);
      });
    });
    this.lineStart = packed(new Uint8Array(L));
    this.lineLen = packed(new Int8Array(L));
    const memCount = stream.lines.reduce((a, l) => a + l.nodes.length, 0);
    this.memNode = packed(new Int8Array(memCount));
    this.memN = packed(new Int8Array(memCount));
    this.memDashed = packed(new Uint8Array(memCount));
    this.memAtom = packed(new Int32Array(memCount));
    this.lineSpecN = packed(new Int8Array(L * (k + 1))).fill(-1);
    this.memHold = packed(new Int32Array(memCount));
    this.lineE = packed(new Int8Array(L));
    els.forEach((e, pc) => {
      if (e.op === 'E') this.lineE[e.line] = pc;
    });
    this.lineOff = packed(new Int32Array(L));
    let at = 0;
    stream.lines.forEach((l, li) => {
      this.lineStart[li] = at;
      this.lineLen[li] = l.nodes.length;
      l.nodes.forEach((x, m) => {
        this.memNode[at] = x;
        this.memN[at] = l.specs[m].n;
        this.memDashed[at] = l.specs[m].dashed ? 1 : 0;
        this.memAtom[at] = selfAtoms(stream, x, li);
        this.lineSpecN[li * (k + 1) + x] = l.specs[m].n;
        l.nodes.forEach((y, m2) => {
          if (y !== x && l.specs[m2].n >= l.specs[m].n) this.memHold[at] |= 1 << y;
        });
        at++;
      });
      for (let x = 1; x <= k; x++) if (!l.nodes.includes(x)) this.lineOff[li] |= 1 << x;
    });
  }
}

/** The OR of what node j's masks must hold along its lines other than `line` (selfAtoms of each): what a C placing j needs off its line. */
export function othersAtoms(stream: ControlStream, j: number, line: number): number {
  return stream.nodes[j - 1].lines.reduce((m, l) => (l === line ? m : m | selfAtoms(stream, j, l)), 0);
}

/**
 * What node j's mask along `line` must hold: the atom of its own spec there, and the atom of
 * every other node of the line with no higher spec — that node's patterns hold j, so they are
 * patterns through j too (one or two, as that node's spec says). 0 when j's spec is n = 0,
 * which nothing meets.
 */
export function selfAtoms(stream: ControlStream, j: number, line: number): number {
  const l = stream.lines[line];
  const own = specAtom(l.specs[l.nodes.indexOf(j)]);
  if (own === 0) return 0;
  const n = l.specs[l.nodes.indexOf(j)].n;
  let atoms = own;
  l.nodes.forEach((x, m) => {
    if (x !== j && l.specs[m].n <= n) atoms |= specAtom(l.specs[m]);
  });
  return atoms;
}
