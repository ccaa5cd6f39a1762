/**
 * A small benchmark harness. The machine is shared and noisy, so every figure is a median
 * over several samples (with the worst sample shown beside it), and comparisons are made as
 * ratios between figures measured in the same run.
 */
export interface Measurement {
  readonly name: string;
  /** Median time of one operation, in microseconds. */
  readonly medianUs: number;
  /** Worst sample's time per operation, in microseconds. */
  readonly worstUs: number;
  readonly samples: number;
  /** Operations per sample. */
  readonly inner: number;
  readonly note?: string;
}

export function median(xs: readonly number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Times `op` as `samples` samples of `inner` calls each, after a warm-up, and reports the
 * per-call median and worst. `op` may return a value, which is kept so it is not optimised away.
 */
export function measure(name: string, op: () => unknown, options: { samples?: number; inner?: number; warmup?: number; note?: string } = {}): Measurement {
  const samples = options.samples ?? 15;
  const inner = options.inner ?? 1;
  const warmup = options.warmup ?? Math.max(3, samples >> 1);
  let sink: unknown;
  for (let i = 0; i < warmup * inner; i++) sink = op();
  const times: number[] = [];
  for (let s = 0; s < samples; s++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < inner; i++) sink = op();
    const t1 = process.hrtime.bigint();
    times.push(Number(t1 - t0) / 1000 / inner);
  }
  keep(sink);
  return { name, medianUs: median(times), worstUs: Math.max(...times), samples, inner, ...(options.note ? { note: options.note } : {}) };
}

/** Where results go so the optimiser cannot drop the work that made them. */
const kept: { value: unknown } = { value: undefined };
function keep(x: unknown): void {
  kept.value = x;
}

export function formatUs(us: number): string {
  if (us >= 1000) return `${(us / 1000).toFixed(2)} ms`;
  if (us >= 10) return `${us.toFixed(1)} µs`;
  return `${us.toFixed(3)} µs`;
}

export function formatTable(rows: readonly Measurement[]): string {
  const nameWidth = Math.max(4, ...rows.map((r) => r.name.length));
  const header = `${'what'.padEnd(nameWidth)}  ${'median'.padStart(11)}  ${'worst'.padStart(11)}  note`;
  const lines = rows.map(
    (r) => `${r.name.padEnd(nameWidth)}  ${formatUs(r.medianUs).padStart(11)}  ${formatUs(r.worstUs).padStart(11)}  ${r.note ?? ''}`,
  );
  return [header, '-'.repeat(header.length), ...lines].join('\n');
}
