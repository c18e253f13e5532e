import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compactionCopyOf } from '../store/compact';
import { Store } from '../store/store';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { compactAtStart, compactionRequestOf, isCompactionRequested, requestCompaction } from './compaction';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function grown(): { dataDir: string; database: string } {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  const database = join(dir.path, 'switchboard.db');
  const store = Store.open(database);
  const [gone] = seedSessions(store, [{ events: 400, textSize: 600 }, { events: 10 }]);
  store.sessions.remove(gone!);
  store.dispose();
  return { dataDir: dir.path, database };
}

describe('compaction at start', () => {
  it('compacts once when asked, and withdraws the request', () => {
    const { dataDir, database } = grown();
    const log = captureLogger([]);
    expect(compactAtStart({ dataDir, database, log })).toBeUndefined();
    const before = statSync(database).size;
    requestCompaction(dataDir, Date.parse('2026-11-26T00:00:00Z'));
    expect(isCompactionRequested(dataDir)).toBe(true);
    const result = compactAtStart({ dataDir, database, log });
    expect(result?.bytesAfter).toBeLessThan(before / 2);
    expect(isCompactionRequested(dataDir)).toBe(false);
    expect(compactAtStart({ dataDir, database, log })).toBeUndefined();
  });

  it('removes what an interrupted compaction left, and a failed one is logged, not repeated', () => {
    const { dataDir, database } = grown();
    const lines: LogEntry[] = [];
    const log = captureLogger(lines);
    writeFileSync(compactionCopyOf(database), 'torn');
    compactAtStart({ dataDir, database, log });
    expect(existsSync(compactionCopyOf(database))).toBe(false);
    expect(lines.some((l) => l.msg.startsWith('removed the copy an interrupted compaction left'))).toBe(true);

    requestCompaction(dataDir, 0);
    writeFileSync(database, 'not a database any more'.repeat(300));
    expect(compactAtStart({ dataDir, database, log })).toBeUndefined();
    expect(lines.some((l) => l.level === 'error' && l.msg === 'the database could not be compacted; it is as it was')).toBe(true);
    expect(existsSync(compactionRequestOf(dataDir))).toBe(false);
  });
});
