import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latestVersion } from '../store/migrations';
import { seededDatabase } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { runDbTask } from './db-tasks';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
function dir(): string {
  const d = tempDir();
  dirs.push(d);
  return d.path;
}

describe('database tasks in a worker thread', () => {
  it('checks a file on a connection of its own', async () => {
    const { file } = seededDatabase(dir(), [{ events: 30 }]);
    await expect(runDbTask({ kind: 'check', file, depth: 'full' })).resolves.toEqual({ ok: true, schemaVersion: latestVersion });
    const garbage = join(dir(), 'garbage.db');
    writeFileSync(garbage, 'no'.repeat(3000));
    await expect(runDbTask({ kind: 'check', file: garbage, depth: 'quick' })).resolves.toMatchObject({ ok: false, problem: 'corrupt' });
  });

  it('ends the thread, and with it the connection, when the task is aborted', async () => {
    const { file } = seededDatabase(dir(), [{ events: 30 }]);
    const stop = new AbortController();
    const check = runDbTask({ kind: 'check', file, depth: 'full' }, stop.signal);
    stop.abort();
    await expect(check).rejects.toThrow(/exited/);
    const already = new AbortController();
    already.abort();
    await expect(runDbTask({ kind: 'check', file, depth: 'full' }, already.signal)).rejects.toThrow(/exited/);
  });

  it('builds the storage report', async () => {
    const { file, ids } = seededDatabase(dir(), [{ events: 30 }, { events: 90 }]);
    const report = await runDbTask({ kind: 'report', file, largest: 1 });
    expect(report.sessions).toBe(2);
    expect(report.largestSessions.map((s) => [s.id, s.events])).toEqual([[ids[1], 90]]);
    expect(report.searchIndex.bytes).toBeGreaterThan(0);
  });

  it('rejects with the worker\'s error', async () => {
    await expect(runDbTask({ kind: 'report', file: join(dir(), 'none.db'), largest: 1 })).rejects.toThrow(/unable to open database file|does not exist/);
  });
});
