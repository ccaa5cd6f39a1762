/**
 * The analysis of a lost game, off the caller's thread, under a time limit.
 *
 * The walk back (src/learning/analysis.ts) runs the recogniser over every position of the game with the
 * server's whole library. With the project's own thousand-subgoal library it takes from under
 * 0.1 s to over 2 s on the learning fixtures, and on some games far longer; run inline it would
 * hold the one event loop the gateway's heartbeats and every other member's replies share. So
 * it runs in a worker thread (analysisWorker.ts) and the caller awaits a message.
 *
 * Decisions:
 * - node's worker_threads directly rather than a pool package (piscina): what is needed is a
 *   queue, a limit counted from when a worker takes the job, and terminate-and-replace; that is
 *   this file, with no dependency or loader setup of its own to keep up to date.
 * - A pool of at most `workers` threads (2 by default: one server's slow loss does not hold up
 *   another's), started when first needed and kept, with the subgoals they have compiled,
 *   until `close`. Analyses beyond them wait their turn.
 * - The limit counts from when a worker takes the analysis, not from when it was asked for: a
 *   loss that waited behind another is not charged for it, nor for a worker's start-up.
 * - An analysis over the limit is given up: its worker is terminated (the walk is synchronous;
 *   there is no other way to stop it) and a fresh one started when next needed. It learns
 *   nothing; the caller says so.
 * - Errors — thrown in the walk, a worker that dies or runs out of its heap, an answer that
 *   does not recompile — are answers of kind `failed`, never thrown at the caller.
 * - A worker that dies before it is ready (its modules do not load) fails every analysis
 *   waiting when no other worker is up, rather than being started again for ever.
 * - Workers are unref'd: an idle pool never keeps the process alive. While an analysis runs,
 *   its time limit's timer does.
 * - TypeScript runs through tsx, whose loader a worker does not inherit from `register()`: the
 *   worker's first act is to register it, then import analysisWorker.ts (as bench/analyser.ts
 *   does).
 */
import { Worker } from 'node:worker_threads';
import { parseDescription } from '../notation/descriptionNotation.ts';
import type { LearnedSubgoal } from '../learning/analysis.ts';
import type { Game } from '../rules/game.ts';
import { compileCached } from '../learning/library.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import type { Colour } from '../rules/types.ts';
import type { AnalysisAnswer, AnalysisRequest, AnalysisWorkerData, FromWorker, ToWorker } from './analysisWorker.ts';
import { errorText } from './log.ts';

/** A subgoal found by the analysis of a lost game. */
export interface LearnedReport {
  readonly text: string;
  /** 1-based number of the winner's move it was learned at. */
  readonly move: number;
  /** False when the library knew it already. */
  readonly isNew: boolean;
}

/**
 * How the walk back through a lost game ended: it ran (and `learned` says what it taught), or
 * it was given up for taking longer than the limit, or it failed; the last two teach nothing.
 */
export type AnalysisEnd = { readonly kind: 'analysed' } | { readonly kind: 'timed-out'; readonly limitMs: number } | { readonly kind: 'failed' };

export const DEFAULT_ANALYSIS_LIMIT_MS = 20_000;
export const DEFAULT_ANALYSIS_WORKERS = 2;
/** How long a worker may take to load its modules before it is given up as broken. */
const START_LIMIT_MS = 60_000;
/**
 * The old-generation heap of a worker. A walk that learns ever larger subgoals can multiply
 * realisations; past this the worker dies with ERR_WORKER_OUT_OF_MEMORY and the analysis
 * fails, rather than the whole bot running out of memory.
 */
const WORKER_HEAP_MB = 1024;

/** A subgoal the analysis learned, recompiled on this side: the in-process result without the member realisations, which stay in the worker. */
export type LearnedFromLoss = Omit<LearnedSubgoal, 'members'>;

export type LossAnalysis =
  | { readonly kind: 'analysed'; readonly winner: Colour; readonly learned: readonly LearnedFromLoss[] }
  | { readonly kind: 'timed-out'; readonly limitMs: number }
  | { readonly kind: 'failed'; readonly error: string };

export interface AnalyserOptions {
  /** How long one analysis may run in its worker (default 20 s). */
  readonly limitMs?: number;
  /** At most this many worker threads (default 2). */
  readonly workers?: number;
  /**
   * Work nobody waits for (reflection.ts): the workers run at the lowest priority, nice 19 on
   * Linux (threadPriority.ts `BACKGROUND_NICE`), so that play workers and fresh analyses, at
   * WORKER_NICE, take a contended core first.
   */
  readonly background?: boolean;
}

interface Job {
  readonly id: number;
  readonly request: AnalysisRequest;
  readonly settle: (outcome: LossAnalysis | AnalysisAnswer) => void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  job?: Job;
  /** The start-up limit while not ready, then the running job's limit. */
  timer?: NodeJS.Timeout;
}

/** Analyses lost games in a pool of worker threads; see the module comment. */
export class AnalysisPool {
  readonly limitMs: number;
  readonly #max: number;
  readonly #background: boolean;
  readonly #slots = new Set<Slot>();
  #queue: Job[] = [];
  #nextId = 1;

