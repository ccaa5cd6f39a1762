// The storage contract against the real Redis on 127.0.0.1:6379 (TEST_REDIS_URL to move it).
// These tests must run: if Redis is not there they fail and say how to start it.
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Memory, openRedisBackend, type Backend } from '../../src/storage/index.ts';
import { describeStorageContract, type BackendHarness } from './contract.ts';
import { collectingLog, TEST_REDIS_URL, testCodecs, uniqueNamespace } from './support.ts';

const START_HINT =
  `Redis is not answering at ${TEST_REDIS_URL}; the storage tests need it. Start one with:\n` +
  `  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no`;

async function openTestBackend(namespace: string): Promise<Backend> {
  const backend = await openRedisBackend({ url: TEST_REDIS_URL, namespace, log: collectingLog().log, connectWaitMs: 2000 });
  try {
    await backend.ping();
  } catch (e) {
    await backend.close();
    throw new Error(START_HINT, { cause: e });
  }
  return backend;
}

async function redisHarness(): Promise<BackendHarness> {
  const namespace = uniqueNamespace('redis');
  const opened: Backend[] = [];
  return {
    open: async () => {
      const backend = await openTestBackend(namespace);
      opened.push(backend);
      return backend;
    },
    dispose: async () => {
      const cleaner = await openTestBackend(namespace);
      try {
        await cleaner.clearAll();
      } finally {
        await Promise.all([...opened, cleaner].map((b) => b.close()));
      }
    },
  };
}

describeStorageContract('redis', redisHarness);

describe('redis layout', () => {
  const namespace = uniqueNamespace('redis-layout');
  let backend: Backend;
  const raw = createClient({ url: TEST_REDIS_URL, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  raw.on('error', () => undefined);

  beforeAll(async () => {
    backend = await openTestBackend(namespace);
    await raw.connect().catch((e: unknown) => {
      throw new Error(START_HINT, { cause: e });
    });
  });

  afterAll(async () => {
    await backend.clearAll();
    await backend.close();
    if (raw.isOpen) raw.destroy();
  });

  it('writes <namespace>::<guild>::<collection>::<key> holding Keyv JSON around the envelope', async () => {
    const memory = new Memory(backend, testCodecs, collectingLog().log);
    await memory.guild('123').library.put('(1) 1:5', { description: '(1) 1:5', moves: 1 });
    const stored = await raw.get(`${namespace}::123::library::(1)%201%3A5`);
    expect(stored).toBe('{"value":{"v":1,"data":{"description":"(1) 1:5","moves":1}}}');
  });

  it('lists a collection across many SCAN pages, each key once', async () => {
    await backend.clearAll();
    const n = 2500;
    await Promise.all(Array.from({ length: n }, (_, i) => backend.set(`1::library::k${i}`, { v: 1, data: { description: 'd', moves: i } })));
    await Promise.all(Array.from({ length: 300 }, (_, i) => backend.set(`2::library::k${i}`, { v: 1, data: { description: 'd', moves: i } })));
    const memory = new Memory(backend, testCodecs, collectingLog().log);
    const listed = await memory.guild('1').library.list();
    expect(listed).toHaveLength(n);
    expect(new Set(listed.map((e) => e.key)).size).toBe(n);
    expect(await memory.guild('1').clear()).toBe(n);
    expect(await memory.guild('2').library.list()).toHaveLength(300);
  });

  it('clearAll removes this namespace only', async () => {
    await backend.clearAll();
    const other = `${namespace}-other`;
    await raw.set(`${other}::1::stats::s`, '{"value":{"v":1,"data":{"played":0,"won":0}}}');
    try {
      await backend.set('1::stats::s', { v: 1, data: { played: 0, won: 0 } });
      expect(await backend.clearAll()).toBe(1);
      expect(await raw.get(`${other}::1::stats::s`)).not.toBeNull();
    } finally {
      await raw.del(`${other}::1::stats::s`);
    }
  });
});
