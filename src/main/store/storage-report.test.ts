import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { hasDbstat, storageReport } from './storage-report';
import { Store } from './store';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function store(): Store {
  const dir = tempDir();
  const s = Store.open(join(dir.path, 'switchboard.db'));
  cleanups.push(() => {
    s.dispose();
    dir.cleanup();
  });
  return s;
}

describe('storageReport', () => {
  it('names the largest sessions by events, with the bytes of their transcripts, biggest first', () => {
    const s = store();
    const [small, big, middle] = seedSessions(s, [{ events: 4 }, { events: 300, textSize: 800 }, { events: 40, archived: true }]);
    s.sessions.setCustomTitle(big!, 'The long one', 2);
    const report = storageReport(s.db, 2);
    expect(report.sessions).toBe(3);
    expect(report.archivedSessions).toBe(1);
    expect(report.largestSessions.map((l) => [l.id, l.events, l.archived])).toEqual([
      [big, 300, false],
      [middle, 40, true],
    ]);
    expect(report.largestSessions[0]!.title).toBe('The long one');
    // 150 agent messages of 800 characters at least.
    expect(report.largestSessions[0]!.payloadBytes).toBeGreaterThan(150 * 800);
    expect(report.largestSessions.some((l) => l.id === small)).toBe(false);
  });

  it('measures the search index with dbstat, a share of the whole file', () => {
    const s = store();
    expect(hasDbstat(s.db)).toBe(true);
    seedSessions(s, [{ events: 400, textSize: 300 }]);
    const report = storageReport(s.db);
    const pageSize = s.db.pragma('page_size', { simple: true }) as number;
    expect(report.databaseBytes).toBe(pageSize * (s.db.pragma('page_count', { simple: true }) as number));
    expect(report.searchIndex.bytes).toBeGreaterThan(10 * pageSize);
    expect(report.searchIndex.share).toBeGreaterThan(0.05);
    expect(report.searchIndex.share).toBeLessThan(1);
  });

  it('counts the free pages a compaction would give back', () => {
    const s = store();
    const [id] = seedSessions(s, [{ events: 400, textSize: 500 }]);
    expect(storageReport(s.db).freeBytes).toBe(0);
    s.sessions.remove(id!);
    expect(storageReport(s.db).freeBytes).toBeGreaterThan(100_000);
  });
});
