/**
 * The player's answers as plain data, to cross between the play workers (playWorker.ts) and
 * the thread that answers Discord (playPool.ts).
 *
 * A `Realisation` points at its compiled `Subgoal`, whose control stream holds closures that do
 * not survive a structured clone; everything else in it is numbers and arrays. So a subgoal
 * crosses as its canonical text and is looked up again on the other side, in the library the
 * question was asked with — the same texts, so the same subgoals, and views that compare
 * subgoals by text see no difference.
 */
import type { BuildSide, MoveChoice, Reason } from '../play/player.ts';
import type { ForcedLine, LineStep } from '../play/lookahead.ts';
import type { Realisation } from '../recognition/realisation.ts';
import type { Subgoal } from '../recognition/subgoal.ts';

export type WireRealisation = Omit<Realisation, 'subgoal'> & { readonly subgoal: string };

export interface WireStep {
  readonly point: LineStep['point'];
  readonly colour: LineStep['colour'];
  readonly from?: WireRealisation;
  readonly makes?: WireRealisation;
}

export interface WireLine {
  readonly attacker: ForcedLine['attacker'];
  readonly line: readonly WireStep[];
  readonly moves: number;
}

export type WireReason =
  | { readonly kind: 'five' | 'block-five'; readonly realisation: WireRealisation }
  | { readonly kind: 'attack'; readonly realisation: WireRealisation; readonly node: number; readonly moves: number }
  | { readonly kind: 'force'; readonly line: WireLine }
  | { readonly kind: 'refute'; readonly line: WireLine; readonly holding?: number }
  | { readonly kind: 'defend'; readonly destroyed: readonly WireRealisation[]; readonly threats: number }
  | { readonly kind: 'build'; readonly mine: WireBuildSide; readonly theirs: WireBuildSide }
  | { readonly kind: 'positional'; readonly score: number }
  | { readonly kind: 'opening' };

export interface WireBuildSide {
  readonly count: number;
  readonly quickest?: WireRealisation;
}

export interface WireChoice {
  readonly point: MoveChoice['point'];
  readonly colour: MoveChoice['colour'];
  readonly reason: WireReason;
}

/** A subgoal by its canonical text, in the library the question was asked with. */
export type SubgoalLookup = (text: string) => Subgoal;

/** Every field read by name: the recogniser's realisations work out `lines`, `key`, `span` and `footprint` when first read (getters a spread would drop). */
export function realisationToWire(r: Realisation): WireRealisation {
  return { subgoal: r.subgoal.text, colour: r.colour, nodes: r.nodes, lines: r.lines, implicit: r.implicit, comments: r.comments, footprint: r.footprint, span: r.span, key: r.key };
}

export function realisationFromWire(w: WireRealisation, lookup: SubgoalLookup): Realisation {
  return { ...w, subgoal: lookup(w.subgoal) };
}

export function choiceToWire(c: MoveChoice): WireChoice {
  return { point: c.point, colour: c.colour, reason: reasonToWire(c.reason) };
}

export function choiceFromWire(w: WireChoice, lookup: SubgoalLookup): MoveChoice {
  return { point: w.point, colour: w.colour, reason: reasonFromWire(w.reason, lookup) };
}

function buildSideToWire(b: BuildSide): WireBuildSide {
  return { count: b.count, ...(b.quickest !== undefined ? { quickest: realisationToWire(b.quickest) } : {}) };
}

function buildSideFromWire(w: WireBuildSide, lookup: SubgoalLookup): BuildSide {
  return { count: w.count, ...(w.quickest !== undefined ? { quickest: realisationFromWire(w.quickest, lookup) } : {}) };
}

function reasonToWire(r: Reason): WireReason {
  switch (r.kind) {
    case 'five':
    case 'block-five':
      return { kind: r.kind, realisation: realisationToWire(r.realisation) };
    case 'attack':
      return { kind: 'attack', realisation: realisationToWire(r.realisation), node: r.node, moves: r.moves };
    case 'force':
      return { kind: 'force', line: lineToWire(r.line) };
    case 'refute':
      return { kind: 'refute', line: lineToWire(r.line), ...(r.holding !== undefined ? { holding: r.holding } : {}) };
    case 'defend':
      return { kind: 'defend', destroyed: r.destroyed.map(realisationToWire), threats: r.threats };
    case 'build':
      return { kind: 'build', mine: buildSideToWire(r.mine), theirs: buildSideToWire(r.theirs) };
    case 'positional':
      return { kind: 'positional', score: r.score };
    case 'opening':
      return { kind: 'opening' };
  }
}

function lineToWire(l: ForcedLine): WireLine {
  return { attacker: l.attacker, moves: l.moves, line: l.line.map(stepToWire) };
}

function lineFromWire(l: WireLine, lookup: SubgoalLookup): ForcedLine {
  return { attacker: l.attacker, moves: l.moves, line: l.line.map((s) => stepFromWire(s, lookup)) };
}

function reasonFromWire(w: WireReason, lookup: SubgoalLookup): Reason {
  const real = (x: WireRealisation) => realisationFromWire(x, lookup);
  switch (w.kind) {
    case 'five':
    case 'block-five':
      return { kind: w.kind, realisation: real(w.realisation) };
    case 'attack':
      return { kind: 'attack', realisation: real(w.realisation), node: w.node, moves: w.moves };
    case 'force':
      return { kind: 'force', line: lineFromWire(w.line, lookup) };
    case 'refute':
      return { kind: 'refute', line: lineFromWire(w.line, lookup), ...(w.holding !== undefined ? { holding: w.holding } : {}) };
    case 'defend':
      return { kind: 'defend', destroyed: w.destroyed.map(real), threats: w.threats };
    case 'build':
      return { kind: 'build', mine: buildSideFromWire(w.mine, lookup), theirs: buildSideFromWire(w.theirs, lookup) };
    case 'positional':
      return { kind: 'positional', score: w.score };
    case 'opening':
      return { kind: 'opening' };
  }
}

function stepToWire(s: LineStep): WireStep {
  return { point: s.point, colour: s.colour, ...(s.from !== undefined ? { from: realisationToWire(s.from) } : {}), ...(s.makes !== undefined ? { makes: realisationToWire(s.makes) } : {}) };
}

function stepFromWire(s: WireStep, lookup: SubgoalLookup): LineStep {
  const real = (x: WireRealisation) => realisationFromWire(x, lookup);
  return { point: s.point, colour: s.colour, ...(s.from !== undefined ? { from: real(s.from) } : {}), ...(s.makes !== undefined ? { makes: real(s.makes) } : {}) };
}
