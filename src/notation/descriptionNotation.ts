/**
 * The written notation of descriptions (Murray & Elcock 1968, "A formal notation for
 * descriptions"): `(node list) pattern list`, e.g. `(1, 2-1) 4, 3-3:4`.
 *
 *     description    := '(' nodeList ')' patternList EOF
 *     nodeList       := nodeElement ('-' nodeElement)*
 *     nodeElement    := lineEntry (',' lineEntry)*
 *     lineEntry      := label ('/' label)*
 *     patternList    := patternElement ('-' patternElement)*
 *     patternElement := (integer ':')? spec (',' spec)*
 *     spec           := integer '\''?
 *
 * Whitespace may stand between any two tokens. A typographic prime (’ or ′, which phones put
 * in place of ') is read as the dash.
 *
 * Parsing is in two steps, as the house style asks: `parseDescriptionSyntax` gives a syntax
 * tree whose nodes carry their `start`/`end` offsets, or a positioned syntax error;
 * `descriptionFromSyntax` checks the pattern list has the node list's shape and builds a
 * valid `Description`, pointing any fault at the offending entry in the source.
 *
 * Problem codes: `expected` (syntax; the message says what was expected and what was found),
 * `too-many-nodes`, `unbalanced-parenthesis`, `trailing-input`, `shape-mismatch`, and from `descriptionFault`
 * `unknown-label`, `repeated-label`, `own-label-in-entry`, `duplicate-line`,
 * `too-many-lines`, `unmatched-entry`, `pattern-out-of-range`, `bad-comment`,
 * `impossible-comment`. Every problem
 * has an `index` (0-based offset into the text; the text's length for its end).
 */
import {
  descriptionFault,
  makeSpec,
  type Description,
  type DescriptionFault,
  type DescriptionNode,
  type NodeLine,
} from './description.ts';
import { err, ok, problem, shownInput, type Problem, type Result } from '../rules/result.ts';

/**
 * The most nodes a written description may have, and so the compiler's limit too
 * (MAX_STREAM_NODES in src/recognition/compile.ts): whatever parses can be compiled. The
 * bound is the parser's because what comes after it is not linear in
 * the nodes: canonical labelling and the automorphism search grow with the factorial of the
 * interchangeable nodes (nine isolated nodes take seconds, ten half a minute, 25 forever),
 * and a description of 12 000 nodes overflowed the stack. Refused at the first node too many,
 * so a huge text is not even read to its end.
 */
export const MAX_DESCRIPTION_NODES = 8;

/** Where a piece of syntax is: 0-based offsets into the text, `end` exclusive. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface LabelSyntax extends Span {
  readonly value: number;
  readonly raw: string;
}

export interface LineEntrySyntax extends Span {
  readonly labels: readonly LabelSyntax[];
}

export interface NodeElementSyntax extends Span {
  readonly entries: readonly LineEntrySyntax[];
}

export interface SpecSyntax extends Span {
  readonly n: number;
  readonly dashed: boolean;
}

export interface CommentSyntax extends Span {
  readonly value: number;
}

export interface PatternElementSyntax extends Span {
  readonly comment?: CommentSyntax;
  readonly specs: readonly SpecSyntax[];
}

export interface DescriptionSyntax extends Span {
  readonly raw: string;
  /** The node list, parentheses included in its span. */
  readonly nodeList: Span & { readonly elements: readonly NodeElementSyntax[] };
  readonly patternList: Span & { readonly elements: readonly PatternElementSyntax[] };
}

const DASHES = new Set(["'", '\u2019', '\u2032']);

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isSpace(c: string | undefined): boolean {
  return c !== undefined && /\s/.test(c);
}

/**
 * A recursive-descent parser, one method per production. A method that fails records the
 * problem and returns undefined; nothing is thrown.
 */
class DescriptionParser {
  private index = 0;
  problem: Problem | undefined;

  constructor(private readonly text: string) {}

  /** description := '(' nodeList ')' patternList EOF */
  description(): DescriptionSyntax | undefined {
    this.skipSpace();
    const start = this.index;
    if (!this.eat('(')) return this.expected("'('");
    const elements = this.nodeList();
    if (elements === undefined) return undefined;
    if (!this.eat(')')) {
      // A missing ')' reads better as an unclosed '(' than as a wrong character.
      if (!this.text.includes(')', this.index)) {
        return this.fail('unbalanced-parenthesis', `the '(' at position ${start + 1} is never closed`, start);
      }
      return this.expected("'/' or ',' or '-' or ')'");
    }
    const nodeList = { start, end: this.index, elements };
    const patternList = this.patternList();
    if (patternList === undefined) return undefined;
    this.skipSpace();
    if (this.index < this.text.length) {
      if (this.peek() === ')') {
        return this.fail('unbalanced-parenthesis', "this ')' closes no '('", this.index);
      }
      return this.fail('trailing-input', `expected ',' or '-' or end of input but found ${this.found()}`, this.index);
    }
    return { start, end: patternList.end, raw: this.text, nodeList, patternList };
  }

