/**
 * `npm run bench`: the host at the scale it is built for — 10,000 sessions, 100,000-event
 * transcripts — on real SQLite files and the real demo agent. Prints one line per measure.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Store } from '../src/main/store/store';
import { EventLog } from '../src/main/store/event-log';
import { systemClock } from '../src/main/util/clock';
import { startHarness } from '../src/main/test-support/host-harness';
import { tempDir } from '../src/main/test-support/temp-dir';
import type { SessionViewT } from '../src/shared/contract';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 100_000);

function report(name: string, value: number, unit: string, extra = ''): void {
  console.log(`${name.padEnd(44)} ${value.toFixed(value < 10 ? 2 : 0).padStart(10)} ${unit}${extra ? `  (${extra})` : ''}`);
}

async function time<T>(fn: () => T | Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await fn();
  return [result, performance.now() - start];
}

async function storeBench(): Promise<void> {
  const dir = tempDir('switchboard-bench-');
  const store = Store.open(join(dir.path, 'bench.db'));
  const flushes: (() => void)[] = [];
  const log = new EventLog(store.db, systemClock, () => {}, (fn) => flushes.push(fn));
  const runTick = (): void => flushes.splice(0).forEach((fn) => fn());

  const ids: string[] = [];
  const [, insertMs] = await time(() => {
    store.db.transaction(() => {
      for (let i = 0; i < SESSIONS; i++) {
        const id = randomUUID();
        ids.push(id);
        store.sessions.insert({ id, agent_id: 'demo', cwd: '/tmp', state: 'ENDED' }, Date.now() + i);
      }
    })();
  });
  report(`create ${SESSIONS} sessions`, insertMs, 'ms');

  const [rows, listMs] = await time(() => store.sessions.list());
  report(`list ${rows.length} sessions`, listMs, 'ms');

  // A 100k-event transcript: chunks arrive in bursts of 64 per tick, alternating kinds so
  // coalescing can't hide the per-event cost.
  const big = ids[0]!;
  const [, appendMs] = await time(() => {
    let n = 0;
    while (n < EVENTS) {
      for (let i = 0; i < 64 && n < EVENTS; i++, n++) {
        if (n % 2) log.append(big, 'agent_message', { text: 'x'.repeat(120) });
        else log.append(big, 'tool_call_update', { toolCallId: 't', title: 'x'.repeat(120) });
      }
      runTick();
    }
  });
  report(`store ${EVENTS} events (64 per tick)`, (EVENTS / appendMs) * 1000, 'events/s', `${appendMs.toFixed(0)} ms`);

  const [page, pageMs] = await time(() => log.events.pageBefore(big, Number.MAX_SAFE_INTEGER, 200));
  report('newest page of 200 from a 100k transcript', pageMs, 'ms', `${page.events.length} events`);
  const [, oldMs] = await time(() => log.events.pageBefore(big, 1_000, 200));
  report('an old page of 200 from a 100k transcript', oldMs, 'ms');
  const [, sinceMs] = await time(() => log.events.pageAfter(big, EVENTS - 2_000, 2_000));
  report('catch-up of 2000 events (transcript:since)', sinceMs, 'ms');

  const [, coalesceMs] = await time(() => {
    for (let i = 0; i < EVENTS; i++) log.append(ids[1]!, 'agent_message', { text: 'y' });
    runTick();
  });
  report(`coalesce ${EVENTS} chunks in one tick`, (EVENTS / coalesceMs) * 1000, 'chunks/s', `${log.lastSeq(ids[1]!)} event(s) stored`);
  store.dispose();
  dir.cleanup();
}

async function agentBench(): Promise<void> {
  const h = await startHarness();
  try {
    const w = h.window();
    const view: SessionViewT = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitFor('session:updated', (v) => v.id === view.id && (v.state === 'ACTIVE' || v.state === 'DETACHED'));
    const [, ms] = await time(async () => {
      await w.call('prompt:send', { sessionId: view.id, clientMessageId: randomUUID(), text: `/flood ${FLOOD}` });
      await w.waitFor('session:event', (e) => e.sessionId === view.id && e.kind === 'turn_ended', 300_000);
    });
    const stored = w.sessionEvents(view.id).filter((e) => e.kind === 'agent_message').length;
    report(`demo agent /flood ${FLOOD} → store → window`, (FLOOD / ms) * 1000, 'chunks/s', `${ms.toFixed(0)} ms, ${stored} events after coalescing`);
    const rss = process.memoryUsage().rss / 1024 / 1024;
    report('host memory after the flood (rss)', rss, 'MiB');
  } finally {
    await h.cleanup();
  }
}

await storeBench();
await agentBench();
