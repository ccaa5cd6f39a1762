/**
 * A play worker's side (playPool.ts is the answering thread's side, and says why): it answers
 * the bot's turns, hints and recognitions (thinking.ts) and draws pictures (picture.ts).
 *
 * Each server's library is kept here by the server's library version (libraryCache.ts): a
 * question names the server and the version it was asked under. The pool sends a library to
 * a worker before the first question that needs it, or ahead of any question when the bot
 * reads its libraries at start (`warm`), as compiled subgoals: a `Subgoal` is plain data
 * (description, control stream, automorphisms), where compiling the texts again took a worker
 * 3 s (canonicalisation). It comes in parts of `LIBRARY_PART` subgoals: cloning 1000 at once
 * held the answering thread for 30-80 ms, and it sends the parts with a turn of its event
 * loop between them. When the last part is in, the worker groups the library's streams for
 * the recogniser at once (`groupLibrary`), so the first question does not pay for it. The worker
 * keeps the last `HELD_LIBRARIES` servers, dropping the least recently used, by the same rule
 * the pool uses to remember what it sent (`HeldVersions`), so the two agree without asking.
 * One subgoal array per version: the recogniser keeps its grouping of a library's streams for
 * the last few arrays it saw (recognition/entryGroups.ts), so a warm server costs nothing to set up.
 */
import { isMainThread, parentPort } from 'node:worker_threads';
import { KeptPlayers } from './keptPlayers.ts';
import { yieldToAnsweringThread } from './threadPriority.ts';
import { groupLibrary } from '../recognition/entryGroups.ts';
import type { Subgoal } from '../recognition/subgoal.ts';
import { afterTurnDrawing, draw, heatDrawing, threatsDrawing, type Drawing } from './picture.ts';
import { choiceToWire, realisationToWire, type WireChoice, type WireRealisation } from './playWire.ts';
import { listingTexts, positionOf, thinkHint, thinkSeen, thinkTurn, type ListingPlace, type HintAnswer, type HintQuestion, type SeenAnswer, type SeenQuestion, type TurnAnswer, type TurnQuestion } from './thinking.ts';

/** Servers whose compiled library a worker keeps. */
export const HELD_LIBRARIES = 32;

/** Subgoals in one message of a library sent to a worker (about 2 ms of cloning on the answering thread). */
export const LIBRARY_PART = 50;

/** A server's library as a question names it. */
export interface LibraryRef {
  readonly guildId: string;
  readonly version: string;
}

/** Part of a server's library, in the library's order: `subgoals` are its subgoals from index `from` of `total`. */
export interface LibraryPart extends LibraryRef {
  readonly from: number;
  readonly total: number;
  readonly subgoals: readonly Subgoal[];
}

export type PlayJob =
  | { readonly kind: 'turn'; readonly library: LibraryRef; readonly question: TurnQuestion }
  | { readonly kind: 'hint'; readonly library: LibraryRef; readonly question: HintQuestion }
  | { readonly kind: 'seen'; readonly library: LibraryRef; readonly question: SeenQuestion }
  | { readonly kind: 'listing'; readonly library: LibraryRef }
  | { readonly kind: 'draw'; readonly drawing: Drawing };

/**
 * The picture the reply to an answer will show, drawn with it (picture.ts): the board after a
 * turn (`afterTurnDrawing`), /hint's heat map (`heatDrawing`), /threats' realisations
 * (`threatsDrawing`). A reply's picture was a second job, asked for once the answer came back,
 * and it queued for a worker again behind every job asked for meanwhile (under load a move's
 * picture waited up to 0.4 s more); drawn here, the pool keeps it with the pictures drawn
 * (`DrawnPictures`) and the reply finds it.
 */
export interface DrawnAhead {
  readonly drawing: Drawing;
  readonly bytes: Uint8Array;
}

export type PlayResult =
  | { readonly kind: 'turn'; readonly answer: TurnAnswer<WireChoice>; readonly drawn: DrawnAhead }
  | { readonly kind: 'hint'; readonly answer: HintAnswer<WireChoice>; readonly drawn: DrawnAhead }
  | { readonly kind: 'seen'; readonly answer: SeenAnswer<WireRealisation>; readonly drawn: DrawnAhead }
  | { readonly kind: 'listing'; readonly answer: readonly ListingPlace[] }
  | { readonly kind: 'draw'; readonly bytes: Uint8Array };

export type PlayOutcome = { readonly ok: true; readonly result: PlayResult } | { readonly ok: false; readonly error: string; readonly missingLibrary?: boolean };

export type ToPlayWorker = { readonly kind: 'job'; readonly id: number; readonly job: PlayJob } | { readonly kind: 'library'; readonly part: LibraryPart };

/** An answer carries how long the worker took over it (`runMs`), so the pool can tell working from waiting. */
export type FromPlayWorker = { readonly kind: 'ready' } | { readonly kind: 'answer'; readonly id: number; readonly outcome: PlayOutcome; readonly runMs: number };

/**
 * Which version of which server's library is held, least recently used first, at most
 * `HELD_LIBRARIES`: kept the same way by a worker (with the subgoals) and by the pool (to know
 * what it sent).
 */
export class HeldVersions<T> {
  readonly #held = new Map<string, { version: string; value: T }>();

