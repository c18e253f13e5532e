import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { backupInSteps, sealCopy, vacuumInto, type BackupStep } from './backup';
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

describe('backupInSteps', () => {
  it('copies in many small steps and keeps every write the host made through its connection meanwhile', async () => {
    const { store: s, dir } = store();
    seedSessions(s, [{ events: 600, textSize: 400 }]);
    const writer = s.db.prepare(`INSERT INTO settings (key, value) VALUES (?, '1')`);
    let written = 0;
    let done = false;
    // A writer on the same connection, between every two steps, as the host's event log is.
    const write = (): void => {
      if (done) return;
      writer.run(`during-${written++}`);
      setImmediate(write);
    };
    setImmediate(write);
    const steps: BackupStep[] = [];
    const dest = join(dir, 'copy.db');
    const result = await backupInSteps(s.db, dest, { stepBudgetMs: 0.001, onStep: (step) => steps.push(step) });
    done = true;
    const writtenBefore = written;

    expect(result.steps).toBeGreaterThan(10);
    expect(steps.reduce((sum, step) => sum + step.pages, 0)).toBe(result.totalPages);
    expect(result.longestStepMs).toBe(Math.max(...steps.map((step) => step.ms)));
    expect(writtenBefore).toBeGreaterThan(5);
    // Every write that happened before the backup resolved is in it.
    expect(count(dest, 'settings')).toBe(writtenBefore);
    expect(count(dest, 'events')).toBe(600);
    expect(checkDatabaseFile(dest)).toEqual({ ok: true, schemaVersion: s.db.pragma('user_version', { simple: true }) });
  });

  it('fits the pages per step to the budget: a generous budget takes fewer, larger steps', async () => {
    const { store: s, dir } = store();
    seedSessions(s, [{ events: 800, textSize: 400 }]);
    const tight = await backupInSteps(s.db, join(dir, 'tight.db'), { stepBudgetMs: 0.001 });
    const loose = await backupInSteps(s.db, join(dir, 'loose.db'), { stepBudgetMs: 1_000 });
    expect(loose.totalPages).toBe(tight.totalPages);
    expect(loose.steps).toBeLessThan(tight.steps);
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
