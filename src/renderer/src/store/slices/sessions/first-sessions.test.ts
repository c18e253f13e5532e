import { describe, expect, it } from 'vitest';
import type { CommandRequest, Result, SessionViewT } from '../../../../../shared/contract';
import { deferred, flush, view } from '../../../test-support/fake-api';
import { boundStore, ok } from '../../../test-support/store-fixtures';
import { FIRST_SESSIONS, SESSIONS_PAGE } from './actions';

/** `count` sessions, newest created first, as the host lists them. */
const sessions = (count: number, from = 0): SessionViewT[] =>
  Array.from({ length: count }, (_, i) => view({ id: `s-${String(from + i).padStart(5, '0')}`, createdAt: 100_000 - from - i, lastActivityAt: 100_000 - from - i }));

describe('the session list at start', () => {
  it('shows the newest sessions from a small answer, then reads the rest a page at a time from the last one it has; loaded only once all are in', async () => {
    const { fake, store } = boundStore();
    const all = sessions(FIRST_SESSIONS + SESSIONS_PAGE + 5);
    const second = deferred<Result<SessionViewT[]>>();
    fake.handle('sessions:list', (req: CommandRequest<'sessions:list'>) => {
      const from = req.after ? all.findIndex((v) => v.id === req.after!.id) + 1 : 0;
      const page = all.slice(from, from + (req.limit ?? 10_000));
      return from === FIRST_SESSIONS ? second.promise.then(() => ok(page)) : ok(page);
    });
    const started = store.getState().start();
    await flush();
    expect(store.getState().sessionOrder).toHaveLength(FIRST_SESSIONS);
    // The empty state and the first-list-is-old-news rule wait for the whole list.
    expect(store.getState().sessionsLoaded).toBe(false);
    second.resolve(ok([]));
    await started;
    await flush();
    const cursor = (i: number) => ({ createdAt: all[i]!.createdAt, id: all[i]!.id });
    expect(fake.callsOf('sessions:list')).toEqual([
      { limit: FIRST_SESSIONS },
      { limit: SESSIONS_PAGE, after: cursor(FIRST_SESSIONS - 1) },
      { limit: SESSIONS_PAGE, after: cursor(FIRST_SESSIONS + SESSIONS_PAGE - 1) },
    ]);
    expect(store.getState().sessionOrder).toEqual(all.map((v) => v.id));
    expect(store.getState().sessionsLoaded).toBe(true);
    // Later refreshes (a reconnect) read whole pages from the top.
    await store.getState().refreshSessions();
    expect(fake.callsOf('sessions:list').slice(3)).toEqual([{ limit: SESSIONS_PAGE }, { limit: SESSIONS_PAGE, after: cursor(SESSIONS_PAGE - 1) }]);
  });

  it('keeps what it has and says so when a page is refused; the list is not loaded', async () => {
    const { fake, store } = boundStore();
    const all = sessions(FIRST_SESSIONS + 10);
    fake.handle('sessions:list', (req: CommandRequest<'sessions:list'>) =>
      req.after ? { ok: false, error: { code: 'internal', message: 'the database is locked' } } : ok(all.slice(0, req.limit)),
    );
    await store.getState().start();
    expect(store.getState().sessionOrder).toHaveLength(FIRST_SESSIONS);
    expect(store.getState().sessionsLoaded).toBe(false);
    expect(store.getState().notices.map((n) => n.text)).toContain('Could not load sessions: the database is locked');
  });
});
