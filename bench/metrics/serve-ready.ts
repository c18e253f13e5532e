/**
 * host_ready_ms: `switchboard serve` (the built `out/`, through bin/switchboard.mjs) from
 * spawn to its ready line, on a data dir that exists (a normal start, not the first run).
 */
import { startServe, tempDataDir } from '../../e2e/support/serve';
import { medianOf, timed } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

/**
 * Starts and stops `serve` on `dataDir` `reps` times after one unmeasured start (`firstRun`:
 * on an empty dir, the first run's migrations and folders). Each host stops long before its
 * start-up check of the database begins.
 */
export const HOST_READY_TARGET_MS = 200;

export async function hostReadyTimes(dataDir: string, reps: number): Promise<{ median: number; all: number[]; firstRun: number }> {
  let firstRun = 0;
  const { median, all } = await medianOf(1, reps, async (rep) => {
    let stop: (() => Promise<unknown>) | undefined;
    const ms = await timed(async () => {
      const serve = await startServe(dataDir);
      stop = () => serve.stop();
    });
    if (rep === -1) firstRun = ms;
    await stop?.();
    return ms;
  });
  return { median, all, firstRun };
}

export const serveReady: BenchGroup = {
  names: ['host_ready_ms'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const dir = tempDataDir();
    const reps = ctx.quick ? 3 : 9;
    try {
      const { median, all, firstRun } = await hostReadyTimes(dir.path, reps);
      return [
        {
          name: 'host_ready_ms',
          value: median,
          unit: 'ms',
          target: HOST_READY_TARGET_MS,
          better: 'lower',
          detail: `median of ${reps} (min ${Math.min(...all).toFixed(0)}); first run on an empty data dir ${firstRun.toFixed(0)} ms`,
        },
      ];
    } finally {
      dir.cleanup();
    }
  },
};
