import { describe, expect, it } from 'vitest';
import type { BackupListT, StorageReportViewT } from '../../../../../shared/contract';
import { deferred, flush } from '../../../test-support/fake-api';
import { boundStore, ok } from '../../../test-support/store-fixtures';

const report = (over: Partial<StorageReportViewT> = {}): StorageReportViewT => ({
  databaseBytes: 40_960_000,
  walBytes: 0,
  freeBytes: 0,
  sessions: 12,
  archivedSessions: 4,
  largestSessions: [],
  searchIndex: { bytes: 8_192_000, share: 0.2 },
  compactionRequested: false,
  ...over,
});
const backups = (over: Partial<BackupListT> = {}): BackupListT => ({ folder: '/data/backups', backups: [], running: false, ...over });

describe('storage slice', () => {
  it('loads the report and the backups when Storage opens', async () => {
    const { fake, store } = boundStore();
    fake.handle('storage:report', () => ok(report())).handle('storage:backups', () => ok(backups()));
    await store.getState().loadStorage();
    expect(store.getState().storageReport?.sessions).toBe(12);
    expect(store.getState().backups?.folder).toBe('/data/backups');
    expect(store.getState().storageLoading).toBe(false);
  });

  it('keeps a refused report as its error', async () => {
    const { fake, store } = boundStore();
    fake.handle('storage:report', () => ({ ok: false, error: { code: 'storage_failed', message: 'disk gone' } })).handle('storage:backups', () => ok(backups()));
    await store.getState().loadStorage();
    expect(store.getState().storageError?.message).toBe('disk gone');
  });

  it('follows the backups the host pushes, and keeps a failed Back up now', async () => {
    const { fake, store } = boundStore();
    fake.emit('storage:backups', backups({ running: true }));
    await flush();
    expect(store.getState().backups?.running).toBe(true);
    fake.handle('storage:backup', () => ({ ok: false, error: { code: 'invalid_state', message: 'The database is damaged' } }));
    await store.getState().backUpNow();
    expect(store.getState().backupError?.code).toBe('invalid_state');
  });

  it('cleans up exactly what the confirmed preview counted, then measures again', async () => {
    const { fake, store } = boundStore();
    fake.handle('storage:preview', (req) => ok({ cutoff: 1_000 - req.olderThanDays, sessions: 3, events: 120 }));
    const done = deferred<ReturnType<typeof ok<{ deleted: number }>>>();
    fake.handle('storage:clean', () => done.promise).handle('storage:report', () => ok(report({ sessions: 9 })));
    await store.getState().previewCleanUp(30);
    expect(store.getState().cleanUp.preview).toEqual({ cutoff: 970, sessions: 3, events: 120 });
    expect(fake.calls.some((c) => c.command === 'storage:clean')).toBe(false);
    const confirming = store.getState().confirmCleanUp();
    expect(store.getState().cleanUp.running).toBe(true);
    // A second click while it runs sends nothing more.
    await store.getState().confirmCleanUp();
    done.resolve(ok({ deleted: 3 }));
    await confirming;
    expect(fake.calls.filter((c) => c.command === 'storage:clean').map((c) => c.req)).toEqual([{ cutoff: 970 }]);
    expect(store.getState().cleanUp).toMatchObject({ running: false, preview: undefined, deleted: 3 });
    expect(store.getState().storageReport?.sessions).toBe(9);
  });

  it('cancels a preview without deleting anything', async () => {
    const { fake, store } = boundStore();
    fake.handle('storage:preview', () => ok({ cutoff: 5, sessions: 2, events: 4 }));
    await store.getState().previewCleanUp(7);
    store.getState().cancelCleanUp();
    await store.getState().confirmCleanUp();
    expect(store.getState().cleanUp.preview).toBeUndefined();
    expect(fake.calls.some((c) => c.command === 'storage:clean')).toBe(false);
  });

  it('asks for a compaction, and restarts only when asked to', async () => {
    const { fake, store } = boundStore();
    fake.handle('storage:compact', () => ok({ requestedAt: 7, canRestart: true })).handle('host:restart', () => ok({ ok: true as const }));
    await store.getState().requestCompaction();
    expect(store.getState().compaction).toEqual({ requestedAt: 7, canRestart: true });
    expect(fake.calls.some((c) => c.command === 'host:restart')).toBe(false);
    await store.getState().restartHost();
    expect(fake.calls.filter((c) => c.command === 'host:restart')).toHaveLength(1);
  });
});
