/**
 * latency_p99_ms_at_1k: the demo agent's `/pace N 1000` puts each chunk's send time in its
 * text; the client subtracts it from the time the chunk's event arrived over the WebSocket.
 * A coalesced event carries several chunks: each is counted at that event's arrival.
 */
import type { SessionEventT } from '../../src/shared/contract';
import { liveSession, promptTurn, startHost, type BenchHost } from '../lib/host';
import { epochMs, median, percentile } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

const PACE_LINE = /pace (\d+) (\d+\.\d+)\n/g;

export const LATENCY_TARGET_MS = 16;

/** `/pace count 1000` in a new session on `host` (after 500 unmeasured): each chunk's latency. */
export async function paceLatency(host: BenchHost, count: number): Promise<{ p99: number; p50: number; max: number; rate: number }> {
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
  return { p99: percentile(latencies, 99), p50: median(latencies), max: Math.max(...latencies), rate: (count / ms) * 1000 };
}

export const paceDetail = (count: number, r: { p50: number; max: number; rate: number }): string =>
  `${count} chunks at ${Math.round(r.rate)}/s achieved; p50 ${r.p50.toFixed(1)} ms, max ${r.max.toFixed(1)} ms`;

export const latency: BenchGroup = {
  names: ['latency_p99_ms_at_1k'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const count = ctx.quick ? 2_000 : 10_000;
    const host = await startHost();
    try {
      const r = await paceLatency(host, count);
      return [{ name: 'latency_p99_ms_at_1k', value: r.p99, unit: 'ms', target: LATENCY_TARGET_MS, better: 'lower', detail: paceDetail(count, r) }];
    } finally {
      await host.stop();
    }
  },
};
