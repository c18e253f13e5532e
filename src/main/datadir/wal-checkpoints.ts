/**
 * The host's WAL checkpoints, off its event loop. SQLite's automatic checkpoint runs inside the
 * commit that crosses 1,000 WAL pages, on the connection that commits: the host's, on its event
 * loop, where copying 4 MB of pages into the database and waiting for the disk (its fsync) took
 * 10–100 ms in the middle of a flood (issue 21; bench/profile.ts ingest). Here the host's
 * connection checkpoints nothing itself; after writes, at most once per `intervalMs`, a worker
 * thread runs a passive checkpoint on a connection of its own, which never blocks the writer.
 * Durability is unchanged: a commit is in the WAL (safe from a process crash) when it returns,
 * as before; the WAL reaches the disk at the next checkpoint, as before, now within a second.
 */
import { statSync } from 'node:fs';
import type { Db } from '../store/db';
import type { Logger } from '../util/log';
import { checkpointWorker, type CheckpointResult, type CheckpointWorker } from './db-tasks';

/** SQLite's default `wal_autocheckpoint`, given back if checkpoints cannot run in a worker. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/**
 * The WAL file is cut back to this when a checkpoint lets it start over, so a burst of writes
 * (a clean-up of gigabytes, a backfill) does not leave a file that size until the host quits.
 */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;
/** How often the WAL's size is looked at, for writes that did not say so (`noteWrite`). */
const SIZE_POLL_MS = 5_000;
/** A WAL larger than this is checkpointed even if no write said so. */
const WAL_POLL_BYTES = 4 * 1024 * 1024;

export interface WalCheckpointsOptions {
  db: Db;
  /** The database file (the worker opens its own connection to it). */
  file: string;
  log: Logger;
  nativeBinding?: string;
  /** Least time between two checkpoints' starts. */
  intervalMs?: number;
  /** How a checkpoint runs (default: a passive checkpoint in a worker thread that stays). */
  run?: () => Promise<CheckpointResult>;
  /** How often the WAL's size is looked at, and the size past which it is checkpointed unasked. */
  sizePoll?: { ms: number; bytes: number };
}

export class WalCheckpoints {
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastStart = Number.NEGATIVE_INFINITY;
  /** Writes since the last checkpoint started. */
  private dirty = false;
  private stopped = false;
  private readonly intervalMs: number;
  private readonly run: () => Promise<CheckpointResult>;
  /** Started at the first checkpoint: a host that writes nothing starts no thread. */
  private worker: CheckpointWorker | undefined;
  private readonly poll: NodeJS.Timeout;
  private closing: Promise<void> | undefined;

  constructor(private readonly o: WalCheckpointsOptions) {
    this.intervalMs = o.intervalMs ?? 1_000;
    this.run = o.run ?? (() => (this.worker ??= checkpointWorker(o.file, o.nativeBinding)).checkpoint());
    o.db.pragma('wal_autocheckpoint = 0');
    o.db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
    // Writes outside the event log (clean-up, the search backfill, titles) say nothing: a WAL
    // grown past a few MB is checkpointed all the same.
    this.poll = setInterval(() => this.checkSize(), o.sizePoll?.ms ?? SIZE_POLL_MS);
    this.poll.unref();
  }

  /** Something was committed: a checkpoint follows within `intervalMs`. */
  noteWrite(): void {
    if (this.stopped) return;
    this.dirty = true;
    this.schedule();
  }

  /** Resolves when no checkpoint runs (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Stops checkpointing here; the connection checkpoints itself again. Resolves once a
   * checkpoint in flight is over and the worker's connection is closed, so the host's own
   * close is the last one (it checkpoints and removes the WAL).
   */
  dispose(): Promise<void> {
    if (this.closing) return this.closing;
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.poll);
    this.timer = undefined;
    if (this.o.db.open) this.o.db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    const running = this.running;
    this.closing = (async () => {
      // Its handlers never throw.
      if (running) await running;
      const worker = this.worker;
      this.worker = undefined;
      await worker?.close().catch((err: unknown) => this.o.log.warn('the checkpoint worker did not end cleanly', { error: String(err) }));
    })();
    return this.closing;
  }

  private checkSize(): void {
    if (this.stopped) return;
    let size = 0;
    try {
      size = statSync(`${this.o.file}-wal`).size;
    } catch {
      return; // no WAL file (nothing written since the last close): nothing to checkpoint
    }
    if (size <= (this.o.sizePoll?.bytes ?? WAL_POLL_BYTES)) return;
    this.dirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.running || this.timer || !this.dirty) return;
    const wait = this.lastStart + this.intervalMs - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      // A checkpoint due never keeps the process alive: closing the database checkpoints anyway.
      this.timer.unref();
      return;
    }
    this.dirty = false;
    this.lastStart = performance.now();
    this.running = this.run().then(
      (result) => {
        this.running = undefined;
        if (this.stopped) return;
        if (result.busy) this.o.log.debug('WAL checkpoint could not finish (a reader holds an older snapshot); the next one goes on', { ...result });
        this.schedule();
      },
      (err: unknown) => {
        this.running = undefined;
        // Stopping ends the worker under a checkpoint in flight: not a failure.
        if (this.stopped) return;
        this.o.log.warn('WAL checkpoints in a worker failed; the host connection checkpoints again itself', { error: String(err) });
        void this.dispose();
      },
    );
  }
}
