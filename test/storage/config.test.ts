// Choosing the back end from the environment, and the key encoding both back ends share.
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodePart, encodePart, recordKey } from '../../src/storage/keys.ts';
import { openStorage, storageConfig, type Storage } from '../../src/storage/index.ts';
import { collectingLog, TEST_REDIS_URL, tempDir, testCodecs, type TestSchema } from './support.ts';

describe('storageConfig', () => {
  it('uses the file store under ./data when REDIS_URL is unset or empty', () => {
    for (const env of [{}, { REDIS_URL: '' }, { REDIS_URL: '   ' }]) {
      expect(storageConfig(env)).toEqual({ kind: 'file', dataDir: resolve('data'), namespace: 'gomoku' });
    }
  });

  it('uses Redis when REDIS_URL is set, and DATA_DIR and STORAGE_NAMESPACE when given', () => {
    expect(storageConfig({ REDIS_URL: 'redis://h:1', DATA_DIR: '/srv/bot', STORAGE_NAMESPACE: 'staging' })).toEqual({
      kind: 'redis',
      url: 'redis://h:1',
      dataDir: '/srv/bot',
      namespace: 'staging',
    });
    expect(storageConfig({ DATA_DIR: '' }).dataDir).toBe(resolve('data'));
  });

  it('refuses a namespace that would break keys or folder names', () => {
    for (const bad of ['a::b', 'a*', '-x', 'a/b', 'x'.repeat(65)]) {
      expect(() => storageConfig({ STORAGE_NAMESPACE: bad })).toThrow(/STORAGE_NAMESPACE/);
    }
  });

  it('names REDIS_URL when it is no Redis URL', () => {
    expect(() => storageConfig({ REDIS_URL: 'garbage' })).toThrow('REDIS_URL must be a Redis URL like redis://127.0.0.1:6379, not "garbage"');
    expect(() => storageConfig({ REDIS_URL: 'http://x' })).toThrow('REDIS_URL must be a Redis URL (redis:// or rediss://), not one with http:');
    expect(storageConfig({ REDIS_URL: 'rediss://user:pw@host:6380/2' })).toMatchObject({ kind: 'redis' });
  });
});

describe('openStorage', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function folder(tag: string): Promise<string> {
    const { dir, remove } = await tempDir(tag);
    cleanups.push(remove);
    return dir;
  }
  function tracked(storage: Storage<TestSchema>): Storage<TestSchema> {
    cleanups.push(() => storage.close());
    return storage;
  }

  it('opens the file store when REDIS_URL is empty', async () => {
    const dir = await folder('open-file');
    const storage = tracked(await openStorage({ REDIS_URL: '', DATA_DIR: dir }, testCodecs, { log: collectingLog().log }));
    expect(storage.kind).toBe('file');
    await storage.guild('1').stats.put('s', { played: 1, won: 0 });
    await storage.close();
    const again = tracked(await openStorage({ DATA_DIR: dir }, testCodecs, { log: collectingLog().log }));
    expect(await again.guild('1').stats.get('s')).toEqual({ played: 1, won: 0 });
  });

  it('opens Redis when REDIS_URL is set', async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, DATA_DIR: await folder('open-redis'), STORAGE_NAMESPACE: `gomoku-test-open-${process.pid}` };
    const storage = tracked(await openStorage(env, testCodecs, { log: collectingLog().log }));
    expect(storage.kind).toBe('redis');
    await storage.ping();
  });
});

describe('key parts', () => {
  it('never hold the separator or a SCAN glob character, and decode back', () => {
    for (const part of ['123', 'a::b', '*', '?', '[a-z]', '\\', '%2A', 'ë ✓', ':']) {
      const encoded = encodePart(part);
      expect(encoded).not.toMatch(/::|[*?[\]\\]/);
      expect(decodePart(encoded)).toBe(part);
    }
  });

  it('decode only what encodePart wrote', () => {
    for (const foreign of ['', 'a::b', '%zz', '%2a', 'a b']) expect(decodePart(foreign)).toBeUndefined();
  });

  it('build <guild>::<collection>::<key>', () => {
    expect(recordKey('9', 'games', 'a:b')).toBe('9::games::a%3Ab');
    expect(() => recordKey('', 'games', 'k')).toThrow(TypeError);
  });
});
