/**
 * switch_ms_100k: a client on the headless host answers `sessions:switch` to a session with
 * 100,000 stored events and loads its first (newest) page — what a window does on a click.
 * Switches alternate with a small session, so every one is a real switch.
 */
import { tempDataDir } from '../../e2e/support/serve';
import { startHost, type BenchHost } from '../lib/host';
import { seedSessions, type SeededSession } from '../lib/seed';
import { fmt, medianOf, timed } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

export const SWITCH_TARGET_MS = 3;

/** One switch from `from` to `to` and `to`'s first page of 200, in ms. */
async function switchOnce(host: BenchHost, to: SeededSession, from: SeededSession): Promise<number> {
  await host.client.call('sessions:switch', { sessionId: from.id });
  return timed(async () => {
    await host.client.call('sessions:switch', { sessionId: to.id, fromSessionId: from.id });
    const page = await host.client.call('transcript:page', { sessionId: to.id, limit: 200 });
    if (page.events.length === 0) throw new Error('switch: empty first page');
  });
}

/**
 * Median ms of `sessions:switch` from `from` to `to` plus `to`'s first page of 200 (3 unmeasured
 * first). The host keeps a session's newest page while nothing is committed to it, so these are
 * switches back to a session already shown; `firstSwitchTime` is the one before that.
 */
export async function switchTime(host: BenchHost, to: SeededSession, from: SeededSession, reps: number): Promise<number> {
  const { median } = await medianOf(3, reps, () => switchOnce(host, to, from));
  return median;
}

/** The first switch to `to` since the host started: its newest page read from the database. */
export const firstSwitchTime = (host: BenchHost, to: SeededSession, from: SeededSession): Promise<number> => switchOnce(host, to, from);

async function withSeededHost<T>(sizes: number[], fn: (host: BenchHost, sessions: SeededSession[]) => Promise<T>): Promise<T> {
  const dir = tempDataDir();
  try {
    const sessions = seedSessions(dir.path, sizes);
    const host = await startHost([], dir.path);
    try {
      return await fn(host, sessions);
    } finally {
      await host.stop();
    }
  } finally {
    dir.cleanup();
  }
}

export const switching: BenchGroup = {
  names: ['switch_ms_100k'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const size = ctx.quick ? 10_000 : 100_000;
    const reps = ctx.quick ? 5 : 15;
    const scaling = ctx.scaling ? [1_000, 10_000] : [];
    return withSeededHost([30, ...scaling, size], async (host, [small, ...big]) => {
      for (const session of big.slice(0, -1)) {
        const value = await switchTime(host, session, small!, reps);
        ctx.point({ series: 'switch_ms', size: `${session.events} events`, value, unit: 'ms' });
      }
      const first = await firstSwitchTime(host, big.at(-1)!, small!);
      const value = await switchTime(host, big.at(-1)!, small!, reps);
      if (ctx.scaling) ctx.point({ series: 'switch_ms', size: `${big.at(-1)!.events} events`, value, unit: 'ms' });
      return [
        {
          name: 'switch_ms_100k',
          value,
          unit: 'ms',
          target: SWITCH_TARGET_MS,
          better: 'lower',
          detail: `${size} events, switch + first page of 200 over the WebSocket, median of ${reps}; the first switch to it (its page not yet kept) ${fmt(first)} ms`,
        },
      ];
    });
  },
};
