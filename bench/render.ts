/**
 * How long a board image takes and how large it is: `npx tsx bench/render.ts [runs]`.
 *
 * The position is the fixed 60-move 19×19 mid-game of src/render/samples.ts, drawn plain,
 * with move numbers, and with realisations overlaid. The target is at most 30 ms and 150 KB
 * per image. The first render of a process also makes the wood texture and the stone sprites;
 * warm-up renders keep that out of the figures, and the script prints it on its own.
 */
import { pathToFileURL } from 'node:url';
import { renderBoard, renderThreats } from '../src/render/board.ts';
import { midgame19, midgame19Overlays } from '../src/render/samples.ts';

export interface RenderBenchResult {
  readonly name: string;
  readonly medianMs: number;
  readonly worstMs: number;
  readonly bytes: number;
}

const WARM_UP = 3;

export async function benchRender(runs = 50): Promise<RenderBenchResult[]> {
  const snapshot = midgame19();
  const overlays = midgame19Overlays();
  const cases: [string, () => Buffer][] = [
    ['plain', () => renderBoard(snapshot)],
    ['numbered', () => renderBoard(snapshot, { showMoveNumbers: true })],
    ['threats', () => renderThreats(snapshot, overlays)],
  ];
  const results: RenderBenchResult[] = [];
  for (const [name, render] of cases) {
    let png = render();
    for (let i = 1; i < WARM_UP; i++) render();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      png = render();
      times.push(performance.now() - start);
      // Let other work in the process run between renders, as it would in the bot.
      await new Promise((resolve) => setImmediate(resolve));
    }
    times.sort((a, b) => a - b);
    const mid = Math.floor(times.length / 2);
    const medianMs = times.length % 2 === 1 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
    results.push({ name, medianMs, worstMs: times[times.length - 1], bytes: png.length });
  }
  return results;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 50);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write('usage: npx tsx bench/render.ts [runs]\n');
    process.exitCode = 2;
    return;
  }
  const start = performance.now();
  renderBoard(midgame19());
  const firstMs = performance.now() - start;
  const results = await benchRender(runs);
  process.stdout.write(`render 19×19 mid-game (60 stones), ${runs} runs each\n`);
  process.stdout.write(`first render in this process (makes the wood and stone sprites): ${firstMs.toFixed(1)} ms\n`);
  for (const r of results) {
    process.stdout.write(
      `${r.name.padEnd(9)} median ${r.medianMs.toFixed(1).padStart(5)} ms   worst ${r.worstMs.toFixed(1).padStart(5)} ms   ${(r.bytes / 1024).toFixed(1).padStart(6)} KB\n`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
