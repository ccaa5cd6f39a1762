// The bot's own measure of how long its event loop was held (src/bot/loopDelay.ts), which the
// load benchmark reads: a real block of the loop shows in the line it logs.
import { describe, expect, it } from 'vitest';
import { loopReportMs, watchEventLoop } from '../../src/bot/loopDelay.ts';
import { collectingLog } from './support.ts';

describe('watchEventLoop', () => {
  it('logs the longest block of the loop since its last line', async () => {
    const { log, lines } = collectingLog();
    const stop = watchEventLoop({ EVENT_LOOP_REPORT_MS: '60000' }, log);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const until = performance.now() + 120;
    while (performance.now() < until) {
      // holds the loop, as a long synchronous job would
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    stop();
    const reports = lines.filter((l) => l.message === 'event loop');
    expect(reports).toHaveLength(1);
    const { maxMs } = reports[0].detail as { maxMs: number };
    expect(maxMs).toBeGreaterThanOrEqual(100);
    expect(maxMs).toBeLessThan(2000);
  });

  it('measures nothing unless asked, and refuses a setting it cannot use', () => {
    const { log, lines } = collectingLog();
    watchEventLoop({}, log)();
    expect(lines).toEqual([]);
    expect(loopReportMs({ EVENT_LOOP_REPORT_MS: ' ' })).toBeUndefined();
    expect(loopReportMs({ EVENT_LOOP_REPORT_MS: '250' })).toBe(250);
    expect(() => loopReportMs({ EVENT_LOOP_REPORT_MS: 'often' })).toThrow(/EVENT_LOOP_REPORT_MS .*"often"/);
    expect(() => loopReportMs({ EVENT_LOOP_REPORT_MS: '5' })).toThrow(TypeError);
  });
});
