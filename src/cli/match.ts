/**
 * `gomoku match` plays two engines against each other over the Gomocup protocol, with our
 * own referee (src/gomocup/match.ts). This file starts the engines — child processes through a
 * shell, or `builtin:NAME` players from src/cli/players.ts run in this process — and
 * writes the results and game records.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { GomocupSession } from '../gomocup/protocol.ts';
import {
  describeOutcome,
  generateOpenings,
  LineQueue,
  makeOpenings,
  makeOutcomeRecord,
  makeResultsTable,
  parseOpenings,
  playMatch,
  sessionChannel,
  type EngineSpec,
  type LineChannel,
  type Opening,
} from '../gomocup/match.ts';
import { validSize } from '../rules/point.ts';
import { describeProblem, type Problem } from '../rules/result.ts';
import { MAX_SIZE, MIN_SIZE } from '../rules/types.ts';
import { parseArgs, type Command } from './command.ts';
import { INPUT_LIMITS, type CliIO } from '../bot/io.ts';
import { createNamedPlayer, playerNames } from './players.ts';

const BUILTIN = 'builtin:';

const help = `usage: gomoku match --black CMD --white CMD [--games N] [--size N] [--openings FILE]
                    [--out DIR] [--seed N] [--timeout-ms N]

Plays two Gomocup (Piskvork) engines against each other, refereed by our own rules
(exactly five wins), and prints a results table. Games 2k and 2k+1 start from the same
opening with the colours swapped. An engine that crashes, overruns its time, or answers
an illegal point or anything but a move loses that game by forfeit; the match goes on.
  --black CMD       the engine playing black in the first game: a shell command that
                    starts a Gomocup brain (e.g. "node bin/gomokuai-engine.mjs"), or
                    builtin:NAME to run a player in this process (${playerNames.map((n) => BUILTIN + n).join(', ')})
  --white CMD       the engine playing white in the first game
  --games N         how many games (default 2)
  --size N          board size, ${MIN_SIZE} to ${MAX_SIZE} (default 19)
  --openings FILE   one opening a line, moves like h8 i9 g7, black first ("#" comments),
                    e.g. assets/openings/matches-15.txt (the benchmarks' own);
                    default: balanced openings generated from --seed
  --out DIR         also write DIR/results.md, DIR/openings.txt and DIR/game-NNN.txt
  --seed N          seed for generated openings and builtin players (default 1)
  --timeout-ms N    time an engine may take over one move (default 5000); starting an
                    engine may take 15 s or this, whichever is longer
See docs/GOMOCUP.md.`;

/** Children still running, killed if the match itself is stopped. */
const running = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    // Each engine runs in its own process group (detached), so the shell and everything it
    // started go together.
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** An engine run as a child process through the shell, talking on its stdin and stdout. */
export function processChannel(command: string): LineChannel {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => running.forEach(killGroup));
  }
  const queue = new LineQueue();
  const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const pid = child.pid;
  if (pid !== undefined) running.add(pid);
  let stderr = '';
  let gone = false;
  const closed = new Promise<void>((resolve) => {
    child.on('close', (code, signal) => {
      gone = true;
      if (pid !== undefined) running.delete(pid);
      const tail = stderr.trim().split('\n').at(-1) ?? '';
      queue.close(`exited with ${signal ?? `code ${code}`}${tail === '' ? '' : ` (${tail.slice(0, 200)})`}`);
      resolve();
    });
  });
  child.on('error', (e) => {
    queue.close(`could not start: ${e.message}`);
  });
  child.stdin.on('error', () => {
    // Writing to an engine that has died: its closed output reports it.
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => queue.push(line));
  return {
    send(line) {
      if (!gone && child.stdin.writable) child.stdin.write(`${line}\n`);
    },
    receive: (timeoutMs) => queue.receive(timeoutMs),
    drain: () => queue.drain(),
    async close() {
      if (gone) return;
      child.stdin.end();
      // A brain leaves at END or at the end of its input; one that does not is killed.
      const grace = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 500).unref());
      if ((await Promise.race([closed, grace])) === 'late' && pid !== undefined) killGroup(pid);
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    },
  };
}

