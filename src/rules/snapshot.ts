/**
 * A plain, serialisable picture of a board at one moment: what the renderer draws and what
 * storage keeps. It has no methods and no behaviour, so an image is a pure function of it
 * (after lila-gif).
 */
import type { Cell, Colour, Point } from './types.ts';

export interface BoardSnapshot {
  readonly size: number;
  /** One cell per point id (row * size + col, row 0 at the bottom): 0 empty, 1 black, 2 white. */
  readonly cells: readonly Cell[];
  /** The last move played, to be marked. */
  readonly lastMove?: Point;
  /** Move number of the stone on each point (0 where none), when numbers are to be shown. */
  readonly moveNumbers?: readonly number[];
  /** The points of the winning five, to be highlighted. */
  readonly winningLine?: readonly Point[];
}

/** One recognised realisation, as an overlay: its explicit nodes (numbered by label) and implicit nodes. */
export interface RealisationOverlay {
  readonly colour: Colour;
  /** Explicit nodes in label order: nodes[0] is node 1. */
  readonly nodes: readonly Point[];
  readonly implicit: readonly Point[];
}
