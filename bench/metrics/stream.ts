/**
 * stream_lag_ms, stream_longest_task_ms, stream_blocking_ms: a 100 KB answer at 200 chunks/s
 * into the real window (bench/stream-window.ts), median of the reps after a small warm-up.
 */
import { measureStream, type StreamWindowResult as StreamResult } from '../stream-window';
import { median } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric, ScalingPoint } from '../lib/types';

const RATE = 200;

async function medianStream(kb: number, reps: number, ctx: BenchContext): Promise<StreamResult> {
  const runs: StreamResult[] = [];
  for (let i = 0; i < reps; i++) {
    const r = await measureStream({ kb, rate: RATE });
    ctx.progress(`stream ${kb} KB at ${RATE}/s: lag ${r.lagMs.toFixed(0)} ms, longest task ${r.longestTaskMs.toFixed(0)} ms, blocking ${r.blockingMs.toFixed(0)} ms`);
    runs.push(r);
  }
  return {
    lagMs: median(runs.map((r) => r.lagMs)),
    longestTaskMs: median(runs.map((r) => r.longestTaskMs)),
    blockingMs: median(runs.map((r) => r.blockingMs)),
  };
}

export const stream: BenchGroup = {
  names: ['stream_lag_ms', 'stream_longest_task_ms', 'stream_blocking_ms'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const kb = ctx.quick ? 20 : 100;
    const reps = ctx.quick ? 1 : 3;
    await measureStream({ kb: 5, rate: RATE });
    const r = await medianStream(kb, reps, ctx);
    const detail = `/markdown ${kb} ${RATE} in Chromium, median of ${reps}`;
    return [
      { name: 'stream_lag_ms', value: r.lagMs, unit: 'ms', target: 250, better: 'lower', detail },
      { name: 'stream_longest_task_ms', value: r.longestTaskMs, unit: 'ms', target: 50, better: 'lower', detail },
      { name: 'stream_blocking_ms', value: r.blockingMs, unit: 'ms', target: 200, better: 'lower', detail },
    ];
  },

  async scaling(ctx: BenchContext): Promise<ScalingPoint[]> {
    const points: ScalingPoint[] = [];
    for (const kb of [10, 50, 100]) {
      const r = await medianStream(kb, 1, ctx);
      points.push({ series: 'stream_lag_ms', size: `${kb} KB`, value: r.lagMs, unit: 'ms' });
      points.push({ series: 'stream_blocking_ms', size: `${kb} KB`, value: r.blockingMs, unit: 'ms' });
    }
    return points;
  },
};
