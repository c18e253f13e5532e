import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedSessions } from '../test-support/seed-store';
import { tempDir } from '../test-support/temp-dir';
import { cleanUp, previewCleanUp } from './clean-up';
import { SearchIndex } from './search-index';
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

const DAY = 86_400_000;
const T0 = 1_700_000_000_000;

const rows = (s: Store, sql: string): number => (s.db.prepare(sql).get() as { n: number }).n;

describe('clean up of old archived sessions', () => {
  function seeded() {
    const s = store();
    const [oldArchived, oldKept, recentArchived, oldLive] = seedSessions(s, [
      { events: 30, archived: true, at: T0 },
      { events: 10, at: T0 + 1 },
      { events: 10, archived: true, at: T0 + 40 * DAY },
      { events: 5, archived: true, at: T0 + 2, state: 'DETACHED' },
    ]);
    s.drafts.save(oldArchived!, 'half a thought', T0);
    s.sessions.recordPrompt(oldArchived!, 'c-x', T0);
    return { s, oldArchived: oldArchived!, oldKept: oldKept!, recentArchived: recentArchived!, oldLive: oldLive! };
  }

  it('counts first what it would delete: archived, ended, last active at or before the cutoff', () => {
    const { s } = seeded();
    expect(previewCleanUp(s.db, T0 + 30 * DAY)).toEqual({ cutoff: T0 + 30 * DAY, sessions: 1, events: 30 });
    expect(previewCleanUp(s.db, T0 + 50 * DAY)).toMatchObject({ sessions: 2, events: 40 });
  });

  it('deletes exactly what the preview counted, with transcripts, drafts, prompts and search rows', async () => {
    const { s, oldArchived, oldKept, recentArchived, oldLive } = seeded();
    const search = new SearchIndex(s.db);
    expect(search.search('w0x1', 10).matches.map((m) => m.sessionId)).toEqual([oldArchived]);
    const deleted: string[] = [];
    const n = await cleanUp(s, T0 + 30 * DAY, { sliceRows: 7, onDeleted: (id) => deleted.push(id) });
    expect(n).toBe(1);
    expect(deleted).toEqual([oldArchived]);
    expect(s.sessions.get(oldArchived)).toBeUndefined();
    for (const id of [oldKept, recentArchived, oldLive]) expect(s.sessions.get(id)).toBeDefined();
    expect(rows(s, `SELECT COUNT(*) AS n FROM events WHERE session_id = '${oldArchived}'`)).toBe(0);
    expect(rows(s, `SELECT COUNT(*) AS n FROM drafts`)).toBe(0);
    expect(rows(s, `SELECT COUNT(*) AS n FROM prompts WHERE session_id = '${oldArchived}'`)).toBe(0);
    expect(rows(s, `SELECT COUNT(*) AS n FROM search_docs WHERE session_id = '${oldArchived}'`)).toBe(0);
    expect(rows(s, `SELECT COUNT(*) AS n FROM events`)).toBe(25);
    expect(rows(s, `SELECT COUNT(*) AS n FROM search_docs`)).toBe(rows(s, `SELECT COUNT(*) AS n FROM search_index`));
    expect(search.search('w0x1', 10).matches).toEqual([]);
  });

  it('lets other work run between slices of a long transcript', async () => {
    const { s } = seeded();
    let yields = 0;
    await cleanUp(s, T0 + 30 * DAY, {
      sliceRows: 5,
      yieldNow: () => {
        yields++;
        return Promise.resolve();
      },
    });
    // 30 events and 30 search rows, 5 per slice, plus one turn after the session.
    expect(yields).toBeGreaterThanOrEqual(6);
  });

  it('stops deleting a session that was restored from the archive between two slices', async () => {
    const { s, oldArchived } = seeded();
    let slices = 0;
    await cleanUp(s, T0 + 30 * DAY, {
      sliceRows: 5,
      yieldNow: () => {
        if (++slices === 2) s.sessions.setArchived(oldArchived, null, T0 + 31 * DAY);
        return Promise.resolve();
      },
    });
    expect(s.sessions.get(oldArchived)).toBeDefined();
    expect(rows(s, `SELECT COUNT(*) AS n FROM events WHERE session_id = '${oldArchived}'`)).toBe(20);
  });
});
