// The storage contract against the embedded file store, and what only the file store has:
// its folder layout, atomic files, and being a Keyv adapter that plain Keyv can use.
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Keyv } from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyvFileStore, Memory, openFileBackend, type Backend } from '../../src/storage/index.ts';
import { fileName, MAX_NAME, partOfFileName } from '../../src/storage/fileStore.ts';
import { describeStorageContract, type BackendHarness } from './contract.ts';
import { collectingLog, tempDir as makeTempDir, testCodecs } from './support.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A temporary folder removed after the test, pass or fail. */
async function tempDir(tag: string): Promise<{ dir: string }> {
  const { dir, remove } = await makeTempDir(tag);
  cleanups.push(remove);
  return { dir };
}

/** A file back end closed after the test, pass or fail. */
async function openTracked(dir: string): Promise<Backend> {
  const backend = await openFileBackend({ dir, namespace: 'gomoku' });
  cleanups.push(() => backend.close());
  return backend;
}

async function fileHarness(): Promise<BackendHarness> {
  const { dir, remove } = await makeTempDir('contract');
  const opened: Backend[] = [];
  return {
    open: async () => {
      const backend = await openTracked(dir);
      opened.push(backend);
      return backend;
    },
    dispose: async () => {
      await Promise.all(opened.map((b) => b.close()));
      await remove();
    },
  };
}

describeStorageContract('file', fileHarness);

/** Every file under `dir`, relative, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('file store', () => {
  it('lays keys out as folders per part, file names safe for any file system', async () => {
    const { dir } = await tempDir('layout');
    const backend = await openTracked(dir);
    const memory = new Memory(backend, testCodecs, collectingLog().log);
    await memory.guild('123').library.put('(1) 1:5', { description: '(1) 1:5', moves: 1 });
    await memory.guild('123').stats.put('Summary', { played: 1, won: 0 });
    expect(await filesUnder(dir)).toEqual([
      // the record key is percent-encoded once by the key layout, once more for the file name
      'gomoku/123/library/%281%29%25201%253%415.json',
      'gomoku/123/stats/%53ummary.json',
    ]);
    const text = await readFile(join(dir, 'gomoku/123/stats/%53ummary.json'), 'utf8');
    expect(JSON.parse(text)).toEqual({
      key: 'gomoku::123::stats::Summary',
      value: '{"value":{"v":1,"data":{"played":1,"won":0}}}',
    });
  });

  it('leaves no temporary file behind after many concurrent writes', async () => {
    const { dir } = await tempDir('temp');
    const backend = await openTracked(dir);
    const memory = new Memory(backend, testCodecs, collectingLog().log);
    const g = memory.guild('1');
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => [
        g.library.put(`s${i}`, { description: 'd', moves: i }),
        g.stats.put('summary', { played: i, won: 0 }),
      ]).flat(),
    );
    const files = await filesUnder(dir);
    expect(files.filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(files).toHaveLength(41);
    expect(await g.stats.get('summary')).toEqual({ played: 39, won: 0 });
  });

  it('ignores a temporary file left by a crash and logs a torn record instead of failing', async () => {
    const { dir } = await tempDir('crash');
    const backend = await openTracked(dir);
    const { log, lines } = collectingLog();
    const memory = new Memory(backend, testCodecs, log);
    await memory.guild('1').library.put('kept', { description: 'k', moves: 1 });
    const folder = join(dir, 'gomoku/1/library');
    await writeFile(join(folder, '.tmp-99999-1-deadbeef'), '{"key":"gomoku::1::library::half');
    await writeFile(join(folder, 'torn.json'), '{"key":"gomoku::1::library::torn","val');

    expect(await memory.guild('1').library.list()).toEqual([{ key: 'kept', value: { description: 'k', moves: 1 } }]);
    expect(lines.map((l) => [l.detail.key, l.detail.code])).toEqual([['torn', 'bad-json']]);
  });

  it('clears a guild and removes its emptied folders', async () => {
    const { dir } = await tempDir('clear');
    const backend = await openTracked(dir);
    const memory = new Memory(backend, testCodecs, collectingLog().log);
    await memory.guild('1').library.put('a', { description: 'a', moves: 1 });
    await memory.guild('2').library.put('a', { description: 'a', moves: 1 });
    await memory.guild('1').clear();
    expect(await readdir(join(dir, 'gomoku'))).toEqual(['2']);
    // and can be written again afterwards
    await memory.guild('1').library.put('b', { description: 'b', moves: 2 });
    expect(await memory.guild('1').library.list()).toHaveLength(1);
  });

  it('is a Keyv store adapter plain Keyv can use', async () => {
    const { dir } = await tempDir('keyv');
    const keyv = new Keyv({ store: new KeyvFileStore({ dir }), namespace: 'plain' });
    await keyv.set('greeting', { hello: 'world' });
    expect(await keyv.get('greeting')).toEqual({ hello: 'world' });
    expect(await keyv.has('greeting')).toBe(true);
    expect(await keyv.delete('greeting')).toBe(true);
    expect(await keyv.get('greeting')).toBeUndefined();
    await keyv.set('a', 1);
    await keyv.set('b', 2);
    await keyv.clear();
    expect(await keyv.get('a')).toBeUndefined();
    await keyv.disconnect();
  });

  it('writes into a data folder that does not exist yet', async () => {
    const { dir } = await tempDir('fresh');
    const nested = join(dir, 'not', 'yet');
    const backend = await openTracked(nested);
    await backend.ping();
    await backend.set('1::stats::s', { v: 1, data: {} });
    expect(await backend.get('1::stats::s')).toEqual({ v: 1, data: {} });
  });

  it('fails with StorageUnavailable when the data folder cannot be written', async () => {
    const { dir } = await tempDir('blocked');
    // A file where the store wants a folder: mkdir fails whatever the user's rights.
    await mkdir(join(dir, 'gomoku'), { recursive: true });
    await writeFile(join(dir, 'gomoku', '1'), 'not a folder');
    const backend = await openTracked(dir);
    const memory = new Memory(backend, testCodecs, collectingLog().log);
    await expect(memory.guild('1').library.put('a', { description: 'a', moves: 1 })).rejects.toMatchObject({
      name: 'StorageUnavailable',
      operation: 'put',
    });
  });
});

describe('file names', () => {
  it('round-trip, stay within [a-z0-9_%~-], and keep case apart', () => {
    for (const part of ['gomoku', '123', 'Ab', 'ab', '%41', '.json', 'a/b\\c', 'ë→✓', ' ', '']) {
      const name = fileName(part);
      expect(name).toMatch(/^(?:[a-z0-9_~-]|%[0-9A-F]{2})*$/);
      expect(partOfFileName(name)).toBe(part);
    }
    expect(fileName('Ab')).not.toBe(fileName('ab'));
    expect(fileName('Ab').toLowerCase()).not.toBe(fileName('ab').toLowerCase());
  });

  it('hash a part too long for a file name', () => {
    const long = 'x'.repeat(MAX_NAME + 1);
    const name = fileName(long);
    expect(name).toMatch(/^~[0-9a-f]{64}$/);
    expect(partOfFileName(name)).toBeUndefined();
    expect(fileName(`${long}y`)).not.toBe(name);
  });
});