  get(guildId: string, version: string): T | undefined {
    const h = this.#held.get(guildId);
    if (h === undefined || h.version !== version) return undefined;
    this.#held.delete(guildId);
    this.#held.set(guildId, h);
    return h.value;
  }

  /** What is held, least recently used first, without counting as a use. */
  entries(): { guildId: string; version: string; value: T }[] {
    return [...this.#held].map(([guildId, h]) => ({ guildId, version: h.version, value: h.value }));
  }

  set(guildId: string, version: string, value: T): void {
    this.#held.delete(guildId);
    this.#held.set(guildId, { version, value });
    for (const oldest of this.#held.keys()) {
      if (this.#held.size <= HELD_LIBRARIES) break;
      this.#held.delete(oldest);
    }
  }
}

/** A library arriving in parts (they come in order, one library at a time), held when whole. */
export class LibraryParts {
  #subgoals: Subgoal[] = [];
  #of = '';

  constructor(private readonly held: HeldVersions<readonly Subgoal[]>) {}

  add(part: LibraryPart): void {
    const of = `${part.guildId}\u0000${part.version}`;
    if (part.from === 0 || of !== this.#of || part.from !== this.#subgoals.length) {
      this.#subgoals = [];
      this.#of = of;
      if (part.from !== 0) return;
    }
    this.#subgoals.push(...part.subgoals);
    if (this.#subgoals.length < part.total) return;
    const library = this.#subgoals;
    this.#subgoals = [];
    this.#of = '';
    this.held.set(part.guildId, part.version, library);
    // Grouped now, not in a member's first question: 0.1-0.6 s for 1000 subgoals.
    groupLibrary(library);
  }
}

/**
 * Answers one job; anything thrown is an answer with its words. Turns, hints and recognitions
 * go on from a kept player (keptPlayers.ts) near the question's position, which is given back
 * at the position it answered about; a player whose question threw is not kept.
 */
export function answerPlayJob(job: PlayJob, held: HeldVersions<readonly Subgoal[]>, kept: KeptPlayers): PlayOutcome {
  try {
    if (job.kind === 'draw') return { ok: true, result: { kind: 'draw', bytes: drawBytes(job.drawing) } };
    const ref = job.library;
    const library = held.get(ref.guildId, ref.version);
    if (library === undefined) return { ok: false, error: `library ${ref.version} of server ${ref.guildId} is not held here`, missingLibrary: true };
    // Set even when held: the pool counts every job towards what is most recently used.
    held.set(ref.guildId, ref.version, library);
    switch (job.kind) {
      case 'turn': {
        const q = job.question;
        const players = kept.at(q.moves);
        const a = thinkTurn(players.newPlayer, library, q);
        const afterMoves = a.choice === undefined ? q.moves : [...q.moves, a.choice.point];
        players.done(afterMoves);
        const drawing = afterTurnDrawing(positionOf({ size: q.size, moves: afterMoves }));
        const answer = { before: a.before, after: a.after, ...(a.choice !== undefined ? { choice: choiceToWire(a.choice) } : {}) };
        return { ok: true, result: { kind: 'turn', answer, drawn: { drawing, bytes: drawBytes(drawing) } } };
      }
      case 'hint': {
        const players = kept.at(job.question.moves);
        const a = thinkHint(players.newPlayer, library, job.question);
        players.done(job.question.moves);
        const drawing = heatDrawing(positionOf(job.question), a.considered, a.choice.point);
        return { ok: true, result: { kind: 'hint', answer: { choice: choiceToWire(a.choice), considered: a.considered }, drawn: { drawing, bytes: drawBytes(drawing) } } };
      }
      case 'listing':
        return { ok: true, result: { kind: 'listing', answer: listingTexts(library) } };
      case 'seen': {
        const players = kept.at(job.question.moves);
        const a = thinkSeen(players.newPlayer, library, job.question);
        players.done(job.question.moves);
        const drawing = threatsDrawing(positionOf(job.question), a, job.question.human);
        return { ok: true, result: { kind: 'seen', answer: { black: a.black.map(realisationToWire), white: a.white.map(realisationToWire) }, drawn: { drawing, bytes: drawBytes(drawing) } } };
      }
    }
  } catch (e) {
    return { ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

function drawBytes(drawing: Drawing): Uint8Array {
  const png = draw(drawing);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/** Runs in the worker thread: answers each job in turn, after saying it is ready. */
export function servePlay(): void {
  if (isMainThread || parentPort === null) throw new Error('servePlay runs in a worker thread');
  const port = parentPort;
  yieldToAnsweringThread();
  const held = new HeldVersions<readonly Subgoal[]>();
  const receiving = new LibraryParts(held);
  const kept = new KeptPlayers();
  port.on('message', (message: ToPlayWorker) => {
    if (message.kind === 'library') {
      receiving.add(message.part);
      return;
    }
    const start = performance.now();
    const outcome = answerPlayJob(message.job, held, kept);
    const reply: FromPlayWorker = { kind: 'answer', id: message.id, outcome, runMs: performance.now() - start };
    port.postMessage(reply);
  });
  const ready: FromPlayWorker = { kind: 'ready' };
  port.postMessage(ready);
}
