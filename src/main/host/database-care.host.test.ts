import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackupListT, StorageStatusT } from '../../shared/contract';
import { isAppError } from '../../shared/errors';
import { backupFileName, backupsFolder, listBackups } from '../datadir/backups';
import { requestRecovery, type RecoveryOffer } from '../datadir/backup-recovery';
import { DamagedDatabaseError } from '../datadir/open-data-store';
import { BACKUP_CHECK_INTERVAL_MS, START_CHECK_DELAY_MS } from '../datadir/storage-care';
import { latestVersion } from '../store/migrations';
import { Store } from '../store/store';
import { fixtureFileName } from '../store/fixtures/fixture-data';
import { FakeClock } from '../test-support/fake-clock';
import { startHarness, TestWindow, type Harness } from '../test-support/host-harness';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { silentLogger } from '../util/log';
import { SessionHost, type HostOptions } from './session-host';

/**
 * Issue 23, the host's start and its backups: a database too damaged to open is offered its
 * newest good backup; damage found by the check after the start is told to every window and
 * to the shell; a migration takes a backup first; daily backups rotate on the host's timer.
 */

const T0 = Date.parse('2026-11-26T13:04:05.123Z');
const DAY = 86_400_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function dataDir(): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return dir.path;
}

async function start(dir: string, options: Partial<HostOptions> = {}): Promise<SessionHost> {
  const host = await SessionHost.start({ dataDir: dir, headless: true, log: silentLogger, graceMs: 500, ...options });
  cleanups.push(() => host.shutdown());
  return host;
}

/** A data folder with two sessions, a backup of them taken a day ago, then a third session. */
function folderWithBackup(): { dir: string; database: string; backup: string; ids: string[] } {
  const dir = dataDir();
  const database = join(dir, 'switchboard.db');
  const store = Store.open(database);
  const ids = seedSessions(store, [{ events: 12 }, { events: 6 }]);
  mkdirSync(backupsFolder(dir));
  const backup = join(backupsFolder(dir), backupFileName('daily', T0 - DAY, latestVersion));
  store.db.prepare('VACUUM INTO ?').run(backup);
  ids.push(...seedSessions(store, [{ events: 4 }], T0));
  store.dispose();
  return { dir, database, backup, ids };
}

/** Overwrites the pages of the transcripts (not the sessions), as a failing disk would. */
function damageTranscripts(file: string): void {
  const db = new Database(file, { readonly: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = (db.prepare(`SELECT pageno FROM dbstat WHERE name = 'events'`).all() as { pageno: number }[]).map((r) => r.pageno);
  db.close();
  const bytes = readFileSync(file);
  for (const page of pages) bytes.fill(0xa5, (page - 1) * pageSize, page * pageSize);
  writeFileSync(file, bytes);
}

describe('a database too damaged to open', () => {
  it('is offered its newest good backup; taken, the backup is in place and the damaged file kept aside', async () => {
    const { dir, database, backup, ids } = folderWithBackup();
    const bytes = readFileSync(database);
    bytes.fill(0xa5, 0, 100);
    writeFileSync(database, bytes);
    const offers: RecoveryOffer[] = [];
    const host = await start(dir, { clock: new FakeClock(T0), recover: (offer) => (offers.push(offer), Promise.resolve(true)) });
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ damaged: database, backup: { file: backup, kind: 'daily', takenAt: T0 - DAY } });
    // The header is gone: what was stored since cannot be counted, and the offer says so.
    expect(offers[0]!.lost).toEqual({ since: T0 - DAY, sessions: undefined, titles: [], events: undefined });
    expect(host.store.sessions.list().map((s) => s.id).sort()).toEqual(ids.slice(0, 2).sort());
    const aside = readdirSync(dir).filter((n) => n.startsWith('switchboard.db.damaged-'));
    expect(aside).toEqual([`switchboard.db.damaged-${new Date(T0).toISOString().replace(/[:.]/g, '-')}`]);
    expect(readFileSync(join(dir, aside[0]!)).equals(bytes)).toBe(true);
  });

  it('is refused, untouched, when the person declines; the refusal names the offer', async () => {
    const { dir, database } = folderWithBackup();
    const bytes = readFileSync(database);
    bytes.fill(0xa5, 0, 100);
    writeFileSync(database, bytes);
    const failure = await SessionHost.start({ dataDir: dir, headless: true, log: silentLogger, recover: () => Promise.resolve(false) }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DamagedDatabaseError);
    expect(isAppError(failure) && failure.code).toBe('storage_failed');
    expect((failure as Error).message).toMatch(/is damaged \(file is not a database\)[\s\S]*The newest good backup was taken 2026-11-25 13:04 UTC/);
    expect(readFileSync(database).equals(bytes)).toBe(true);
    // The lock was let go: the next start (accepting) can take the folder.
    await start(dir, { recover: () => Promise.resolve(true) });
  });

  it('whose pages fail the first reads after opening, is offered the backup the same way', async () => {
    const { dir, database, backup, ids } = folderWithBackup();
    // The sessions' own pages: opening works, reading them at start (recovery) does not.
    const db = new Database(database, { readonly: true });
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = (db.prepare(`SELECT pageno FROM dbstat WHERE name IN ('sessions', 'sessions_by_state')`).all() as { pageno: number }[]).map((r) => r.pageno);
    db.close();
    const bytes = readFileSync(database);
    for (const page of pages) bytes.fill(0xa5, (page - 1) * pageSize, page * pageSize);
    writeFileSync(database, bytes);
    const offers: RecoveryOffer[] = [];
    const host = await start(dir, { recover: (offer) => (offers.push(offer), Promise.resolve(true)) });
    expect(offers.map((o) => o.backup?.file)).toEqual([backup]);
    expect(host.store.sessions.list().map((s) => s.id).sort()).toEqual(ids.slice(0, 2).sort());
  });
});

