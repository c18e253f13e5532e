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

/**
 * Timed mode's verdict: each figure's least-squares slope, per hour, over the last
 * `windowMin` minutes of samples, and whether it is flat. "Flat" allows what the figures do
 * without leaking: resident memory and the heap breathe with the allocator and the collector,
 * and descriptors and handles with the sockets and agents open at the moment of a sample. A
 * leak of 1 KiB per turn at this load (some 40,000 turns an hour) is 40 MiB an hour: caught.
 */
export const SLOPE_LIMITS = { rssMb: 16, heapMb: 4, fds: 4, handles: 4 } as const;
export type SlopeFigure = keyof typeof SLOPE_LIMITS;

export interface WindowSlope {
  figure: SlopeFigure;
  /** Per hour. */
  perHour: number;
  limit: number;
  /** Not rising faster than `limit` per hour (falling is not a leak). */
  flat: boolean;
  /** The samples the slope is taken over, and the minutes they span. */
  samples: number;
  spanMin: number;
}

/** The slopes over the samples of the last `windowMin` minutes up to `atSec` (seconds since the start). */
export function windowSlopes(samples: readonly Sample[], atSec: number, windowMin: number): WindowSlope[] {
  const inWindow = samples.filter((s) => s.t <= atSec && s.t >= atSec - windowMin * 60);
  const span = inWindow.length > 1 ? (inWindow.at(-1)!.t - inWindow[0]!.t) / 60 : 0;
  return (Object.keys(SLOPE_LIMITS) as SlopeFigure[]).map((figure) => {
    // x in hours: the slope is per hour.
    const perHour = slope(inWindow.map((s) => ({ x: s.t / 3600, y: s[figure] })));
    const limit = SLOPE_LIMITS[figure];
    // Only a rise is a leak: a figure that falls (sockets and agents closing as the load ends) is not.
    return { figure, perHour, limit, flat: perHour <= limit, samples: inWindow.length, spanMin: span };
  });
}
