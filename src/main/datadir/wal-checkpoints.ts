/**
 * The host's WAL checkpoints, off its event loop. SQLite's automatic checkpoint runs inside the
 * commit that crosses 1,000 WAL pages, on the connection that commits: the host's, on its event
 * loop, where copying 4 MB of pages into the database and waiting for the disk (its fsync) took
 * 10–100 ms in the middle of a flood (issue 21; bench/profile.ts ingest). Here the host's
 * connection checkpoints nothing itself; after writes, at most once per `intervalMs`, a worker
 * thread runs a passive checkpoint on a connection of its own, which never blocks the writer.
 * Durability is unchanged: a commit is in the WAL (safe from a process crash) when it returns,
 * as before; the WAL reaches the disk at the next checkpoint, as before, now within a second.
 *
 * Starting the WAL over (ADR 0031). A passive checkpoint copies the frames that were in the WAL
 * when it started; SQLite starts the WAL over only when a write begins with every frame copied.
 * Under a steady stream the writer commits every few milliseconds, so some frames are always
 * newer than the last checkpoint, and the WAL grew for as long as the stream lasted (408 MB in
 * 10 s at 1,000 events/s: bench/metrics/wal-growth.ts). So once the WAL holds more than
 * `limitBytes` of frames and a passive checkpoint has just copied all it saw, the background
 * writers are held (`WriteHold`: their turns wait, events queue in memory) for one more passive
 * checkpoint, which copies the little written meanwhile; the next write starts the WAL over
 * from its beginning (the file keeps its size and is written again from the start).
 *
 * A WAL file grown past `JOURNAL_SIZE_LIMIT` (during a backup, whose snapshot keeps every frame,
 * or a burst of writes) is cut back once the writes pause (`cutWhenIdleMs`), by a truncating
 * checkpoint in the worker with the writes held until it answers: it holds SQLite's write lock,
 * and a write meanwhile would wait for it on the host's loop. Not during a stream: cutting 400 MB
 * held a stream's events 140 ms (bench/metrics/backup.ts); the file is written again from its
 * start meanwhile, so it does not grow. The host's connection cuts nothing itself: cutting a WAL
 * file of hundreds of MB took 130 ms inside a commit on the host's loop.
 */
import { statSync } from 'node:fs';
import type { Db } from '../store/db';
import type { Logger } from '../util/log';
import { checkpointWorker, type CheckpointMode, type CheckpointResult, type CheckpointWorker } from './db-tasks';

/** SQLite's default `wal_autocheckpoint`, given back if checkpoints cannot run in a worker. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/**
 * A WAL file larger than this is cut back (by the worker's truncating checkpoint), so a burst of
 * writes (a clean-up of gigabytes, a backfill, a stream during a backup) does not leave a file
 * that size until the host quits. The host's connection cuts nothing itself (`journal_size_limit`
 * -1) while checkpoints run in the worker, and this limit when they do not.
 */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;
/** How often the WAL's size is looked at, for writes that did not say so (`noteWrite`). */
const SIZE_POLL_MS = 5_000;
/** A WAL larger than this is checkpointed even if no write said so. */
const WAL_POLL_BYTES = 4 * 1024 * 1024;
/** Past this many bytes of frames, the WAL is started over (writes are held for one checkpoint). */
const WAL_LIMIT_BYTES = 32 * 1024 * 1024;
/** The longest the writes are held for a passive checkpoint: past it they go on, checkpoint or not. */
const HOLD_MAX_MS = 100;
/**
 * A truncating one holds SQLite's write lock while it runs: a write let go meanwhile would wait
 * for the lock on the host's loop (its busy timeout, 5 s), freezing every window. So the writes
 * stay held until it answers (their events wait in memory), said in the log past `warnMs` (a
 * slow disk), and let go only past `maxMs`, against a worker that never answers.
 */
const TRUNCATE_HOLD = { warnMs: 2_000, maxMs: 30_000 };
/** A WAL file past its limit is cut back once nothing has been written for this long. */
const CUT_WHEN_IDLE_MS = 1_000;
/** After a held checkpoint that a reader kept from finishing (a backup), the next waits this long. */
const CATCH_UP_BACKOFF_MS = 5_000;

