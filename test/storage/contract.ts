// The storage contract: one suite that every back end must pass. redis.test.ts and
// file.test.ts each call `describeStorageContract` with a way to open their back end.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Memory, StorageUnavailable, type Backend } from '../../src/storage/index.ts';
import { collectingLog, testCodecs, type LogLine, type TestSchema } from './support.ts';

export interface BackendHarness {
  /** Opens the back end on this test's data. A second call is a restart: it sees what the first stored. */
  open(): Promise<Backend>;
  /** Closes whatever `open` opened and removes this test's data. */
  dispose(): Promise<void>;
}

export function describeStorageContract(name: string, makeHarness: () => Promise<BackendHarness>): void {
  describe(`storage contract: ${name}`, () => {
    let harness: BackendHarness;
    let backend: Backend;
    let memory: Memory<TestSchema>;
    let lines: LogLine[];

    beforeEach(async () => {
      harness = await makeHarness();
      backend = await harness.open();
      const logged = collectingLog();
      lines = logged.lines;
      memory = new Memory(backend, testCodecs, logged.log);
    });

    afterEach(async () => {
      await harness.dispose();
    });

    it('stores, reads, lists and deletes in every collection', async () => {
      const g = memory.guild('100200300');
      await g.library.put('(1) 1:5', { description: '(1) 1:5', moves: 1 });
      await g.games.put('channel-1', { moves: [180, 181], toPlay: 'black' });
      await g.records.put('2024-01-01T00:00:00Z', { winner: 'white', moves: [1, 2, 3] });
      await g.stats.put('summary', { played: 3, won: 1 });
      await g.tombstones.put('channel-2.member', { at: 1_700_000_000_000 });

      expect(await g.library.get('(1) 1:5')).toEqual({ description: '(1) 1:5', moves: 1 });
      expect(await g.games.get('channel-1')).toEqual({ moves: [180, 181], toPlay: 'black' });
      expect(await g.records.list()).toEqual([{ key: '2024-01-01T00:00:00Z', value: { winner: 'white', moves: [1, 2, 3] } }]);
      expect(await g.stats.list()).toEqual([{ key: 'summary', value: { played: 3, won: 1 } }]);
      expect(await g.tombstones.get('channel-2.member')).toEqual({ at: 1_700_000_000_000 });

      await g.stats.put('summary', { played: 4, won: 2 });
      expect(await g.stats.get('summary')).toEqual({ played: 4, won: 2 });

      expect(await g.games.delete('channel-1')).toBe(true);
      expect(await g.games.get('channel-1')).toBeUndefined();
      expect(await g.games.list()).toEqual([]);
      expect(await g.tombstones.delete('channel-2.member')).toBe(true);
      expect(await g.tombstones.list()).toEqual([]);
      expect(lines).toEqual([]);
    });

    it('answers undefined, false and [] for what is not there', async () => {
      const g = memory.guild('1');
      expect(await g.library.get('nothing')).toBeUndefined();
      expect(await g.library.delete('nothing')).toBe(false);
      expect(await g.library.list()).toEqual([]);
      expect(await g.library.clear()).toBe(0);
      expect(await g.clear()).toBe(0);
    });

    it('keeps awkward keys intact and apart, listed in key order', async () => {
      const keys = [
        'a::b',
        'guild::1::library',
        '*',
        '?[x]\\',
        'Ab',
        'ab',
        'AB',
        '  spaced  ',
        '%41',
        '.hidden',
        'j10 → k11 ✓',
        'x'.repeat(600),
        '(1, 2, 3, 4-1, 3/4-1, 2/4-1, 2/3) 6:3\', 2\', 2\', 2\'-2\', 1\'-2\', 1\'-2\', 1\'',
      ];
      const g = memory.guild('7');
      await Promise.all(keys.map((key, i) => g.library.put(key, { description: key, moves: i })));
      for (const [i, key] of keys.entries()) {
        expect(await g.library.get(key)).toEqual({ description: key, moves: i });
      }
      const listed = await g.library.list();
      expect(listed.map((e) => e.key)).toEqual([...keys].sort());
      for (const entry of listed) expect(entry.value.description).toBe(entry.key);
      // A key made of the separator and another guild's id reaches nothing of that guild.
      expect(await memory.guild('7::library').library.list()).toEqual([]);
    });

    it('rejects an empty guild id or key as a programming error', async () => {
      expect(() => memory.guild('')).toThrow(TypeError);
      await expect(memory.guild('1').library.put('', { description: '', moves: 0 })).rejects.toThrow(TypeError);
    });

    it('refuses values JSON would change', async () => {
      const g = memory.guild('1');
      await expect(g.stats.put('s', { played: Number.NaN, won: 0 })).rejects.toThrow(/JSON/);
      expect(await g.stats.get('s')).toBeUndefined();
    });

    it('stores each record as a { v, data } envelope under <guild>::<collection>::<key>', async () => {
      await memory.guild('42').games.put('c 1', { moves: [3], toPlay: 'white' });
      expect(await backend.get('42::games::c%201')).toEqual({ v: 2, data: { moves: [3], toPlay: 'white' } });
      expect(await backend.entries('42')).toEqual([['games::c%201', { v: 2, data: { moves: [3], toPlay: 'white' } }]]);
    });

    it('loses no subgoal when many analyses finish at once', async () => {
      const g = memory.guild('555');
      const n = 60;
      await Promise.all(
        Array.from({ length: n }, (_, i) => g.library.put(`subgoal-${String(i).padStart(2, '0')}`, { description: `d${i}`, moves: i })),
      );
      const listed = await g.library.list();
      expect(listed).toHaveLength(n);
      expect(listed.map((e) => e.value.moves)).toEqual(Array.from({ length: n }, (_, i) => i));
    });

    it('applies concurrent writes to one key in the order they were made', async () => {
      const g = memory.guild('555');
      await Promise.all(Array.from({ length: 25 }, (_, i) => g.stats.put('summary', { played: i, won: 0 })));
      expect(await g.stats.get('summary')).toEqual({ played: 24, won: 0 });
    });

    it('keeps a game in progress across a restart', async () => {
      await memory.guild('9').games.put('channel-7', { moves: [10, 11, 12], toPlay: 'white' });
      await backend.close();
      const reopened = new Memory(await harness.open(), testCodecs, collectingLog().log);
      expect(await reopened.guild('9').games.get('channel-7')).toEqual({ moves: [10, 11, 12], toPlay: 'white' });
    });

    it('clears one guild and nothing of another, even one whose id it prefixes', async () => {
      for (const id of ['12', '123', '1']) {
        const g = memory.guild(id);
        await g.library.put('s', { description: id, moves: 1 });
        await g.games.put('c', { moves: [1], toPlay: 'black' });
        await g.stats.put('summary', { played: 1, won: 1 });
      }
      expect(await memory.guild('12').clear()).toBe(3);
      const cleared = memory.guild('12');
      expect([await cleared.library.list(), await cleared.games.list(), await cleared.stats.list()]).toEqual([[], [], []]);
      for (const id of ['123', '1']) {
        const g = memory.guild(id);
        expect(await g.library.get('s')).toEqual({ description: id, moves: 1 });
        expect(await g.games.get('c')).toEqual({ moves: [1], toPlay: 'black' });
        expect(await g.stats.get('summary')).toEqual({ played: 1, won: 1 });
      }
    });

    it('clears one collection of one guild only', async () => {
      for (const id of ['a', 'b']) {
        await memory.guild(id).library.put('s1', { description: 'x', moves: 1 });
        await memory.guild(id).library.put('s2', { description: 'y', moves: 2 });
        await memory.guild(id).records.put('r', { winner: null, moves: [] });
      }
      expect(await memory.guild('a').library.clear()).toBe(2);
      expect(await memory.guild('a').library.list()).toEqual([]);
      expect(await memory.guild('a').records.get('r')).toEqual({ winner: null, moves: [] });
      expect(await memory.guild('b').library.list()).toHaveLength(2);
    });

    it('logs and skips unreadable records, and still reads the rest', async () => {
      const g = memory.guild('77');
      await g.library.put('good', { description: 'ok', moves: 5 });
      const raw: Array<[string, string, string]> = [
        ['bad-json', '{"value": {"v": 1, "data"', 'bad-json'],
        ['bad-wrapper', '[1, 2, 3]', 'bad-wrapper'],
        ['no-envelope', '{"value": {"description": "ok", "moves": 5}}', 'bad-envelope'],
        ['old-version', '{"value": {"v": 0, "data": {"description": "ok", "moves": 5}}}', 'wrong-version'],
        ['wrong-shape', '{"value": {"v": 1, "data": {"description": 7}}}', 'decode-failed'],
      ];
      for (const [key, text] of raw) await backend.adapter.set(`77::library::${key}`, text);

      expect(await g.library.list()).toEqual([{ key: 'good', value: { description: 'ok', moves: 5 } }]);
      // Redis lists in SCAN order, so compare as sets.
      const listedCodes = lines.map((l) => [l.level, l.detail.key, l.detail.code]);
      expect(listedCodes).toHaveLength(raw.length);
      expect(listedCodes).toEqual(expect.arrayContaining(raw.map(([key, , code]) => ['warn', key, code])));

      lines.length = 0;
      for (const [key] of raw) expect(await g.library.get(key)).toBeUndefined();
      expect(lines.map((l) => l.detail.code)).toEqual(raw.map(([, , code]) => code));
      expect(lines.every((l) => l.detail.guildId === '77' && l.detail.collection === 'library')).toBe(true);

      // Skipped, not deleted: a later reader may understand them.
      expect((await backend.entries('77::library')).length).toBe(raw.length + 1);
    });

    it('answers ping, and fails with StorageUnavailable once closed', async () => {
      await backend.ping();
      await backend.close();
      await expect(memory.guild('1').library.get('x')).rejects.toBeInstanceOf(StorageUnavailable);
      await expect(backend.ping()).rejects.toBeInstanceOf(StorageUnavailable);
      await backend.close(); // twice is fine
    });
  });
}
