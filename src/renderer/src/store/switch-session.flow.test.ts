import { describe, expect, it } from 'vitest';
import type { EventPageT, Result, SwitchResultT } from '../../../shared/contract';
import { createAppStore } from './app-store';
import { bindApi } from './bind-api';
import { alwaysOpen } from '../api/connection';
import { deferred, ev, FakeApi, flush, range, SID, SID2, testDeps, view } from '../test-support/fake-api';
import { answer, ok, permission } from '../test-support/store-fixtures';

function setup() {
  const fake = new FakeApi();
  const deps = testDeps(fake, { pageSize: 50 });
  const store = createAppStore(deps);
  bindApi(store, fake.api, alwaysOpen);
  return { fake, store, deps };
}

describe('switching sessions', () => {
  it('sets running and pending dialogs from the switch answer, not from the stale list', async () => {
    const { fake, store } = setup();
    fake
      .handle('sessions:list', () => ok([view({ running: true, pendingPermissions: 0 })]))
      .handle('sessions:switch', () =>
        ok(answer({ session: view({ running: true }), running: false, pendingPermissions: [permission('r1')] })),
      )
      .handle('transcript:page', () => ok({ events: [], hasMore: false }));
    await store.getState().refreshSessions();
    expect(store.getState().sessionsById.get(SID)?.running).toBe(true);

    await store.getState().switchSession(SID);
    const s = store.getState();
    expect(s.sessionsById.get(SID)?.running).toBe(false);
    expect([...s.pendingPermissions.keys()]).toEqual(['r1']);
    expect(s.currentSessionId).toBe(SID);
  });

  it('passes the previous session as fromSessionId and remembers the current one', async () => {
    const { fake, store, deps } = setup();
    fake
      .handle('sessions:switch', (req) => ok(answer({ session: view({ id: req.sessionId }) })))
      .handle('transcript:page', () => ok({ events: [], hasMore: false }));
    await store.getState().switchSession(SID);
    await store.getState().switchSession(SID2);
    expect(fake.callsOf('sessions:switch')).toEqual([{ sessionId: SID }, { sessionId: SID2, fromSessionId: SID }]);
    expect(deps.saved.at(-1)).toBe(SID2);
  });

  it('merges events pushed during the load with the newest page, without duplicates or gaps', async () => {
    const { fake, store } = setup();
    const page = deferred<Result<EventPageT>>();
    fake
      .handle('sessions:switch', () => {
        fake.emit('session:event', ev(9));
        return ok(answer({ lastSeq: 9 }));
      })
      .handle('transcript:page', () => page.promise);
    const switching = store.getState().switchSession(SID);
    await flush();
    fake.emit('session:event', ev(10));
    fake.emit('session:event', ev(10));
    page.resolve(ok({ events: range(5, 10), hasMore: true }));
    await switching;
    fake.emit('session:event', ev(11));
    const t = store.getState().transcript;
    expect(t.events.map((e) => e.seq)).toEqual([5, 6, 7, 8, 9, 10, 11]);
    expect(t).toMatchObject({ oldestSeq: 5, lastSeq: 11, hasOlder: true, loaded: true });
  });

  it('catches up with transcript:since, looping while hasMore, when an event skips ahead', async () => {
    const { fake, store } = setup();
    fake
      .handle('sessions:switch', () => ok(answer({ lastSeq: 3 })))
      .handle('transcript:page', () => ok({ events: range(1, 3), hasMore: false }))
      .handle('transcript:since', (req) =>
        req.afterSeq === 3 ? ok({ events: range(4, 5), hasMore: true }) : ok({ events: range(6, 7), hasMore: false }),
      );
    await store.getState().switchSession(SID);
    fake.emit('session:event', ev(7));
    await flush();
    expect(fake.callsOf('transcript:since')).toEqual([
      { sessionId: SID, afterSeq: 3 },
      { sessionId: SID, afterSeq: 5 },
    ]);
    expect(store.getState().transcript.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('ignores events of other sessions and answers that belong to an abandoned switch', async () => {
    const { fake, store } = setup();
    const first = deferred<Result<SwitchResultT>>();
    fake
      .handle('sessions:switch', (req) =>
        req.sessionId === SID ? first.promise : ok(answer({ session: view({ id: SID2, title: 'two' }), running: true })),
      )
      .handle('transcript:page', (req) =>
        ok({ events: req.sessionId === SID2 ? range(1, 2, SID2) : range(1, 9), hasMore: false }),
      );
    const a = store.getState().switchSession(SID);
    await store.getState().switchSession(SID2);
    first.resolve(ok(answer({ running: true, pendingPermissions: [permission('stale')] })));
    await a;
    fake.emit('session:event', ev(3));
    const s = store.getState();
    expect(s.currentSessionId).toBe(SID2);
    expect(s.transcript.events.map((e) => [e.sessionId, e.seq])).toEqual([
      [SID2, 1],
      [SID2, 2],
    ]);
    expect(s.pendingPermissions.size).toBe(0);
  });

  it('loads older pages before oldestSeq', async () => {
    const { fake, store } = setup();
    fake
      .handle('sessions:switch', () => ok(answer({ lastSeq: 100 })))
      .handle('transcript:page', (req) =>
        req.beforeSeq === undefined ? ok({ events: range(51, 100), hasMore: true }) : ok({ events: range(1, 50), hasMore: false }),
      );
    await store.getState().switchSession(SID);
    await store.getState().loadOlder();
    expect(fake.callsOf('transcript:page').at(-1)).toEqual({ sessionId: SID, beforeSeq: 51, limit: 50 });
    expect(store.getState().transcript).toMatchObject({ oldestSeq: 1, lastSeq: 100, hasOlder: false });
  });

  it('re-switches and catches up from lastSeq after a reconnect', async () => {
    const { fake, store } = setup();
    let running = false;
    fake
      .handle('host:info', () => ({ ok: false, error: { code: 'internal', message: 'x' } }))
      .handle('sessions:list', () => ok([view()]))
      .handle('sessions:switch', () => ok(answer({ running, lastSeq: 4 })))
      .handle('transcript:page', () => ok({ events: range(1, 2), hasMore: false }))
      .handle('transcript:since', (req) => ok({ events: range(req.afterSeq + 1, 4), hasMore: false }));
    await store.getState().switchSession(SID);
    expect(store.getState().transcript.lastSeq).toBe(4);
    running = true;
    fake.handle('transcript:since', () => ok({ events: range(5, 6), hasMore: false }));
    fake.reconnect();
    await flush();
    expect(fake.callsOf('sessions:switch').at(-1)).toEqual({ sessionId: SID });
    expect(store.getState().sessionsById.get(SID)?.running).toBe(true);
    expect(fake.callsOf('transcript:since').at(-1)).toEqual({ sessionId: SID, afterSeq: 4 });
    expect(store.getState().transcript.lastSeq).toBe(6);
  });

  it('lets session:updated drive running for the current session', async () => {
    const { fake, store } = setup();
    fake
      .handle('sessions:switch', () => ok(answer({ running: false })))
      .handle('transcript:page', () => ok({ events: [], hasMore: false }));
    await store.getState().switchSession(SID);
    fake.emit('session:updated', view({ running: true, updatedAt: 2 }));
    expect(store.getState().sessionsById.get(SID)?.running).toBe(true);
    fake.emit('session:updated', view({ running: false, updatedAt: 1 }));
    expect(store.getState().sessionsById.get(SID)?.running).toBe(true);
  });
});
