/**
 * The games a learning brain has learned from (`gomoku brain --learn --library FILE`), kept
 * beside its library so that it can walk back through them again later with what it has
 * learned since (reflection: docs/DESIGN.md, "Reflection").
 *
 *     FILE.games/<game id>.txt     one game record each (src/rules/gameRecord.ts), won with a five
 *
 * Decisions:
 * - A folder of files, one per game, rather than one growing file: each is written once,
 *   atomically (a temporary file renamed into place, src/storage/files.ts), under a name no
 *   other learner uses (`learnedGameId`), so brains sharing a library share its games without
 *   a lock and a crash leaves no half-written game.
 * - Oldest first by the time each file was written, then by name: ids are unique but do not
 *   sort by time across processes.
 * - A file that does not read as a finished game (edited by hand, say) is skipped and named in
 *   the problems returned; the others are walked as usual.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Game } from '../rules/game.ts';
import { makeGameRecord, parseGame, recordOf } from '../rules/gameRecord.ts';
import { err, ok, problem, type Result } from '../rules/result.ts';
import { errnoCode, isHiddenName, writeFileAtomic } from '../storage/files.ts';

/** The folder of games beside a library file. */
export function gameLogFolder(libraryPath: string): string {
  return `${libraryPath}.games`;
}

/** Writes a finished game into the folder (made if missing) under its id. */
export async function keepGame(folder: string, id: string, game: Game): Promise<Result<void>> {
  try {
    await mkdir(folder, { recursive: true });
    await writeFileAtomic(join(folder, `${id}.txt`), makeGameRecord(recordOf(game, [`game ${id}`])), false);
    return ok(undefined);
  } catch (e) {
    return err(problem('game-log-unwritable', `cannot keep game ${id} in ${folder}: ${(e as Error).message}`));
  }
}

export interface LoggedGame {
  readonly id: string;
  readonly game: Game;
}

/** The folder's games won with a five, oldest first; a missing folder holds none. */
export function readGameLog(folder: string): { games: LoggedGame[]; problems: string[] } {
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.txt') && !isHiddenName(n));
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return { games: [], problems: [] };
    return { games: [], problems: [`cannot read ${folder}: ${(e as Error).message}`] };
  }
  const found: { id: string; game: Game; at: number }[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const path = join(folder, name);
    try {
      const parsed = parseGame(readFileSync(path, 'utf8'));
      if (!parsed.ok) {
        problems.push(`${path}: ${parsed.error.message}`);
        continue;
      }
      if (parsed.value.status.kind !== 'won') {
        problems.push(`${path}: the game is not won with a five`);
        continue;
      }
      found.push({ id: name.slice(0, -'.txt'.length), game: parsed.value, at: statSync(path).mtimeMs });
    } catch (e) {
      problems.push(`${path}: ${(e as Error).message}`);
    }
  }
  found.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { games: found.map(({ id, game }) => ({ id, game })), problems };
}