/** The background writers: told to hold their writes (queue them) while a checkpoint catches up, then to go on. */
export interface WriteHold {
  hold(): void;
  release(): void;
}

export interface WalCheckpointsOptions {
  db: Db;
  /** The database file (the worker opens its own connection to it). */
  file: string;
  log: Logger;
  nativeBinding?: string;
  /** Least time between two checkpoints' starts. */
  intervalMs?: number;
  /** How a checkpoint runs (default: in a worker thread that stays). */
  run?: (mode: CheckpointMode) => Promise<CheckpointResult>;
  /** How often the WAL's size is looked at, and the size past which it is checkpointed unasked. */
  sizePoll?: { ms: number; bytes: number };
  /** The writes held while a checkpoint starts the WAL over; without it a stream grows the WAL for as long as it lasts. */
  writes?: WriteHold;
  /** Bytes of frames past which the WAL is started over (default 32 MB). */
  limitBytes?: number;
  /** The WAL file's size past which it is cut back (default `JOURNAL_SIZE_LIMIT`)… */
  fileLimitBytes?: number;
  /** …once nothing has been written for this long (default 1 s). */
  cutWhenIdleMs?: number;
  /** The longest a hold lasts, and the wait after a truncating checkpoint a reader kept from finishing. */
  hold?: { maxMs: number; backoffMs: number };
  /** When a truncating checkpoint's hold is said to be slow, and the longest it lasts (default `TRUNCATE_HOLD`). */
  truncateHold?: { warnMs: number; maxMs: number };
}

export class WalCheckpoints {
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastStart = Number.NEGATIVE_INFINITY;
  /** Writes since the last checkpoint started. */
  private dirty = false;
  private stopped = false;
  private readonly intervalMs: number;
  private readonly run: (mode: CheckpointMode) => Promise<CheckpointResult>;
  /** Started at the first checkpoint: a host that writes nothing starts no thread. */
  private worker: CheckpointWorker | undefined;
  private readonly poll: NodeJS.Timeout;
  private closing: Promise<void> | undefined;
  private readonly pageSize: number;
  /** Set while the writes are held; ends them (once). */
  private holding: { timers: NodeJS.Timeout[]; started: number } | undefined;
  /** The next checkpoint's mode, when the writes are held for it. */
  private heldNext: CheckpointMode | undefined;
  /** When a write was last noted (`performance.now()`). */
  private lastWrite = Number.NEGATIVE_INFINITY;
  /** No catch-up starts before this (`performance.now()`). */
  private catchUpAfter = Number.NEGATIVE_INFINITY;
  /** Holds, held checkpoints that copied everything (the WAL starts over), and the longest hold: for tests and benchmarks. */
  readonly stats = { holds: 0, catchUps: 0, longestHoldMs: 0 };

  constructor(private readonly o: WalCheckpointsOptions) {
    this.intervalMs = o.intervalMs ?? 1_000;
    this.run = o.run ?? ((mode) => (this.worker ??= checkpointWorker(o.file, o.nativeBinding)).checkpoint(mode));
    this.pageSize = o.db.pragma('page_size', { simple: true }) as number;
    o.db.pragma('wal_autocheckpoint = 0');
    o.db.pragma(`journal_size_limit = ${o.writes ? -1 : JOURNAL_SIZE_LIMIT}`);
    // Writes outside the event log (clean-up, the search backfill, titles) say nothing: a WAL
    // grown past a few MB is checkpointed all the same.
    this.poll = setInterval(() => this.checkSize(), o.sizePoll?.ms ?? SIZE_POLL_MS);
    this.poll.unref();
  }

