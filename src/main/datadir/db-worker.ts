/**
 * The worker thread of `db-tasks.ts`: runs one task on its own connection and posts the result.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { sealCopy } from '../store/backup';
import { checkDatabaseFile } from '../store/db-check';
import { storageReport } from '../store/storage-report';
import type { DbTask, DbTaskReply } from './db-tasks';

function run(task: DbTask): unknown {
  switch (task.kind) {
    case 'check':
      if (task.seal) sealCopy(task.file, task.nativeBinding);
      return checkDatabaseFile(task.file, { depth: task.depth, ...(task.nativeBinding ? { nativeBinding: task.nativeBinding } : {}) });
    case 'report': {
      const db = new Database(task.file, { readonly: true, fileMustExist: true, ...(task.nativeBinding ? { nativeBinding: task.nativeBinding } : {}) });
      try {
        return storageReport(db, task.largest);
      } finally {
        db.close();
      }
    }
  }
}

let reply: DbTaskReply;
try {
  reply = { ok: true, value: run(workerData as DbTask) };
} catch (err) {
  reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
}
parentPort?.postMessage(reply);
