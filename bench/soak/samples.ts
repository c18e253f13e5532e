/**
 * The soak's figures: the host's memory, descriptors and active handles sampled over time,
 * and the verdict: growth between two settled points (every window gone, every session
 * reaped) beyond a threshold is a leak.
 */
import { readdirSync } from 'node:fs';
import type { DebugInfoT } from '../../src/shared/contract';
import type { BenchClient } from '../lib/ws-client';

export interface Sample {
  /** Seconds since the soak started. */
  t: number;
  phase: string;
  turnsDone: number;
  rssMb: number;
  heapMb: number;
  fds: number;
  handles: number;
  timers: number;
  resources: Record<string, number>;
}

const MB = 2 ** 20;

export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

export async function sample(client: BenchClient, pid: number, t0: number, phase: string, turnsDone: number): Promise<Sample> {
  const info = await client.call('host:info', {});
  const debug = info.debug as DebugInfoT | undefined;
  if (!debug) throw new Error('the host gives no debug figures: start serve with SWITCHBOARD_DEBUG_INFO=1');
  const handles = Object.values(debug.resources).reduce((a, b) => a + b, 0);
  return {
    t: (Date.now() - t0) / 1000,
    phase,
    turnsDone,
    rssMb: debug.rss / MB,
    heapMb: debug.heapUsed / MB,
    fds: openFds(pid),
    handles,
    timers: debug.resources.Timeout ?? 0,
    resources: debug.resources,
  };
}

export interface Growth {
  figure: 'rssMb' | 'heapMb' | 'fds' | 'handles' | 'timers';
  baseline: number;
  end: number;
  growth: number;
  limit: number;
  leak: boolean;
}

/** Growth of each figure from `baseline` to `end` (both settled), against its limit. */
export function verdict(baseline: Sample, end: Sample, limits: Record<Growth['figure'], number>): Growth[] {
  return (Object.keys(limits) as Growth['figure'][]).map((figure) => {
    const growth = end[figure] - baseline[figure];
    return { figure, baseline: baseline[figure], end: end[figure], growth, limit: limits[figure], leak: growth > limits[figure] };
  });
}

/** Least-squares slope of `y` over `x` (per unit of x). */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}
