/**
 * The bot's metrics in the Prometheus text format, through prom-client — the maintained
 * Prometheus client for Node: its registry, counters, histograms and its default process
 * metrics (CPU, memory, event-loop lag from `perf_hooks.monitorEventLoopDelay`) are what an
 * operator's dashboards already know. Served by health.ts when `METRICS_PORT` is set.
 *
 * Every metric is named `gomoku_…` (the process's own are `process_…` and `nodejs_…`), and
 * every label has a small fixed set of values, so the series stay few however many servers,
 * members and games there are: commands by name (an unknown name is `unknown`), outcomes and
 * problem kinds from fixed lists, no guild, channel or user ids — per-server sizes are a
 * histogram over servers instead.
 *
 * Where the figures come from, without the service (src/bot/service.ts) knowing of metrics:
 * - interactions and their latency: interactions.ts, around each interaction;
 * - games finished by outcome, subgoals learned: `observeStore` watches the service's writes
 *   of finished-game records and learned subgoals (every finished game — a five, a draw, a
 *   resignation, an idle game put away — is written exactly there);
 * - storage errors: `observeStore` counts each storage operation the service makes that
 *   fails as unavailable, and each write queued for retry;
 * - games analysed: the service reports each analysis as it ends (`onAnalysed`), whether of
 *   the bot's own game or of a watched one;
 * - games in progress and library sizes: `Census`, read from storage when scraped (see there);
 * - retry-queue depth and whether the gateway is connected: read when scraped.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AnalysisEvent } from '../bot/service.ts';
import type { BotStore } from '../bot/store.ts';
import type { BotSchema, FinishedGame } from '../bot/records.ts';
import { collectionPrefix, COLLECTIONS, isStorageUnavailable, type Collection, type CollectionName, type GuildMemory, type Storage } from '../storage/index.ts';

/** What an interaction came to, as a label. */
export const INTERACTION_OUTCOMES = ['ok', 'refused', 'storage_unavailable', 'error', 'unanswered', 'unknown_command', 'stale_options', 'restarting'] as const;
export type InteractionOutcome = (typeof INTERACTION_OUTCOMES)[number];

export type InteractionKind = 'command' | 'autocomplete' | 'button';

/** Reply latency buckets, in seconds: Discord's 3 s acknowledgement limit sits between two. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30];
/** Library sizes, in subgoals: the learned benchmark library holds 1000. */
const LIBRARY_BUCKETS = [0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000];

export interface MetricsSources {
  /** Whether the gateway connection is up (READY, not reconnecting). */
  gatewayConnected(): boolean;
  /** Writes waiting in storage's retry queue. */
  retryQueueDepth(): number;
  /** Games in progress and library sizes, read from storage (see `Census`). */
  census(): Promise<CensusFigures | undefined>;
}

export class BotMetrics {
  readonly registry = new Registry();
  readonly interactions: Counter<'kind' | 'command' | 'outcome'>;
  readonly ackSeconds: Histogram<'kind' | 'command'>;
  readonly finalSeconds: Histogram<'kind' | 'command'>;
  readonly gamesFinished: Counter<'outcome'>;
  readonly gamesAnalysed: Counter<'result' | 'from'>;
  readonly subgoalsLearned: Counter;
  readonly storageErrors: Counter<'operation'>;