describe('damage found by the check after the start', () => {
  it('tells every window and the shell, with the backup and what would be lost, takes no backup, and goes on', async () => {
    const { dir, database, backup } = folderWithBackup();
    damageTranscripts(database);
    const damaged: RecoveryOffer[] = [];
    const clock = new FakeClock(T0);
    const host = await start(dir, { clock, onDamaged: (offer) => damaged.push(offer) });
    const w = new TestWindow(host);
    expect(w.events.filter((e) => e.event === 'host:storage')).toEqual([]);
    // The check waits for the start to settle, then runs in a worker.
    await clock.advance(START_CHECK_DELAY_MS);
    const status = await w.waitFor('host:storage', (s: StorageStatusT) => !s.ok);
    expect(status).toMatchObject({ ok: false, problem: 'corrupt' });
    expect(status.message).toContain(`The database ${database} is damaged`);
    expect(status.message).toContain('The newest good backup was taken 2026-11-25 13:04 UTC');
    expect(status.message).toContain('loses what was stored since: 1 new session (“Session 0: w0x1”)');
    expect(status.message).toContain(`switchboard restore "${backup}" --data-dir "${dir}"`);
    expect(damaged.map((o) => o.backup?.file)).toEqual([backup]);
    // A window that connects later hears it at once, and a write that commits does not clear it.
    await w.call('sessions:create', {});
    expect(new TestWindow(host).events).toEqual([{ event: 'host:storage', payload: status }]);
    // No backup of a damaged file: none now, none a day later, none on request.
    await clock.advance(DAY + BACKUP_CHECK_INTERVAL_MS);
    expect(listBackups(backupsFolder(dir)).map((b) => b.file)).toEqual([backup]);
    await expect(w.call('storage:backup', {})).rejects.toMatchObject({ code: 'invalid_state' });
  });

  it('a restore accepted then (the desktop dialog) is done at the next start, under the lock, before the store opens', async () => {
    const { dir, database, backup, ids } = folderWithBackup();
    damageTranscripts(database);
    const first = await start(dir);
    await first.storageCare.check();
    expect(first.storageCare.damage?.backup?.file).toBe(backup);
    requestRecovery(dir, T0);
    await first.shutdown();
    const second = await start(dir, { clock: new FakeClock(T0 + DAY) });
    expect(second.store.sessions.list().map((s) => s.id).sort()).toEqual(ids.slice(0, 2).sort());
    // Kept aside with the WAL it had.
    expect(readdirSync(dir).filter((n) => n.startsWith('switchboard.db.damaged-')).map((n) => n.replace(/\d/g, 'N'))).toEqual(
      ['switchboard.db.damaged-NNNN-NN-NNTNN-NN-NN-NNNZ', 'switchboard.db.damaged-NNNN-NN-NNTNN-NN-NN-NNNZ-wal'],
    );
    expect(existsSync(join(dir, 'recover-requested'))).toBe(false);
    await expect(second.storageCare.check()).resolves.toMatchObject({ ok: true });
  });

  it('a healthy database passes, and the first daily backup follows', async () => {
    const dir = dataDir();
    const clock = new FakeClock(T0);
    const host = await start(dir, { clock });
    const w = new TestWindow(host);
    await expect(host.storageCare.check()).resolves.toMatchObject({ ok: true });
    await clock.advance(0);
    const list = await w.waitFor('storage:backups', (l: BackupListT) => !l.running && l.backups.length === 1);
    expect(list.backups[0]).toMatchObject({ kind: 'daily', takenAt: T0, schemaVersion: latestVersion });
    expect(w.events.filter((e) => e.event === 'host:storage')).toEqual([]);
  });
});

