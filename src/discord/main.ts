/**
 * What `npm start` runs (through bin/start.mjs, which loads `.env` first):
 *
 * - `DISCORD_TOKEN` set: the Discord bot, until SIGINT or SIGTERM, then a clean stop.
 * - `DISCORD_TOKEN` unset: it says so plainly and starts the local terminal game instead
 *   (`gomoku play`), so the whole loop can be seen without Discord.
 * - `deploy` (what `npm run deploy` passes): registers the slash commands and exits;
 *   `--clear-global` or `--clear-guild` after it also empties the other set (deploy.ts).
 *
 * Returns the exit code. Problems a person can fix (a missing or refused token, a bad
 * setting, storage that cannot be opened) are printed as one sentence, not a stack trace.
 */
import { playInTerminal } from '../cli/play.ts';
import { processIO, type CliIO } from '../cli/command.ts';
import type { BotEnv } from '../bot/config.ts';
import { startBot } from './bot.ts';
import type { DiscordEnv } from './client.ts';
import { DEPLOY_FLAGS, deployCommands, type Clear, type DeployEnv } from './deploy.ts';

export type StartEnv = BotEnv & DiscordEnv & DeployEnv;

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
  if (env.DISCORD_TOKEN === undefined || env.DISCORD_TOKEN.trim() === '') {
    io.out(NO_TOKEN_NOTICE);
    return playInTerminal(io, env);
  }
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
