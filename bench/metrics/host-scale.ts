/**
 * live_session_bytes — JS heap + external memory per live, unwatched session, over 1,000
 * sessions on one demo agent process (after a GC), the host in this process;
 * live_session_rss_bytes — the resident memory (what the operating system sees: heap,
 * SQLite's page cache, allocator arenas) per live session of a fresh `serve` process of its
 * own, measured from outside (/proc) over 1,000 sessions on one agent, after a GC in it, once
 * the serve has streamed one answer (the young generation's one-time growth is not a session's).
 * Not in this process: an allocator that earlier work already grew hides new sessions' memory;
 * reaper_tick_ms_10k — one idle-reaper pass with 10,000 sessions in the store.
 */
import { randomUUID } from 'node:crypto';
import { SessionHost } from '../../src/main/host/session-host';
import { tempDir } from '../../src/main/test-support/temp-dir';
import { silentLogger } from '../../src/main/util/log';
import type { SessionViewT } from '../../src/shared/contract';
import { rssOf } from '../lib/host';
import { startProbedServe } from '../lib/probed-serve';
import { medianOf, timed } from '../lib/stats';
import { BenchClient } from '../lib/ws-client';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

const WARM_SESSIONS = 20;

function gcMemory(): { js: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('live_session_bytes needs --expose-gc (npm run bench passes it)');
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { js: m.heapUsed + m.external, rss: m.rss };
}

/** Sessions seen DETACHED, and a check re-run on every change, so waiting needs no polling. */
class DetachedWatch {
  readonly ids = new Set<string>();
  private waiter: (() => void) | undefined;
  add(id: string): void {
    this.ids.add(id);
    this.waiter?.();
  }
  until(check: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      this.waiter = () => {
        if (!check()) return;
        this.waiter = undefined;
        resolve();
      };
      this.waiter();
    });
  }
}

/** Creates `count` sessions and resolves once every one is live and DETACHED (nobody watches). */
async function createDetached(host: SessionHost, clientId: string, count: number, detached: DetachedWatch): Promise<void> {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (const id of ids) {
    const result = await host.dispatch(clientId, 'sessions:create', { id });
    if (!result.ok) throw new Error(`sessions:create: ${result.error.message}`);
  }
  await detached.until(() => ids.every((id) => detached.ids.has(id)));
}

/** Events of the one answer streamed before the sessions are counted (see liveSessionRss). */
const WARM_FLOOD = 20_000;

/** A session of its own streams `/flood events` to its end, watched by the bench's client. */
async function streamOneAnswer(client: BenchClient, events: number): Promise<void> {
  const id = randomUUID();
  await client.call('sessions:create', { id });
  await client.call('sessions:switch', { sessionId: id });
  const ended = client.next('session:event', (e) => e.sessionId === id && e.kind === 'turn_ended', 120_000);
  await client.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: `/flood ${events}` });
  await ended;
}

