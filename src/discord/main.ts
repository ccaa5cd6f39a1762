/**
 * What `npm start` runs (through bin/start.mjs, which loads `.env` first):
 *
 * - `DISCORD_TOKEN` set: the Discord bot, until SIGINT or SIGTERM, then a clean stop.
 * - `DISCORD_TOKEN` unset: it says so plainly and starts the local terminal game instead
 *   (`gomoku play`), so the whole loop can be seen without Discord.
 * - `deploy` (what `npm run deploy` passes): registers the slash commands and exits.
 *
 * Returns the exit code. Problems a person can fix (a missing or refused token, a bad
 * setting, storage that cannot be opened) are printed as one sentence, not a stack trace.
 */
import { playInTerminal } from '../cli/play.ts';
import { processIO, type CliIO } from '../cli/command.ts';
import type { BotEnv } from '../bot/config.ts';
import { startBot } from './bot.ts';
import type { DiscordEnv } from './client.ts';
import { deployCommands, type DeployEnv } from './deploy.ts';
import { runShards, runsShards, type ShardEnv } from './shards.ts';

export type StartEnv = BotEnv & DiscordEnv & DeployEnv & ShardEnv;

export const NO_TOKEN_NOTICE = `DISCORD_TOKEN is not set, so I am not connecting to Discord.
Starting a local game in this terminal instead, with the bot's commands (type "help").
To run the Discord bot, put the bot's token in .env (see .env.example and the README).`;

export async function main(argv: readonly string[], env: StartEnv, io: CliIO = processIO): Promise<number> {
  if (argv[0] === 'deploy') return deploy(env, io);
  if (argv.length > 0) {
    io.err(`usage: npm start            (the bot; a terminal game without DISCORD_TOKEN)\n       npm run deploy       (register the slash commands)`);
    return 2;
  }
  if (env.DISCORD_TOKEN === undefined || env.DISCORD_TOKEN.trim() === '') {
    io.out(NO_TOKEN_NOTICE);
    return playInTerminal(io, env);
  }
  if (runsShards(env)) return runShards(env, io);
  let bot;
  try {
    bot = await startBot(env);
  } catch (e) {
    io.err(`Could not start the bot: ${explainStartFailure(e)}`);
    return 1;
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await bot.stop();
  return 0;
}

async function deploy(env: StartEnv, io: CliIO): Promise<number> {
  try {
    const done = await deployCommands(env);
    const where = done.scope === 'guild' ? `in server ${done.guildId} (they show at once)` : 'globally (Discord may take up to an hour to show them)';
    io.out(`Registered ${done.names.length} commands ${where}: ${done.names.map((n) => `/${n}`).join(' ')}`);
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
