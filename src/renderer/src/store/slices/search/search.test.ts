import { describe, expect, it } from 'vitest';
import type { SearchResultsT } from '../../../../../shared/contract';
import { deferred, flush, SID } from '../../../test-support/fake-api';
import { boundStore, ok } from '../../../test-support/store-fixtures';

const results = (query: string): SearchResultsT => ({
  groups: [{ sessionId: SID, title: query, cwd: '/', agentId: 'demo', hits: [], more: false }],
  truncated: false,
});

describe('transcript search in the window', () => {
  it('keeps one query in flight and ends on the latest text typed', async () => {
    const { fake, store } = boundStore();
    const first = deferred<ReturnType<typeof ok<SearchResultsT>>>();
    let calls = 0;
    fake.handle('search:query', (req) => (++calls === 1 ? first.promise : ok(results(req.query))));
    store.getState().setSearchQuery('w');
    store.getState().setSearchQuery('wa');
    store.getState().setSearchQuery('wal');
    expect(fake.callsOf('search:query')).toEqual([{ query: 'w', limit: 20 }]);
    first.resolve(ok(results('w')));
    await flush();
    expect(fake.callsOf('search:query')).toEqual([
      { query: 'w', limit: 20 },
      { query: 'wal', limit: 20 },
    ]);
    expect(store.getState().search.results?.groups[0]?.title).toBe('wal');
    expect(store.getState().search.busy).toBe(false);
    store.getState().setSearchQuery('  ');
    await flush();
    expect(store.getState().search.results).toBeUndefined();
    expect(fake.callsOf('search:query')).toHaveLength(2);
  });

  it('shows indexing progress from host:info and pushed events, and drops it when done', async () => {
    const { fake, store } = boundStore();
    fake.handle('host:info', () =>
      ok({ version: '1', headless: true, clientId: 'c', agents: [], settings: {} as never, searchIndexing: { indexed: 5, total: 10, done: false } }),
    );
    await store.getState().loadHostInfo();
    expect(store.getState().search.progress).toEqual({ indexed: 5, total: 10, done: false });
    fake.emit('search:progress', { indexed: 10, total: 10, done: true });
    expect(store.getState().search.progress).toBeUndefined();
  });
});
