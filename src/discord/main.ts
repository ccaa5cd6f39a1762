/**
 * What `npm start` runs (through bin/start.mjs, which loads `.env` first):
 *
 * - `DISCORD_TOKEN` set: the Discord bot, until SIGINT or SIGTERM, then a clean stop within
 *   `SHUTDOWN_GRACE_MS` (8000): past it, what was still pending is logged and the exit code
 *   is 1; a second signal exits at once (shutdown.ts).
 * - `DISCORD_TOKEN` unset: it says so plainly and starts the local terminal game instead
 *   (`gomoku play`), so the whole loop can be seen without Discord.
 * - `deploy` (what `npm run deploy` passes): registers the slash commands and exits;
 *   `--clear-global` or `--clear-guild` after it also empties the other set (deploy.ts).
 *
 * Returns the exit code. Problems a person can fix (a missing or refused token, a bad
 * setting, storage that cannot be opened) are printed as one sentence, not a stack trace.
 */
import { playInTerminal } from '../bot/terminal.ts';
import { processIO, type CliIO } from '../bot/io.ts';
import { logFor, type BotEnv } from '../bot/config.ts';
import { startBot } from './bot.ts';
import type { DiscordEnv } from './client.ts';
import { DEPLOY_FLAGS, deployCommands, type Clear, type DeployEnv } from './deploy.ts';
import type { HealthEnv } from './health.ts';
import { onStopSignals } from '../bot/signals.ts';
import { EXIT, shutdownGraceMs, untilDeadline, type ShutdownEnv } from './shutdown.ts';

import { runShards, runsShards, type ShardEnv } from './shards.ts';

export type StartEnv = BotEnv & DiscordEnv & DeployEnv & HealthEnv & ShutdownEnv & ShardEnv & { readonly LOG_FORMAT?: string };

export const NO_TOKEN_NOTICE = `DISCORD_TOKEN is not set, so I am not connecting to Discord.
Starting a local game in this terminal instead, with the bot's commands (type "help").
To run the Discord bot, put the bot's token in .env (see .env.example and the README).`;

export async function main(argv: readonly string[], env: StartEnv, io: CliIO = processIO): Promise<number> {
  const flags = argv.slice(1);
  if (argv[0] === 'deploy' && flags.length <= 1 && flags.every((f) => f in DEPLOY_FLAGS)) return deploy(env, io, flags.length === 0 ? undefined : DEPLOY_FLAGS[flags[0]]);
  if (argv.length > 0) {
    io.err(
      `usage: npm start            (the bot; a terminal game without DISCORD_TOKEN)\n       npm run deploy       (register the slash commands)\n` +
        `       npm run deploy -- --clear-global   (…and remove the global ones; alone without DISCORD_GUILD_ID)\n` +
        `       npm run deploy -- --clear-guild    (register globally, remove those in DISCORD_GUILD_ID)`,
    );
    return 2;
  }
  try {
    logFor(env);
  } catch (e) {
    io.err((e as Error).message);
    return 2;
  }
  if (env.DISCORD_TOKEN === undefined || env.DISCORD_TOKEN.trim() === '') {
    io.out(NO_TOKEN_NOTICE);
    return playInTerminal(io, env);
  }
  if (runsShards(env)) return runShards(env, io);
  let bot;
  let graceMs: number;
  const log = logFor(env);
  // Listening before the bot starts: a signal while it logs in (which can wait on a Discord
  // that does not answer) ends the start, as nothing has been done yet that a stop must finish.
  const signalled = onStopSignals(log, (code) => process.exit(code));
  try {
    graceMs = shutdownGraceMs(env);
    const started = await Promise.race([startBot(env, { log }), signalled.first]);
    if (typeof started === 'string') {
      log.warn('stopped while starting', { signal: started });
      return EXIT.late;
    }
    bot = started;
  } catch (e) {
    io.err(`Could not start the bot: ${explainStartFailure(e)}`);
    return 1;
  }
  const signal = await signalled.first;
  log.info('stopping', { signal, graceMs });
  if ((await untilDeadline(bot.stop(), graceMs)) === 'done') return EXIT.clean;
  log.error(`the stop did not finish within SHUTDOWN_GRACE_MS (${graceMs} ms); exiting with what is pending`, bot.pending());
  return EXIT.late;
}

async function deploy(env: StartEnv, io: CliIO, clear: Clear | undefined): Promise<number> {
  try {
    const done = await deployCommands(env, clear);
    if (done.scope !== 'none') {
      const where = done.scope === 'guild' ? `in server ${done.guildId} (they show at once)` : 'globally (Discord may take up to an hour to show them)';
      io.out(`Registered ${done.names.length} commands ${where}: ${done.names.map((n) => `/${n}`).join(' ')}`);
    }
    if (done.cleared !== undefined) {
      const from = done.cleared.scope === 'global' ? 'the global commands' : `the commands in server ${done.guildId}`;
      io.out(`Removed ${from} (${done.cleared.removed} there), so no command shows twice${done.cleared.scope === 'global' ? ' (Discord may take up to an hour to drop them everywhere)' : ''}.`);
    }
    return 0;
  } catch (e) {
    io.err(`Could not register the commands: ${explainStartFailure(e)}`);
    return 1;
  }
}

function explainStartFailure(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    if (code === 'TokenInvalid' || (e as { status?: unknown }).status === 401) return 'Discord refused the token (DISCORD_TOKEN). Copy it again from the Bot tab of the developer portal.';
    return e.message;
  }
  return String(e);
}
