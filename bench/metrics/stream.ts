/**
 * Streaming into the real window (bench/stream-window.ts), both `/markdown` profiles at 200
 * chunks/s: `mixed` (long paragraphs, lists, fences, tables; chunks of 1–96 characters) and
 * `dense` (sections of ~170 bytes of five small blocks each; 40-character chunks), at 100 KB
 * (median of 3) and at 1 MB in 200-character chunks (one run, then reopened, scrolled through
 * and its heap taken).
 */
import { median } from '../lib/stats';
import { errorText } from '../lib/runner';
import type { BenchContext, BenchGroup, Metric, MetricError } from '../lib/types';
import { measureStream, promptOf, type StreamResult, type StreamSpec } from '../stream-window';

const RATE = 200;
const PROFILES = ['mixed', 'dense'] as const;
const MiB = 2 ** 20;

interface Size {
  /** In metric names. */
  label: '100k' | '1m';
  kb: (quick: boolean) => number;
  chars: (profile: (typeof PROFILES)[number]) => number | undefined;
  reps: (quick: boolean) => number;
  after: boolean;
}

const SIZES: Size[] = [
  { label: '100k', kb: (q) => (q ? 20 : 100), chars: () => undefined, reps: (q) => (q ? 1 : 3), after: false },
  { label: '1m', kb: (q) => (q ? 100 : 1024), chars: () => 200, reps: () => 1, after: true },
];

const names = (profile: string, size: string): string[] => [
  `stream_${profile}_${size}_lag_ms`,
  `stream_${profile}_${size}_longest_task_ms`,
  `stream_${profile}_${size}_blocking_ms`,
];
const afterNames = (profile: string): string[] => [`reopen_${profile}_1m_ms`, `scroll_${profile}_1m_longest_task_ms`, `heap_${profile}_1m_mb`];

async function medianStream(spec: StreamSpec, reps: number, after: boolean, ctx: BenchContext): Promise<StreamResult> {
  const runs: StreamResult[] = [];
  for (let i = 0; i < reps; i++) {
    const r = await measureStream(spec, { after });
    ctx.progress(
      `${promptOf(spec)}: lag ${r.lagMs.toFixed(0)} ms, longest task ${r.longestTaskMs.toFixed(0)} ms, blocking ${r.blockingMs.toFixed(0)} ms (${r.longTasks} long tasks in ${r.seconds.toFixed(1)} s)` +
        (r.after ? `; reopen ${r.after.reopenMs.toFixed(0)} ms, up to the first line ${(r.after.upMs / 1000).toFixed(1)} s (longest task ${r.after.upLongestTaskMs.toFixed(0)} ms), scroll down longest task ${r.after.scrollLongestTaskMs.toFixed(0)} ms, heap ${(r.after.heapAfterGcBytes / MiB).toFixed(0)} MiB` : ''),
    );
    runs.push(r);
  }
  const mid = (f: (r: StreamResult) => number): number => median(runs.map(f));
  return { lagMs: mid((r) => r.lagMs), longestTaskMs: mid((r) => r.longestTaskMs), blockingMs: mid((r) => r.blockingMs), longTasks: mid((r) => r.longTasks), seconds: mid((r) => r.seconds), ...(runs[0]!.after ? { after: runs[0]!.after } : {}) };
}

