// Helpers for recognition tests: compile written descriptions, and view realisations as plain
// strings that tests can compare across boards.
import { boardFromPicture, type BoardPicture } from '../../src/rules/boardText.ts';
import { parseDescription } from '../../src/notation/descriptionNotation.ts';
import { makePoint } from '../../src/rules/point.ts';
import type { Realisation } from '../../src/recognition/realisation.ts';
import { Recogniser } from '../../src/recognition/recognise.ts';
import { compileSubgoal, type Subgoal } from '../../src/recognition/subgoal.ts';
import { expectOk } from '../../src/rules/result.ts';
import type { Colour } from '../../src/rules/types.ts';

export function subgoal(text: string): Subgoal {
  return expectOk(compileSubgoal(expectOk(parseDescription(text))));
}

export function library(texts: readonly string[]): Subgoal[] {
  return texts.map(subgoal);
}

/** "j10 k10 | h10 m10": nodes in label order, then implicit nodes, in point notation. */
export function show(size: number, r: Realisation): string {
  const pts = (ps: readonly number[]) => ps.map((p) => makePoint(size, p)).join(' ');
  return `${pts(r.nodes)} | ${pts(r.implicit)}`;
}

export function recogniseText(pic: BoardPicture, lib: readonly Subgoal[], colour: Colour): string[] {
  const r = new Recogniser(boardFromPicture(pic), lib);
  return r.realisations(colour).map((x) => `${x.subgoal.text} ${show(pic.size, x)}`);
}

/** The least image of a node tuple under a description's automorphisms. */
export function leastNodes(nodes: readonly number[], automorphisms: readonly (readonly number[])[]): number[] {
  let best = nodes.slice();
  for (const sigma of automorphisms) {
    const image = new Array<number>(nodes.length);
    sigma.forEach((to, from) => (image[to - 1] = nodes[from]));
    const i = image.findIndex((x, j) => x !== best[j]);
    if (i >= 0 && image[i] < best[i]) best = image;
  }
  return best;
}

/** Realisations as "subgoal|nodes|implicit" after mapping their points through `f`. */
export function mappedKeys(rs: readonly Realisation[], f: (p: number) => number): Set<string> {
  const out = new Set<string>();
  for (const r of rs) {
    const nodes = leastNodes(r.nodes.map(f), r.subgoal.automorphisms);
    const implicit = r.implicit.map(f).sort((a, b) => a - b);
    out.add(`${r.subgoal.text}|${nodes.join(',')}|${implicit.join(',')}`);
  }
  return out;
}