  /** nodeList := nodeElement ('-' nodeElement)*, at most MAX_DESCRIPTION_NODES of them */
  private nodeList(): NodeElementSyntax[] | undefined {
    const elements: NodeElementSyntax[] = [];
    do {
      if (elements.length === MAX_DESCRIPTION_NODES) {
        this.skipSpace();
        const message = `a description may have at most ${MAX_DESCRIPTION_NODES} nodes; node ${MAX_DESCRIPTION_NODES + 1} starts here`;
        return this.fail('too-many-nodes', message, this.index);
      }
      const element = this.nodeElement();
      if (element === undefined) return undefined;
      elements.push(element);
    } while (this.eat('-'));
    return elements;
  }

  /** nodeElement := lineEntry (',' lineEntry)* */
  private nodeElement(): NodeElementSyntax | undefined {
    const entries: LineEntrySyntax[] = [];
    do {
      const entry = this.lineEntry();
      if (entry === undefined) return undefined;
      entries.push(entry);
    } while (this.eat(','));
    return { start: entries[0].start, end: entries[entries.length - 1].end, entries };
  }

  /** lineEntry := label ('/' label)* */
  private lineEntry(): LineEntrySyntax | undefined {
    const labels: LabelSyntax[] = [];
    do {
      const label = this.integer('a node label');
      if (label === undefined) return undefined;
      labels.push(label);
    } while (this.eat('/'));
    return { start: labels[0].start, end: labels[labels.length - 1].end, labels };
  }

  /** patternList := patternElement ('-' patternElement)* */
  private patternList(): DescriptionSyntax['patternList'] | undefined {
    const elements: PatternElementSyntax[] = [];
    do {
      const element = this.patternElement();
      if (element === undefined) return undefined;
      elements.push(element);
    } while (this.eat('-'));
    return { start: elements[0].start, end: elements[elements.length - 1].end, elements };
  }

  /** patternElement := (integer ':')? spec (',' spec)* */
  private patternElement(): PatternElementSyntax | undefined {
    this.skipSpace();
    if (this.peek() === ')') {
      return this.fail('unbalanced-parenthesis', "this ')' closes no '('", this.index);
    }
    const first = this.integer('a pattern (0 to 5) or a comment');
    if (first === undefined) return undefined;
    let comment: CommentSyntax | undefined;
    const specs: SpecSyntax[] = [];
    if (this.eat(':')) {
      comment = { start: first.start, end: first.end, value: first.value };
      const spec = this.spec();
      if (spec === undefined) return undefined;
      specs.push(spec);
    } else {
      specs.push(this.dashOf(first));
    }
    while (this.eat(',')) {
      const spec = this.spec();
      if (spec === undefined) return undefined;
      specs.push(spec);
    }
    const start = comment?.start ?? specs[0].start;
    const end = specs[specs.length - 1].end;
    return comment === undefined ? { start, end, specs } : { start, end, comment, specs };
  }

  /** spec := integer '\''? */
  private spec(): SpecSyntax | undefined {
    const n = this.integer('a pattern (0 to 5)');
    return n === undefined ? undefined : this.dashOf(n);
  }

  /** The optional `'` after a spec's integer. */
  private dashOf(n: LabelSyntax): SpecSyntax {
    this.skipSpace();
    if (DASHES.has(this.peek() ?? '')) {
      this.index++;
      return { start: n.start, end: this.index, n: n.value, dashed: true };
    }
    return { start: n.start, end: n.end, n: n.value, dashed: false };
  }

  /** integer := [0-9]+ */
  private integer(what: string): LabelSyntax | undefined {
    this.skipSpace();
    const start = this.index;
    while (isDigit(this.text[this.index])) this.index++;
    if (this.index === start) return this.expected(what);
    const raw = this.text.slice(start, this.index);
    return { start, end: this.index, raw, value: Number(raw) };
  }

  private peek(): string | undefined {
    return this.text[this.index];
  }

  private skipSpace(): void {
    while (isSpace(this.text[this.index])) this.index++;
  }

  /** Consumes `token` (after any whitespace) if it comes next. */
  private eat(token: string): boolean {
    this.skipSpace();
    if (this.text[this.index] !== token) return false;
    this.index++;
    return true;
  }

  private found(): string {
    const c = this.text.codePointAt(this.index);
    // The whole character (an emoji is two UTF-16 units), shown as an error shows input: an
    // escape character or a line break is named, not sent to the terminal.
    return c === undefined ? 'end of input' : `'${shownInput(String.fromCodePoint(c))}'`;
  }

