/**
 * The Discord bot: storage, the game service and a discord.js client, wired together.
 * `startBot(env)` opens storage (Redis with `REDIS_URL`, files under `DATA_DIR` without),
 * logs in and answers the slash commands of commands/ until `stop()`.
 *
 * - Idle games are swept every `sweepEveryMs` (a quarter of the idle limit, at most an hour)
 *   over the servers the client is in; a member touching an idle game expires it too.
 * - `stop()` stops the sweep, disconnects (closing the gateway with 1000, which ends the
 *   session), waits for game work under way, then closes storage; writes still pending stay
 *   in the pending file and are replayed by the next start.
 * - A failure to log in closes storage again and rejects: the caller says why and exits.
 */
import { Events, type Client } from 'discord.js';
import { logFor, openBotStorage, serviceFor, type BotEnv } from '../bot/config.ts';
import { errorText, type BotLog } from '../bot/log.ts';
import { watchEventLoop, type LoopEnv } from '../bot/loopDelay.ts';
import type { BotSchema } from '../bot/records.ts';
import type { GameService } from '../bot/service.ts';
import type { Storage } from '../storage/index.ts';
import { createDiscordClient, type DiscordEnv } from './client.ts';
import type { CommandContext } from './command.ts';
import { handleInteraction } from './dispatch.ts';
import { answer } from './respond.ts';
import { deferAfterFor } from './deferral.ts';

export interface RunningBot {
  readonly client: Client;
  readonly service: GameService;
  readonly storage: Storage<BotSchema>;
  stop(): Promise<void>;
}

export interface BotOptions {
  readonly log?: BotLog;
  /** How long a command may take before it is deferred (default 1000 ms). */
  readonly deferAfterMs?: number;
  /** How often idle games are swept (default: a quarter of the idle limit, at most an hour). */
  readonly sweepEveryMs?: number;
}

export async function startBot(env: BotEnv & DiscordEnv & LoopEnv, options: BotOptions = {}): Promise<RunningBot> {
  const log = options.log ?? logFor(env);
  const unwatchLoop = watchEventLoop(env, log);
  const storage = await openBotStorage(env, log);
  let client: Client | undefined;
  try {
    const service = serviceFor(env, storage, log, { offThread: true });
    const ctx: CommandContext = {
      service,
      log,
      answer: (interaction, work, o) => answer(interaction, work, log, { deferAfterMs: deferAfterFor(interaction, options.deferAfterMs), draw: (d) => service.thinker.draw(d), ...o }),
    };
    const bot = createDiscordClient(env);
    client = bot;
    bot.on(Events.InteractionCreate, (interaction) => void handleInteraction(interaction, ctx));
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
    return {
      client: bot,
      service,
      storage,
      stop: () => {
        stopping ??= (async () => {
          clearInterval(sweep);
          await bot.destroy();
          await service.idle();
          await storage.close();
          unwatchLoop();
          log.info('stopped');
        })();
        return stopping;
      },
    };
  } catch (e) {
    await client?.destroy().catch(() => undefined);
    await storage.close();
    unwatchLoop();
    throw e;
  }
}
