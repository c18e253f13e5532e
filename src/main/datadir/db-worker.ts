/**
 * The worker thread of `db-tasks.ts`: runs one task on its own connection and posts the result.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Sqlite } from '../store/sqlite';
import { sealCopy, snapshotTo } from '../store/backup';
import { fsyncPath } from '../store/compact';
import { checkDatabaseFile } from '../store/db-check';
import { storageReport } from '../store/storage-report';
import { recoveryOffer } from './backup-recovery';
import type { CheckpointMode, CheckpointResult, DbTask, DbTaskReply } from './db-tasks';

/** A passive checkpoint through a connection of its own: never waits for the host's writer. */
function checkpoint(file: string, binding: { nativeBinding?: string }): void {
  const db = new Sqlite(file, { fileMustExist: true, ...binding });
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } finally {
    db.close();
  }
}

/** `checkpointWorker`: one connection, a checkpoint per message (its mode), each answered. */
function serveCheckpoints(task: Extract<DbTask, { kind: 'checkpoints' }>): void {
  const db = new Sqlite(task.file, { fileMustExist: true, ...(task.nativeBinding ? { nativeBinding: task.nativeBinding } : {}) });
  // A truncating checkpoint holds the write lock while it waits for readers: it never waits here
  // (the host's writes would wait behind it, on the host's loop).
  db.pragma('busy_timeout = 0');
  parentPort?.on('message', (mode: CheckpointMode) => {
    try {
      const [result] = db.pragma(mode === 'truncate' ? 'wal_checkpoint(TRUNCATE)' : 'wal_checkpoint(PASSIVE)') as CheckpointResult[];
      parentPort?.postMessage({ ok: true, value: result } satisfies DbTaskReply);
    } catch (err) {
      parentPort?.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies DbTaskReply);
    }
  });
}

async function run(task: DbTask): Promise<unknown> {
  const binding = task.nativeBinding ? { nativeBinding: task.nativeBinding } : {};
  switch (task.kind) {
    case 'check':
      return checkDatabaseFile(task.file, { depth: task.depth, ...binding });
    case 'backup': {
      const { totalPages } = await snapshotTo(task.source, task.dest, binding);
      if (task.checkpoint) checkpoint(task.source, binding);
      sealCopy(task.dest, task.nativeBinding);
      const check = checkDatabaseFile(task.dest, { depth: task.depth, ...binding });
      if (check.ok) fsyncPath(task.dest);
      return { totalPages, check };
    }
    case 'report': {
      const db = new Sqlite(task.file, { readonly: true, fileMustExist: true, ...(task.nativeBinding ? { nativeBinding: task.nativeBinding } : {}) });
      try {
        return storageReport(db, task.largest);
      } finally {
        db.close();
      }
    }
    case 'offer':
      return recoveryOffer(task.database, task.detail, task.folder, task.nativeBinding);
    case 'checkpoints':
      throw new Error('checkpoints are served, not run once');
  }
}

// Below the host's own thread for the CPU: on Linux a thread has its own nice value (elsewhere
// this call would lower the whole app, so it is left out there).
if (process.platform === 'linux') {
  try {
    setPriority(19);
  } catch {
    // Not allowed here (a sandbox): the worker runs at the host's priority.
  }
}

const task = workerData as DbTask;
if (task.kind === 'checkpoints') {
  serveCheckpoints(task);
} else {
  run(task).then(
    (value) => parentPort?.postMessage({ ok: true, value } satisfies DbTaskReply),
    (err: unknown) => parentPort?.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies DbTaskReply),
  );
}
