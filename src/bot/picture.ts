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
import { heatFromScores, renderBoard, renderHeatMap, renderLineChart, renderMnemonicSheet, renderReplay, renderThreatsWithLegend } from '../render/index.ts';
import type { Game } from '../rules/game.ts';
import type { BoardSnapshot, RealisationOverlay } from '../rules/snapshot.ts';
import type { Colour, Point } from '../rules/types.ts';
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

/** A game's board as its replies show it (views.ts `withBoard`): move numbers when `numbered`. */
export function boardDrawing(snapshot: BoardSnapshot, numbered: boolean): Drawing {
  return { kind: 'board', args: [snapshot, { showMoveNumbers: numbered }] };
}

/**
 * The board a move's reply shows (views.ts `movedView`, and `challengeView` after the bot's
 * opening): the position after the bot's answer, numbered once the game is over. A play worker
 * draws it with the turn (playWorker.ts), so the reply finds it drawn rather than queueing for
 * a worker a second time; a view that shows anything else simply misses.
 */
export function afterTurnDrawing(game: Game): Drawing {
  const numbered = game.isOver;
  return boardDrawing(game.snapshot({ moveNumbers: numbered }), numbered);
}

/** /hint's heat map (heatView.ts): the player's positional scores over the board, the hint ringed. */
export function heatDrawing(game: Game, considered: readonly { readonly point: Point; readonly score: number }[], hint: Point): Extract<Drawing, { kind: 'heat' }> {
  return { kind: 'heat', args: [game.snapshot(), heatFromScores(considered), { ring: hint }] };
}

/**
 * /threats' picture (views.ts `threatsView`): the realisations recognised on the board, black's
 * then white's, as overlays, with a legend naming each side for the member who plays `human`.
 */
export function threatsDrawing(game: Game, seen: { readonly black: readonly RealisationOverlay[]; readonly white: readonly RealisationOverlay[] }, human: Colour): Extract<Drawing, { kind: 'threats' }> {
  const overlays: RealisationOverlay[] = [...seen.black, ...seen.white].map((r) => ({ colour: r.colour, nodes: r.nodes, implicit: r.implicit }));
  const labels = { black: `Black (${human === 'black' ? 'you' : 'me'})`, white: `White (${human === 'white' ? 'you' : 'me'})` };
  return { kind: 'threats', args: [game.snapshot(), overlays, labels] };
}

/**
 * Pictures already drawn, by drawing: a drawing is plain data and its picture a pure function
 * of it (the STYLE's lila-gif rule), so the same drawing is never drawn twice while kept. It
 * pays where members ask the same: /stats' charts of a server's library (a 1000-step chart of
 * four lines is 60-100 ms to draw) and /library's first page are the same until the library
 * changes, and in the load benchmark 40 of 140 pictures were such repeats. Two asks of one
 * drawing at once share the one drawing. At most `maxBytes` of pictures are kept, the least
 * recently asked for going first; a drawing that failed is not kept.
 */
export class DrawnPictures {
  readonly #kept = new Map<string, { png: Promise<Buffer>; bytes: number }>();
  #bytes = 0;

  constructor(readonly maxBytes = 16 * 1024 * 1024) {}

  get(drawing: Drawing, make: (drawing: Drawing) => Promise<Buffer>): Promise<Buffer> {
    const key = keyOf(drawing);
    const held = this.#kept.get(key);
    if (held !== undefined) {
      this.#kept.delete(key);
      this.#kept.set(key, held);
      return held.png;
    }
    return this.#hold(key, make(drawing));
  }

  /** Keeps a picture drawn beforehand (a play worker drew it with the answer it goes with), unless its drawing is kept already. */
  keep(drawing: Drawing, png: Buffer): void {
    const key = keyOf(drawing);
    if (!this.#kept.has(key)) void this.#hold(key, Promise.resolve(png));
  }

  #hold(key: string, png: Promise<Buffer>): Promise<Buffer> {
    const entry = { png, bytes: 0 };
    this.#kept.set(key, entry);
    entry.png.then(
      (png) => {
        if (this.#kept.get(key) !== entry) return;
        entry.bytes = png.length;
        this.#bytes += png.length;
        for (const [k, e] of this.#kept) {
          if (this.#bytes <= this.maxBytes) break;
          this.#kept.delete(k);
          this.#bytes -= e.bytes;
        }
      },
      () => {
        if (this.#kept.get(key) === entry) this.#kept.delete(key);
      },
    );
    return entry.png;
  }
}

function keyOf(drawing: Drawing): string {
  return `${drawing.kind}\u0000${JSON.stringify(drawing.args)}`;
}
