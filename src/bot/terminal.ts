/**
 * The bot's game in a terminal, with no Discord: what `gomoku play` runs (src/cli/play.ts),
 * and what `npm start` runs when `DISCORD_TOKEN` is unset (src/discord/main.ts), so a
 * newcomer sees the whole loop (challenge, play, lose, learn) at once. It lives with the
 * service because both front ends start it. The same service and the same views as the bot:
 * the same words, the same memory (storage from the environment: files under `DATA_DIR`, or
 * Redis with `REDIS_URL`), with the terminal as one server (`terminal`), one channel and one
 * member.
 *
 * One command a line, read from standard input (so it can be scripted):
 *
 *     challenge [15|19] [black|white|random] [1-5]    move <point> (or just the point)
 *     board   hint   threats   library [page]   stats   resign   reset   help   quit
 *
 * Each board is printed as text and every image written as a PNG to the output folder
 * (`out/play` by default), overwriting the one of the same name: `board.png` is always the
 * latest board. `reset` asks for `yes` on the next line. The terminal's member manages its
 * own server, so may reset it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { botConfig, logFor, openBotStorage, serviceFor, type BotEnv } from './config.ts';
import { onStopSignals } from './signals.ts';
import type { Level } from '../play/player.ts';
import type { BotResult } from './problems.ts';
import type { BoardSize } from './gameTerms.ts';
import type { GameService } from './service.ts';
import type { ColourChoice } from './gameViews.ts';
import type { Seat } from './store.ts';
import { withStandings } from './communityViews.ts';
import { boardView, challengedView, helpView, hintView, libraryView, movedView, problemReply, replyTo, resetCancelledView, resetDoneView, resetPromptView, resignedView, statsView, threatsView } from './views.ts';
import type { Reply } from './reply.ts';
import { terminalFrontend as f } from './words.ts';
import { makePoint } from '../rules/point.ts';
import { shownInput } from '../rules/result.ts';
import type { BoardSnapshot } from '../rules/snapshot.ts';
import { BLACK, EMPTY } from '../rules/types.ts';
import type { CliIO } from './io.ts';
import type { BotLog } from './log.ts';

export const DEFAULT_OUT_DIR = 'out/play';
export const TERMINAL_SEAT: Seat = { guildId: 'terminal', channelId: 'terminal', userId: 'you' };

export const COMMANDS_HELP = `commands:
  challenge [15|19] [black|white|random] [1-5]   start a game (19×19, you black, level 3)
  move <point>     play a move, e.g. move h8 (or just h8); move alone lists some
  board            show your game          hint      suggest a move, with its reason
  threats          the realisations I recognise on your board, both sides
  library [page]   the subgoals I have learned, with graphic mnemonics
  stats            games, wins and losses, and a chart
  resign           give up your game       reset     forget everything I learned here
  help             the rules and this list
  quit             leave (the game is kept)`;

export interface PlayOptions {
  readonly io: CliIO;
  /** Command lines: a terminal's, or a script's. */
  readonly lines: AsyncIterable<string>;
  readonly env: BotEnv;
  readonly outDir?: string;
  /** Print a prompt before each command (when a person is typing). */
  readonly prompt?: (text: string) => void;
}

