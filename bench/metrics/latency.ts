/**
 * latency_p99_ms_at_1k: the demo agent's `/pace N 1000` puts each chunk's send time in its
 * text; the client subtracts it from the time the chunk's event arrived over the WebSocket.
 * A coalesced event carries several chunks: each is counted at that event's arrival.
 */
import type { SessionEventT } from '../../src/shared/contract';
import { liveSession, promptTurn, startHost } from '../lib/host';
import { epochMs, median, percentile } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

const PACE_LINE = /pace (\d+) (\d+\.\d+)\n/g;

export const latency: BenchGroup = {
  names: ['latency_p99_ms_at_1k'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const count = ctx.quick ? 2_000 : 10_000;
    const host = await startHost();
    try {
      const session = await liveSession(host.client);
      await promptTurn(host.client, session, '/pace 500 1000');
      const latencies: number[] = [];
      let seen = 0;
      const off = host.client.on((event, payload) => {
        if (event !== 'session:event') return;
        const e = payload as SessionEventT;
        if (e.sessionId !== session || e.kind !== 'agent_message') return;
        const now = epochMs();
        for (const m of String(e.payload.text).matchAll(PACE_LINE)) {
          seen++;
          latencies.push(now - Number(m[2]));
        }
      });
      const ms = await promptTurn(host.client, session, `/pace ${count} 1000`);
      off();
      if (seen !== count) throw new Error(`latency: saw ${seen} of ${count} paced chunks`);
      const rate = (count / ms) * 1000;
      return [
        {
          name: 'latency_p99_ms_at_1k',
          value: percentile(latencies, 99),
          unit: 'ms',
          target: 16,
          better: 'lower',
          detail: `${count} chunks at ${Math.round(rate)}/s achieved; p50 ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
        },
      ];
    } finally {
      await host.stop();
    }
  },
};
