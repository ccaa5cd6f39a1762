/**
 * Control streams: the paper's operational form of a description ("Recognition is
 * facilitated by the use of a quite different representation of the description called the
 * 'control stream' representation"). A stream is a short program for a board interpreter;
 * this module holds the element kinds shared by the compiler (compile.ts) and the
 * interpreter (interpret.ts), the stream's data type, and its printed form: a disassembly
 * in the spirit of the paper's Fig. 9, which parses back to the same stream.
 *
 * The element kinds, as the paper defines them:
 *
 *   A  check that the candidate point for node 1 carries the node's whole pattern entry
 *      (its specs can be met on different lines through it);
 *   B  choose a line (a direction) through an already placed node that meets one of its
 *      specs, and name it; a choice point. When a node has several lines of its own with the
 *      same spec they are interchangeable, and `after` makes each take a direction after the
 *      previous one's, so one realisation is not found once per ordering of its lines;
 *   C  find a vacant point on a named line, inside a possible 5-pattern through the earlier
 *      node, that meets its own specs (in particular the one along that line), and label it
 *      as the next node; a choice point;
 *   D  check that already placed nodes that must share a line do, with the specs along it,
 *      and name that line;
 *   E  check that the nodes of a line lie in the patterns the description asks for, choose
 *      those patterns, check they meet no other line's patterns except at shared explicit
 *      nodes, and list their vacant points as implicit nodes; a choice point.
 *
 * On failure the interpreter backtracks to the last choice and tries the next; after the
 * last E it records a realisation and backtracks again, so it finds every realisation with
 * the given node 1.
 */
import type { LineSpec } from '../notation/description.ts';
import { err, ok, problem, type Result } from '../rules/result.ts';
import { splitLines } from '../rules/textLines.ts';

/** Bumped whenever the meaning of a stream changes; cached streams of another version are recompiled. */
export const STREAM_FORMAT_VERSION = 1;

export const OPS = ['A', 'B', 'C', 'D', 'E'] as const;
export type Op = (typeof OPS)[number];

/** A hard cap on interpreter steps for one node-1 candidate, so no stream can run away. */
export const DEFAULT_STEP_CAP = 200_000;

export type Element =
  | { readonly op: 'A'; readonly node: number }
  | { readonly op: 'B'; readonly node: number; readonly line: number; readonly after?: number }
  | { readonly op: 'C'; readonly node: number; readonly from: number; readonly line: number }
  | { readonly op: 'D'; readonly line: number }
  | { readonly op: 'E'; readonly line: number };

/** A line of the description (a hyperedge): its nodes, ascending, and each one's spec along it. */
export interface StreamLine {
  readonly nodes: readonly number[];
  readonly specs: readonly LineSpec[];
}

/** A node: the lines through it in its written order, its spec on each, and its comment. */
export interface StreamNode {
  readonly lines: readonly number[];
  readonly specs: readonly LineSpec[];
  readonly comment?: number;
}

export interface ControlStream {
  readonly version: number;
  /** The node the scan starts from: the A element's node, the point tried at each candidate. */
  readonly entry: number;
  /** nodes[0] is node 1. */
  readonly nodes: readonly StreamNode[];
  readonly lines: readonly StreamLine[];
  readonly elements: readonly Element[];
  /**
   * How far (in king steps) any point a realisation depends on — its nodes, pattern points
   * and their flanks — can lie from the entry node. A move farther away cannot change it.
   */
  readonly radius: number;
}

function spec(s: LineSpec): string {
  return s.dashed ? `${s.n}'` : `${s.n}`;
}

/**
 * Prints a stream as a table, one element a line, after its line and node tables. The text
 * after `;` on an element line restates the specs the element checks, for the reader; the
 * parser ignores it.
 */
export function makeControlStream(s: ControlStream): string {
  const out: string[] = [];
  out.push(`control stream v${s.version}: ${s.nodes.length} node${s.nodes.length === 1 ? '' : 's'}, ${s.lines.length} line${s.lines.length === 1 ? '' : 's'}, radius ${s.radius}, entry node ${s.entry}`);
  s.lines.forEach((l, i) => {
    out.push(`line L${i + 1}: ${l.nodes.map((n, k) => `${n}:${spec(l.specs[k])}`).join(' ')}`);
  });
  s.nodes.forEach((n, i) => {
    const comment = n.comment !== undefined ? ` comment ${n.comment}` : '';
    out.push(`node ${i + 1}${comment}: ${n.lines.map((l, k) => `L${l + 1} ${spec(n.specs[k])}`).join(', ')}`);
  });
  // One element a row: number, kind, operands, and after a semicolon what it checks, the
  // semicolons in one column.
  const rows = s.elements.map((e): [string, string] => {
    switch (e.op) {
      case 'A':
        return [`node ${e.node}`, `${s.nodes[e.node - 1].specs.map(spec).join(', ')} on different lines`];
      case 'B': {
        const k = s.nodes[e.node - 1].lines.indexOf(e.line);
        const after = e.after !== undefined ? ` after L${e.after + 1}` : '';
        return [`node ${e.node}  L${e.line + 1}${after}`, `a line meeting ${spec(s.nodes[e.node - 1].specs[k])}`];
      }
      case 'C': {
        const n = s.nodes[e.node - 1];
        const k = n.lines.indexOf(e.line);
        return [`node ${e.node}  L${e.line + 1}  from ${e.from}`, `${spec(n.specs[k])} along L${e.line + 1}, entry ${n.specs.map(spec).join(', ')}`];
      }
      case 'D':
        return [`L${e.line + 1}`, `nodes ${s.lines[e.line].nodes.join('/')} share it`];
      case 'E':
        return [`L${e.line + 1}`, `patterns ${s.lines[e.line].nodes.map((n, k) => `${n}:${spec(s.lines[e.line].specs[k])}`).join(' ')}, implicit nodes`];
    }
  });
  const width = Math.max(...rows.map(([operands]) => operands.length));
  rows.forEach(([operands, what], i) => out.push(`${String(i + 1).padStart(3)}  ${s.elements[i].op}  ${operands.padEnd(width)}  ; ${what}`));
  return `${out.join('\n')}\n`;
}

