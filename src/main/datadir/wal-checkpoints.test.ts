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
    await checkpoints.dispose();
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

  it('checkpoints a WAL grown by writes that said nothing (clean-up, backfill), with a size limit for the file', async () => {
    const { db, file } = database();
    const checkpoints = new WalCheckpoints({ db, file, log: captureLogger([]), intervalMs: 0, sizePoll: { ms: 20, bytes: 1_000_000 } });
    cleanups.push(() => void checkpoints.dispose());
    const before = statSync(file).size;
    write(db);
    // No noteWrite: the size poll finds the WAL past its limit.
    await expect.poll(() => statSync(file).size, { timeout: 5_000 }).toBeGreaterThan(before + 2_000_000);
    expect(db.pragma('journal_size_limit', { simple: true })).toBe(64 * 1024 * 1024);
  });

  it('lets a checkpoint in flight at dispose finish, starts none after it, and resolves once it is over', async () => {
    const { db, file } = database();
    const runs: ((r: CheckpointResult) => void)[] = [];
    const run = (): Promise<CheckpointResult> => new Promise((r) => runs.push(r));
    const entries: LogEntry[] = [];
    const checkpoints = new WalCheckpoints({ db, file, log: captureLogger(entries), intervalMs: 0, run });
    checkpoints.noteWrite();
    expect(runs).toHaveLength(1);
    checkpoints.noteWrite(); // a write during the checkpoint
    let closed = false;
    const disposed = checkpoints.dispose().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    runs[0]!({ busy: 0, log: 0, checkpointed: 0 });
    await disposed;
    expect(runs).toHaveLength(1);
    expect(entries.filter((e) => e.level === 'warn')).toEqual([]);
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
