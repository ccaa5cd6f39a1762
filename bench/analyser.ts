/**
 * The backtrack analysis of lost games in a worker thread, under a time limit, for the
 * benchmarks that learn as they play (bench/match.ts's learning curve, bench/repeats.ts).
 * The analysis is the learner's code under test: it may take minutes on some games, or throw,
 * and a benchmark must finish. A loss given up on teaches nothing; the caller counts it and
 * can write it out with the library it was analysed against, to reproduce it.
 *
 * Whether an analysis beats the limit depends on the machine, so on a slow one a rerun may
 * learn less; everything else in these benchmarks is seeded.
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { analyseInProcess, type LossAnalysis } from '../src/gomocup/curve.ts';
import { parseDescription } from '../src/notation/descriptionNotation.ts';
import { Game } from '../src/rules/game.ts';
import { Library } from '../src/learning/library.ts';
import { expectOk } from '../src/rules/result.ts';

interface AnalysisRequest {
  readonly size: number;
  readonly moves: readonly number[];
  /** The learner's learned subgoals, in the order learned (the rule of five left out). */
  readonly library: readonly string[];
}

type AnalysisReply = { readonly learned: readonly { readonly text: string; readonly moveIndex: number }[] } | { readonly error: string };

/**
 * The worker's side: keeps its own copy of the learner's library (new texts are added as
 * they come; a learner's library only grows, and a request whose library is not an extension
 * of the copy starts it afresh) and runs the analysis in process.
 */
export function serveAnalyses(): void {
  if (isMainThread || parentPort === null) throw new Error('serveAnalyses runs in a worker thread');
  const port = parentPort;
  let library = Library.empty();
  let known: string[] = [];
  port.on('message', (request: AnalysisRequest) => {
    let reply: AnalysisReply;
    try {
      const prefix = known.length <= request.library.length && known.every((t, i) => request.library[i] === t);
      if (!prefix) {
        library = Library.empty();
        known = [];
      }
      for (const text of request.library.slice(known.length)) expectOk(library.add(expectOk(parseDescription(text))));
      known = request.library.slice();
      const game = Game.create(request.size);
      for (const p of request.moves) expectOk(game.play(p));
      const a = analyseInProcess(game, library);
      reply = 'error' in a ? a : { learned: a.learned.map((l) => ({ text: 'text' in l.subgoal ? l.subgoal.text : '', moveIndex: l.moveIndex })) };
    } catch (e) {
      // The message and where it was thrown, for the report.
      const at = e instanceof Error ? /\(?([^\s()]+:\d+):\d+\)?$/m.exec(e.stack?.split('\n')[1] ?? '')?.[1] : undefined;
      reply = { error: `${e instanceof Error ? e.message : String(e)}${at !== undefined ? ` (${at.replace(/^.*\/(src|bench)\//, '$1/')})` : ''}` };
    }
    port.postMessage(reply);
  });
}

/**
 * Analyses losses in a worker thread and gives up on one after `seconds`: the backtrack
 * analysis can take minutes on some games (the walk back learns ever larger subgoals whose
 * realisations multiply), and a benchmark must finish. A loss given up on teaches nothing;
 * the worker is stopped and a fresh one started for the next.
 */
export class WorkerAnalyser {
  private worker: Worker | undefined;
  constructor(private readonly seconds: number) {}

  analyse(game: Game, library: Library): Promise<LossAnalysis> {
    const worker = (this.worker ??= startWorker());
    const request: AnalysisRequest = {
      size: game.size,
      moves: game.moves.slice(),
      library: library.entries.slice(1).map((e) => e.subgoal.text),
    };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        worker.off('message', onMessage);
        this.worker = undefined;
        void worker.terminate();
        resolve({ error: `analysis given up after ${this.seconds} s` });
      }, this.seconds * 1000);
      const onMessage = (reply: AnalysisReply) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        if ('error' in reply) resolve(reply);
        else resolve({ learned: reply.learned.map((l) => ({ subgoal: expectOk(parseDescription(l.text)), moveIndex: l.moveIndex })) });
      };
      worker.on('message', onMessage);
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}

/** This module again, in a worker thread, through tsx (a worker does not inherit tsx's loader). */
function startWorker(): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); }).then((m) => m.serveAnalyses())`;
  const worker = new Worker(code, { eval: true });
  worker.unref();
  return worker;
}