function engineSpec(command: string, seed: number): EngineSpec | Problem {
  if (!command.startsWith(BUILTIN)) return { name: command, connect: () => processChannel(command) };
  const name = command.slice(BUILTIN.length);
  const build = () => createNamedPlayer(name, { learn: false, seed });
  const first = build();
  if (!first.ok) return first.error;
  return {
    name: command,
    connect: () => {
      // A fresh player for every connection: a restarted engine starts clean.
      const player = build();
      if (!player.ok) throw new Error(player.error.message);
      return sessionChannel(new GomocupSession({ player: player.value }));
    },
  };
}

function wholeNumber(flags: ReadonlyMap<string, string | true>, name: string, fallback: number, min: number): number | string {
  const value = flags.get(name);
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || Number(value) < min) return `--${name} needs a whole number from ${min}`;
  return Number(value);
}

export const matchCommand: Command = {
  name: 'match',
  summary: 'play Gomocup engines against each other and tabulate the results',
  help,
  async run(args: readonly string[], io: CliIO): Promise<number> {
    const usage = (message: string) => {
      io.err(`gomoku match: ${message}\n\n${help}`);
      return 2;
    };
    const parsed = parseArgs(args, { values: ['black', 'white', 'games', 'size', 'openings', 'out', 'seed', 'timeout-ms'], switches: [] });
    if (!parsed.ok) return usage(parsed.message);
    const { flags, positional } = parsed.value;
    if (positional.length > 0) return usage(`unexpected argument "${positional[0]}"`);
    const black = flags.get('black');
    const white = flags.get('white');
    if (typeof black !== 'string' || typeof white !== 'string') return usage('give both --black CMD and --white CMD');
    const games = wholeNumber(flags, 'games', 2, 1);
    const size = wholeNumber(flags, 'size', 19, 0);
    const seed = wholeNumber(flags, 'seed', 1, 0);
    const timeoutMs = wholeNumber(flags, 'timeout-ms', 5000, 1);
    for (const v of [games, size, seed, timeoutMs]) if (typeof v === 'string') return usage(v);
    if (!validSize(size as number)) return usage(`--size must be from ${MIN_SIZE} to ${MAX_SIZE}`);
    const specs = [engineSpec(black, seed as number), engineSpec(white, seed as number)];
    for (const s of specs) if (!('connect' in s)) return usage(describeProblem(s));

    let openings: Opening[];
    const openingsFile = flags.get('openings') as string | undefined;
    if (openingsFile !== undefined) {
      let text: string;
      try {
        text = io.readFile(openingsFile, INPUT_LIMITS.openings);
      } catch (e) {
        io.err(`gomoku match: cannot read ${openingsFile}: ${(e as Error).message}`);
        return 1;
      }
      const read = parseOpenings(text, size as number);
      if (!read.ok) {
        io.err(`gomoku match: ${describeProblem(read.error, openingsFile)}`);
        return 1;
      }
      openings = read.value;
    } else {
      openings = generateOpenings(seed as number, Math.ceil((games as number) / 2), size as number);
    }

    const out = flags.get('out') as string | undefined;
    try {
      if (out !== undefined) {
        mkdirSync(out, { recursive: true });
        writeFileSync(join(out, 'openings.txt'), makeOpenings(openings, size as number));
      }
    } catch (e) {
      io.err(`gomoku match: cannot write to ${out}: ${(e as Error).message}`);
      return 1;
    }
    const total = games as number;
    let unwritten: string | undefined;
    const save = (file: string, text: string) => {
      try {
        if (out !== undefined) writeFileSync(join(out, file), text);
      } catch (e) {
        unwritten ??= `cannot write ${join(out as string, file)}: ${(e as Error).message}`;
      }
    };
    const report = await playMatch(specs[0] as EngineSpec, specs[1] as EngineSpec, {
      size: size as number,
      games: total,
      openings,
      timeoutMs: timeoutMs as number,
      startTimeoutMs: Math.max(15_000, timeoutMs as number),
      onGame: (o) => {
        io.out(`game ${o.index + 1}/${total}: ${o.black} (black) v ${o.white} (white), ${o.game.moves.length} moves: ${describeOutcome(o)}`);
        save(`game-${String(o.index + 1).padStart(3, '0')}.txt`, makeOutcomeRecord(o, total));
      },
    });
    const table = makeResultsTable(report);
    io.out(`\n${table}`);
    save('results.md', table);
    if (unwritten !== undefined) {
      io.err(`gomoku match: ${unwritten}`);
      return 1;
    }
    return 0;
  },
};