  /** Something was committed: a checkpoint follows within `intervalMs`. */
  noteWrite(): void {
    if (this.stopped) return;
    this.dirty = true;
    this.lastWrite = performance.now();
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
    this.endHold();
    clearTimeout(this.timer);
    clearInterval(this.poll);
    this.timer = undefined;
    if (this.o.db.open) {
      this.o.db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
      this.o.db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
    }
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

  /** The WAL file's size (0 when there is none: nothing written since the last close). */
  private walFileBytes(): number {
    try {
      return statSync(`${this.o.file}-wal`).size;
    } catch {
      return 0;
    }
  }

  private checkSize(): void {
    if (this.stopped) return;
    if (this.walFileBytes() <= (this.o.sizePoll?.bytes ?? WAL_POLL_BYTES)) return;
    this.dirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.running || this.timer || !(this.dirty || this.heldNext)) return;
    const wait = this.lastStart + this.intervalMs - performance.now();
    if (wait > 0 && !this.heldNext) {
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
    const held = this.heldNext;
    this.heldNext = undefined;
    this.running = this.run(held ?? 'passive').then(
      (result) => {
        this.running = undefined;
        if (this.stopped) return;
        const copiedAll = !result.busy && result.checkpointed === result.log;
        if (held) {
          this.endHold();
          if (copiedAll) this.stats.catchUps++;
          // A reader on an older snapshot (a backup) kept the WAL from starting over: not again at once.
          else this.catchUpAfter = performance.now() + (this.o.hold?.backoffMs ?? CATCH_UP_BACKOFF_MS);
        } else if (copiedAll && this.o.writes && performance.now() >= this.catchUpAfter) {
          // What is left to copy is what was written during this checkpoint: hold the writes for one more.
          const mode = this.catchUpMode(result);
          if (mode) this.startHold(this.o.writes, mode);
        }
        if (result.busy) this.o.log.debug('WAL checkpoint could not finish (a reader holds an older snapshot); the next one goes on', { ...result });
        this.schedule();
      },
      (err: unknown) => {
        this.running = undefined;
        this.endHold();
        // Stopping ends the worker under a checkpoint in flight: not a failure.
        if (this.stopped) return;
        this.o.log.warn('WAL checkpoints in a worker failed; the host connection checkpoints again itself', { error: String(err) });
        void this.dispose();
      },
    );
  }

  /** Whether the WAL is to be started over (passive) or also cut back (truncate), if at all. */
  private catchUpMode(result: CheckpointResult): CheckpointMode | undefined {
    const idle = performance.now() - this.lastWrite >= (this.o.cutWhenIdleMs ?? CUT_WHEN_IDLE_MS);
    if (idle && this.walFileBytes() > (this.o.fileLimitBytes ?? JOURNAL_SIZE_LIMIT)) return 'truncate';
    return result.log * this.pageSize > (this.o.limitBytes ?? WAL_LIMIT_BYTES) ? 'passive' : undefined;
  }

  private startHold(writes: WriteHold, mode: CheckpointMode): void {
    const truncate = this.o.truncateHold ?? TRUNCATE_HOLD;
    const started = performance.now();
    // A passive checkpoint slower than this (a busy disk) never keeps the transcript waiting
    // longer; it goes on unheld, and the next catch-up waits an interval, when there is less to copy.
    const timers = [
      setTimeout(
        () => {
          const facts = { mode, heldMs: Math.round(performance.now() - started) };
          if (mode === 'truncate') this.o.log.warn('cutting the WAL file back held transcript writes for its longest; they go on and may wait for it', facts);
          else this.o.log.debug('a WAL checkpoint held transcript writes for its longest; they go on without it', facts);
          this.endHold();
          this.catchUpAfter = performance.now() + this.intervalMs;
        },
        mode === 'truncate' ? truncate.maxMs : (this.o.hold?.maxMs ?? HOLD_MAX_MS),
      ),
    ];
    if (mode === 'truncate') {
      timers.push(setTimeout(() => this.o.log.warn('cutting the WAL file back is slow (the disk): transcript writes wait for it in memory', { heldMs: truncate.warnMs }), truncate.warnMs));
    }
    for (const timer of timers) timer.unref();
    this.holding = { timers, started };
    this.heldNext = mode;
    this.stats.holds++;
    writes.hold();
  }

  private endHold(): void {
    if (!this.holding) return;
    const { timers, started } = this.holding;
    for (const timer of timers) clearTimeout(timer);
    this.holding = undefined;
    this.stats.longestHoldMs = Math.max(this.stats.longestHoldMs, performance.now() - started);
    this.o.writes?.release();
  }
}
