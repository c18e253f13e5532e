import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackupListT } from '../../shared/contract';
import { backupsFolder, listBackups } from '../datadir/backups';
import { compactionRequestOf } from '../datadir/compaction';
import { FakeClock } from '../test-support/fake-clock';
import { startHarness, type Harness } from '../test-support/host-harness';

/** Settings → Storage through the contract, on a real host and a real database. */

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-26T13:04:05.123Z');

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** A session with a turn of the demo agent, closed and archived. */
async function archivedSession(harness: Harness, text: string): Promise<string> {
  const w = harness.window();
  const { id } = await w.call('sessions:create', { cwd: harness.dataDir });
  await w.call('sessions:switch', { sessionId: id });
  await w.prompt(id, text);
  await w.call('sessions:archive', { sessionId: id });
  w.dispose();
  return id;
}

describe('Settings → Storage', () => {
  it('reports the database, its largest sessions and the search index share', async () => {
    h = await startHarness();
    const id = await archivedSession(h, '/flood 40');
    const w = h.window();
    const report = await w.call('storage:report', {});
    expect(report.databaseBytes).toBeGreaterThan(0);
    expect(report.sessions).toBe(1);
    expect(report.archivedSessions).toBe(1);
    expect(report.largestSessions[0]).toMatchObject({ id, archived: true });
    expect(report.largestSessions[0]!.events).toBeGreaterThan(3);
    expect(report.searchIndex.share).toBeGreaterThan(0);
    expect(report.compactionRequested).toBe(false);
  });

  it('cleans up old archived sessions: counted first, then gone from every window and the store, the rest kept', async () => {
    const clock = new FakeClock(T0);
    h = await startHarness({ clock });
    const old = await archivedSession(h, 'long ago');
    await clock.advance(40 * DAY);
    const recent = await archivedSession(h, 'last week');
    const w = h.window();
    const other = h.window('other');
    await other.call('sessions:switch', { sessionId: old });

    const preview = await w.call('storage:preview', { olderThanDays: 30 });
    expect(preview).toMatchObject({ sessions: 1, cutoff: T0 + 40 * DAY - 30 * DAY });
    expect(preview.events).toBe(h.stored(old).length);
    expect(await w.call('storage:clean', { cutoff: preview.cutoff })).toEqual({ deleted: 1 });

    await w.waitFor('session:deleted', (d) => d.sessionId === old);
    await other.waitFor('session:deleted', (d) => d.sessionId === old);
    expect((await w.call('sessions:list', {})).map((s) => s.id)).toEqual([recent]);
    expect(h.stored(old)).toEqual([]);
    expect(h.host.watchers.count(old)).toBe(0);
    await expect(w.call('sessions:switch', { sessionId: old })).rejects.toMatchObject({ code: 'not_found' });
    expect((await w.call('search:query', { query: 'long', limit: 10 })).groups).toEqual([]);
  });

  it('takes a backup on request, telling every window, and compacts at the next start when asked', async () => {
    h = await startHarness();
    await archivedSession(h, '/flood 30');
    const w = h.window();
    const backup = await w.call('storage:backup', {});
    expect(backup).toMatchObject({ kind: 'daily' });
    await w.waitFor('storage:backups', (l: BackupListT) => !l.running && l.backups.some((b) => b.name === backup.name));
    expect(listBackups(backupsFolder(h.dataDir)).map((b) => b.file)).toEqual([join(backupsFolder(h.dataDir), backup.name)]);
    expect(await w.call('storage:backups', {})).toMatchObject({ folder: backupsFolder(h.dataDir), running: false });

    // Delete the transcript (space now unused), then ask for a compaction: the headless host cannot restart itself.
    await w.call('sessions:delete', { sessionId: (await w.call('sessions:list', {}))[0]!.id });
    const asked = await w.call('storage:compact', {});
    expect(asked.canRestart).toBe(false);
    expect((await w.call('storage:report', {})).compactionRequested).toBe(true);
    await expect(w.call('host:restart', {})).rejects.toMatchObject({ code: 'unsupported' });
    const before = (await w.call('storage:report', {})).freeBytes;
    expect(before).toBeGreaterThan(0);

    await h.restart();
    expect(existsSync(compactionRequestOf(h.dataDir))).toBe(false);
    const after = await h.window().call('storage:report', {});
    expect(after.freeBytes).toBe(0);
    expect(after.compactionRequested).toBe(false);
    expect(statSync(h.database).size).toBeLessThanOrEqual(after.databaseBytes);
  });

  it('restarts through the shell where there is one', async () => {
    let restarts = 0;
    h = await startHarness({ restart: () => restarts++ });
    const w = h.window();
    expect((await w.call('host:info', {})).canRestart).toBe(true);
    expect((await w.call('storage:compact', {})).canRestart).toBe(true);
    await w.call('host:restart', {});
    expect(restarts).toBe(1);
  });
});
