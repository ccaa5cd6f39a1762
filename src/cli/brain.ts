/**
 * `gomoku brain` plays as a Gomocup (Piskvork) brain: protocol commands on standard input,
 * replies on standard output, one line each, until END or the end of the input. The
 * protocol itself is src/gomocup/protocol.ts; this file only parses options, builds the player and
 * moves lines between the streams and the session.
 */
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { GomocupSession } from '../gomocup/protocol.ts';
import { describeProblem } from '../rules/result.ts';
import { parseArgs, type Command } from './command.ts';
import type { CliIO } from '../bot/io.ts';
import { createNamedPlayer, playerNames } from './players.ts';

const help = `usage: gomoku brain [--player NAME] [--library FILE] [--level N] [--learn] [--reflect-every N] [--seed N]

Plays Go-Moku (exactly five wins) as a Gomocup/Piskvork brain: reads protocol commands
(START, BEGIN, TURN x,y, BOARD … DONE, TAKEBACK, INFO, ABOUT, END) from standard input
and writes each reply to standard output as soon as it is known. Stops at END or at the
end of the input. Malformed commands get "ERROR …" and change nothing.
  --player NAME    the player to run: ${playerNames.join(', ')} (default ${playerNames[0]})
  --library FILE   the player's library of subgoal descriptions
  --level N        the player's strength setting (a whole number)
  --learn          after each game, let the player learn from it: what it learns is merged
                   into the --library file (locked, written atomically), so brains that learn
                   into one file at the same time lose nothing; elcock only, and it needs --library
  --reflect-every N  with --learn, every N games learned from, walk back again through all
                   of them (kept in FILE.games/) with what has been learned since, for at
                   most 10 s (default 10; 0: never)
  --seed N         seed for the player's random choices (default 1)
Gomocup x,y is column x, row y from the TOP, 0-based: see docs/GOMOCUP.md.`;

const version = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** Feeds each input line to the session and writes its replies, until END or the input ends. */
export async function runBrain(session: GomocupSession, lines: AsyncIterable<string>, write: (line: string) => void): Promise<void> {
  for await (const line of lines) {
    for (const reply of await session.handle(line)) write(reply);
    if (session.ended) return;
  }
  for (const reply of await session.finish()) write(reply);
}

function wholeNumber(value: string | true | undefined, name: string): number | string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value)) return `--${name} needs a whole number`;
  return Number(value);
}

export const brainCommand: Command = {
  name: 'brain',
  summary: 'play as a Gomocup (Piskvork) brain on standard input and output',
  help,
  async run(args: readonly string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, { values: ['player', 'library', 'level', 'seed', 'reflect-every'], switches: ['learn'] });
    if (!parsed.ok) {
      io.err(`gomoku brain: ${parsed.message}\n\n${help}`);
      return 2;
    }
    const { flags, positional } = parsed.value;
    const level = wholeNumber(flags.get('level'), 'level');
    const seed = wholeNumber(flags.get('seed'), 'seed') ?? 1;
    const reflectEvery = wholeNumber(flags.get('reflect-every'), 'reflect-every');
    const usage =
      positional.length > 0
        ? `unexpected argument "${positional[0]}"`
        : typeof reflectEvery === 'number' && reflectEvery < 0
          ? '--reflect-every needs a whole number of games from 0'
          : [level, seed, reflectEvery].find((v) => typeof v === 'string');
    if (usage !== undefined) {
      io.err(`gomoku brain: ${String(usage)}\n\n${help}`);
      return 2;
    }
    const name = (flags.get('player') as string | undefined) ?? playerNames[0];
    const library = flags.get('library') as string | undefined;
    const player = createNamedPlayer(name, {
      ...(library !== undefined ? { library } : {}),
      ...(level !== undefined ? { level: level as number } : {}),
      learn: flags.get('learn') === true,
      ...(reflectEvery !== undefined ? { reflectEvery: reflectEvery as number } : {}),
      seed: seed as number,
      report: (message) => io.err(`gomoku brain: ${message}`),
    });
    if (!player.ok) {
      io.err(`gomoku brain: ${describeProblem(player.error)}`);
      return player.error.code === 'unknown-player' ? 2 : 1;
    }
    const session = new GomocupSession({
      player: player.value,
      about: { name: player.value.name, version, author: 'gomoku-elcock', country: '' },
    });
    const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
    try {
      await runBrain(session, input, (line) => io.out(line));
    } finally {
      input.close();
      // The brain owns standard input; letting it go lets the process exit at END.
      process.stdin.destroy();
    }
    return 0;
  },
};