  constructor(options: AnalyserOptions = {}) {
    this.limitMs = options.limitMs ?? DEFAULT_ANALYSIS_LIMIT_MS;
    this.#max = Math.max(1, Math.floor(options.workers ?? DEFAULT_ANALYSIS_WORKERS));
    this.#background = options.background ?? false;
  }

  /** Worker threads running now, starting or ready. */
  get workers(): number {
    return this.#slots.size;
  }

  /** The analysis of a game its winner has just won with a five, against `library` in its order. */
  async analyse(game: Game, library: readonly Subgoal[]): Promise<LossAnalysis> {
    const request: AnalysisRequest = { size: game.size, moves: game.moves.slice(), library: library.map((s) => s.text) };
    const outcome = await new Promise<LossAnalysis | AnalysisAnswer>((resolve) => {
      let settled = false;
      const settle = (o: LossAnalysis | AnalysisAnswer) => {
        if (settled) return;
        settled = true;
        resolve(o);
      };
      this.#queue.push({ id: this.#nextId++, request, settle });
      this.#dispatch();
    });
    return 'kind' in outcome ? outcome : recompiled(outcome);
  }

  /**
   * Terminates every worker. Analyses still waiting or running fail (the caller waits for its
   * own work before closing, so normally there are none). The pool may be used again after:
   * workers start when next needed.
   */
  async close(): Promise<void> {
    const slots = [...this.#slots];
    const queued = this.#queue;
    this.#slots.clear();
    this.#queue = [];
    const stopped: LossAnalysis = { kind: 'failed', error: 'the analysis was stopped: the analysis workers were closed' };
    for (const slot of slots) {
      clearTimeout(slot.timer);
      slot.job?.settle(stopped);
    }
    for (const job of queued) job.settle(stopped);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Gives waiting jobs to ready workers, and starts workers for those no starting one will take. */
  #dispatch(): void {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return;
      if (slot.ready && slot.job === undefined) this.#give(slot, this.#queue.shift()!);
    }
    let starting = [...this.#slots].filter((s) => !s.ready).length;
    while (this.#slots.size < this.#max && starting < this.#queue.length) {
      this.#start();
      starting++;
    }
  }

  #give(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(() => {
      this.#retire(slot);
      job.settle({ kind: 'timed-out', limitMs: this.limitMs });
      this.#dispatch();
    }, this.limitMs);
    const message: ToWorker = { id: job.id, request: job.request };
    slot.worker.postMessage(message);
  }

  #start(): void {
    const slot: Slot = { worker: startWorker(this.#background), ready: false };
    slot.timer = setTimeout(() => this.#lost(slot, `the analysis worker did not start within ${START_LIMIT_MS / 1000} s`), START_LIMIT_MS);
    slot.worker.on('message', (message: FromWorker) => {
      if (!this.#slots.has(slot)) return;
      if (message.kind === 'ready') {
        clearTimeout(slot.timer);
        slot.ready = true;
      } else {
        const job = slot.job;
        if (job === undefined || job.id !== message.id) return;
        clearTimeout(slot.timer);
        slot.job = undefined;
        job.settle(message.answer);
      }
      this.#dispatch();
    });
    slot.worker.on('error', (e) => this.#lost(slot, `the analysis worker failed: ${errorText(e)}`));
    slot.worker.on('exit', (code) => this.#lost(slot, `the analysis worker exited (code ${code})`));
    slot.worker.unref();
    this.#slots.add(slot);
  }

  /** Takes a worker out of the pool and terminates it; its 'exit' then finds it gone. */
  #retire(slot: Slot): void {
    this.#slots.delete(slot);
    clearTimeout(slot.timer);
    void slot.worker.terminate();
  }

  /** A worker died, or never became ready: its job fails, and the waiting ones too if it never loaded. */
  #lost(slot: Slot, why: string): void {
    if (!this.#slots.has(slot)) return;
    this.#retire(slot);
    slot.job?.settle({ kind: 'failed', error: why });
    const anyReady = [...this.#slots].some((s) => s.ready);
    if (!slot.ready && !anyReady) {
      const queued = this.#queue;
      this.#queue = [];
      for (const job of queued) job.settle({ kind: 'failed', error: why });
    }
    this.#dispatch();
  }
}

/** The worker's answer with each learned text compiled again on this side. */
function recompiled(answer: AnalysisAnswer): LossAnalysis {
  if (!answer.ok) return { kind: 'failed', error: answer.error };
  const learned: LearnedFromLoss[] = [];
  for (const l of answer.learned) {
    const parsed = parseDescription(l.text);
    if (!parsed.ok) return { kind: 'failed', error: `a learned subgoal does not parse: ${l.text}: ${parsed.error.message}` };
    const compiled = compileCached(parsed.value);
    if (!compiled.ok) return { kind: 'failed', error: `a learned subgoal does not compile: ${l.text}: ${compiled.error.message}` };
    learned.push({ subgoal: compiled.value, moveIndex: l.moveIndex, point: l.point, isNew: l.isNew });
  }
  return { kind: 'analysed', winner: answer.winner, learned };
}

/** analysisWorker.ts in a worker thread, through tsx; `background`: at the lowest priority. */
function startWorker(background: boolean): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./analysisWorker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); }).then((m) => m.serveAnalyses());`;
  const data: AnalysisWorkerData = { background };
  return new Worker(code, { eval: true, name: background ? 'gomoku-reflection' : 'gomoku-analysis', workerData: data, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
}
