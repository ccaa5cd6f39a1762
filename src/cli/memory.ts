/**
 * `gomoku memory list | export | import`: the operator's tools for what each server remembers,
 * on the storage the bot uses (the same `REDIS_URL`, `DATA_DIR` and `STORAGE_NAMESPACE`, read
 * from the environment and `./.env` as `npm start` reads them).
 *
 * - `list`: every server with something stored, and how many learned subgoals, games in
 *   progress and finished games it holds — counted from one listing of keys, but for the
 *   games, which are read, since ended ones are kept a while beside those being played.
 * - `export --guild ID [--out FILE]`: the server's library as a library file (libraryFile.ts):
 *   each learned subgoal after its provenance comment, oldest first. It is what
 *   `gomoku library`, `analyse` and `brain --library` read, and what `import` takes back.
 * - `import --guild ID --library FILE`: merges a library file into the server's library. Each
 *   description is canonicalised; one the server knows already (or the file repeats) is
 *   skipped, so importing twice changes nothing. New subgoals are written, then the library's
 *   version (libraryCache.ts), so a running bot — any of its processes — reads the library
 *   again at its next command.
 *
 * Decisions:
 * - A library file carries subgoals and provenance only: counters, the examples of the
 *   mnemonics, games and records stay where they are. An imported subgoal without a
 *   provenance comment is said to come from the file (its name, `(imported)`) at its line, so
 *   /library still says where each subgoal came from.
 * - The tool opens storage without the bot's retrying writer (`openMemory`): a write either
 *   lands or the command fails, and the bot's pending file is left to the bot.
 * - The file is read whole and checked before anything is written: a file with one bad line
 *   (reported with its line and column) changes nothing.
 */
