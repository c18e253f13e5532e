/**
 * Database work that may take seconds on a large file (a backup and its check, the storage
 * report's page walk) runs in a worker thread on a connection of its own, so the host's event
 * loop, and with it every turn in flight, never waits on it. One short-lived worker per task.
 *
 * The worker is `db-worker.js` beside this bundle once built (an entry of electron.vite.config.ts),
 * or `db-worker.ts` run through tsx from source (tests, `serve` from a checkout).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CheckDepth, DatabaseCheck } from '../store/db-check';
import type { StorageReport } from '../store/storage-report';
import type { RecoveryOffer } from './backup-recovery';

export type DbTask =
  | { kind: 'check'; file: string; depth: CheckDepth; nativeBinding?: string }
  /**
   * A snapshot of `source` into `dest` (`snapshotTo`), made a self-contained file (`sealCopy`),
   * checked, and flushed to disk: ready to be renamed to a backup's name.
   */
  | {
      kind: 'backup';
      source: string;
      dest: string;
      depth: CheckDepth;
      /** Then fold what the source's WAL gathered meanwhile into it (its host held its own checkpoints). */
      checkpoint?: boolean;
      nativeBinding?: string;
    }
  | { kind: 'report'; file: string; largest: number; nativeBinding?: string }
  /**
   * A worker that stays: one connection to `file`, a passive checkpoint of its WAL per message
   * (`checkpointWorker`; the host's connection checkpoints nothing itself: `wal-checkpoints.ts`).
   */
  | { kind: 'checkpoints'; file: string; nativeBinding?: string }
  /** `recoveryOffer` for a damaged `database`: the newest backup in `folder` that passes its check. */
  | { kind: 'offer'; database: string; detail: string; folder: string; nativeBinding?: string };

export interface CopyResult {
  totalPages: number;
  check: DatabaseCheck;
}

/** SQLite's answer to `wal_checkpoint`: frames in the WAL and how many of them are now in the database. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export type DbTaskResult<T extends DbTask> = T extends { kind: 'check' }
  ? DatabaseCheck
  : T extends { kind: 'backup' }
    ? CopyResult
    : T extends { kind: 'offer' }
      ? RecoveryOffer
      : StorageReport;

/** What the worker posts back. */
export type DbTaskReply = { ok: true; value: unknown } | { ok: false; error: string };

/** How to start the worker: the built script, or the source through tsx's loader. */
function workerScript(): URL {
  const built = join(import.meta.dirname, 'db-worker.js');
  if (existsSync(built)) return pathToFileURL(built);
  const source = pathToFileURL(join(import.meta.dirname, 'db-worker.ts')).href;
  // A worker does not inherit the `--import tsx` of its parent: it loads the source through
  // tsx's API from a one-line ES module.
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `import { tsImport } from ${JSON.stringify(api)}; await tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

/** Runs `task` in a worker thread; rejects with the worker's error. */
export function runDbTask<T extends DbTask>(task: T, signal?: AbortSignal): Promise<DbTaskResult<T>> {
  const script = workerScript();
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: task });
    // Aborted (the host stops): the thread ends with its connection, so nothing of it touches
    // the data folder once the host has let go of it.
    const stop = (): void => void worker.terminate();
    if (signal?.aborted) stop();
    signal?.addEventListener('abort', stop, { once: true });
    worker.once('exit', () => signal?.removeEventListener('abort', stop));
    let settled = false;
    worker.once('message', (reply: DbTaskReply) => {
      settled = true;
      if (reply.ok) resolve(reply.value as DbTaskResult<T>);
      else reject(new Error(reply.error));
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the database worker exited (${code}) without an answer`));
    });
  });
}

/**
 * `passive` copies what it can and never waits; `truncate` also starts the WAL over and cuts its
 * file to nothing, for which no write may be in progress and no reader on an older snapshot
 * (the worker's connection does not wait for them: busy, it copies what it can and says so).
 */
export type CheckpointMode = 'passive' | 'truncate';

export interface CheckpointWorker {
  /** Runs one checkpoint; rejects if the worker is gone. */
  checkpoint(mode?: CheckpointMode): Promise<CheckpointResult>;
  /** Ends the worker (its connection closes; a checkpoint in flight finishes first in SQLite's eyes). */
  close(): Promise<void>;
}

/**
 * A worker thread that keeps one connection to `file` and checkpoints its WAL when asked, so a
 * checkpoint a second costs no thread start nor schema read. Unref'd: it never keeps the process up.
 */
export function checkpointWorker(file: string, nativeBinding?: string): CheckpointWorker {
  const worker = new Worker(workerScript(), { workerData: { kind: 'checkpoints', file, ...(nativeBinding ? { nativeBinding } : {}) } satisfies DbTask });
  worker.unref();
  const waiting: { resolve(r: CheckpointResult): void; reject(err: Error): void }[] = [];
  let gone: Error | undefined;
  const fail = (err: Error): void => {
    gone ??= err;
    for (const w of waiting.splice(0)) w.reject(gone);
  };
  worker.on('message', (reply: DbTaskReply) => {
    const w = waiting.shift();
    if (!w) return;
    if (reply.ok) w.resolve(reply.value as CheckpointResult);
    else w.reject(new Error(reply.error));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the checkpoint worker exited (${code})`)));
  return {
    checkpoint: (mode = 'passive') =>
      new Promise((resolve, reject) => {
        if (gone) return reject(gone);
        waiting.push({ resolve, reject });
        worker.postMessage(mode satisfies CheckpointMode);
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}

