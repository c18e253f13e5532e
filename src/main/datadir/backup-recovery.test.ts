import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../store/store';
import { FakeClock } from '../test-support/fake-clock';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { silentLogger } from '../util/log';
import { backupFileName, Backups, listBackups } from './backups';
import { checkAtStart, checkAtStartInWorker, recoverFromBackup, recoveryOffer } from './backup-recovery';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const T0 = Date.parse('2026-11-26T13:04:05.123Z');
const DAY = 86_400_000;

/**
 * A data folder that had a daily backup a day ago, kept working (new sessions, more events in
 * an old one), and then got damaged past its first pages.
 */
async function damagedFolder() {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  const database = join(dir.path, 'switchboard.db');
  const folder = join(dir.path, 'backups');
  const store = Store.open(database);
  const [old] = seedSessions(store, [{ events: 20 }, { events: 10 }]);
  const clock = new FakeClock(T0);
  const backup = await new Backups({ database, folder, clock, log: silentLogger, keep: () => 7 }).take('daily');
  const [later] = seedSessions(store, [{ events: 7 }, { events: 3 }], T0 + 1_000);
  const more = store.db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, ?, 'agent_message', '{"text":"later"}', 1)`);
  for (let seq = 21; seq <= 25; seq++) more.run(old, seq);
  store.db.prepare(`UPDATE sessions SET last_seq = 25 WHERE id = ?`).run(old);
  store.sessions.setCustomTitle(later!, 'Written after the backup', T0);
  store.dispose();
  return { dir: dir.path, database, folder, backup };
}

/** Overwrites the pages that hold the transcripts (not the sessions), as a failing disk would. */
function damage(file: string): void {
  const db = new Database(file, { readonly: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = (db.prepare(`SELECT pageno FROM dbstat WHERE name = 'events'`).all() as { pageno: number }[]).map((r) => r.pageno);
  db.close();
  expect(pages.length).toBeGreaterThan(1);
  const bytes = readFileSync(file);
  for (const page of pages) bytes.fill(0xa5, (page - 1) * pageSize, page * pageSize);
  writeFileSync(file, bytes);
}

describe('the check at start', () => {
  it('passes a healthy database and says a missing one is missing (a first start)', async () => {
    const { database, dir } = await damagedFolder();
    expect(checkAtStart(database)).toMatchObject({ ok: true });
    expect(checkAtStart(join(dir, 'none.db'))).toMatchObject({ ok: false, problem: 'missing' });
  });

  it('finds a damaged database, on the spot or in a worker thread', async () => {
    const { database } = await damagedFolder();
    damage(database);
    expect(checkAtStart(database)).toMatchObject({ ok: false, problem: 'corrupt' });
    await expect(checkAtStartInWorker(database)).resolves.toMatchObject({ ok: false, problem: 'corrupt' });
  });
});

describe('recoveryOffer', () => {
  it('offers the newest good backup and names what going back to it loses', async () => {
    const { database, folder, backup } = await damagedFolder();
    damage(database);
    // A newer backup that rotted on disk is passed over.
    writeFileSync(join(folder, backupFileName('daily', T0 + DAY, 11)), 'rotten');
    const offer = recoveryOffer(database, 'database disk image is malformed', folder);
    expect(offer.backup?.file).toBe(backup.file);
    expect(offer.lost).toEqual({ since: T0, sessions: 2, titles: ['Written after the backup', 'Session 1: w1x1'], events: 15 });
  });

  it('says when there is no good backup at all', async () => {
    const { database, folder } = await damagedFolder();
    for (const b of listBackups(folder)) writeFileSync(b.file, 'rotten');
    expect(recoveryOffer(database, 'x', folder)).toEqual({ damaged: database, detail: 'x', backup: undefined, lost: undefined });
  });

  it('says the loss is unknown when the damaged file cannot even list its sessions', async () => {
    const { database, folder } = await damagedFolder();
    writeFileSync(database, 'nothing left of it'.repeat(500));
    const offer = recoveryOffer(database, 'file is not a database', folder);
    expect(offer.backup).toBeDefined();
    expect(offer.lost).toEqual({ since: T0, sessions: undefined, titles: [], events: undefined });
  });
});

describe('recoverFromBackup', () => {
  it('puts the backup in place and keeps the damaged file aside as it was, WAL and all', async () => {
    const { database, folder, backup } = await damagedFolder();
    damage(database);
    writeFileSync(`${database}-wal`, 'the damaged file\'s WAL');
    const damagedBytes = readFileSync(database);
    const result = recoverFromBackup(database, backup, T0 + DAY);
    expect(result.damagedKeptAt).toBe(`${database}.damaged-2026-11-27T13-04-05-123Z`);
    expect(readFileSync(result.damagedKeptAt!).equals(damagedBytes)).toBe(true);
    expect(readFileSync(`${result.damagedKeptAt!}-wal`, 'utf8')).toBe('the damaged file\'s WAL');
    expect(existsSync(`${database}-wal`)).toBe(false);
    expect(checkAtStart(database)).toMatchObject({ ok: true });
    const store = Store.open(database);
    expect(store.sessions.count()).toBe(2);
    store.dispose();
    // The backup stays where it was, to go back to again.
    expect(listBackups(folder).map((b) => b.file)).toContain(backup.file);
  });

  it('works when the damaged database is gone altogether', async () => {
    const { dir, backup } = await damagedFolder();
    const elsewhere = join(dir, 'fresh');
    mkdirSync(elsewhere);
    const database = join(elsewhere, 'switchboard.db');
    expect(recoverFromBackup(database, backup, T0).damagedKeptAt).toBeUndefined();
    expect(checkAtStart(database)).toMatchObject({ ok: true });
  });
});
