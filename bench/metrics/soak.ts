/**
 * rss_mb_after_soak: the host's resident memory after 200 sessions × 20 turns, each session
 * closed when done; ten sessions run at a time. What is left is what the host keeps.
 */
import { liveSession, promptTurn, startHost } from '../lib/host';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

const MiB = 2 ** 20;
/** Turns that exercise plan, tool and message events, yet need no waiting in the demo agent. */
const TURNS = ['/plan', '/flood 50', '/title Soak'];

export const soak: BenchGroup = {
  names: ['rss_mb_after_soak'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const sessions = ctx.quick ? 20 : 200;
    const turns = ctx.quick ? 5 : 20;
    const parallel = 10;
    const host = await startHost();
    try {
      const startRss = host.rss();
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < sessions) {
          const n = next++;
          const id = await liveSession(host.client);
          for (let t = 0; t < turns; t++) await promptTurn(host.client, id, TURNS[t % TURNS.length]!);
          await host.client.call('sessions:close', { sessionId: id });
          if (n % 50 === 49) ctx.progress(`soak: ${n + 1}/${sessions} sessions, rss ${(host.rss() / MiB).toFixed(0)} MiB`);
        }
      };
      await Promise.all(Array.from({ length: parallel }, worker));
      const rss = host.rss() / MiB;
      return [
        {
          name: 'rss_mb_after_soak',
          value: rss,
          unit: 'MiB',
          target: 250,
          better: 'lower',
          detail: `${sessions} sessions × ${turns} turns, ${parallel} at a time; ${(startRss / MiB).toFixed(0)} MiB at start`,
        },
      ];
    } finally {
      await host.stop();
    }
  },
};