  /** `processMetrics`: also prom-client's default process metrics (event-loop lag among them). */
  constructor(sources: MetricsSources, options: { readonly processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.processMetrics === true) collectDefaultMetrics({ register: this.registry });
    this.interactions = new Counter({
      name: 'gomoku_interactions_total',
      help: 'Interactions received, by kind (command, autocomplete, button), command name and what came of them',
      labelNames: ['kind', 'command', 'outcome'],
      registers,
    });
    this.ackSeconds = new Histogram({
      name: 'gomoku_interaction_ack_seconds',
      help: "Time from receiving an interaction to Discord accepting its first answer (a reply, a deferral or autocomplete choices); Discord's limit is 3 s",
      labelNames: ['kind', 'command'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.finalSeconds = new Histogram({
      name: 'gomoku_interaction_final_seconds',
      help: 'Time from receiving an interaction to its last answer being sent (the edit after a deferral, or the reply itself)',
      labelNames: ['kind', 'command'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.gamesFinished = new Counter({
      name: 'gomoku_games_finished_total',
      help: 'Games finished, by outcome: bot_lost (a member made five), bot_won (five or resignation), draw (full board), abandoned (idle past GAME_IDLE_HOURS)',
      labelNames: ['outcome'],
      registers,
    });
    this.gamesAnalysed = new Counter({
      name: 'gomoku_games_analysed_total',
      help: 'Games won with a five walked back for subgoals, from the bot\'s loss, its win, a watched game or an old game walked back again (from="reflection"), by result: analysed, timed_out (over ANALYSIS_LIMIT_SECONDS), failed',
      labelNames: ['result', 'from'],
      registers,
    });
    this.subgoalsLearned = new Counter({
      name: 'gomoku_subgoals_learned_total',
      help: 'New subgoals learned from lost games and written to a library (saved, or queued for retry)',
      registers,
    });
    this.storageErrors = new Counter({
      name: 'gomoku_storage_errors_total',
      help: 'Storage operations that failed because storage was unavailable (Redis down, the data folder failing, over the time limit), by operation; queued counts writes put on the retry queue',
      labelNames: ['operation'],
      registers,
    });
    new Gauge({
      name: 'gomoku_storage_retry_queue_depth',
      help: 'Writes waiting to be retried because storage was unavailable (kept on disk; replayed when storage is back)',
      registers,
      collect() {
        this.set(sources.retryQueueDepth());
      },
    });
    new Gauge({
      name: 'gomoku_gateway_connected',
      help: '1 while the gateway connection to Discord is up, 0 while it is down or reconnecting',
      registers,
      collect() {
        this.set(sources.gatewayConnected() ? 1 : 0);
      },
    });
    // Games in progress and library sizes are read together, once per scrape, by whichever
    // of the two is collected first.
    let pending: Promise<CensusFigures | undefined> | undefined;
    const figures = () => {
      pending ??= sources.census().finally(() => setImmediate(() => (pending = undefined)));
      return pending;
    };
    new Gauge({
      name: 'gomoku_games_in_progress',
      help: 'Games being played, in the servers this bot is in, read from storage (at most every few seconds)',
      registers,
      async collect() {
        const f = await figures();
        if (f !== undefined) this.set(f.gamesInProgress);
      },
    });
    new Histogram({
      name: 'gomoku_library_subgoals',
      help: 'Servers by the number of subgoals their library has learned, read from storage with games_in_progress: _count is the servers, _sum the subgoals in all',
      buckets: LIBRARY_BUCKETS,
      registers,
      async collect() {
        const f = await figures();
        if (f === undefined) return;
        // A histogram of the servers as they are now, not of every read: start from zero.
        this.reset();
        for (const size of f.librarySizes) this.observe(size);
      },
    });
  }

  /** The scrape: the registry in the Prometheus text format, and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  interactionDone(kind: InteractionKind, command: string, outcome: InteractionOutcome, finalSeconds: number, ackSeconds: number | undefined): void {
    this.interactions.inc({ kind, command, outcome });
    if (ackSeconds !== undefined) this.ackSeconds.observe({ kind, command }, ackSeconds);
    this.finalSeconds.observe({ kind, command }, finalSeconds);
  }
}

// ---------------------------------------------------------------------------------------------
// Counting what the service does, from outside it

const OUTCOME_LABELS: Readonly<Record<FinishedGame['outcome'], string>> = { 'bot-lost': 'bot_lost', 'bot-won': 'bot_won', draw: 'draw', abandoned: 'abandoned' };

/**
 * The store the service is given, watched: finished-game records and learned subgoals are
 * counted as the service writes them, and every operation that finds storage unavailable is
 * counted before the error goes on. A record id is counted once, though a member retrying
 * after a failed save writes the same record again.
 */
export function observeStore(store: BotStore, metrics: BotMetrics): BotStore {
  const counted = new Set<string>();
  const countOnce = (id: string): boolean => {
    if (counted.has(id)) return false;
    counted.add(id);
    // Enough to see a retry through; the set must not grow with every game ever played.
    if (counted.size > 10_000) counted.delete(counted.values().next().value as string);
    return true;
  };
  // The service asks for a server's memory at every storage call: wrap each server's once.
  const watched = new Map<string, GuildMemory<BotSchema>>();
  return {
    guild: (guildId) => {
      let memory = watched.get(guildId);
      if (memory === undefined) watched.set(guildId, (memory = watchGuild(store.guild(guildId), metrics)));
      return memory;
    },
    writer: {
      put: async (guildId, collection, key, value) => {
        const outcome = await store.writer.put(guildId, collection, key, value);
        if (outcome === 'queued') metrics.storageErrors.inc({ operation: 'queued' });
        if (collection === 'records' && countOnce(`${guildId}/${key}`)) {
          metrics.gamesFinished.inc({ outcome: OUTCOME_LABELS[(value as BotSchema['records']).outcome] });
        }
        if (collection === 'library' && countOnce(`${guildId}/library/${key}`)) metrics.subgoalsLearned.inc();
        return outcome;
      },
      // The held libraries hear of late writes through it (libraryCache.ts).
      ...(store.writer.onLanded !== undefined ? { onLanded: store.writer.onLanded.bind(store.writer) } : {}),
    },
    // The shared pool lives there (pool.ts).
    ...(store.backend !== undefined ? { backend: store.backend } : {}),
  };
}

function watchGuild(memory: GuildMemory<BotSchema>, metrics: BotMetrics): GuildMemory<BotSchema> {
  const watch = <T>(operation: string, work: () => Promise<T>): Promise<T> =>
    work().catch((e: unknown) => {
      if (isStorageUnavailable(e)) metrics.storageErrors.inc({ operation });
      throw e;
    });
  const collection = <T>(c: Collection<T>): Collection<T> => ({
    name: c.name,
    guildId: c.guildId,
    get: (key) => watch('get', () => c.get(key)),
    put: (key, value) => watch('put', () => c.put(key, value)),
    delete: (key) => watch('delete', () => c.delete(key)),
    moveAsideUnreadable: (key) => watch('put', () => c.moveAsideUnreadable(key)),
    list: () => watch('list', () => c.list()),
    clear: () => watch('clear', () => c.clear()),
  });
  // Every collection, whatever the schema holds now.
  const watched = Object.fromEntries(COLLECTIONS.map((name) => [name, collection(memory[name] as Collection<unknown>)]));
  return { ...(watched as { [C in CollectionName]: Collection<BotSchema[C]> }), guildId: memory.guildId, clear: () => watch('clear', () => memory.clear()) };
}

const ANALYSIS_LABELS = { analysed: 'analysed', 'timed-out': 'timed_out', failed: 'failed' } as const;

/** Counts each analysis as the service reports it (its `onAnalysed`): the bot's games and watched ones. */
export function countAnalysis(metrics: BotMetrics): (event: AnalysisEvent) => void {
  return (event) => metrics.gamesAnalysed.inc({ result: ANALYSIS_LABELS[event.result], from: event.from });
}

// ---------------------------------------------------------------------------------------------
// The census: figures only storage knows

export interface CensusFigures {
  readonly gamesInProgress: number;
  /** One per server: how many learned subgoals its library holds. */
  readonly librarySizes: readonly number[];
}

/**
 * Games in progress and library sizes, counted from storage for the servers the bot is in.
 * Another process (a shard, the terminal game) may change them, so they are read, not
 * tracked. The stored records are counted, not decoded: a game in progress is a games record
 * with no `finished` field, a library's size its number of keys — decoding a 1000-subgoal
 * library costs hundreds of milliseconds.
 *
 * A read costs one listing per server and collection, so one read serves every scrape within
 * `minAgeMs`, and one at a time runs; when storage is unavailable the last figures stand
 * (storage_errors_total and /healthz say why).
 */
export class Census {
  readonly #storage: Pick<Storage<BotSchema>, 'backend'>;
  readonly #guildIds: () => Iterable<string>;
  readonly #minAgeMs: number;
  #last: { at: number; figures: CensusFigures } | undefined;
  #running: Promise<CensusFigures | undefined> | undefined;

  constructor(storage: Pick<Storage<BotSchema>, 'backend'>, guildIds: () => Iterable<string>, minAgeMs = 5000) {
    this.#storage = storage;
    this.#guildIds = guildIds;
    this.#minAgeMs = minAgeMs;
  }

  read(): Promise<CensusFigures | undefined> {
    if (this.#last !== undefined && performance.now() - this.#last.at < this.#minAgeMs) return Promise.resolve(this.#last.figures);
    this.#running ??= this.#count().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #count(): Promise<CensusFigures | undefined> {
    const backend = this.#storage.backend;
    let gamesInProgress = 0;
    const librarySizes: number[] = [];
    try {
      for (const guildId of this.#guildIds()) {
        for (const [, stored] of await backend.entries(collectionPrefix(guildId, 'games'))) {
          const data = (stored as { data?: unknown } | null)?.data;
          if (typeof data === 'object' && data !== null && !('finished' in data)) gamesInProgress++;
        }
        librarySizes.push((await backend.entries(collectionPrefix(guildId, 'library'))).length);
      }
    } catch (e) {
      if (isStorageUnavailable(e)) return this.#last?.figures;
      throw e;
    }
    const figures = { gamesInProgress, librarySizes };
    this.#last = { at: performance.now(), figures };
    return figures;
  }
}
