/**
 * Worker threads run below the answering thread (src/bot/threadPriority.ts): on Linux each play
 * and analysis worker lowers its own nice value, and only its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { AnalysisPool } from '../../src/bot/analyser.ts';
import type { CompiledLibrary } from '../../src/bot/libraryCache.ts';
import { DrawnPictures } from '../../src/bot/picture.ts';
import { PlayPool } from '../../src/bot/playPool.ts';
import { BACKGROUND_NICE, WORKER_NICE, workerNice, yieldToAnsweringThread } from '../../src/bot/threadPriority.ts';
import { Library } from '../../src/learning/library.ts';
import { Game } from '../../src/rules/game.ts';
import { expectOk } from '../../src/rules/result.ts';

/** The nice value of each thread of this process, by thread id (proc(5): field 19 of stat). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    nices.set(Number(tid), Number(fields[16]));
  }
  return nices;
}

function niceThreads(nice: number = WORKER_NICE): number[] {
  return [...threadNices()].filter(([, n]) => n === nice).map(([tid]) => tid);
}

// The nice value is a thread's own only on Linux; elsewhere the workers leave it alone (below).
describe.runIf(process.platform === 'linux')('worker threads on Linux', () => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it('a play worker and an analysis worker each run at nice 10, and no other thread is lowered', { timeout: 60_000 }, async () => {
    const before = niceThreads();
    const play = new PlayPool({ workers: 1, drawn: new DrawnPictures() });
    closing.push(() => play.close());
    const analysis = new AnalysisPool({ workers: 1 });
    closing.push(() => analysis.close());
    const held: CompiledLibrary = { library: Library.empty(), examples: new Map(), origins: new Map(), reflected: new Set(), version: '1.test' };
    expect((await play.listing('1', held)).map((p) => p.text)).toEqual(['(1) 1:5']);
    const unfinished = Game.create(15);
    expectOk(unfinished.play(112));
    expect(await analysis.analyse(unfinished, [])).toMatchObject({ kind: 'failed' });

    const lowered = niceThreads().filter((tid) => !before.includes(tid));
    expect(lowered).toHaveLength(2);
    expect(threadNices().get(process.pid)).toBe(0);
    expect(getPriority(0)).toBe(0);
  });

  it("reflection's background worker runs at nice 19, below the play workers, and lowers no other thread", { timeout: 60_000 }, async () => {
    const before = niceThreads(BACKGROUND_NICE);
    const background = new AnalysisPool({ workers: 1, background: true });
    closing.push(() => background.close());
    const unfinished = Game.create(15);
    expectOk(unfinished.play(112));
    expect(await background.analyse(unfinished, [])).toMatchObject({ kind: 'failed' });
    expect(niceThreads(BACKGROUND_NICE).filter((tid) => !before.includes(tid))).toHaveLength(1);
    expect(BACKGROUND_NICE).toBeGreaterThan(WORKER_NICE);
    expect(getPriority(0)).toBe(0);
  });

  it('a worker reads WORKER_NICE from the environment it starts with, and takes the default for a bad one', { timeout: 60_000 }, async () => {
    const held: CompiledLibrary = { library: Library.empty(), examples: new Map(), origins: new Map(), reflected: new Set(), version: '1.test' };
    const was = process.env.WORKER_NICE;
    try {
      for (const [value, nice] of [['7', 7], ['loud', WORKER_NICE]] as const) {
        const before = niceThreads(nice);
        process.env.WORKER_NICE = value;
        const play = new PlayPool({ workers: 1, drawn: new DrawnPictures() });
        closing.push(() => play.close());
        expect((await play.listing('1', held)).map((p) => p.text)).toEqual(['(1) 1:5']);
        expect(niceThreads(nice).filter((tid) => !before.includes(tid)), value).toHaveLength(1);
      }
    } finally {
      if (was === undefined) delete process.env.WORKER_NICE;
      else process.env.WORKER_NICE = was;
    }
    expect(getPriority(0)).toBe(0);
  });
});

describe('where it does nothing', () => {
  it('changes nothing where the nice value is the whole process, or when WORKER_NICE is 0', () => {
    const was = getPriority(0);
    expect(yieldToAnsweringThread(WORKER_NICE, 'darwin')).toBe(false);
    expect(yieldToAnsweringThread(WORKER_NICE, 'win32')).toBe(false);
    expect(yieldToAnsweringThread(0, 'linux')).toBe(false);
    expect(getPriority(0)).toBe(was);
  });

  it('reads WORKER_NICE: 10 unless set, 0 to 19 when set', () => {
    expect(workerNice({})).toBe(10);
    expect(workerNice({ WORKER_NICE: ' ' })).toBe(10);
    expect(workerNice({ WORKER_NICE: '0' })).toBe(0);
    expect(workerNice({ WORKER_NICE: '19' })).toBe(19);
    expect(() => workerNice({ WORKER_NICE: '5.5' })).toThrow(/WORKER_NICE must be a whole number from 0 to 19, not "5.5"/);
  });
});
