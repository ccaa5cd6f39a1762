/**
 * The bot's thinking and drawing off the thread that answers Discord.
 *
 * With a server's 1000-subgoal library the player's move (its look-ahead included) takes 0.2–0.4
 * s, a hint up to a second, and a board picture 35–60 ms to draw; the load benchmark
 * (bench/load.ts) measured the thread that answers everyone held for up to 1.3 s at a time, so
 * heartbeats and every other member's reply waited. Here those run in worker threads, as the
 * analysis of a lost game does (analyser.ts), and the answering thread only awaits a message.
 *
 * Decisions:
 * - A second pool beside the analyser's, not one pool for both: an analysis may run for 20 s,
 *   and a move should not wait behind it; a move takes well under a second and can.
 * - node's worker_threads directly, for the reasons analyser.ts gives; the worker registers tsx's
 *   loader first, as there.
 * - Each worker keeps each server's library compiled by its version (playWorker.ts); a job is
 *   given to an idle worker that already holds its server's version when there is one, and
 *   carries the library only to a worker that has not been sent that version.
 * - Work fails over to this thread when the workers cannot run it (a worker that would not start
 *   or died): the member gets the same answer, later, rather than none. A job past its limit
 *   (30 s: far past any move or hint) is not run again here: its worker is replaced and the
 *   caller is told.
 * - Workers are unref'd, so an idle pool never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';
import { currentAsking } from './asking.ts';
import { compileCached } from '../learning/library.ts';
import { parseDescription } from '../notation/descriptionNotation.ts';
import type { MoveChoice } from '../play/player.ts';
import type { Realisation } from '../recognition/realisation.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import type { CompiledLibrary } from './libraryCache.ts';
import { errorText, silentLog, type BotLog } from './log.ts';
import type { Drawing, DrawnPictures } from './picture.ts';
import { choiceFromWire, realisationFromWire, type SubgoalLookup } from './playWire.ts';
import { HeldVersions, LIBRARY_PART, type DrawnAhead, type FromPlayWorker, type LibraryRef, type PlayJob, type PlayOutcome, type PlayResult, type ToPlayWorker } from './playWorker.ts';
import type { ListingPlace, HintAnswer, HintQuestion, SeenAnswer, SeenQuestion, TurnAnswer, TurnQuestion } from './thinking.ts';

export const DEFAULT_PLAY_WORKERS = 2;
export const DEFAULT_PLAY_LIMIT_MS = 30_000;
const START_LIMIT_MS = 60_000;
const WORKER_HEAP_MB = 1024;

/** The job could not be run by a worker; `retry` when it may be run in this thread instead. */
export class PlayWorkFailed extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
    this.name = 'PlayWorkFailed';
  }
}

export interface PlayPoolOptions {
  readonly workers?: number;
  readonly limitMs?: number;
  readonly log?: BotLog;
  /** Where the pictures drawn with a turn or a hint are kept for their reply (playWorker.ts `DrawnAhead`). */
  readonly drawn?: DrawnPictures;
}

interface Job {
  readonly id: number;
  readonly job: PlayJob;
  /** Send the library whatever the worker was sent before (it said it lacked it). */
  forceTexts: boolean;
  readonly compiled?: CompiledLibrary;
  readonly settle: (outcome: PlayOutcome | PlayWorkFailed) => void;
  /** When it was asked for, and given to a worker (performance.now()): the debug log's wait. */
  readonly askedAt: number;
  /** When the interaction it is for arrived (asking.ts), or when it was asked for: the queue's order. */
  readonly since: number;
  givenAt?: number;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** What this worker has been sent, kept by the rule the worker keeps it by. */
  readonly sent: HeldVersions<true>;
  /** Messages go out in this order, a library's parts with a turn of the event loop between them. */
  outbox: Promise<void>;
}

export class PlayPool {
  readonly #max: number;
  readonly #limitMs: number;
  readonly #log: BotLog;
  readonly #drawn: DrawnPictures | undefined;
  readonly #slots = new Set<Slot>();
  /** Libraries every worker should hold before it is asked (`warm`). */
  readonly #warm = new HeldVersions<CompiledLibrary>();
  #queue: Job[] = [];
  #nextId = 1;