describe('a migration', () => {
  it('takes a checked backup of the database as it was before upgrading it', async () => {
    const dir = dataDir();
    const database = join(dir, 'switchboard.db');
    copyFileSync(join(import.meta.dirname, '../store/fixtures', fixtureFileName(8)), database);
    const before = new Database(database, { readonly: true });
    const sessionsBefore = before.prepare('SELECT COUNT(*) FROM sessions').pluck().get() as number;
    before.close();
    const host = await start(dir, { clock: new FakeClock(T0) });
    expect(host.store.db.pragma('user_version', { simple: true })).toBe(latestVersion);
    const backups = listBackups(backupsFolder(dir));
    expect(backups).toMatchObject([{ kind: 'pre-migration', schemaVersion: 8, takenAt: T0 }]);
    const copy = new Database(backups[0]!.file, { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(8);
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(sessionsBefore);
    copy.close();
    // Nothing partial is left behind.
    expect(readdirSync(backupsFolder(dir)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('is refused, the database left as it was, when no backup can be taken first', async () => {
    const dir = dataDir();
    const database = join(dir, 'switchboard.db');
    copyFileSync(join(import.meta.dirname, '../store/fixtures', fixtureFileName(8)), database);
    // A file where the backups folder should be: no copy can be written.
    writeFileSync(backupsFolder(dir), 'in the way');
    const failure = await SessionHost.start({ dataDir: dir, headless: true, log: silentLogger }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'storage_failed', problem: 'unwritable' });
    expect((failure as Error).message).toMatch(/^Switchboard must upgrade its database \(schema 8 to \d+\) and takes a backup of it first, but could not \(EEXIST.*Nothing was changed/);
    // Not upgraded (the journal mode is all that opening it set).
    const db = new Database(database, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(8);
    db.close();
  });
});

describe('daily backups', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('are taken once a day on the host timer and rotated to the backupsKept setting', async () => {
    const clock = new FakeClock(T0);
    h = await startHarness({ clock });
    const w = h.window();
    await w.call('settings:update', { backupsKept: 2 });
    await h.host.storageCare.check();
    await clock.advance(0);
    const taken = async (n: number): Promise<BackupListT> => w.waitFor('storage:backups', (l: BackupListT) => !l.running && l.backups.length === n && l.backups[0]!.takenAt === clock.now());
    await taken(1);
    // An hour on, none is due; a day on, one is.
    await clock.advance(BACKUP_CHECK_INTERVAL_MS);
    expect(listBackups(backupsFolder(h.dataDir))).toHaveLength(1);
    for (let day = 1; day <= 3; day++) {
      const mark = w.mark();
      await clock.advance(DAY - BACKUP_CHECK_INTERVAL_MS);
      await clock.advance(BACKUP_CHECK_INTERVAL_MS);
      await w.waitFor('storage:backups', (l: BackupListT) => !l.running && l.backups[0]!.takenAt > T0 + (day - 1) * DAY + BACKUP_CHECK_INTERVAL_MS, 15_000, mark);
    }
    const kept = listBackups(backupsFolder(h.dataDir));
    expect(kept.map((b) => b.kind)).toEqual(['daily', 'daily']);
    expect(kept[0]!.takenAt - kept[1]!.takenAt).toBe(DAY);
    expect((await w.call('storage:backups', {})).backups.map((b) => b.name)).toEqual(kept.map((b) => b.file.split('/').pop()));
    expect(existsSync(h.database)).toBe(true);
  });

  it('refuses a backupsKept that is not a whole number of at least 1', async () => {
    h = await startHarness();
    const w = h.window();
    await expect(w.call('settings:update', { backupsKept: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('settings:update', { backupsKept: 1.5 })).rejects.toMatchObject({ code: 'invalid_request' });
    expect((await w.call('host:info', {})).settings.backupsKept).toBe(7);
  });
});