const SPEC = /^(\d)('?)$/;

function parseSpec(text: string): LineSpec | undefined {
  const m = SPEC.exec(text);
  return m === null ? undefined : { n: Number(m[1]), dashed: m[2] === "'" };
}

/** Parses the printed form back into a stream; problems name the line and column. */
export function parseControlStream(text: string): Result<ControlStream> {
  const rows = splitLines(text);
  const bad = (line: number, message: string, column = 1) => err(problem('bad-stream', message, { line, column }));
  const header = /^control stream v(\d+): (\d+) nodes?, (\d+) lines?, radius (\d+), entry node (\d+)\s*$/.exec(rows[0] ?? '');
  if (header === null) return bad(1, 'expected "control stream vN: K nodes, M lines, radius R, entry node E"');
  const [version, nodeCount, lineCount, radius, entry] = header.slice(1).map(Number);
  if (entry < 1 || entry > nodeCount) return bad(1, `entry node ${entry} does not exist`);
  let r = 1;
  const lines: StreamLine[] = [];
  for (let i = 0; i < lineCount; i++, r++) {
    const m = new RegExp(`^line L${i + 1}: (.+)$`).exec(rows[r] ?? '');
    if (m === null) return bad(r + 1, `expected "line L${i + 1}: node:spec ..."`);
    const nodes: number[] = [];
    const specs: LineSpec[] = [];
    for (const part of m[1].trim().split(/\s+/)) {
      const pm = /^(\d+):(\d'?)$/.exec(part);
      const sp = pm === null ? undefined : parseSpec(pm[2]);
      if (pm === null || sp === undefined) return bad(r + 1, `"${part}" is not node:spec`, (rows[r].indexOf(part) ?? 0) + 1);
      nodes.push(Number(pm[1]));
      specs.push(sp);
    }
    lines.push({ nodes, specs });
  }
  const nodes: StreamNode[] = [];
  for (let i = 0; i < nodeCount; i++, r++) {
    const m = new RegExp(`^node ${i + 1}(?: comment (\\d+))?: (.+)$`).exec(rows[r] ?? '');
    if (m === null) return bad(r + 1, `expected "node ${i + 1}: L1 spec, ..."`);
    const ls: number[] = [];
    const specs: LineSpec[] = [];
    for (const part of m[2].split(',')) {
      const pm = /^\s*L(\d+) (\d'?)\s*$/.exec(part);
      const sp = pm === null ? undefined : parseSpec(pm[2]);
      if (pm === null || sp === undefined || Number(pm[1]) < 1 || Number(pm[1]) > lineCount) {
        return bad(r + 1, `"${part.trim()}" is not "L<line> <spec>"`);
      }
      ls.push(Number(pm[1]) - 1);
      specs.push(sp);
    }
    nodes.push({ lines: ls, specs, ...(m[1] !== undefined ? { comment: Number(m[1]) } : {}) });
  }
  const elements: Element[] = [];
  for (; r < rows.length; r++) {
    const row = rows[r].replace(/;.*$/, '').trim();
    if (row === '') continue;
    const m = /^(\d+)\s+([A-E])\s+(.*)$/.exec(row);
    if (m === null) return bad(r + 1, 'expected "<number> <A-E> <operands>"');
    const ops = m[3].trim();
    const node = (s: string) => Number(s);
    const line = (s: string) => Number(s) - 1;
    let e: Element | undefined;
    let om: RegExpExecArray | null;
    switch (m[2]) {
      case 'A':
        if ((om = /^node (\d+)$/.exec(ops))) e = { op: 'A', node: node(om[1]) };
        break;
      case 'B':
        if ((om = /^node (\d+)\s+L(\d+)(?:\s+after L(\d+))?$/.exec(ops))) {
          e = { op: 'B', node: node(om[1]), line: line(om[2]), ...(om[3] !== undefined ? { after: line(om[3]) } : {}) };
        }
        break;
      case 'C':
        if ((om = /^node (\d+)\s+L(\d+)\s+from (\d+)$/.exec(ops))) e = { op: 'C', node: node(om[1]), line: line(om[2]), from: node(om[3]) };
        break;
      case 'D':
        if ((om = /^L(\d+)$/.exec(ops))) e = { op: 'D', line: line(om[1]) };
        break;
      case 'E':
        if ((om = /^L(\d+)$/.exec(ops))) e = { op: 'E', line: line(om[1]) };
        break;
    }
    if (e === undefined) return bad(r + 1, `bad operands "${ops}" for a ${m[2]} element`, rows[r].indexOf(ops) + 1);
    if ('line' in e && (e.line < 0 || e.line >= lineCount)) return bad(r + 1, `line L${e.line + 1} does not exist`);
    if (e.op === 'B' && e.after !== undefined && (e.after < 0 || e.after >= lineCount)) return bad(r + 1, `line L${e.after + 1} does not exist`);
    if ('node' in e && (e.node < 1 || e.node > nodeCount)) return bad(r + 1, `node ${e.node} does not exist`);
    elements.push(e);
  }
  return ok({ version, entry, nodes, lines, elements, radius });
}
