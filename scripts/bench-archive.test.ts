/**
 * The 10 GB benchmark's cached folder stays the archive it was written as: `restoreArchive`
 * deletes what a run added (seeded sessions, sessions a host created, the host's backups)
 * and keeps every session and event of the archive's own.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { archive, restoreArchive } from '../bench/lib/archive';
import { seedSessions } from '../bench/lib/seed';
import { backupsFolder } from '../src/main/datadir/backups';
import { dataPaths } from '../src/main/datadir/paths';
import { Store } from '../src/main/store/store';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bench-archive-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function counts(dataDir: string): { sessions: number; events: number; archived: number } {
  const store = Store.open(dataPaths(dataDir).database);
  try {
    const one = (sql: string) => (store.db.prepare(sql).get() as { n: number }).n;
    return {
      sessions: one('SELECT COUNT(*) AS n FROM sessions'),
      events: one('SELECT COUNT(*) AS n FROM events'),
      archived: one(`SELECT COUNT(*) AS n FROM sessions WHERE title LIKE 'Archived session %'`),
    };
  } finally {
    store.dispose();
  }
}

describe('restoreArchive', () => {
  it('deletes the sessions and backups a run added and keeps the archive whole', async () => {
    const data = archive({ name: 'restore', sessions: 5, eventsPerSession: 30, backfill: false }, () => {}, root);
    const before = counts(data.dataDir);
    expect(before).toEqual({ sessions: 5, events: 150, archived: 5 });
    seedSessions(data.dataDir, [30, 300]);
    // A session a host created: no title yet, still live when the host stopped.
    const store = Store.open(dataPaths(data.dataDir).database);
    store.sessions.insert({ id: randomUUID(), agent_id: 'demo', cwd: root, state: 'ACTIVE' }, Date.now());
    store.dispose();
    mkdirSync(backupsFolder(data.dataDir), { recursive: true });
    writeFileSync(join(backupsFolder(data.dataDir), 'daily.db'), 'a backup');
    expect(counts(data.dataDir).sessions).toBe(8);

    expect(await restoreArchive(data)).toBe(3);
    expect(counts(data.dataDir)).toEqual(before);
    expect(existsSync(backupsFolder(data.dataDir))).toBe(false);
    expect(await restoreArchive(data)).toBe(0);
  });

  it('refuses a folder where one of the archive own sessions was archived, rather than let the clean-up take it', async () => {
    const data = archive({ name: 'archived', sessions: 3, eventsPerSession: 9, backfill: false }, () => {}, root);
    const store = Store.open(dataPaths(data.dataDir).database);
    store.db.prepare(`UPDATE sessions SET archived_at = 1 WHERE rowid = (SELECT MIN(rowid) FROM sessions)`).run();
    store.dispose();
    await expect(restoreArchive(data)).rejects.toThrow(/archive's own sessions are archived/);
    expect(counts(data.dataDir).sessions).toBe(3);
  });
});
