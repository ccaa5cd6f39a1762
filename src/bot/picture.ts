/**
 * A reply's picture as what to draw, not yet drawn: a drawing is the name of a render function
 * and its arguments, all plain data (a board snapshot, overlays, a chart's series), so it can be
 * drawn in this thread or in a worker (playPool.ts) and come out the same bytes.
 *
 * Why: a board PNG takes 35–60 ms to draw on the development machine and a /replay GIF 0.3–0.8
 * s; drawn on the thread that answers Discord, every other member's reply waits behind it. The
 * views still return a `ReplyImage` whose `png` is there to read: read in this thread (the
 * terminal game, the tests) it is drawn on first use; the Discord edge has the images drawn in a
 * worker first (`drawReply`) and never reads an undrawn one.
 */
import { renderBoard, renderHeatMap, renderLineChart, renderMnemonicSheet, renderReplay, renderThreatsWithLegend } from '../render/index.ts';
import { renderLossChart } from './chart.ts';

/** The render functions a drawing may name. */
const DRAW = {
  board: renderBoard,
  threats: renderThreatsWithLegend,
  mnemonics: renderMnemonicSheet,
  heat: renderHeatMap,
  replay: renderReplay,
  lossChart: renderLossChart,
  lineChart: renderLineChart,
} as const;

type Draw = typeof DRAW;
export type DrawingKind = keyof Draw;

/** One picture to draw: a render function's name and its arguments. */
export type Drawing = { [K in DrawingKind]: { readonly kind: K; readonly args: Parameters<Draw[K]> } }[DrawingKind];

/** Draws in this thread. Throws when the drawing makes no picture (a chart with no value: the view checks first). */
export function draw(drawing: Drawing): Buffer {
  const render = DRAW[drawing.kind] as (...args: unknown[]) => Buffer | undefined;
  const png = render(...drawing.args);
  if (png === undefined) throw new Error(`the ${drawing.kind} drawing has nothing to draw`);
  return png;
}
