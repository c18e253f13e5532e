import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../store/db';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { tempDir } from '../test-support/temp-dir';
import type { CheckpointResult } from './db-tasks';
import { WalCheckpoints } from './wal-checkpoints';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).reverse().forEach((c) => c()));

function database(): { db: Db; file: string } {
  const dir = tempDir();
  const file = join(dir.path, 'host.db');
  const db = openDatabase(file);
  db.exec('CREATE TABLE blobs (b BLOB)');
  cleanups.push(() => {
    if (db.open) db.close();
    dir.cleanup();
  });
  return { db, file };
}

/** 2 MB in 500 commits: more WAL pages than the automatic checkpoint's 1,000. */
function write(db: Db): void {
  const insert = db.prepare('INSERT INTO blobs (b) VALUES (?)');
  for (let i = 0; i < 500; i++) insert.run(Buffer.alloc(4096, i));
}

describe('WAL checkpoints off the event loop', () => {
  it('keeps the host connection from checkpointing inside its commits', () => {
    const { db, file } = database();
    const checkpoints = new WalCheckpoints({ db, file, log: captureLogger([]), run: () => new Promise(() => {}) });
    cleanups.push(() => checkpoints.dispose());
    const before = statSync(file).size;
    write(db);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    expect(statSync(file).size).toBe(before);
  });

  it('checkpoints in a worker thread after writes, and gives the connection its own checkpoints back when disposed', async () => {
    const { db, file } = database();
    const checkpoints = new WalCheckpoints({ db, file, log: captureLogger([]), intervalMs: 0 });
    const before = statSync(file).size;
    write(db);
    checkpoints.noteWrite();
    await checkpoints.idle();
    expect(statSync(file).size).toBeGreaterThan(before + 2_000_000);
    checkpoints.dispose();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('runs one checkpoint at a time, another after it for the writes meanwhile, and at most one per interval', async () => {
    const { db, file } = database();
    const runs: ((r: CheckpointResult) => void)[] = [];
    const run = (): Promise<CheckpointResult> => new Promise((r) => runs.push(r));
    const checkpoints = new WalCheckpoints({ db, file, log: captureLogger([]), intervalMs: 0, run });
    cleanups.push(() => checkpoints.dispose());
    checkpoints.noteWrite();
    checkpoints.noteWrite();
    expect(runs).toHaveLength(1);
    runs[0]!({ busy: 0, log: 10, checkpointed: 10 });
    await new Promise<void>((r) => setImmediate(r));
    expect(runs).toHaveLength(2);
    runs[1]!({ busy: 0, log: 1, checkpointed: 1 });
    await checkpoints.idle();
    expect(runs).toHaveLength(2);

    const slow = new WalCheckpoints({ db, file, log: captureLogger([]), intervalMs: 60_000, run });
    cleanups.push(() => slow.dispose());
    slow.noteWrite();
    expect(runs).toHaveLength(3);
    runs[2]!({ busy: 0, log: 0, checkpointed: 0 });
    await slow.idle();
    slow.noteWrite();
    await new Promise<void>((r) => setImmediate(r));
    expect(runs).toHaveLength(3);
  });

  it('hands checkpoints back to the connection when the worker fails, and says so', async () => {
    const { db, file } = database();
    const logged: LogEntry[] = [];
    const checkpoints = new WalCheckpoints({ db, file, log: captureLogger(logged), intervalMs: 0, run: () => Promise.reject(new Error('no worker here')) });
    checkpoints.noteWrite();
    await checkpoints.idle();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(logged).toEqual([expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ error: 'Error: no worker here' }) })]);
  });
});
