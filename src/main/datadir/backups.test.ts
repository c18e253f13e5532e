import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotTo } from '../store/backup';
import { latestVersion, migrate } from '../store/migrations';
import { Store } from '../store/store';
import { FakeClock } from '../test-support/fake-clock';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { silentLogger } from '../util/log';
import {
  backupBeforeMigration,
  backupFileName,
  Backups,
  DAILY_BACKUP_INTERVAL_MS,
  isDailyDue,
  listBackups,
  parseBackupFileName,
  removePartialBackups,
  rotateBackups,
  type BackupInfo,
} from './backups';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const T0 = Date.parse('2026-11-26T13:04:05.123Z');
const DAY = 86_400_000;

function dataDir(): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return dir.path;
}

function liveStore(dir: string, sessions = [{ events: 200, textSize: 300 }]): { store: Store; database: string } {
  const database = join(dir, 'switchboard.db');
  const store = Store.open(database);
  cleanups.unshift(() => store.dispose());
  seedSessions(store, sessions);
  return { store, database };
}

const eventsIn = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

/** An empty file with a backup's name (what listing and rotation look at). */
function fakeBackup(folder: string, kind: BackupInfo['kind'], at: number, version = 11): string {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, backupFileName(kind, at, version));
  writeFileSync(file, '');
  return file;
}

describe('backup file names', () => {
  it('say the time, the schema version and the kind, and read back', () => {
    const name = backupFileName('pre-migration', T0, 7);
    expect(name).toBe('switchboard-2026-11-26T13-04-05-123Z-v0007-pre-migration.db');
    expect(parseBackupFileName(name)).toEqual({ kind: 'pre-migration', takenAt: T0, schemaVersion: 7 });
    expect(parseBackupFileName(backupFileName('daily', T0, 12345))).toEqual({ kind: 'daily', takenAt: T0, schemaVersion: 12345 });
  });

  it('are the only files listed: partial copies and other files are not backups', () => {
    const folder = join(dataDir(), 'backups');
    const older = fakeBackup(folder, 'daily', T0);
    const newer = fakeBackup(folder, 'pre-migration', T0 + 1);
    writeFileSync(join(folder, `.${backupFileName('daily', T0 + 2, 11)}.partial`), 'half');
    writeFileSync(join(folder, 'notes.txt'), '');
    expect(listBackups(folder).map((b) => b.file)).toEqual([newer, older]);
    expect(removePartialBackups(folder)).toHaveLength(1);
    expect(readdirSync(folder).sort()).toEqual([backupFileName('daily', T0, 11), backupFileName('pre-migration', T0 + 1, 11), 'notes.txt'].sort());
  });
});

describe('rotation and the daily rhythm', () => {
  it('keeps the newest N of each kind', () => {
    const folder = join(dataDir(), 'backups');
    for (let i = 0; i < 5; i++) fakeBackup(folder, 'daily', T0 + i * DAY);
    for (let i = 0; i < 3; i++) fakeBackup(folder, 'pre-migration', T0 + i * DAY + 1);
    const removed = rotateBackups(folder, 2);
    expect(removed).toHaveLength(4);
    const left = listBackups(folder);
    expect(left.filter((b) => b.kind === 'daily').map((b) => b.takenAt)).toEqual([T0 + 4 * DAY, T0 + 3 * DAY]);
    expect(left.filter((b) => b.kind === 'pre-migration').map((b) => b.takenAt)).toEqual([T0 + 2 * DAY + 1, T0 + DAY + 1]);
  });

  it('never deletes the last backup of a kind, whatever the setting says', () => {
    const folder = join(dataDir(), 'backups');
    fakeBackup(folder, 'daily', T0);
    expect(rotateBackups(folder, 0)).toEqual([]);
  });

  it('is due a day after the last daily backup (a pre-migration one does not count)', () => {
    const folder = join(dataDir(), 'backups');
    expect(isDailyDue([], T0)).toBe(true);
    fakeBackup(folder, 'daily', T0);
    fakeBackup(folder, 'pre-migration', T0 + DAY);
    const list = listBackups(folder);
    expect(isDailyDue(list, T0 + DAILY_BACKUP_INTERVAL_MS - 1)).toBe(false);
    expect(isDailyDue(list, T0 + DAILY_BACKUP_INTERVAL_MS)).toBe(true);
    // A clock set back past the last backup: take one rather than wait for days.
    expect(isDailyDue(list, T0 - 1)).toBe(true);
  });
});

