import { performance } from 'node:perf_hooks';

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Milliseconds `fn` takes. */
export async function timed(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Runs `fn` `warmup` times unmeasured, then `reps` times; the median of what it returns. */
export async function medianOf(warmup: number, reps: number, fn: (rep: number) => Promise<number>): Promise<{ median: number; all: number[] }> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const all: number[] = [];
  for (let i = 0; i < reps; i++) all.push(await fn(i));
  return { median: median(all), all };
}

/** Wall-clock ms with sub-ms precision, comparable with the demo agent's `/pace` stamps. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

export const fmt = (n: number): string => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

/**
 * Warm-up until steady: runs `rep` (which resolves with the ms it took) at least `min` times,
 * then until the last `settled` runs brought no new best (none of them more than `gain` faster
 * than the fastest run before them), or `max` runs in all. Returns every run's time. A process
 * whose code V8 compiles as it runs (the host, each agent process) keeps getting faster for
 * several reps, slowly and with noise; how many depends on how much of its code a rep runs, so a
 * fixed count warmed one case and not another, and "two runs alike" stopped on noise halfway
 * (stop 42 in docs/performance.md).
 */
export async function warmUntilSteady(rep: () => Promise<number>, o: { min: number; max: number; settled?: number; gain?: number }): Promise<number[]> {
  const settled = o.settled ?? 3;
  const gain = o.gain ?? 0.05;
  const times: number[] = [];
  while (times.length < o.max) {
    times.push(await rep());
    if (times.length < Math.max(o.min, settled + 1)) continue;
    const before = Math.min(...times.slice(0, -settled));
    if (Math.min(...times.slice(-settled)) >= (1 - gain) * before) break;
  }
  return times;
}
