/**
 * The worker thread's side of the analysis of a lost game (analyser.ts is the main thread's
 * side, and says why there is a worker at all).
 *
 * Only plain data crosses: the game as its size and moves, the library as the canonical texts
 * of its subgoals, and back the texts of the subgoals learned with the move and point each was
 * learned at. Compiled subgoals hold control streams and closures that do not survive a
 * structured clone, and a text is what storage keeps anyway.
 *
 * A worker keeps every subgoal it has compiled, by text: a server's library arrives whole with
 * each loss, and compiling a thousand texts from scratch costs about a second and a half
 * (canonicalisation included), looking them up nothing.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { analyseGame } from '../learning/analysis.ts';
import { parseDescription } from '../notation/descriptionNotation.ts';
import { Game } from '../rules/game.ts';
import { compileCached } from '../learning/library.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import type { Colour, Point } from '../rules/types.ts';
import { BACKGROUND_NICE, yieldToAnsweringThread } from './threadPriority.ts';

/** One lost game to analyse, as plain data. */
export interface AnalysisRequest {
  readonly size: number;
  readonly moves: readonly Point[];
  /**
   * The library's canonical texts in the library's order, the rule of five first: the same
   * subgoals in the same order as the in-process call, so the same walk.
   */
  readonly library: readonly string[];
}

/** A subgoal the walk back learned, as plain data: enough to recompile it and draw its example. */
export interface LearnedText {
  readonly text: string;
  /** 0-based index of the winner's move it was learned at. */
  readonly moveIndex: number;
  /** That move's point: a node of the subgoal in the position before it. */
  readonly point: Point;
  /** False when the library knew it already. */
  readonly isNew: boolean;
}

export type AnalysisAnswer =
  | { readonly ok: true; readonly winner: Colour; readonly learned: readonly LearnedText[] }
  | { readonly ok: false; readonly error: string };

/** From the main thread to a worker. */
export interface ToWorker {
  readonly id: number;
  readonly request: AnalysisRequest;
}

/** From a worker to the main thread: it has loaded and can take work; or an answer. */
/** What the pool tells a worker as it starts it. */
export interface AnalysisWorkerData {
  /** At the lowest priority (threadPriority.ts `BACKGROUND_NICE`): reflection's walks. */
  readonly background: boolean;
}

export type FromWorker = { readonly kind: 'ready' } | { readonly kind: 'answer'; readonly id: number; readonly answer: AnalysisAnswer };

/** More distinct subgoals than a worker keeps compiled: past this the cache starts again. */
const MAX_CACHED = 20_000;

/** Compiled subgoals by canonical text. */
export class SubgoalCache {
  readonly #byText = new Map<string, Subgoal>();

  get(text: string): Subgoal {
    const hit = this.#byText.get(text);
    if (hit !== undefined) return hit;
    const parsed = parseDescription(text);
    if (!parsed.ok) throw new Error(`a library text does not parse: ${text}: ${parsed.error.message}`);
    const compiled = compileCached(parsed.value);
    if (!compiled.ok) throw new Error(`a library text does not compile: ${text}: ${compiled.error.message}`);
    if (this.#byText.size >= MAX_CACHED) this.#byText.clear();
    this.#byText.set(text, compiled.value);
    return compiled.value;
  }
}

/**
 * The analysis of one request, as `analyseGame` does it in process. Anything that goes wrong,
 * thrown or returned, is an answer with the error's words: the main thread decides what the
 * member is told.
 */
export function answerRequest(request: AnalysisRequest, cache: SubgoalCache): AnalysisAnswer {
  try {
    const library = request.library.map((text) => cache.get(text));
    const game = Game.create(request.size);
    for (const p of request.moves) {
      const played = game.play(p);
      if (!played.ok) return { ok: false, error: `the game does not replay: ${played.error.message}` };
    }
    const analysis = analyseGame(game, library);
    if (!analysis.ok) return { ok: false, error: `${analysis.error.code}: ${analysis.error.message}` };
    return {
      ok: true,
      winner: analysis.value.winner,
      learned: analysis.value.learned.map((l) => ({ text: l.subgoal.text, moveIndex: l.moveIndex, point: l.point, isNew: l.isNew })),
    };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

/** Runs in the worker thread: answers each request in turn, after saying it is ready. */
export function serveAnalyses(): void {
  if (isMainThread || parentPort === null) throw new Error('serveAnalyses runs in a worker thread');
  const port = parentPort;
  yieldToAnsweringThread((workerData as AnalysisWorkerData | undefined)?.background === true ? BACKGROUND_NICE : undefined);
  const cache = new SubgoalCache();
  port.on('message', (message: ToWorker) => {
    const reply: FromWorker = { kind: 'answer', id: message.id, answer: answerRequest(message.request, cache) };
    port.postMessage(reply);
  });
  const ready: FromWorker = { kind: 'ready' };
  port.postMessage(ready);
}
