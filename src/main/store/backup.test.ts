import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { sealCopy, snapshotTo, vacuumInto } from './backup';
import { checkDatabaseFile } from './db-check';
import { Store } from './store';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function store(): { store: Store; dir: string } {
  const dir = tempDir();
  const s = Store.open(join(dir.path, 'switchboard.db'));
  cleanups.push(() => {
    s.dispose();
    dir.cleanup();
  });
  return { store: s, dir: dir.path };
}

const count = (file: string, table: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('snapshotTo', () => {
  it('copies the database as one snapshot while the host keeps writing through its own connection', async () => {
    const { store: s, dir } = store();
    seedSessions(s, [{ events: 600, textSize: 400 }]);
    const dest = join(dir, 'copy.db');
    const copying = snapshotTo(join(dir, 'switchboard.db'), dest);
    // The host's writer is never refused (WAL): a commit between the copy's steps goes in.
    s.db.prepare(`INSERT INTO settings (key, value) VALUES ('during', '1')`).run();
    const { totalPages } = await copying;
    expect(totalPages).toBeGreaterThan(100);
    expect(count(dest, 'events')).toBe(600);
    expect(checkDatabaseFile(dest)).toEqual({ ok: true, schemaVersion: s.db.pragma('user_version', { simple: true }) });
  });

  it('sees what the host committed, WAL included, without a checkpoint', async () => {
    const { store: s, dir } = store();
    s.db.pragma('wal_autocheckpoint = 0');
    seedSessions(s, [{ events: 40 }]);
    expect(existsSync(join(dir, 'switchboard.db-wal'))).toBe(true);
    const dest = join(dir, 'copy.db');
    await snapshotTo(join(dir, 'switchboard.db'), dest);
    expect(count(dest, 'events')).toBe(40);
  });
});

describe('vacuumInto and sealCopy', () => {
  it('vacuumInto writes a consistent, self-contained copy', () => {
    const { store: s, dir } = store();
    seedSessions(s, [{ events: 10 }, { events: 5 }]);
    const dest = join(dir, 'v.db');
    vacuumInto(s.db, dest);
    expect(count(dest, 'events')).toBe(15);
    expect(existsSync(`${dest}-wal`)).toBe(false);
  });

  it('sealCopy turns a WAL-mode copy into a one-file database', async () => {
    const { store: s, dir } = store();
    seedSessions(s, [{ events: 10 }]);
    const dest = join(dir, 'b.db');
    await s.db.backup(dest);
    sealCopy(dest);
    const db = new Database(dest, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    db.close();
    expect(existsSync(`${dest}-wal`)).toBe(false);
  });
});