/** Runs the game until `quit` or the end of input; 0, 1 when storage could not be opened, 2 for a setting it cannot use. */
export async function runPlay(options: PlayOptions): Promise<number> {
  const { io } = options;
  // The iterator is taken before anything is awaited: readline keeps the lines it reads only
  // once someone listens, so input that arrived, or ended, while storage was opening was lost
  // and the game waited for lines that would never come (with piped input, the process then
  // exited with Node's code 13 for an unsettled top-level await).
  const pending = options.lines[Symbol.asyncIterator]();
  const lines: AsyncIterable<string> = { [Symbol.asyncIterator]: () => pending };
  const outDir = resolve(options.outDir ?? DEFAULT_OUT_DIR);
  // The settings are read before anything opens, so a bad one is a line that names it, as
  // `npm start` with a token says it, not a stack trace. Warnings only, unless LOG_LEVEL asks
  // for more: the log shares the terminal with the game.
  let log: BotLog;
  try {
    log = logFor({ ...options.env, LOG_LEVEL: options.env.LOG_LEVEL?.trim() || 'warn' });
    botConfig(options.env);
  } catch (e) {
    io.err(`gomoku play: ${(e as Error).message}`);
    await pending.return?.();
    return 2;
  }
  let storage;
  try {
    storage = await openBotStorage(options.env, log);
  } catch (e) {
    io.err(`gomoku play: cannot open storage: ${(e as Error).message}`);
    await pending.return?.();
    return 1;
  }
  const service = serviceFor(options.env, storage, log);
  io.out(`Go-Moku against the bot. Memory: ${storage.kind === 'redis' ? 'Redis' : `files in ${storage.config.dataDir}`}; images: ${shortPath(outDir)}.`);
  io.out(`Type "help" for the commands, "challenge 15" to start a game on a 15×15 board.`);
  let confirming = false;
  try {
    options.prompt?.('> ');
    for await (const raw of lines) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) {
        options.prompt?.('> ');
        continue;
      }
      if (confirming) {
        confirming = false;
        const reply = /^y(es)?$/i.test(line) ? replyTo(await service.resetMemory(TERMINAL_SEAT.guildId, true), f, ({ forgotten, starter }) => resetDoneView(forgotten, starter)) : resetCancelledView();
        await show(reply, io, outDir);
      } else {
        const [word, ...args] = line.split(/\s+/);
        const command = word.toLowerCase();
        if (command === 'quit' || command === 'exit') break;
        const reply = await run(service, command, args);
        if (reply === undefined) io.out(`Unknown command "${shownInput(word, 40)}". ${COMMANDS_HELP}`);
        else {
          await show(reply, io, outDir);
          if (reply.confirm === 'reset-memory') {
            io.out('Type yes to forget it all, anything else to keep it.');
            confirming = true;
          }
        }
      }
      options.prompt?.('> ');
    }
    // Only a game still being played is worth coming back to.
    const current = await service.board(TERMINAL_SEAT);
    io.out(current.ok && current.value.stored.finished === undefined ? 'Bye. Your game is kept: "npm start" again to play on.' : 'Bye.');
  } finally {
    await service.idle();
    await storage.close();
  }
  return 0;
}

/** The commands that take nothing after them. */
const ALONE: ReadonlySet<string> = new Set(['help', 'board', 'hint', 'threats', 'stats', 'resign', 'reset']);

/** The reply to one command line; undefined for an unknown command. */
async function run(service: GameService, command: string, args: readonly string[]): Promise<Reply | undefined> {
  const seat = TERMINAL_SEAT;
  const view = <T>(r: BotResult<T>, v: (x: T) => Reply) => replyTo(r, f, v);
  // A command that takes nothing, given more, is not run: "resign now please" might be a
  // sentence typed at the wrong prompt, and nothing should happen that was not asked for.
  if (ALONE.has(command) && args.length > 0) {
    return { text: `${command} takes nothing after it, not "${shownInput(args.join(' '), 40)}": type ${command} alone.`, images: [], private: true };
  }
  switch (command) {
    case 'help':
      // The rules and how the bot learns as /help says them, with this game's own commands.
      return helpView(f, COMMANDS_HELP.split('\n').slice(1));
    case 'challenge': {
      const options = challengeOptions(args);
      if ('problem' in options) return options.problem;
      return view(await service.challenge(seat, options), (c) => challengedView(c, f));
    }
    case 'move':
      if (args.length === 0) {
        const names = await service.suggestPoints(seat, '');
        // Nearest the last move, which is the bot's: the one the member is answering.
        return { text: names.length === 0 ? `No points to suggest: start a game with \`challenge\`.` : `Vacant points near the stones, nearest my last move first: ${names.join(' ')}`, images: [], private: true };
      }
      if (args.length !== 1) return problemReply({ code: 'bad-option', option: 'move', text: args.join(' '), allowed: 'one point, like h8' }, f);
      return view(await service.move(seat, args[0]), (m) => movedView(m, f));
    case 'board':
      return view(await service.board(seat), (v) => boardView(v, f));
    case 'hint':
      return view(await service.hint(seat), hintView);
    case 'threats':
      return view(await service.threats(seat), (t) => threatsView(t, f));
    case 'library': {
      // Digits only (Number() would take 0x2 and 1e0), and few enough to be a page.
      const page = args.length === 0 ? 1 : /^\d{1,6}$/.test(args[0]) ? Number(args[0]) : NaN;
      if (args.length > 1 || !Number.isInteger(page)) return problemReply({ code: 'bad-option', option: 'page', text: shownInput(args.join(' '), 40), allowed: 'a page number' }, f);
      return view(await service.library(seat.guildId, page), (p) => libraryView(p, f));
    }
    case 'stats': {
      // As /stats: the ratings every game end reports, the bot's over time, the library by source.
      const [stats, standings] = await Promise.all([service.stats(seat.guildId), service.ratings.standings(seat.guildId)]);
      return withStandings(view(stats, (s) => statsView(s, f)), standings, f);
    }
    case 'resign':
      return view(await service.resign(seat), (v) => resignedView(v, f));
    case 'reset':
      return view(await service.stats(seat.guildId), (s) => resetPromptView(s, f));
    default:
      // A bare point is a move: "h8".
      if (args.length === 0 && /^[a-z]\d{1,2}$/.test(command)) return view(await service.move(seat, command), (m) => movedView(m, f));
      return undefined;
  }
}

