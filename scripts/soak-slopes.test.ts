/**
 * The timed soak's verdict (bench/soak/samples.ts, `npm run soak -- --hours H`): each figure's
 * slope per hour over the last minutes of samples; a rise past its limit is a leak, a fall or
 * a flat line is not; samples outside the window do not count.
 */
import { describe, expect, it } from 'vitest';
import { parseSoakArgs } from '../bench/soak/args';
import { SLOPE_LIMITS, windowSlopes, type Sample } from '../bench/soak/samples';

/** One sample a minute for `minutes`, each figure given as a function of the minute. */
function samples(minutes: number, at: (m: number) => Partial<Record<'rssMb' | 'heapMb' | 'fds' | 'handles', number>>): Sample[] {
  return Array.from({ length: minutes + 1 }, (_, m) => ({ t: m * 60, phase: 'soak', turnsDone: m * 100, rssMb: 100, heapMb: 20, fds: 40, handles: 20, timers: 0, resources: {}, ...at(m) }));
}

const byFigure = (slopes: ReturnType<typeof windowSlopes>) => Object.fromEntries(slopes.map((s) => [s.figure, s]));

describe('the timed soak: slopes per hour over the last minutes', () => {
  it('finds a heap rising 10 MiB an hour over the last 40 minutes, and calls the flat figures flat', () => {
    const s = byFigure(windowSlopes(samples(60, (m) => ({ heapMb: 20 + m / 6 })), 3600, 40));
    expect(s.heapMb!.perHour).toBeCloseTo(10, 6);
    expect(s.heapMb!.flat).toBe(false);
    expect(s.rssMb!).toMatchObject({ perHour: 0, flat: true, samples: 41, spanMin: 40 });
  });

  it('does not call a fall a leak (agents and sockets closing as the load ends)', () => {
    const s = byFigure(windowSlopes(samples(60, (m) => ({ fds: 80 - m / 2, handles: 60 - m / 2 })), 3600, 40));
    expect(s.fds!.perHour).toBeCloseTo(-30, 6);
    expect(s.fds!.flat).toBe(true);
    expect(s.handles!.flat).toBe(true);
  });

  it('counts only the window: a warm-up climb before the last 40 minutes is not a slope', () => {
    // RSS climbs 1 MiB a minute for 20 minutes (warming up), then holds.
    const s = byFigure(windowSlopes(samples(60, (m) => ({ rssMb: 100 + Math.min(m, 20) })), 3600, 40));
    expect(s.rssMb!.perHour).toBe(0);
    expect(s.rssMb!.flat).toBe(true);
    expect(SLOPE_LIMITS.rssMb).toBeGreaterThan(0);
  });

  it('--hours samples each minute with no chaos rounds unless asked, and takes fractions', () => {
    expect(parseSoakArgs(['--hours', '1'])).toMatchObject({ hours: 1, sampleMs: 60_000, chaosRounds: 0, slopeWindowMin: 40 });
    expect(parseSoakArgs(['--hours', '0.1', '--sample-ms', '5000', '--chaos-rounds', '2'])).toMatchObject({ hours: 0.1, sampleMs: 5000, chaosRounds: 2 });
    expect(() => parseSoakArgs(['--hours', '0'])).toThrow(/--hours must be a positive number/);
  });
});
