import Database from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../shared/errors';
import { DataDirLock } from '../datadir/data-dir-lock';
import { latestVersion, migrate } from '../store/migrations';
import { Store } from '../store/store';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { backupToFile, restoreFromFile, type DataFiles } from './restore';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const T0 = Date.parse('2026-11-26T13:04:05.123Z');

function folder(): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return dir.path;
}

function filesOf(dir: string): DataFiles {
  return { database: join(dir, 'switchboard.db'), lock: join(dir, 'host.lock') };
}

function sessionIds(file: string): string[] {
  const store = Store.open(file);
  try {
    return store.sessions.list().map((s) => s.id).sort();
  } finally {
    store.dispose();
  }
}

const restoreOptions = { acquireLock: (file: string) => DataDirLock.acquire(file), now: () => T0 };

describe('backupToFile', () => {
  it('copies the database while a host writes to it, as one checked file', async () => {
    const dir = folder();
    const files = filesOf(dir);
    const host = Store.open(files.database);
    cleanups.unshift(() => host.dispose());
    const ids = seedSessions(host, [{ events: 50 }, { events: 20 }]);
    const target = join(folder(), 'copy.db');

    const result = await backupToFile(files.database, target);
    // The host goes on writing; the copy is the snapshot it took.
    seedSessions(host, [{ events: 5 }]);

    expect(result).toMatchObject({ file: target, schemaVersion: latestVersion });
    expect(sessionIds(target)).toEqual([...ids].sort());
    expect(existsSync(`${target}-wal`)).toBe(false);
  });

  it('refuses to overwrite a file, and to copy a database that is not there', async () => {
    const dir = folder();
    const files = filesOf(dir);
    Store.open(files.database).dispose();
    const target = join(dir, 'taken.db');
    writeFileSync(target, 'mine');
    await expect(backupToFile(files.database, target)).rejects.toThrow(/exists already/);
    expect(readFileSync(target, 'utf8')).toBe('mine');
    await expect(backupToFile(join(dir, 'none.db'), join(dir, 'x.db'))).rejects.toThrow(/There is no database to back up/);
  });
});

describe('restoreFromFile', () => {
  async function backupWith(sessions: number): Promise<{ file: string; ids: string[] }> {
    const dir = folder();
    const store = Store.open(join(dir, 'src.db'));
    const ids = seedSessions(store, Array.from({ length: sessions }, () => ({ events: 10 })));
    store.dispose();
    const file = join(dir, 'backup.db');
    await backupToFile(join(dir, 'src.db'), file);
    return { file, ids };
  }

  it('puts the backup in place and keeps the current database aside, with a timestamp', async () => {
    const backup = await backupWith(2);
    const dir = folder();
    const files = filesOf(dir);
    const store = Store.open(files.database);
    const currentIds = seedSessions(store, [{ events: 3 }]);
    store.dispose();

    const result = restoreFromFile(files, backup.file, restoreOptions);

    expect(result).toEqual({ restoredFrom: backup.file, schemaVersion: latestVersion, setAside: `${files.database}.before-restore-2026-11-26T13-04-05-123Z` });
    expect(sessionIds(files.database)).toEqual([...backup.ids].sort());
    expect(sessionIds(result.setAside!)).toEqual(currentIds);
    // The backup is left as it was, and the lock is free again.
    expect(sessionIds(backup.file)).toEqual([...backup.ids].sort());
    DataDirLock.acquire(files.lock).dispose();
  });

  it('keeps writes the current database had only in its WAL, in the copy set aside', async () => {
    const backup = await backupWith(1);
    const dir = folder();
    const files = filesOf(dir);
    // A host that crashed: its last commits are in the WAL, not yet in the main file.
    const crashed = new Database(files.database);
    migrate(crashed);
    crashed.pragma('journal_mode = WAL');
    crashed.pragma('wal_autocheckpoint = 0');
    crashed.prepare(`INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('only-in-wal', 'demo', '/', 'ENDED', 1, 1, 1)`).run();
    const copyOfWal = readFileSync(`${files.database}-wal`);
    const copyOfMain = readFileSync(files.database);
    crashed.close();
    writeFileSync(files.database, copyOfMain);
    writeFileSync(`${files.database}-wal`, copyOfWal);

    const result = restoreFromFile(files, backup.file, restoreOptions);
    expect(sessionIds(result.setAside!)).toEqual(['only-in-wal']);
    expect(sessionIds(files.database)).toEqual(backup.ids);
  });

  it('restores into a data folder that has no database yet', async () => {
    const backup = await backupWith(1);
    const files = filesOf(join(folder(), 'new-folder'));
    expect(restoreFromFile(files, backup.file, restoreOptions).setAside).toBeUndefined();
    expect(sessionIds(files.database)).toEqual(backup.ids);
  });

  it('refuses while a host holds the data folder, changing nothing', async () => {
    const backup = await backupWith(1);
    const dir = folder();
    const files = filesOf(dir);
    Store.open(files.database).dispose();
    const before = readFileSync(files.database);
    const held = DataDirLock.acquire(files.lock);
    cleanups.unshift(() => held.dispose());
    let error: unknown;
    try {
      restoreFromFile(files, backup.file, restoreOptions);
    } catch (err) {
      error = err;
    }
    expect(isAppError(error) && error.code).toBe('already_exists');
    expect((error as Error).message).toMatch(/Another Switchboard \(pid \d+\) is already using this data folder/);
    expect(readFileSync(files.database).equals(before)).toBe(true);
  });

  it('refuses a damaged file, a newer one and one that is not Switchboard\'s, before touching anything', () => {
    const dir = folder();
    const files = filesOf(dir);
    const damaged = join(dir, 'damaged.db');
    writeFileSync(damaged, 'SQLite format 3\0'.padEnd(8192, 'x'));
    expect(() => restoreFromFile(files, damaged, restoreOptions)).toThrow(/^Cannot restore: .*damaged\.db is damaged/);

    const newer = join(dir, 'newer.db');
    const db = new Database(newer);
    migrate(db);
    db.pragma(`user_version = ${latestVersion + 1}`);
    db.close();
    expect(() => restoreFromFile(files, newer, restoreOptions)).toThrow(/was written by a newer Switchboard .* Use that newer Switchboard to restore it\./);

    const foreign = join(dir, 'foreign.db');
    new Database(foreign).exec('CREATE TABLE t (x)').close();
    expect(() => restoreFromFile(files, foreign, restoreOptions)).toThrow(/is not a Switchboard database/);
    expect(() => restoreFromFile(files, join(dir, 'absent.db'), restoreOptions)).toThrow(/does not exist/);
    expect(existsSync(files.database)).toBe(false);
  });

  it('takes an older schema as it is: the next start upgrades it', () => {
    const dir = folder();
    const files = filesOf(dir);
    const old = join(dir, 'old.db');
    const db = new Database(old);
    migrate(db, 6);
    db.prepare(`INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('s6', 'demo', '/', 'ENDED', 1, 1, 1)`).run();
    db.close();
    expect(restoreFromFile(files, old, restoreOptions).schemaVersion).toBe(6);
    expect(sessionIds(files.database)).toEqual(['s6']);
  });
});