/** `challenge 15 white 2`: each word is recognised by its value, in any order. */
function challengeOptions(args: readonly string[]): { size?: BoardSize; colour?: ColourChoice; level?: Level } | { problem: Reply } {
  const out: { size?: BoardSize; colour?: ColourChoice; level?: Level } = {};
  const allowed = 'a size (15 or 19), a colour (black, white or random) or a level (1 to 5), each once';
  for (const a of args.map((x) => x.toLowerCase())) {
    const key = a === '15' || a === '19' ? 'size' : a === 'black' || a === 'white' || a === 'random' ? 'colour' : /^[1-5]$/.test(a) ? 'level' : undefined;
    // An unknown word, or a second size, colour or level ("challenge 15 19"): which was meant is not guessed.
    if (key === undefined || out[key] !== undefined) return { problem: problemReply({ code: 'bad-option', option: 'challenge', text: shownInput(a, 40), allowed }, f) };
    if (key === 'size') out.size = Number(a) as BoardSize;
    else if (key === 'colour') out.colour = a as ColourChoice;
    else out.level = Number(a) as Level;
  }
  return out;
}

async function show(reply: Reply, io: CliIO, outDir: string): Promise<void> {
  io.out(plain(reply.text));
  if (reply.board !== undefined) io.out(textBoard(reply.board));
  if (reply.images.length > 0) await mkdir(outDir, { recursive: true });
  for (const image of reply.images) {
    const path = join(outDir, image.name);
    await writeFile(path, image.png);
    io.out(`[image: ${shortPath(path)} — ${image.description}]`);
  }
}

/**
 * Discord's markdown, for a terminal: no bold markers, no code fences, small print (`-# `)
 * indented, and inline code — commands, descriptions — in double quotes, as plain text marks
 * a word to type (a terminal shows backticks as they are).
 */
export function plain(text: string): string {
  return text
    .replace(/\*\*/g, '')
    .replace(/^```$/gm, '')
    .replace(/`([^`\n]+)`/g, '"$1"')
    .replace(/^-# /gm, '  ')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
}

/**
 * The board as text, top row first, with coordinates: `x` black, `o` white, the last move in
 * capitals, `.` empty; a legend under it, as a `#` line, so the board copied whole still reads
 * as board text (src/rules/boardText.ts).
 */
export function textBoard(s: BoardSnapshot): string {
  const letters = Array.from({ length: s.size }, (_, c) => makePoint(s.size, c)[0]);
  const lines = [`    ${letters.join(' ')}`];
  for (let row = s.size - 1; row >= 0; row--) {
    const cells: string[] = [];
    for (let col = 0; col < s.size; col++) {
      const p = row * s.size + col;
      const cell = s.cells[p];
      const ch = cell === EMPTY ? '.' : cell === BLACK ? 'x' : 'o';
      cells.push(p === s.lastMove ? ch.toUpperCase() : ch);
    }
    lines.push(`${String(row + 1).padStart(3)} ${cells.join(' ')}`);
  }
  lines.push(`    # x black, o white${s.lastMove === undefined ? '' : ', the last move in capitals'}`);
  return lines.join('\n');
}

function shortPath(path: string): string {
  const r = relative(process.cwd(), path);
  return r === '' || r.startsWith('..') ? path : r;
}

/**
 * `runPlay` on this process's standard input, prompting when a person is typing. Ctrl-D ends
 * the input, and Ctrl-C (SIGINT, or SIGTERM) ends it too: the command under way finishes, the
 * game is kept, storage is closed and the exit code is 0. A second Ctrl-C exits at once.
 */
export async function playInTerminal(io: CliIO, env: BotEnv, outDir?: string): Promise<number> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const tty = process.stdin.isTTY === true;
  const signals = onStopSignals({ warn: (message) => io.err(message) }, (code) => process.exit(code));
  void signals.first.then(() => {
    if (tty) io.out('');
    rl.close();
  });
  try {
    return await runPlay({ io, lines: rl, env, ...(outDir !== undefined ? { outDir } : {}), ...(tty ? { prompt: (t: string) => void process.stdout.write(t) } : {}) });
  } finally {
    rl.close();
    signals.dispose();
  }
}
