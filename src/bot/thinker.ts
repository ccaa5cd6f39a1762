/**
 * Where the service's thinking runs: in play workers (playPool.ts) when it has them, else in
 * this thread — the terminal game, and services built with a player of a test's own (a worker
 * can only build the real one). Work the workers could not run (none would start, one died)
 * is done here instead, and logged: the member gets the answer all the same.
 */
import { createPlayer } from '../play/player.ts';
import type { Realisation } from '../recognition/realisation.ts';
import type { CompiledLibrary } from './libraryCache.ts';
import { errorText, type BotLog } from './log.ts';
import { draw, DrawnPictures, type Drawing } from './picture.ts';
import { PlayPool, PlayWorkFailed } from './playPool.ts';
import { listingTexts, thinkHint, thinkSeen, thinkTurn, type ListingPlace, type HintAnswer, type HintQuestion, type NewPlayer, type SeenAnswer, type SeenQuestion, type TurnAnswer, type TurnQuestion } from './thinking.ts';

export class Thinker {
  readonly #newPlayer: NewPlayer;
  readonly #pool: PlayPool | undefined;
  readonly #log: BotLog;
  readonly #drawn = new DrawnPictures();

  /** `workers` > 0 runs the thinking in that many worker threads, unless `newPlayer` is a test's own. */
  constructor(options: { readonly newPlayer?: NewPlayer; readonly workers?: number; readonly log: BotLog }) {
    this.#newPlayer = options.newPlayer ?? createPlayer;
    this.#log = options.log;
    const offThread = (options.workers ?? 0) > 0 && (options.newPlayer === undefined || options.newPlayer === createPlayer);
    // The pool keeps the pictures drawn with a turn or a hint among those drawn here, for their replies.
    this.#pool = offThread ? new PlayPool({ workers: options.workers, log: options.log, drawn: this.#drawn }) : undefined;
  }

  /** Whether work sent to the workers now would wait for one (never without workers). */
  get busy(): boolean {
    return this.#pool?.saturated ?? false;
  }

  /** Whether the thinking runs in worker threads. */
  get offThread(): boolean {
    return this.#pool !== undefined;
  }

  turn(guildId: string, held: CompiledLibrary, q: TurnQuestion): Promise<TurnAnswer> {
    return this.#either('turn', (p) => p.turn(guildId, held, q), () => thinkTurn(this.#newPlayer, held.library.subgoals(), q));
  }

  hint(guildId: string, held: CompiledLibrary, q: HintQuestion): Promise<HintAnswer> {
    return this.#either('hint', (p) => p.hint(guildId, held, q), () => thinkHint(this.#newPlayer, held.library.subgoals(), q));
  }

  seen(guildId: string, held: CompiledLibrary, q: SeenQuestion): Promise<SeenAnswer<Realisation>> {
    return this.#either('recognition', (p) => p.seen(guildId, held, q), () => thinkSeen(this.#newPlayer, held.library.subgoals(), q));
  }

  /** The library's listing order, worked out once per library held (and shared by the commands that ask meanwhile). */
  listing(guildId: string, held: CompiledLibrary): Promise<readonly ListingPlace[]> {
    return this.#either('listing', (p) => p.listing(guildId, held), () => listingTexts(held.library.subgoals()));
  }

  /** A picture's bytes, drawn in a worker when there are workers, or kept from the last time it was asked for. */
  draw(drawing: Drawing): Promise<Buffer> {
    return this.#drawn.get(drawing, (d) => this.#either('drawing', (p) => p.draw(d), () => draw(d)));
  }

  /** Has the server's library sent to every play worker ahead of its first question (playPool.ts); nothing without workers. */
  warm(guildId: string, held: CompiledLibrary): void {
    this.#pool?.warm(guildId, held);
  }

  close(): Promise<void> {
    return this.#pool?.close() ?? Promise.resolve();
  }

  async #either<T>(what: string, inWorker: (pool: PlayPool) => Promise<T>, here: () => T): Promise<T> {
    if (this.#pool === undefined) return here();
    try {
      return await inWorker(this.#pool);
    } catch (e) {
      if (!(e instanceof PlayWorkFailed) || !e.retry) throw e;
      this.#log.error(`the play workers could not run a ${what}; running it on the main thread`, { error: errorText(e) });
      return here();
    }
  }
}