describe('Backups.take', () => {
  it('writes a checked, self-contained copy under its final name and rotates', async () => {
    const dir = dataDir();
    const { database } = liveStore(dir);
    const folder = join(dir, 'backups');
    const clock = new FakeClock(T0);
    const backups = new Backups({ database, folder, clock, log: silentLogger, keep: () => 2 });
    for (let i = 0; i < 3; i++) {
      await backups.take('daily');
      await clock.advance(DAY);
    }
    const list = backups.list();
    expect(list.map((b) => b.takenAt)).toEqual([T0 + 2 * DAY, T0 + DAY]);
    expect(list[0]).toMatchObject({ kind: 'daily', schemaVersion: latestVersion });
    expect(eventsIn(list[0]!.file)).toBe(200);
    // Sealed in the worker: one file, rollback journal.
    expect(readdirSync(folder).sort()).toEqual(list.map((b) => b.file.slice(folder.length + 1)).sort());
    const db = new Database(list[0]!.file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    db.close();
  });

  it('takes a daily backup only when one is due', async () => {
    const dir = dataDir();
    const { database } = liveStore(dir);
    const clock = new FakeClock(T0);
    const backups = new Backups({ database, folder: join(dir, 'backups'), clock, log: silentLogger, keep: () => 7 });
    expect(await backups.takeDailyIfDue()).toMatchObject({ kind: 'daily', takenAt: T0 });
    await clock.advance(DAY - 1);
    expect(await backups.takeDailyIfDue()).toBeUndefined();
    await clock.advance(1);
    expect(await backups.takeDailyIfDue()).toMatchObject({ takenAt: T0 + DAY });
  });

  it('runs one backup at a time: a second call gets the first one', async () => {
    const dir = dataDir();
    const { database } = liveStore(dir);
    const backups = new Backups({ database, folder: join(dir, 'backups'), clock: new FakeClock(T0), log: silentLogger, keep: () => 7 });
    const [a, b] = await Promise.all([backups.take('daily'), backups.take('daily')]);
    expect(b).toBe(a);
    expect(backups.list()).toHaveLength(1);
  });

  it('holds the host connection\'s automatic checkpoints while the copy runs, and gives them back however it ends', async () => {
    const dir = dataDir();
    const { store, database } = liveStore(dir);
    const seen: number[] = [];
    let fail = false;
    const backups = new Backups({
      database,
      hostDb: store.db,
      folder: join(dir, 'backups'),
      clock: new FakeClock(T0),
      log: silentLogger,
      keep: () => 7,
      copy: async (source, dest) => {
        seen.push(store.db.pragma('wal_autocheckpoint', { simple: true }) as number);
        if (fail) throw new Error('disk full');
        const { totalPages } = await snapshotTo(source, dest);
        return { totalPages, check: { ok: true, schemaVersion: latestVersion } };
      },
    });
    await backups.take('daily');
    fail = true;
    await expect(backups.take('daily')).rejects.toThrow('disk full');
    expect(seen).toEqual([0, 0]);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('keeps no file when the copy fails its check', async () => {
    const dir = dataDir();
    const { database } = liveStore(dir);
    const folder = join(dir, 'backups');
    const backups = new Backups({
      database,
      folder,
      clock: new FakeClock(T0),
      log: silentLogger,
      keep: () => 7,
      copy: (_source, dest) => {
        writeFileSync(dest, 'a copy that went wrong');
        return Promise.resolve({ totalPages: 1, check: { ok: false, problem: 'corrupt', detail: 'row 3 missing from index' } });
      },
    });
    await expect(backups.take('daily')).rejects.toThrow('the backup failed its check: row 3 missing from index');
    expect(readdirSync(folder)).toEqual([]);
  });

  it('a backup killed before it is named leaves nothing that counts as a backup, and the next one clears it away', async () => {
    const dir = dataDir();
    const { store: seeded, database } = liveStore(dir, [{ events: 600, textSize: 400 }]);
    seeded.dispose();
    const folder = join(dir, 'backups');
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, '../test-support/backup-child.ts'), database, folder], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((midway, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('copied')) midway();
      });
      child.once('exit', (code) => reject(new Error(`the backup ended (${code}) before it was killed`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    expect(readdirSync(folder).some((name) => name.endsWith('.partial'))).toBe(true);
    expect(listBackups(folder)).toEqual([]);
    const store = Store.open(database);
    cleanups.unshift(() => store.dispose());
    const backups = new Backups({ database, folder, clock: new FakeClock(T0), log: silentLogger, keep: () => 7 });
    const taken = await backups.take('daily');
    expect(readdirSync(folder)).toEqual([taken.file.slice(folder.length + 1)]);
    expect(eventsIn(taken.file)).toBe(600);
  });
});

describe('backupBeforeMigration', () => {
  it('keeps the database as it was before an upgrade, named with its old schema version', () => {
    const dir = dataDir();
    const file = join(dir, 'switchboard.db');
    const old = new Database(file);
    migrate(old, 6);
    old.prepare(`INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('s', 'demo', '/', 'ENDED', 1, 1, 1)`).run();
    old.close();
    const folder = join(dir, 'backups');
    const store = Store.open(file, { beforeMigrate: backupBeforeMigration({ folder, clock: new FakeClock(T0), log: silentLogger, keep: 7 }) });
    store.dispose();

    const [backup, ...more] = listBackups(folder);
    expect(more).toEqual([]);
    expect(backup).toMatchObject({ kind: 'pre-migration', schemaVersion: 6, takenAt: T0 });
    const copy = new Database(backup!.file, { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(6);
    expect(copy.prepare('SELECT id FROM sessions').all()).toEqual([{ id: 's' }]);
    copy.close();
  });

  it('refuses the upgrade when no backup can be written, leaving the database at its version', () => {
    const dir = dataDir();
    const file = join(dir, 'switchboard.db');
    const old = new Database(file);
    migrate(old, 5);
    old.close();
    // A file where the backups folder should be: nothing can be written there.
    const folder = join(dir, 'backups');
    writeFileSync(folder, 'in the way');
    expect(() => Store.open(file, { beforeMigrate: backupBeforeMigration({ folder, clock: new FakeClock(T0), log: silentLogger, keep: 7 }) })).toThrow();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(5);
    db.close();
    expect(existsSync(folder)).toBe(true);
  });
});
