import { afterEach, describe, expect, it } from 'vitest';
import { dataPaths } from '../datadir/paths';
import { Store } from '../store/store';
import { startHarness, type Harness } from '../test-support/host-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const OLD_EVENTS = 30_000;

describe('transcript search through the host', () => {
  it('indexes a database from before search in the background, with progress, then finds its transcripts', async () => {
    h = await startHarness();
    const w0 = h.window();
    const { id } = await w0.call('sessions:create', {});
    await h.settled(id);
    await h.host.service.close(id, 'closed_by_user');

    await h.restart({}, () => {
      const store = Store.open(dataPaths(h!.dataDir).database);
      try {
        // Events stored before search existed, and the work migration 0007 records for them.
        const seq = store.db.prepare(`SELECT last_seq FROM sessions WHERE id = ?`).pluck().get(id) as number;
        const insert = store.db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, 1)`);
        store.db.transaction(() => {
          for (let i = 1; i <= OLD_EVENTS; i++) insert.run(id, seq + i, 'user_message', JSON.stringify({ text: `walrus number ${i}` }));
        })();
        store.db.prepare(`UPDATE sessions SET last_seq = ? WHERE id = ?`).run(seq + OLD_EVENTS, id);
        store.db.exec(`DELETE FROM search_index; DELETE FROM search_docs;`);
        store.db.prepare(`INSERT INTO search_backfill (session_id, upto_seq, last_activity_at) VALUES (?, ?, 1)`).run(id, seq + OLD_EVENTS);
      } finally {
        store.dispose();
      }
    });

    const w = h.window();
    const info = await w.call('host:info', {});
    expect(info.searchIndexing?.done).toBe(false);
    expect(info.searchIndexing?.total).toBeGreaterThanOrEqual(OLD_EVENTS);
    const done = await w.waitFor('search:progress', (p) => p.done);
    expect(done.indexed).toBe(done.total);
    expect((await w.call('host:info', {})).searchIndexing).toBeUndefined();

    const found = await w.call('search:query', { query: 'walrus' });
    expect(found.indexing).toBeUndefined();
    expect(found.groups).toHaveLength(1);
    expect(found.groups[0]).toMatchObject({ sessionId: id, more: true });
    expect(found.groups[0]?.hits.map((hit) => hit.snippet.find((p) => p.hit)?.text)).toEqual(['walrus', 'walrus', 'walrus']);
    // Newest first.
    expect(found.groups[0]?.hits[0]?.snippet.map((p) => p.text).join('')).toBe(`walrus number ${OLD_EVENTS}`);
  });

  it('finds a prompt as soon as it is stored, and forgets a deleted session', async () => {
    h = await startHarness();
    const w = h.window();
    const { id } = await w.call('sessions:create', {});
    await h.settled(id);
    await w.call('sessions:switch', { sessionId: id });
    await w.call('prompt:send', { sessionId: id, clientMessageId: crypto.randomUUID(), text: 'where is the pangolin' });
    // Stored (and indexed, in the same transaction) before it is sent to windows.
    await w.waitFor('session:event', (e) => e.kind === 'user_message');
    const results = await w.call('search:query', { query: 'pangolin' });
    expect(results.groups.map((g) => g.sessionId)).toEqual([id]);
    expect(results.groups[0]?.hits[0]).toMatchObject({ kind: 'user' });
    await w.call('sessions:delete', { sessionId: id });
    expect((await w.call('search:query', { query: 'pangolin' })).groups).toEqual([]);
  });
});