  constructor(options: PlayPoolOptions = {}) {
    this.#max = Math.max(1, Math.floor(options.workers ?? DEFAULT_PLAY_WORKERS));
    this.#limitMs = options.limitMs ?? DEFAULT_PLAY_LIMIT_MS;
    this.#log = options.log ?? silentLog;
    this.#drawn = options.drawn;
  }

  get workers(): number {
    return this.#slots.size;
  }

  /** Whether a job asked for now would wait: jobs are queued, or every worker that started is busy. */
  get saturated(): boolean {
    if (this.#queue.length > 0) return true;
    const ready = [...this.#slots].filter((s) => s.ready);
    return ready.length > 0 && ready.every((s) => s.job !== undefined);
  }

  async turn(guildId: string, compiled: CompiledLibrary, question: TurnQuestion): Promise<TurnAnswer> {
    const r = await this.#run({ kind: 'turn', library: this.#ref(guildId, compiled), question }, compiled);
    if (r.kind !== 'turn') throw new Error(`a play worker answered ${r.kind} to turn`);
    this.#keep(r.drawn);
    const lookup = lookupIn(compiled);
    const a = r.answer;
    return { before: a.before, after: a.after, ...(a.choice !== undefined ? { choice: choiceFromWire(a.choice, lookup) as MoveChoice } : {}) };
  }

  async hint(guildId: string, compiled: CompiledLibrary, question: HintQuestion): Promise<HintAnswer> {
    const r = await this.#run({ kind: 'hint', library: this.#ref(guildId, compiled), question }, compiled);
    if (r.kind !== 'hint') throw new Error(`a play worker answered ${r.kind} to hint`);
    this.#keep(r.drawn);
    return { choice: choiceFromWire(r.answer.choice, lookupIn(compiled)), considered: r.answer.considered };
  }

  async seen(guildId: string, compiled: CompiledLibrary, question: SeenQuestion): Promise<SeenAnswer<Realisation>> {
    const r = await this.#run({ kind: 'seen', library: this.#ref(guildId, compiled), question }, compiled);
    if (r.kind !== 'seen') throw new Error(`a play worker answered ${r.kind} to seen`);
    this.#keep(r.drawn);
    const lookup = lookupIn(compiled);
    return { black: r.answer.black.map((w) => realisationFromWire(w, lookup)), white: r.answer.white.map((w) => realisationFromWire(w, lookup)) };
  }

  async listing(guildId: string, compiled: CompiledLibrary): Promise<readonly ListingPlace[]> {
    const r = await this.#run({ kind: 'listing', library: this.#ref(guildId, compiled) }, compiled);
    if (r.kind !== 'listing') throw new Error(`a play worker answered ${r.kind} to listing`);
    return r.answer;
  }

  async draw(drawing: Drawing): Promise<Buffer> {
    const r = await this.#run({ kind: 'draw', drawing });
    if (r.kind !== 'draw') throw new Error(`a play worker answered ${r.kind} to draw`);
    return Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  }

  /**
   * Sends the server's library to every worker, starting them, so the first questions
   * about it neither wait for it to cross nor for its streams to be grouped (playWorker.ts).
   * A worker started later (one replaced) is sent it when ready. The last `HELD_LIBRARIES`
   * servers warmed are kept for that.
   */
  warm(guildId: string, compiled: CompiledLibrary): void {
    this.#warm.set(guildId, compiled.version, compiled);
    this.#startForWarm();
    for (const slot of this.#slots) if (slot.ready) this.#sendLibrary(slot, guildId, compiled);
  }

  /**
   * Starts a worker for `warm` when there is room and nothing else to do: one at a time, and
   * only while no job waits or runs, as a worker's start (tsx, then every module) takes a core
   * for about a second, and starting both at once held up the first answers after a start.
   */
  #startForWarm(): void {
    if (this.#warm.entries().length === 0 || this.#slots.size >= this.#max || this.#queue.length > 0) return;
    if ([...this.#slots].some((s) => !s.ready || s.job !== undefined)) return;
    this.#start();
  }

  async close(): Promise<void> {
    const slots = [...this.#slots];
    const queued = this.#queue;
    this.#slots.clear();
    this.#queue = [];
    const stopped = new PlayWorkFailed('the play workers were closed', false);
    for (const slot of slots) {
      clearTimeout(slot.timer);
      slot.job?.settle(stopped);
    }
    for (const job of queued) job.settle(stopped);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  #keep(drawn: DrawnAhead): void {
    this.#drawn?.keep(drawn.drawing, Buffer.from(drawn.bytes.buffer, drawn.bytes.byteOffset, drawn.bytes.byteLength));
  }

  #ref(guildId: string, compiled: CompiledLibrary): LibraryRef {
    return { guildId, version: compiled.version };
  }

  async #run(job: PlayJob, compiled?: CompiledLibrary): Promise<PlayResult> {
    const outcome = await new Promise<PlayOutcome | PlayWorkFailed>((resolve) => {
      let settled = false;
      const settle = (o: PlayOutcome | PlayWorkFailed) => {
        if (settled) return;
        settled = true;
        resolve(o);
      };
      const now = performance.now();
      const forWhom = currentAsking();
      const entry: Job = { id: this.#nextId++, job, forceTexts: false, settle, askedAt: now, since: forWhom?.since ?? now, ...(compiled !== undefined ? { compiled } : {}) };
      this.#enqueue(entry);
      this.#dispatch();
      // A move, a hint, a recognition or a listing may take a second on its own; a picture
      // takes 10-30 ms, unless it has to wait for a worker.
      if (job.kind !== 'draw' || this.#queue.includes(entry)) forWhom?.slow();
    });
    if (outcome instanceof PlayWorkFailed) throw outcome;
    // An error thrown in the worker is a bug in the work itself: this thread would throw it too.
    if (!outcome.ok) throw new PlayWorkFailed(`a play worker failed: ${outcome.error}`, false);
    return outcome.result;
  }

  /** Into the queue after every job asked for an interaction that arrived before its own (asking.ts). */
  #enqueue(entry: Job): void {
    let i = this.#queue.length;
    while (i > 0 && this.#queue[i - 1].since > entry.since) i--;
    this.#queue.splice(i, 0, entry);
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const idle = [...this.#slots].filter((s) => s.ready && s.job === undefined);
      if (idle.length === 0) break;
      const job = this.#queue.shift()!;
      const library = 'library' in job.job ? job.job.library : undefined;
      const warm = library === undefined ? undefined : idle.find((s) => s.sent.get(library.guildId, library.version) !== undefined);
      this.#give(warm ?? idle[0], job);
    }
    let starting = [...this.#slots].filter((s) => !s.ready).length;
    while (this.#slots.size < this.#max && starting < this.#queue.length) {
      this.#start();
      starting++;
    }
    this.#startForWarm();
  }

  #give(slot: Slot, job: Job): void {
    slot.job = job;
    job.givenAt = performance.now();
    if ('library' in job.job && job.compiled !== undefined) {
      const ref = job.job.library;
      if (job.forceTexts || slot.sent.get(ref.guildId, ref.version) === undefined) this.#sendLibrary(slot, ref.guildId, job.compiled, true);
      else slot.sent.set(ref.guildId, ref.version, true);
    }
    slot.timer = setTimeout(() => {
      this.#retire(slot);
      job.settle(new PlayWorkFailed(`a play worker took over ${this.#limitMs / 1000} s`, false));
      this.#dispatch();
    }, this.#limitMs);
    this.#post(slot, { kind: 'job', id: job.id, job: job.job });
  }

  /** After whatever this worker is still being sent. */
  #post(slot: Slot, message: ToPlayWorker): void {
    slot.outbox = slot.outbox.then(() => {
      if (this.#slots.has(slot)) slot.worker.postMessage(message);
    });
  }

  /** The library in parts, unless this worker was sent this version (`again`: whatever it was sent). */
  #sendLibrary(slot: Slot, guildId: string, compiled: CompiledLibrary, again = false): void {
    const version = compiled.version;
    if (!again && slot.sent.get(guildId, version) !== undefined) return;
    slot.sent.set(guildId, version, true);
    const subgoals = compiled.library.subgoals();
    this.#log.debug('sending a library to a play worker', { guildId, version, subgoals: subgoals.length, again });
    slot.outbox = slot.outbox.then(async () => {
      for (let from = 0; from < subgoals.length; from += LIBRARY_PART) {
        if (!this.#slots.has(slot)) return;
        const message: ToPlayWorker = { kind: 'library', part: { guildId, version, from, total: subgoals.length, subgoals: subgoals.slice(from, from + LIBRARY_PART) } };
        slot.worker.postMessage(message);
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
  }

  #start(): void {
    const slot: Slot = { worker: startWorker(), ready: false, sent: new HeldVersions<true>(), outbox: Promise.resolve() };
    slot.timer = setTimeout(() => this.#lost(slot, `a play worker did not start within ${START_LIMIT_MS / 1000} s`), START_LIMIT_MS);
    slot.worker.on('message', (message: FromPlayWorker) => {
      if (!this.#slots.has(slot)) return;
      if (message.kind === 'ready') {
        clearTimeout(slot.timer);
        slot.ready = true;
        for (const w of this.#warm.entries()) this.#sendLibrary(slot, w.guildId, w.value);
      } else {
        const job = slot.job;
        if (job === undefined || job.id !== message.id) return;
        clearTimeout(slot.timer);
        slot.job = undefined;
        const now = performance.now();
        this.#log.debug('play job', { kind: job.job.kind === 'draw' ? `draw ${job.job.drawing.kind}` : job.job.kind, waitMs: round(now - job.askedAt - message.runMs), runMs: round(message.runMs), sentMs: round(now - (job.givenAt ?? now) - message.runMs) });
        if (!message.outcome.ok && message.outcome.missingLibrary === true && !job.forceTexts) {
          job.forceTexts = true;
          this.#queue.unshift(job);
        } else {
          job.settle(message.outcome);
        }
      }
      this.#dispatch();
    });
    slot.worker.on('error', (e) => this.#lost(slot, `a play worker failed: ${errorText(e)}`));
    slot.worker.on('exit', (code) => this.#lost(slot, `a play worker exited (code ${code})`));
    slot.worker.unref();
    this.#slots.add(slot);
  }

  #retire(slot: Slot): void {
    this.#slots.delete(slot);
    clearTimeout(slot.timer);
    void slot.worker.terminate();
  }

  /** A worker died or never started: its job may be run in this thread; so may those waiting, when no worker is left that started. */
  #lost(slot: Slot, why: string): void {
    if (!this.#slots.has(slot)) return;
    this.#retire(slot);
    this.#log.error('a play worker was lost', { why });
    slot.job?.settle(new PlayWorkFailed(why, true));
    const anyReady = [...this.#slots].some((s) => s.ready);
    if (!slot.ready && !anyReady) {
      const queued = this.#queue;
      this.#queue = [];
      for (const job of queued) job.settle(new PlayWorkFailed(why, true));
    }
    this.#dispatch();
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** Subgoals by text in the library the question was asked with; a text it lacks (never expected) is compiled. */
function lookupIn(compiled: CompiledLibrary): SubgoalLookup {
  return (text: string): Subgoal => {
    const held = compiled.library.get(text);
    if (held !== undefined) return held.subgoal;
    const parsed = parseDescription(text);
    if (!parsed.ok) throw new Error(`a play worker named a subgoal that does not parse: ${text}`);
    const made = compileCached(parsed.value);
    if (!made.ok) throw new Error(`a play worker named a subgoal that does not compile: ${text}`);
    return made.value;
  };
}

/** playWorker.ts in a worker thread, through tsx. */
function startWorker(): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./playWorker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); }).then((m) => m.servePlay());`;
  return new Worker(code, { eval: true, name: 'gomoku-play', resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
}
