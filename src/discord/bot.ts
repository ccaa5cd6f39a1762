/**
 * The Discord bot: storage, the game service and a discord.js client, wired together.
 * `startBot(env)` opens storage (Redis with `REDIS_URL`, files under `DATA_DIR` without),
 * logs in and answers the slash commands of commands/ until `stop()`.
 *
 * - Idle games are swept every `sweepEveryMs` (a quarter of the idle limit, at most an hour)
 *   over the servers the client is in; a member touching an idle game expires it too.
 * - `stop()` (shutdown.ts): new interactions are answered "restarting"; the ones in flight are
 *   finished; game work under way is waited for; pending writes get one more try; then the
 *   gateway (closed with 1000, which ends the session), the health listener and storage are
 *   closed. Writes still pending stay in the pending file and are replayed by the next start.
 *   `pending()` says what the stop is still waiting for, for the log when it runs late.
 * - With `METRICS_PORT`, /healthz and /metrics (health.ts, metrics.ts); every interaction is
 *   logged and counted (interactions.ts).
 * - A failure to log in closes storage again and rejects: the caller says why and exits.
 */
import { Events, Status, type Client } from 'discord.js';
import { logFor, openBotStorage, serviceFor, type BotEnv } from '../bot/config.ts';
import { errorText, type BotLog } from '../bot/log.ts';
import { watchEventLoop, type LoopEnv } from '../bot/loopDelay.ts';
import type { BotSchema } from '../bot/records.ts';
import type { GameService } from '../bot/service.ts';
import type { LogDetail, Storage } from '../storage/index.ts';
import { createDiscordClient, type DiscordEnv } from './client.ts';
import type { CommandContext } from './command.ts';
import { handleInteraction, type Dispatched } from './dispatch.ts';
import { asking } from '../bot/asking.ts';
import { metricsAddress, serveHealth, type Health, type HealthEnv } from './health.ts';
import { contextLog, InteractionObserver } from './interactions.ts';
import { BotMetrics, Census, countAnalysis, observeStore } from './metrics.ts';
import { answer } from './respond.ts';
import { InteractionGate, stopInOrder } from './shutdown.ts';
import { deferAfterFor } from './deferral.ts';

export interface RunningBot {
  readonly client: Client;
  readonly service: GameService;
  readonly storage: Storage<BotSchema>;
  readonly metrics: BotMetrics;
  /** The health and metrics listener, when `METRICS_PORT` is set. */
  readonly health: Health | undefined;
  stop(): Promise<void>;
  /** What the stop is waiting for: its step, the interactions in flight, writes queued. */
  pending(): LogDetail;
}

export interface BotOptions {
  readonly log?: BotLog;
  /** How long a command may take before it is deferred (default 1000 ms). */
  readonly deferAfterMs?: number;
  /** How often idle games are swept (default: a quarter of the idle limit, at most an hour). */
  readonly sweepEveryMs?: number;
}

export async function startBot(env: BotEnv & DiscordEnv & HealthEnv & LoopEnv, options: BotOptions = {}): Promise<RunningBot> {
  const log = contextLog(options.log ?? logFor(env));
  const address = metricsAddress(env);
  const unwatchLoop = watchEventLoop(env, log);
  const storage = await openBotStorage(env, log);
  let client: Client | undefined;
  let health: Health | undefined;
  try {
    const gatewayConnected = () => client !== undefined && client.ws.shards.size > 0 && client.ws.shards.every((s) => s.status === Status.Ready);
    const census = new Census(storage, () => client?.guilds.cache.keys() ?? []);
    const metrics = new BotMetrics(
      { gatewayConnected, retryQueueDepth: () => storage.writer.pending.length, census: () => census.read() },
      { processMetrics: address !== undefined },
    );
    const service = serviceFor(env, observeStore(storage, metrics), log, { offThread: true, onAnalysed: countAnalysis(metrics) });
    const gate = new InteractionGate(log);
    const bot = createDiscordClient(env);
    client = bot;
    const observer = new InteractionObserver(metrics, log, bot.rest);
    const ctx: CommandContext = {
      service,
      log,
      answer: (interaction, work, o) =>
        answer(interaction, observer.tap(interaction.id, work), log, { deferAfterMs: deferAfterFor(interaction, options.deferAfterMs, service.thinker.busy), draw: (d) => service.thinker.draw(d), ...o }),
    };
    bot.on(Events.InteractionCreate, (interaction) => {
      // The work is done on the interaction's behalf (asking.ts): its worker jobs queue by when
      // it arrived, and it is deferred as soon as one may wait.
      const arrived = performance.now();
      void observer.observe(interaction, () =>
        asking(arrived, async () => {
          let dispatched: Dispatched = 'handled';
          const admitted = await gate.admit(interaction, async () => void (dispatched = await handleInteraction(interaction, ctx)));
          return admitted ? dispatched : 'restarting';
        }),
      );
    });
    if (address !== undefined) {
      health = await serveHealth(address, { gatewayConnected, pingStorage: () => storage.ping(), stopping: () => !gate.isOpen }, metrics, log);
    }
    bot.on(Events.Error, (e) => log.error('discord client error', { error: errorText(e) }));
    bot.on(Events.Warn, (message) => log.warn('discord client warning', { message }));
    bot.once(Events.ClientReady, (ready) => {
      log.info(`connected to Discord as ${ready.user.tag}`, { guilds: ready.guilds.cache.size, storage: storage.kind });
      void service.warm([...ready.guilds.cache.keys()]).then((n) => log.info('libraries read ahead', { guilds: n }));
    });
    await bot.login();
    const sweepEveryMs = options.sweepEveryMs ?? Math.min(service.idleMs / 4, 3_600_000);
    const sweep = setInterval(() => {
      void service.expireIdle([...bot.guilds.cache.keys()]).then((n) => {
        if (n > 0) log.info('expired idle games', { count: n });
      });
    }, sweepEveryMs);
    sweep.unref();
    let stopping: Promise<void> | undefined;
    const progress: { step: string | undefined } = { step: undefined };
    const listener = health;
    return {
      client: bot,
      service,
      storage,
      metrics,
      health: listener,
      stop: () => {
        stopping ??= stopInOrder(
          [
            { name: 'refusing new interactions', run: () => (gate.close(), clearInterval(sweep)) },
            { name: 'finishing the interactions in flight', run: () => gate.drained() },
            { name: 'finishing game work (an analysis may run to its limit)', run: () => service.idle() },
            { name: 'flushing pending writes', run: () => flushPending(storage, log) },
            { name: 'closing the gateway', run: () => bot.destroy() },
            { name: 'closing the health listener', run: () => listener?.close() },
            { name: 'closing storage', run: () => storage.close() },
            { name: 'stopping the event-loop watch', run: () => unwatchLoop() },
          ],
          log,
          progress,
        ).then(() => log.info('stopped'));
        return stopping;
      },
      pending: () => ({
        step: progress.step ?? (stopping === undefined ? 'not stopping' : 'done'),
        inFlight: gate.inFlight(),
        pendingWrites: storage.writer.pending.length,
      }),
    };
  } catch (e) {
    await client?.destroy().catch(() => undefined);
    await health?.close();
    await storage.close();
    unwatchLoop();
    throw e;
  }
}

/** One more try for writes queued during an outage; what is left stays on disk for the next start. */
async function flushPending(storage: Storage<BotSchema>, log: BotLog): Promise<void> {
  if (storage.writer.pending.length === 0) return;
  const left = await storage.writer.flush();
  if (left > 0) log.warn('writes still pending at the stop; kept on disk for the next start', { count: left });
}
