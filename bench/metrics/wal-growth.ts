/**
 * wal_max_mb_stream: the WAL file's largest size while a steady stream of 1,000 events/s is
 * stored for 10 s by the host's writer as SessionHost sets it up (bench/lib/host-writer.ts),
 * then while the stream pauses 4 s, then for 4 s more. Each event's wait from its append to its
 * commit is in the detail: holding the writes while a checkpoint catches up must not cost the
 * stream its latency.
 *
 * Before ADR 0031 (stop 29): the worker's passive checkpoints never found every frame copied
 * while the writer committed every millisecond, so SQLite never started the WAL over and it
 * grew for as long as the stream lasted (408 MB in 10 s at 1,000 events/s).
 *
 *   node --import tsx bench/metrics/wal-growth.ts [--rate 1000] [--seconds 10]
 *
 * prints the WAL's size every 2 s, then the figures.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Store } from '../../src/main/store/store';
import { hostWriter, steadyStream } from '../lib/host-writer';
import { fmt, percentile } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

/** Twice the limit past which the WAL is started over (32 MB), for a second of growth and the worker's start. */
export const WAL_TARGET_MB = 96;

export interface WalGrowthResult {
  maxMb: number;
  p99Ms: number;
  maxWaitMs: number;
  events: number;
  holds: number;
  catchUps: number;
  longestHoldMs: number;
}

export async function measureWalGrowth(o: { rate: number; seconds: number; progress?(line: string): void }): Promise<WalGrowthResult> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-wal-growth-'));
  const file = join(dir, 'switchboard.db');
  const store = Store.open(file);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    store.sessions.insert({ id: 's', agent_id: 'demo', cwd: dir, state: 'ACTIVE' }, Date.now());
    const due = new Map<number, number>();
    const waits: number[] = [];
    const writer = hostWriter(store, file, (events) => {
      const now = performance.now();
      for (const e of events) {
        const when = due.get(e.seq);
        if (when !== undefined) waits.push(now - when);
        due.delete(e.seq);
      }
    });
    let maxBytes = 0;
    const walBytes = (): number => {
      try {
        return statSync(`${file}-wal`).size;
      } catch {
        return 0;
      }
    };
    const sample = setInterval(() => (maxBytes = Math.max(maxBytes, walBytes())), 50);
    const started = performance.now();
    let phase = 'streaming';
    const report = setInterval(() => o.progress?.(`${fmt((performance.now() - started) / 1000)} s, ${phase}: WAL ${fmt(walBytes() / 2 ** 20)} MB`), 2_000);
    let stream = steadyStream(writer.log, 's', o.rate, (seq, dueAt) => due.set(seq, dueAt));
    try {
      await sleep(o.seconds * 1000);
      stream.stop();
      phase = 'paused';
      await sleep(4_000);
      phase = 'streaming';
      stream = steadyStream(writer.log, 's', o.rate, (seq, dueAt) => due.set(seq, dueAt));
      await sleep(4_000);
    } finally {
      stream.stop();
      clearInterval(sample);
      clearInterval(report);
      await writer.dispose();
    }
    maxBytes = Math.max(maxBytes, walBytes());
    return {
      maxMb: maxBytes / 2 ** 20,
      p99Ms: percentile(waits, 99),
      maxWaitMs: waits.reduce((m, w) => Math.max(m, w), 0),
      events: waits.length,
      ...writer.checkpoints.stats,
    };
  } finally {
    store.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

const detail = (r: WalGrowthResult, rate: number, seconds: number): string =>
  `${rate} events/s for ${seconds} s, a 4 s pause, 4 s more; wait from append to commit p99 ${fmt(r.p99Ms)} ms, max ${fmt(r.maxWaitMs)} ms over ${r.events} events; writes held ${r.holds} times (longest ${fmt(r.longestHoldMs)} ms), the WAL started over ${r.catchUps} times`;

export const walGrowth: BenchGroup = {
  names: ['wal_max_mb_stream'],
  async run(ctx: BenchContext): Promise<Metric[]> {
    const rate = 1000;
    const seconds = ctx.quick ? 4 : 10;
    const r = await measureWalGrowth({ rate, seconds, progress: ctx.progress });
    return [{ name: 'wal_max_mb_stream', value: r.maxMb, unit: 'MB', target: WAL_TARGET_MB, better: 'lower', detail: detail(r, rate, seconds) }];
  },
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const arg = (name: string, fallback: number): number => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
  const rate = arg('--rate', 1000);
  const seconds = arg('--seconds', 10);
  const r = await measureWalGrowth({ rate, seconds, progress: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(`wal_max_mb_stream ${fmt(r.maxMb)} (target ≤ ${WAL_TARGET_MB}): ${r.maxMb <= WAL_TARGET_MB ? 'within target' : 'OVER TARGET'}\n${detail(r, rate, seconds)}\n`);
  process.exitCode = r.maxMb <= WAL_TARGET_MB ? 0 : 1;
}
