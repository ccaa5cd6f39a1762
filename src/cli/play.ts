/**
 * `gomoku play`: the bot's game in this terminal, as on Discord. The game itself is
 * src/bot/terminal.ts, which `npm start` also runs when there is no Discord token.
 */
import { COMMANDS_HELP, DEFAULT_OUT_DIR, playInTerminal } from '../bot/terminal.ts';
import type { CliIO } from '../bot/io.ts';
import { parseArgs, type Command } from './command.ts';

const help = `usage: gomoku play [--out DIR]

Plays Go-Moku against the bot in this terminal, the way the Discord bot plays in a channel,
reading one command a line from standard input. Memory is kept as the bot keeps it: files
under DATA_DIR (./data), or Redis when REDIS_URL is set. Images go to DIR (${DEFAULT_OUT_DIR}).

${COMMANDS_HELP}`;

export const playCommand: Command = {
  name: 'play',
  summary: 'play the bot in this terminal, as on Discord',
  help,
  async run(args: readonly string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, { values: ['out'], switches: [] });
    if (!parsed.ok || parsed.value.positional.length > 0) {
      io.err(`gomoku play: ${parsed.ok ? `unexpected ${parsed.value.positional[0]}` : parsed.message}\n\n${help}`);
      return 2;
    }
    return playInTerminal(io, process.env, parsed.value.flags.get('out') as string | undefined);
  },
};
