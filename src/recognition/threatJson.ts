/**
 * A realisation in point notation, as `gomoku threats --json` prints it and the bot's
 * /threats listing groups it (src/bot/threatLines.ts): the subgoal's text, its explicit nodes
 * in label order, its implicit nodes and the moves to five from its commented node.
 */
import { makePoint } from '../rules/point.ts';
import { movesToFive, type Realisation } from './realisation.ts';

export interface ThreatJson {
  readonly subgoal: string;
  readonly nodes: string[];
  readonly implicit: string[];
  readonly moves: number | null;
}

export function threatJson(size: number, r: Realisation): ThreatJson {
  return {
    subgoal: r.subgoal.text,
    nodes: r.nodes.map((p) => makePoint(size, p)),
    implicit: r.implicit.map((p) => makePoint(size, p)),
    moves: movesToFive(r) ?? null,
  };
}