/** RSS per live session of a fresh `serve` (see the top of this file). */
async function liveSessionRss(live: number, ctx: BenchContext): Promise<Metric> {
  const dir = tempDir('switchboard-bench-rss-');
  const serve = await startProbedServe(dir.path, ['--max-sessions-per-broker', String(live + WARM_SESSIONS)], ['--expose-gc'], { SWITCHBOARD_DEBUG_INFO: '1' });
  const client = await BenchClient.connect(serve.url);
  try {
    const detached = new DetachedWatch();
    client.on((event, payload) => {
      if (event === 'session:updated' && (payload as SessionViewT).state === 'DETACHED') detached.add((payload as SessionViewT).id);
    });
    const create = async (count: number): Promise<void> => {
      const ids = Array.from({ length: count }, () => randomUUID());
      for (const id of ids) await client.call('sessions:create', { id });
      await detached.until(() => ids.every((id) => detached.ids.has(id)));
    };
    // host:info with SWITCHBOARD_DEBUG_INFO collects garbage in the host (it runs with --expose-gc) first.
    const rss = async (): Promise<number> => {
      const info = await client.call('host:info', {});
      if (!info.debug) throw new Error('host:info carries no debug figures');
      return rssOf(serve.child.pid!);
    };
    await create(WARM_SESSIONS);
    const fresh = await rss();
    // One answer first, as any host has had: its stream grows V8's young generation to its
    // working size once (about 30 MiB, whatever the number of sessions). Counted per session,
    // that one-time growth read as 35 KB of a 1,000-session figure.
    await streamOneAnswer(client, WARM_FLOOD);
    const before = await rss();
    ctx.progress(`creating ${live} live sessions on a fresh serve`);
    await create(live);
    const after = await rss();
    const mib = (n: number): string => (n / 2 ** 20).toFixed(0);
    return {
      name: 'live_session_rss_bytes',
      value: (after - before) / live,
      unit: 'bytes',
      target: 40_960,
      better: 'lower',
      detail: `${live} sessions on one agent, fresh serve measured from /proc after a GC in it: ${mib(before)} → ${mib(after)} MiB; before them, its first answer (${WARM_FLOOD} events) took it from ${mib(fresh)} to ${mib(before)} MiB`,
    };
  } finally {
    client.close();
    await serve.stop();
    dir.cleanup();
  }
}

export const hostMetrics: BenchGroup = {
  names: ['live_session_bytes', 'live_session_rss_bytes', 'reaper_tick_ms_10k'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const live = ctx.quick ? 200 : 1_000;
    const total = ctx.quick ? 2_000 : 10_000;
    const dir = tempDir('switchboard-bench-');
    const host = await SessionHost.start({
      dataDir: dir.path,
      headless: true,
      log: silentLogger,
      // All on one agent process; the reaper runs only when the benchmark ticks it.
      settings: { maxSessionsPerBroker: live + WARM_SESSIONS, idleTimeoutMs: 30 * 60_000, reapIntervalMs: 24 * 3_600_000 },
    });
    const detached = new DetachedWatch();
    const client = host.connect({
      label: 'bench',
      send: (event, payload) => {
        if (event === 'session:updated' && (payload as SessionViewT).state === 'DETACHED') detached.add((payload as SessionViewT).id);
      },
    });
    const metrics: Metric[] = [];
    try {
      await createDetached(host, client.id, WARM_SESSIONS, detached);
      const before = gcMemory();
      ctx.progress(`creating ${live} live sessions`);
      await createDetached(host, client.id, live, detached);
      const after = gcMemory();
      if (host.pool.liveBrokers.length !== 1) throw new Error(`expected one agent process, found ${host.pool.liveBrokers.length}`);
      metrics.push({
        name: 'live_session_bytes',
        value: (after.js - before.js) / live,
        unit: 'bytes',
        target: 32_768,
        better: 'lower',
        detail: `${live} sessions, one agent; heap+external after GC`,
      });
      if (ctx.wants('live_session_rss_bytes')) metrics.push(await liveSessionRss(live, ctx));

      // The rest of the 10,000 as ended sessions: the store the reaper's query runs against.
      const now = Date.now();
      host.store.db.transaction(() => {
        for (let i = live + WARM_SESSIONS; i < total; i++) host.store.sessions.insert({ id: randomUUID(), agent_id: 'demo', cwd: dir.path, state: 'ENDED' }, now - i);
      })();
      const { median } = await medianOf(5, ctx.quick ? 10 : 30, () => timed(() => host.reaper.tick()));
      metrics.push({
        name: 'reaper_tick_ms_10k',
        value: median,
        unit: 'ms',
        target: 5,
        better: 'lower',
        detail: `${total} sessions (${live + WARM_SESSIONS} live DETACHED, none idle yet), median pass`,
      });
      return metrics;
    } finally {
      client.dispose();
      await host.shutdown();
      dir.cleanup();
    }
  },
};