import { realpath, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { IMPORTED_SUFFIX } from '../bot/communityRecords.ts';
import { botCodecs, LIBRARY_VERSION_KEY, subgoalKey, type BotSchema, type LearnedRecord } from '../bot/records.ts';
import { bumpLibraryVersion, compiledLibrary, versionText } from '../bot/libraryCache.ts';
import { canonicalise } from '../notation/canonical.ts';
import { compileCached, Library } from '../learning/library.ts';
import { parseLibraryFile } from '../notation/libraryFile.ts';
import { describeProblem, shownInput, type Problem } from '../rules/result.ts';
import { isStorageUnavailable, openMemory, type Memory, type StorageEnv, type StorageLog, type StorageUnavailable } from '../storage/index.ts';
import { fileFailure, writeFileAtomic } from '../storage/files.ts';
import { parseArgs, readInput, type Command } from './command.ts';
import type { CliIO } from '../bot/io.ts';

const help = `usage: gomoku memory list
       gomoku memory export --guild ID [--out FILE]
       gomoku memory import --guild ID --library FILE

What each Discord server (guild) remembers, on the storage the bot uses: Redis when REDIS_URL
is set, else the files under DATA_DIR (and STORAGE_NAMESPACE), from the environment or ./.env.
  list     every server with something stored: its learned subgoals, games in progress and
           finished games
  export   the server's learned subgoals as a library file (to FILE, or printed), each after
           a comment saying where and when it was learned
  import   merges a library file into the server's library: each description canonicalised,
           those the server knows (or the file repeats) skipped; a running bot sees the new
           subgoals at its next command. A file with a bad line changes nothing; a server
           with nothing stored yet is imported into, and said to be new (a mistyped id?).`;

/** How the tool opens storage: `openMemory` but for tests, which pass storage that fails on cue. */
export type OpenMemory = (env: StorageEnv, log: StorageLog) => ReturnType<typeof openMemory<BotSchema>>;

/** A server id as storage keys them: Discord's snowflakes, the terminal game's `terminal`, a test's `guild-a`. */
const SERVER_ID = /^[A-Za-z0-9_-]{1,64}$/;

const openBotMemory: OpenMemory = (env, log) => openMemory(env, botCodecs, { log });

/** The command, reading the storage settings from `env()` (the environment and ./.env by default). */
export function memoryTool(env: () => StorageEnv = environment, open: OpenMemory = openBotMemory): Command {
  return {
    name: 'memory',
    summary: "list, export and import servers' learned libraries on the bot's storage",
    help,
    run: (args, io) => runMemory(args, io, env(), open),
  };
}

export const memoryCommand: Command = memoryTool();

function environment(): StorageEnv {
  // Variables already set win over ./.env, as for npm start.
  loadDotenv({ quiet: true });
  return process.env;
}

async function runMemory(args: readonly string[], io: CliIO, env: StorageEnv, open: OpenMemory): Promise<number> {
  const [action, ...rest] = args;
  const parsed = parseArgs(rest, { values: ['guild', 'out', 'library'], switches: [] });
  const usage = (message: string) => {
    io.err(`gomoku memory: ${message}\n\n${help}`);
    return 2;
  };
  if (!parsed.ok) return usage(parsed.message);
  const { flags, positional } = parsed.value;
  if (positional.length > 0) return usage(`unexpected ${positional[0]}`);
  const guild = flags.get('guild') as string | undefined;
  const allowed: Record<string, readonly string[]> = { list: [], export: ['guild', 'out'], import: ['guild', 'library'] };
  if (action === undefined || allowed[action] === undefined) return usage(action === undefined ? 'give list, export or import' : `unknown action "${action}"`);
  for (const name of flags.keys()) if (!allowed[action].includes(name)) return usage(`${action} takes no --${name}`);
  if (action !== 'list' && (guild === undefined || guild.trim() === '')) return usage(`${action} needs --guild ID`);
  // Checked before anything is read or written: an id with a space, a line break or other
  // punctuation is a typing slip (or would be written into a file's header), never a server.
  if (guild !== undefined && !SERVER_ID.test(guild)) {
    return usage(`--guild "${shownInput(guild, 40)}" is not a server id: Discord's are digits (like 210000000000000001), the terminal game's is terminal`);
  }
  if (action === 'import' && flags.get('library') === undefined) return usage('import needs --library FILE');

  let text: string | undefined;
  const libraryPath = flags.get('library') as string | undefined;
  if (libraryPath !== undefined) {
    text = readInput(io, 'memory', libraryPath, 'library');
    if (text === undefined) return 1;
  }

  let opened: Awaited<ReturnType<OpenMemory>>;
  try {
    opened = await open(env, cliLog(io));
  } catch (e) {
    io.err(`gomoku memory: ${(e as Error).message}`);
    return 1;
  }
  const where = opened.config.kind === 'redis' ? `redis (namespace ${opened.config.namespace})` : `${opened.config.dataDir} (namespace ${opened.config.namespace})`;
  try {
    if (action === 'list') return await list(io, opened.memory, where);
    if (action === 'export') return await exportTo(io, opened.memory, guild as string, flags.get('out') as string | undefined);
    // Importing into a server with nothing stored is how a server is moved, but also what a
    // mistyped id does: it goes ahead, and says so, as export does.
    const known = (await opened.memory.census()).has(guild as string);
    const result = await importLibrary(opened.memory, guild as string, text as string, basename(libraryPath as string));
    if (!known && result.ok && result.value.added > 0) {
      io.err(`gomoku memory: server ${guild as string} had nothing stored on this storage (a server moved here, or a mistyped id? gomoku memory list shows the servers)`);
    }
    if (!result.ok) {
      io.err(`gomoku memory: ${describeProblem(result.problem, libraryPath)} (${result.problem.code}); nothing was imported`);
      return 1;
    }
    const r = result.value;
    const skipped = [r.known > 0 ? `${r.known} already known` : '', r.repeated > 0 ? `${r.repeated} repeated in the file` : ''].filter((x) => x !== '');
    io.out(
      `imported ${plural(r.added, 'new subgoal')} into server ${guild as string}${skipped.length > 0 ? ` (skipped ${skipped.join(', ')})` : ''}; its library holds ${plural(r.size, 'learned subgoal')}${r.wasEmpty ? ' (it had none before)' : ''}`,
    );
    return 0;
  } catch (e) {
    if (e instanceof ImportInterrupted) {
      io.err(`gomoku memory: ${e.message} at ${where}; ${interruptedWords(e)}`);
      return 1;
    }
    if (isStorageUnavailable(e)) {
      io.err(`gomoku memory: ${e.message} at ${where}`);
      return 1;
    }
    throw e;
  } finally {
    await opened.close();
  }
}

async function list(io: CliIO, memory: Memory<BotSchema>, where: string): Promise<number> {
  const census = [...(await memory.census())].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (census.length === 0) {
    io.out(`no server has anything stored in ${where}`);
    return 0;
  }
  // The games collection also keeps games that have ended, for /board a while: read them to
  // count only those being played, as /metrics does. A server holds few, so this stays cheap.
  const playing = new Map<string, number>();
  for (const [guild, c] of census) {
    if (c.games > 0) playing.set(guild, (await memory.guild(guild).games.list()).filter((e) => e.value.finished === undefined).length);
  }
  const rows = census.map(([guild, c]) => [guild, String(c.library), String(playing.get(guild) ?? 0), String(c.records)]);
  const head = ['server', 'learned', 'playing', 'finished'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(width[i]) : cell.padStart(width[i]))).join('  ');
  io.out([line(head), ...rows.map(line)].join('\n'));
  return 0;
}

