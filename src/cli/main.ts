/**
 * The `gomoku` command line: one sub-command a file under src/cli, listed here.
 */
import type { Command } from './command.ts';
import { processIO, type CliIO } from '../bot/io.ts';
import { analyseCommand } from './analyse.ts';
import { benchCommand } from './bench.ts';
import { brainCommand } from './brain.ts';
import { canonCommand } from './canon.ts';
import { libraryCommand } from './libraryCommand.ts';
import { matchCommand } from './match.ts';
import { memoryCommand } from './memory.ts';
import { playCommand } from './play.ts';
import { showCommand } from './show.ts';
import { streamCommand } from './stream.ts';
import { threatsCommand } from './threats.ts';

export const commands: readonly Command[] = [showCommand, canonCommand, streamCommand, threatsCommand, analyseCommand, libraryCommand, benchCommand, brainCommand, matchCommand, playCommand, memoryCommand];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `usage: gomoku <command> [options]\n\ncommands:\n${lines.join('\n')}\n\n"gomoku <command> --help" tells more.`;
}

export async function main(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    io.out(topic !== undefined ? topic.help : overview());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (command === undefined) {
    io.err(`gomoku: unknown command "${name}"\n\n${overview()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.help);
    return 0;
  }
  return command.run(rest, io);
}