  private expected(what: string): undefined {
    this.skipSpace();
    return this.fail('syntax', `expected ${what} but found ${this.found()}`, this.index);
  }

  private fail(code: string, message: string, index: number): undefined {
    this.problem = problem(code, message, { index });
    return undefined;
  }
}

/** Step one: the syntax tree of a written description, or a positioned syntax error. */
export function parseDescriptionSyntax(text: string): Result<DescriptionSyntax> {
  const parser = new DescriptionParser(text);
  const tree = parser.description();
  if (tree === undefined) return err(parser.problem ?? problem('syntax', 'not a description', { index: 0 }));
  return ok(tree);
}

/**
 * Step two: a valid description from its syntax tree. The pattern list must have the node
 * list's shape (one element a node, one spec an entry); an entry that is only its own
 * node's label is a line of its own; the rest is `descriptionFault`, pointed into the source.
 */
export function descriptionFromSyntax(tree: DescriptionSyntax): Result<Description> {
  const nodeElements = tree.nodeList.elements;
  const patternElements = tree.patternList.elements;
  for (let i = 0; i < Math.min(nodeElements.length, patternElements.length); i++) {
    const lines = nodeElements[i].entries.length;
    const specs = patternElements[i].specs;
    if (lines !== specs.length) {
      const at = specs.length > lines ? specs[lines].start : patternElements[i].end;
      const message = `node ${i + 1} has ${count(lines, 'line')} in the node list but ${count(specs.length, 'pattern')} in the pattern list`;
      return err(problem('shape-mismatch', message, { index: at }));
    }
  }
  if (nodeElements.length !== patternElements.length) {
    const at =
      patternElements.length > nodeElements.length
        ? patternElements[nodeElements.length].start
        : tree.patternList.end;
    const message = `the node list has ${count(nodeElements.length, 'node')} but the pattern list has ${count(patternElements.length, 'element')}`;
    return err(problem('shape-mismatch', message, { index: at }));
  }
  const nodes = nodeElements.map((element, i): DescriptionNode => {
    const label = i + 1;
    const pattern = patternElements[i];
    const lines = element.entries.map((entry, l): NodeLine => {
      const values = entry.labels.map((x) => x.value);
      const others = values.length === 1 && values[0] === label ? [] : values.slice().sort((a, b) => a - b);
      return { others, spec: { n: pattern.specs[l].n, dashed: pattern.specs[l].dashed } };
    });
    return pattern.comment === undefined ? { lines } : { lines, comment: pattern.comment.value };
  });
  const description: Description = { nodes };
  const f = descriptionFault(description);
  if (f !== undefined) return err(problem(f.code, f.message, { index: faultIndex(tree, f) }));
  return ok(description);
}

/** Parses a written description into a valid `Description`, or a positioned `Problem`. */
export function parseDescription(text: string): Result<Description> {
  const tree = parseDescriptionSyntax(text);
  return tree.ok ? descriptionFromSyntax(tree.value) : tree;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The source offset a fault refers to: the bad label, else its entry, spec or comment. */
function faultIndex(tree: DescriptionSyntax, f: DescriptionFault): number {
  const element = tree.nodeList.elements[f.node - 1];
  const pattern = tree.patternList.elements[f.node - 1];
  if (element === undefined || pattern === undefined) return tree.start;
  if (f.part === 'comment') return pattern.comment?.start ?? pattern.start;
  if (f.part === 'patterns') return pattern.specs[f.line ?? 0]?.start ?? pattern.start;
  const entry = element.entries[f.line ?? 0];
  if (entry === undefined) return element.start;
  if (f.label !== undefined) {
    // The last occurrence, so that a label written twice is blamed at its repetition.
    const labels = entry.labels.filter((x) => x.value === f.label);
    if (labels.length > 0) return labels[labels.length - 1].start;
  }
  return entry.start;
}

/** The node list, parentheses included: `(1, 2-1)`. An own line prints the node's label. */
export function makeNodeList(d: Description): string {
  const elements = d.nodes.map((node, i) =>
    node.lines.map((line) => (line.others.length === 0 ? `${i + 1}` : line.others.join('/'))).join(', '),
  );
  return `(${elements.join('-')})`;
}

/** The pattern list, comments included: `4, 3-3:4`. */
export function makePatternList(d: Description): string {
  return d.nodes
    .map((node) => {
      const specs = node.lines.map((line) => makeSpec(line.spec)).join(', ');
      return node.comment === undefined ? specs : `${node.comment}:${specs}`;
    })
    .join('-');
}

/**
 * The written form with the spacing of the paper's canonical listing (docs/DESIGN.md,
 * "Spacing of the written form"): `(1, 2-1, 2) 4:3', 2'-4:2', 3'`.
 */
export function makeDescription(d: Description): string {
  return `${makeNodeList(d)} ${makePatternList(d)}`;
}