async function exportTo(io: CliIO, memory: Memory<BotSchema>, guild: string, out: string | undefined): Promise<number> {
  const { text, learned } = await exportLibrary(memory, guild);
  // An empty library is a true backup of a new server, but also what a mistyped id gives: say so.
  if (learned === 0) io.err(`gomoku memory: server ${guild} has no learned subgoals on this storage (a new server, or a mistyped id? gomoku memory list shows the servers); the file holds only the rule of five`);
  if (out === undefined) {
    io.out(text.replace(/\n$/, ''));
    return 0;
  }
  try {
    // Atomically: a failed write must not leave an earlier backup at `out` cut off half-way.
    // Through a symbolic link to where it points, so the link stays; to a device or a pipe
    // (`--out /dev/stdout`) as it is, there being no file there to cut off or replace.
    const target = await realpath(out).catch(() => out);
    const kind = await stat(target).catch(() => undefined);
    if (kind !== undefined && !kind.isFile()) await writeFile(target, text);
    else await writeFileAtomic(target, text, true);
  } catch (e) {
    io.err(`gomoku memory: cannot write ${out}: ${fileFailure(e)}; the file is as it was`);
    return 1;
  }
  io.err(`gomoku memory: wrote ${out}`);
  return 0;
}

/** The server's learned subgoals as a library file, oldest first, each after its provenance; `learned`: how many. */
export async function exportLibrary(memory: Memory<BotSchema>, guild: string): Promise<{ readonly text: string; readonly learned: number }> {
  const g = memory.guild(guild);
  const [learned, version] = await Promise.all([g.library.list(), g.versions.get(LIBRARY_VERSION_KEY)]);
  const { library } = compiledLibrary(learned.map((e) => e.value));
  return { text: library.toFile([`library of server ${guild}, exported ${new Date().toISOString()} (version ${versionText(version)})`]), learned: learned.length };
}

export interface Imported {
  readonly added: number;
  /** In the file, and in the server's library already (the rule of five counts as known). */
  readonly known: number;
  /** In the file more than once (after canonicalisation). */
  readonly repeated: number;
  /** Learned subgoals the server holds now. */
  readonly size: number;
  readonly wasEmpty: boolean;
}

/**
 * Merges a library file's subgoals into the server's library, then writes a new version when
 * anything was added. A problem in the file (with its line and column) writes nothing.
 */
