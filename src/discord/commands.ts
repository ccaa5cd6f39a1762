/**
 * Every slash command the bot has, one module per file under commands/. The bot routes
 * interactions by these names and the deploy script registers these builders, so the two
 * can never disagree.
 */
import * as board from '../../commands/board.ts';
import * as challenge from '../../commands/challenge.ts';
import * as games from '../../commands/games.ts';
import * as help from '../../commands/help.ts';
import * as hint from '../../commands/hint.ts';
import * as library from '../../commands/library.ts';
import * as memory from '../../commands/memory.ts';
import * as move from '../../commands/move.ts';
import * as replay from '../../commands/replay.ts';
import * as resetMemory from '../../commands/reset-memory.ts';
import * as resign from '../../commands/resign.ts';
import * as stats from '../../commands/stats.ts';
import * as threats from '../../commands/threats.ts';
import type { CommandModule } from './command.ts';

export const COMMANDS: readonly CommandModule[] = [challenge, move, resign, board, hint, threats, library, resetMemory, memory, stats, games, replay, help];

export function commandNamed(name: string): CommandModule | undefined {
  return COMMANDS.find((c) => c.data.name === name);
}