export const stream: BenchGroup = {
  names: PROFILES.flatMap((p) => [...SIZES.flatMap((s) => names(p, s.label)), ...afterNames(p)]),

  async run(ctx: BenchContext): Promise<(Metric | MetricError)[]> {
    const metrics: (Metric | MetricError)[] = [];
    const measured = new Map<number, { spec: StreamSpec; r: StreamResult }>();
    // A throwaway run first: the first browser and agent of a run start cold.
    await measureStream({ profile: 'dense', kb: 5, rate: RATE });
    for (const size of SIZES) {
      for (const profile of PROFILES) {
        const wanted = [...names(profile, size.label), ...(size.after ? afterNames(profile) : [])].filter((n) => ctx.wants(n));
        if (wanted.length === 0) continue;
        const spec: StreamSpec = { profile, kb: size.kb(ctx.quick), rate: RATE, chars: size.chars(profile) };
        const reps = size.reps(ctx.quick);
        const after = size.after && afterNames(profile).some((n) => ctx.wants(n));
        let r: StreamResult;
        try {
          r = await medianStream(spec, reps, after, ctx);
        } catch (err) {
          // This size and profile could not be measured; the others still are.
          ctx.progress(`${promptOf(spec)}: ${errorText(err)}`);
          metrics.push(...wanted.map((name) => ({ name, error: `${promptOf(spec)}: ${errorText(err)}` })));
          continue;
        }
        if (profile === 'dense') measured.set(spec.kb, { spec, r });
        const how = `${promptOf(spec)} in Chromium, ${reps === 1 ? 'one run' : `median of ${reps}`}`;
        const [lag, longestTask, blockingTime] = names(profile, size.label);
        metrics.push(
          { name: lag!, value: r.lagMs, unit: 'ms', target: 250, better: 'lower', detail: `${how}; agent's send time of the last chunk → last line painted` },
          { name: longestTask!, value: r.longestTaskMs, unit: 'ms', target: 50, better: 'lower', detail: `${how}; ${r.longTasks} long tasks in ${r.seconds.toFixed(1)} s` },
          { name: blockingTime!, value: r.blockingMs, unit: 'ms', target: 200, better: 'lower', detail: `${how}; sum of each long task's time over 50 ms` },
        );
        if (r.after) {
          const a = r.after;
          const [reopen, scroll, heap] = afterNames(profile);
          metrics.push(
            { name: reopen!, value: a.reopenMs, unit: 'ms', target: 150, better: 'lower', detail: `${spec.kb} KB ${profile} answer, window reloaded, click on its session → its last line painted; the frame after the paint ${a.reopenNextFrameMs.toFixed(0)} ms` },
            {
              name: scroll!,
              value: a.scrollLongestTaskMs,
              unit: 'ms',
              target: 50,
              better: 'lower',
              detail:
                `first line → last, one viewport a frame: ${a.scrollFrames} frames in ${(a.scrollMs / 1000).toFixed(1)} s, ${a.scrollLongTasks} long tasks; ` +
                `getting to the first line before it (scrolling up, older pages loading${a.upClicks ? `, ${a.upClicks} clicks on Load older messages where scrolling loaded no more` : ''}): ${(a.upMs / 1000).toFixed(1)} s, longest task ${a.upLongestTaskMs.toFixed(0)} ms, ${a.upLongTasks} long tasks`,
            },
            { name: heap!, value: a.heapAfterGcBytes / MiB, unit: 'MiB', target: 150, better: 'lower', detail: `page JS heap after the stream, reopen and scroll, after a full GC (${(a.heapBeforeGcBytes / MiB).toFixed(0)} MiB before it)` },
          );
        }
      }
    }
    if (ctx.scaling) {
      for (const kb of ctx.quick ? [10, 20, 100] : [10, 100, 1024]) {
        const done = measured.get(kb);
        const spec: StreamSpec = done?.spec ?? { profile: 'dense', kb, rate: RATE, chars: kb >= 1024 ? 200 : undefined };
        const r = done?.r ?? (await medianStream(spec, 1, false, ctx));
        const size = `${kb >= 1024 ? `${kb / 1024} MB` : `${kb} KB`}${spec.chars ? ` (${spec.chars} ch)` : ''}`;
        ctx.point({ series: 'stream_dense_lag_ms', size, value: r.lagMs, unit: 'ms' });
        ctx.point({ series: 'stream_dense_longest_task_ms', size, value: r.longestTaskMs, unit: 'ms' });
        ctx.point({ series: 'stream_dense_blocking_ms', size, value: r.blockingMs, unit: 'ms' });
        ctx.point({ series: 'stream_dense_long_tasks', size, value: r.longTasks, unit: 'tasks' });
      }
    }
    return metrics;
  },
};