export async function importLibrary(
  memory: Memory<BotSchema>,
  guild: string,
  text: string,
  fileName: string,
  now: () => number = Date.now,
): Promise<{ ok: true; value: Imported } | { ok: false; problem: Problem }> {
  const entries = parseLibraryFile(text);
  if (!entries.ok) return { ok: false, problem: entries.error };
  const start = now();
  const fresh = new Map<string, LearnedRecord>();
  let repeated = 0;
  const seenInFile = new Set<string>();
  for (const [i, e] of entries.value.entries()) {
    const compiled = compileCached(canonicalise(e.description));
    if (!compiled.ok) return { ok: false, problem: { ...compiled.error, line: e.line } };
    const subgoal = compiled.value;
    if (seenInFile.has(subgoal.text)) {
      repeated++;
      continue;
    }
    seenInFile.add(subgoal.text);
    // Without a provenance comment, the file and line it came from; dated in file order.
    const provenance = e.provenance ?? { game: `${fileName}${IMPORTED_SUFFIX}`, move: e.line, date: new Date(start + i).toISOString() };
    // Marked imported: the file does not say whether it came of the bot's loss or win.
    fresh.set(subgoal.text, { subgoal, provenance, origin: { kind: 'imported' } });
  }
  const g = memory.guild(guild);
  const held = await g.library.list();
  const knownTexts = new Set([RULE_OF_FIVE_TEXT, ...held.map((e) => e.value.subgoal.text)]);
  const toAdd = [...fresh].filter(([text]) => !knownTexts.has(text));
  let added = 0;
  try {
    for (const [text, record] of toAdd) {
      await g.library.put(subgoalKey(text), record);
      added++;
    }
    if (added > 0) await bumpLibraryVersion(g);
  } catch (e) {
    if (!isStorageUnavailable(e)) throw e;
    // Storage failed part-way: what landed stays (an import is a merge, so running it again
    // adds the rest), and the version is still bumped for it so a running bot reads it —
    // unless it was the version's own write that failed.
    const seen = added > 0 && added < toAdd.length && (await bumpLibraryVersion(g).then(() => true, () => false));
    throw new ImportInterrupted(e, added, toAdd.length, seen, e.uncertain);
  }
  const known = fresh.size - toAdd.length;
  return { ok: true, value: { added, known, repeated, size: held.length + added, wasEmpty: held.length === 0 } };
}

/** Storage failed during an import's writes, after `saved` of the `toSave` new subgoals had landed. */
export class ImportInterrupted extends Error {
  constructor(
    readonly failure: StorageUnavailable,
    readonly saved: number,
    readonly toSave: number,
    /** Whether the library's version was written after them, so a running bot reads them at its next command. */
    readonly seen: boolean,
    /** Whether the write that failed may have landed all the same. */
    readonly uncertain: boolean,
  ) {
    super(failure.message);
    this.name = 'ImportInterrupted';
  }
}

/** The truth about an interrupted import: how much landed, whether a running bot sees it, and what to do. */
function interruptedWords(e: ImportInterrupted): string {
  const maybe = e.uncertain ? ' (the write that failed may have landed too)' : '';
  const again = 'import the file again to add the rest: what is saved is skipped';
  if (e.saved === 0) return `none of the ${plural(e.toSave, 'new subgoal')} was saved${maybe}; ${again}`;
  const seen = e.seen ? 'a running bot sees them at its next command' : "the library's version could not be written, so a running bot sees them only when its library next changes or it restarts";
  if (e.saved === e.toSave) return `all ${plural(e.toSave, 'new subgoal')} were saved, but ${seen}`;
  return `${e.saved} of the ${plural(e.toSave, 'new subgoal')} were saved before it failed${maybe}, and ${seen}; ${again}`;
}

/** The rule of five in canonical form: every library holds it, so a file's copy is known. */
const RULE_OF_FIVE_TEXT = Library.empty().entries[0].subgoal.text;

/** Storage's warnings (a record skipped as unreadable) to stderr; its news (reconnected) dropped. */
function cliLog(io: CliIO): StorageLog {
  const say = (message: string, detail?: Readonly<Record<string, unknown>>) => io.err(`gomoku memory: ${message}${detail === undefined ? '' : ` ${JSON.stringify(detail)}`}`);
  return { info: () => undefined, warn: say, error: say };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
