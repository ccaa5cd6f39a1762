/**
 * The library file a learning player shares with other learners (`gomoku brain --learn
 * --library FILE`): several brains under one Gomocup manager, or a brain started before the
 * last one finished, may learn into the same file.
 *
 * `saveLearned` is one read-merge-write under the file's lock (src/storage/fileLock.ts): it
 * reads what is on disk now, merges what this process learned into it (`Library.merge`: the
 * file's entries first, in their order and with their provenance, then ours that it lacks)
 * — the file's own text kept line for line, a person's comments among it, and our new
 * entries appended after it — and replaces the file atomically (a temporary file in the same folder, renamed over it:
 * src/storage/files.ts), so a reader sees the old file or the new, never half of one. The
 * merged library is returned: subgoals other learners wrote become this player's too.
 *
 * A file that is there but does not read as a library is left as it is (a person should look
 * at it; writing our library over it would lose what it held): the save fails with the
 * problem, and the caller keeps what it learned in memory.
 *
 * Game ids (`learnedGameId`) name the game each learned subgoal came from, in its provenance
 * comment. They must differ between learners sharing a file, and between runs.
 */
import { readFile } from 'node:fs/promises';
import { Library } from '../learning/library.ts';
import { makeLibraryFile } from '../notation/libraryFile.ts';
import { describeProblem, err, ok, problem, type Result } from '../rules/result.ts';
import { withFileLock, type FileLockOptions } from '../storage/fileLock.ts';
import { errnoCode, fileFailure, writeFileAtomic } from '../storage/files.ts';

/**
 * Merges `learned` into the library file at `path` and writes the union back atomically, all
 * under the file's lock. A missing file counts as empty. Fails, writing nothing, when the lock
 * cannot be had, the file cannot be read, does not parse (`library-corrupt`, naming the line),
 * or cannot be written.
 */
export async function saveLearned(path: string, learned: Library, header: readonly string[], lock: FileLockOptions = {}): Promise<Result<Library>> {
  return withFileLock(
    path,
    async () => {
      let text: string | undefined;
      try {
        text = await readFile(path, 'utf8');
      } catch (e) {
        if (errnoCode(e) !== 'ENOENT') return err(problem('library-unreadable', `cannot read ${path}: ${fileFailure(e)}`));
      }
      // The usual case: the file is what this learner last wrote (or nothing), so it begins
      // what we would write now, and the merge is `learned` itself. Whole lines of our own
      // printing hold only our entries, in our order, so no need to read the file back as a
      // library, which for a thousand subgoals (canonicalised again) takes most of a second.
      const ours = learned.toFile(header);
      if (text === undefined || ((text === '' || text.endsWith('\n')) && ours.startsWith(text))) {
        return text === ours ? ok(learned) : write(path, ours, learned);
      }
      const onDisk = Library.fromFile(text);
      if (!onDisk.ok) {
        return err(problem('library-corrupt', `${describeProblem(onDisk.error, path)} — the file is not a library, so it was left as it is`));
      }
      const merged = onDisk.value.merge(learned);
      // Nothing the file lacks: leave it (and its own header comments) alone.
      if (merged.size === onDisk.value.size) return ok(merged);
      // The file's own lines stay as they are — a person's notes among them — and what it
      // lacks is appended: the merge keeps the file's entries first, so ours are its tail.
      const added = merged.entries.slice(onDisk.value.size).map((e) => ({ description: e.subgoal.description, ...(e.provenance !== undefined ? { provenance: e.provenance } : {}) }));
      const kept = text === '' || text.endsWith('\n') ? text : `${text}\n`;
      return write(path, kept + makeLibraryFile(added), merged);
    },
    lock,
  );
}

async function write(path: string, text: string, library: Library): Promise<Result<Library>> {
  try {
    await writeFileAtomic(path, text, true);
  } catch (e) {
    return err(problem('library-unwritable', `cannot write ${path}: ${fileFailure(e)}`));
  }
  return ok(library);
}
/** When this process started learning, UTC to the second: `20261121T142233Z`. */
const PROCESS_STARTED = compactTime(new Date());
let gamesInProcess = 0;

/**
 * A new game id for a game the player `player` has just finished:
 *
 *     <player>-<process start, UTC, yyyymmddThhmmssZ>-<pid>-<n>     elcock-5-20261121T142233Z-4711-3
 *
 * `n` counts the games of every player in this process, so two players in one process never
 * share an id; the pid tells apart processes that run at the same time on one host, and the
 * start time tells apart runs one after another (a pid is only reused after its process has
 * ended, and not within the same second in practice). It holds no comma or space, so
 * `makeProvenance` / `parseProvenance` read it back whole.
 */
export function learnedGameId(player: string): string {
  gamesInProcess += 1;
  return `${player}-${PROCESS_STARTED}-${process.pid}-${gamesInProcess}`;
}

function compactTime(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}
