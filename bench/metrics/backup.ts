/**
 * backup_stream_p99_ms: a daily backup of a large database (1 GB by default) taken by the
 * host's `Backups` while a stream of 1,000 events/s is stored through the host's own EventLog
 * in the same process, set up as SessionHost does (bench/lib/host-writer.ts). Each event's latency is from the moment it was due to the moment its
 * transaction committed (the EventLog's commit callback). Printed: the stream's p50/p99/max
 * before and during the backup, the event loop's longest delay during it, the backup's
 * duration (snapshot, seal, quick_check and fsync, in a worker thread).
 *
 *   node --import tsx bench/metrics/backup.ts [--size-mb 1024] [--rate 1000] [--keep DIR]
 *
 * `--keep DIR` builds the database in DIR once and reuses it on later runs.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Backups } from '../../src/main/datadir/backups';
import { Store } from '../../src/main/store/store';
import { systemClock } from '../../src/main/util/clock';
import { silentLogger } from '../../src/main/util/log';
import { hostWriter, steadyStream } from '../lib/host-writer';
import { fmt, percentile } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

export interface BackupBenchOptions {
  sizeMb: number;
  rate: number;
  /** A folder to build the database in once and reuse (default: a temp folder, removed). */
  keep?: string;
  progress?(line: string): void;
}

export interface BackupBenchResult {
  databaseMb: number;
  backupMs: number;
  loopDelayMaxMs: number;
  before: { p50: number; p99: number; max: number; events: number };
  during: { p50: number; p99: number; max: number; events: number };
}

export const BACKUP_TARGET_MS = 16;

const PAYLOAD = 'x'.repeat(900);

/** Fills the database with transcript rows until the file reaches `sizeMb` (raw inserts: fast). */
function build(file: string, sizeMb: number, progress: (line: string) => void): void {
  const store = Store.open(file);
  try {
    const insert = store.db.prepare('INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)');
    const bump = store.db.prepare('UPDATE sessions SET last_seq = ? WHERE id = ?');
    const perSession = 20_000;
    const batch = store.db.transaction((id: string) => {
      for (let seq = 1; seq <= perSession; seq++) insert.run(id, seq, 'agent_message', JSON.stringify({ text: `${seq} ${PAYLOAD}` }), Date.now());
      bump.run(perSession, id);
    });
    const target = sizeMb * 1024 * 1024;
    for (let n = 0; ; n++) {
      const pages = store.db.pragma('page_count', { simple: true }) as number;
      if (pages * 4096 >= target) break;
      const id = randomUUID();
      store.sessions.insert({ id, agent_id: 'demo', cwd: '/tmp', state: 'ENDED' }, Date.now());
      batch(id);
      if (n % 10 === 0) progress(`building: ${Math.round((pages * 4096) / 1024 / 1024)} MB`);
    }
    store.db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    store.dispose();
  }
}

export async function measureBackup(o: BackupBenchOptions): Promise<BackupBenchResult> {
  const progress = o.progress ?? (() => {});
  const dir = o.keep ?? mkdtempSync(join(tmpdir(), 'switchboard-backup-bench-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'switchboard.db');
  if (!existsSync(file)) build(file, o.sizeMb, progress);
  const folder = join(dir, 'backups');
  rmSync(folder, { recursive: true, force: true });
  const store = Store.open(file);
  try {
    const sessionId = randomUUID();
    store.sessions.insert({ id: sessionId, agent_id: 'demo', cwd: '/tmp', state: 'ACTIVE' }, Date.now());
    // The host's writer as SessionHost sets it up (bench/lib/host-writer.ts).
    const due = new Map<number, number>();
    const latencies: { at: number; ms: number }[] = [];
    const writer = hostWriter(store, file, (events) => {
      const now = performance.now();
      for (const e of events) {
        const when = due.get(e.seq);
        if (when !== undefined) latencies.push({ at: when, ms: now - when });
        due.delete(e.seq);
      }
    });
    const stream = steadyStream(writer.log, sessionId, o.rate, (seq, dueAt) => due.set(seq, dueAt));

    const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    await wait(3_000);
    const backupStart = performance.now();
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    progress('backing up…');
    const backups = new Backups({ database: file, hostDb: store.db, folder, clock: systemClock, log: silentLogger, keep: () => 7 });
    await backups.take('daily');
    const backupEnd = performance.now();
    loop.disable();
    await wait(500);
    stream.stop();
    await writer.dispose();

    const summarise = (rows: { ms: number }[]) => ({
      p50: percentile(rows.map((r) => r.ms), 50),
      p99: percentile(rows.map((r) => r.ms), 99),
      // Not `Math.max(...rows)`: a backup of 10 GB meets more rows than the call stack takes arguments.
      max: rows.reduce((m, r) => Math.max(m, r.ms), Number.NEGATIVE_INFINITY),
      events: rows.length,
    });
    return {
      databaseMb: statSync(file).size / 1024 / 1024,
      backupMs: backupEnd - backupStart,
      loopDelayMaxMs: loop.max / 1e6,
      before: summarise(latencies.filter((l) => l.at < backupStart)),
      during: summarise(latencies.filter((l) => l.at >= backupStart && l.at < backupEnd)),
    };
  } finally {
    store.dispose();
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
    else rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * In `npm run bench` (`--only backup_stream_p99_ms` for it alone): 1 GB (64 MB with `--quick`),
 * built once in the OS temp folder and reused by later runs, as the search corpus is.
 */
export const backup: BenchGroup = {
  names: ['backup_stream_p99_ms'],
  async run(ctx: BenchContext): Promise<Metric[]> {
    const sizeMb = ctx.quick ? 64 : 1024;
    const rate = 1000;
    const r = await measureBackup({ sizeMb, rate, keep: join(tmpdir(), `switchboard-bench-backup-${sizeMb}mb`), progress: ctx.progress });
    return [
      {
        name: 'backup_stream_p99_ms',
        value: r.during.p99,
        unit: 'ms',
        target: BACKUP_TARGET_MS,
        better: 'lower',
        detail: `a daily backup of ${fmt(r.databaseMb)} MB (${fmt(r.backupMs / 1000)} s in a worker) while ${rate} events/s are stored; p99 before it ${fmt(r.before.p99)} ms, max during ${fmt(r.during.max)} ms, event loop's longest delay ${fmt(r.loopDelayMaxMs)} ms`,
      },
    ];
  },
};

function argValue(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const sizeMb = Number(argValue(argv, '--size-mb') ?? 1024);
  const rate = Number(argValue(argv, '--rate') ?? 1000);
  const keep = argValue(argv, '--keep');
  const r = await measureBackup({ sizeMb, rate, ...(keep ? { keep } : {}), progress: (line) => process.stderr.write(`${line}\n`) });
  const target = BACKUP_TARGET_MS;
  process.stdout.write(
    [
      `database: ${fmt(r.databaseMb)} MB; stream: ${rate} events/s through the host's EventLog`,
      `backup: ${fmt(r.backupMs / 1000)} s (snapshot, seal, quick_check, fsync in a worker thread); event loop's longest delay meanwhile ${fmt(r.loopDelayMaxMs)} ms`,
      `stream before: p50 ${fmt(r.before.p50)} ms, p99 ${fmt(r.before.p99)} ms, max ${fmt(r.before.max)} ms (${r.before.events} events)`,
      `stream during: p50 ${fmt(r.during.p50)} ms, p99 ${fmt(r.during.p99)} ms, max ${fmt(r.during.max)} ms (${r.during.events} events)`,
      `backup_stream_p99_ms ${fmt(r.during.p99)} (target ≤ ${target}): ${r.during.p99 <= target ? 'within target' : 'OVER TARGET'}`,
    ].join('\n') + '\n',
  );
  process.exitCode = r.during.p99 <= target ? 0 : 1;
}
