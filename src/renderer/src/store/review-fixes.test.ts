import { describe, expect, it } from 'vitest';
import type { PermissionViewT, Result, SwitchResultT } from '../../../shared/contract';
import type { ConnectionMonitor, ConnectionStatus } from '../api/connection';
import { alwaysOpen } from '../api/connection';
import { announcementFor } from './announce';
import { createAppStore } from './app-store';
import { watchAttention } from './attention';
import { bindApi } from './bind-api';
import { deferred, ev, FakeApi, flush, range, SID, SID2, testDeps, view } from './test/fake-api';

const ok = <T,>(value: T): Result<T> => ({ ok: true, value });
const lost = { ok: false as const, error: { code: 'disconnected' as const, message: 'lost' } };

function permission(requestId: string, sessionId = SID, title = 'Edit file'): PermissionViewT {
  return {
    requestId,
    sessionId,
    toolCall: { toolCallId: `t-${requestId}`, title },
    options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
    createdAt: 1,
  };
}

function answer(over: Partial<SwitchResultT> = {}): SwitchResultT {
  return { session: view(), running: false, lastSeq: 0, pendingPermissions: [], ...over };
}

/** A connection monitor the test drives. */
function manualConnection(initial: ConnectionStatus = 'open'): ConnectionMonitor {
  const listeners = new Set<(s: ConnectionStatus) => void>();
  return {
    status: initial,
    onStatus: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

function setup(connection: ConnectionMonitor = alwaysOpen) {
  const fake = new FakeApi();
  const deps = testDeps(fake, { pageSize: 50 });
  const store = createAppStore(deps);
  bindApi(store, fake.api, connection);
  fake
    .handle('host:info', () => ({ ok: false, error: { code: 'internal', message: 'n/a' } }))
    .handle('sessions:list', () => ok([]))
    .handle('sessions:detach', () => ok({ ok: true as const }));
  return { fake, store };
}

async function shown(ctx: ReturnType<typeof setup>, sessionId = SID) {
  ctx.fake
    .handle('sessions:switch', (req) => ok(answer({ session: view({ id: req.sessionId }) })))
    .handle('transcript:page', () => ok({ events: [], hasMore: false }));
  await ctx.store.getState().switchSession(sessionId);
}

describe('resubscribe (1)', () => {
  it('applies the switch answer at once, so events pushed after it are kept', async () => {
    const ctx = setup();
    const { fake, store } = ctx;
    await shown(ctx);
    const list = deferred<Result<ReturnType<typeof view>[]>>();
    fake
      .handle('sessions:list', () => list.promise)
      .handle('sessions:switch', () =>
        ok(answer({ session: view({ running: true, updatedAt: 5 }), running: true, pendingPermissions: [permission('r1')] })),
      )
      .handle('transcript:since', () => ok({ events: [], hasMore: false }));
    fake.reconnect();
    await flush();
    // The list is still in flight; the turn ends and the request is answered elsewhere.
    fake.emit('session:updated', view({ running: false, updatedAt: 6 }));
    fake.emit('permission:resolved', { requestId: 'r1', sessionId: SID });
    fake.emit('permission:requested', permission('r2'));
    list.resolve(ok([view({ running: false, updatedAt: 6 })]));
    await flush();
    const s = store.getState();
    expect(s.sessionsById.get(SID)?.running).toBe(false);
    expect([...s.pendingPermissions.keys()]).toEqual(['r2']);
  });

  it('does not let an answer asked for before a push undo it', async () => {
    const ctx = setup();
    const { fake, store } = ctx;
    await shown(ctx);
    const sw = deferred<Result<SwitchResultT>>();
    fake.handle('sessions:switch', () => sw.promise).handle('transcript:since', () => ok({ events: [], hasMore: false }));
    fake.reconnect();
    await flush();
    fake.emit('permission:resolved', { requestId: 'r1', sessionId: SID });
    fake.emit('permission:requested', permission('r3'));
    fake.emit('session:updated', view({ running: false, updatedAt: 9 }));
    sw.resolve(ok(answer({ session: view({ updatedAt: 4 }), running: true, pendingPermissions: [permission('r1')] })));
    await flush();
    const s = store.getState();
    expect(s.sessionsById.get(SID)?.running).toBe(false);
    expect([...s.pendingPermissions.keys()]).toEqual(['r3']);
  });
});

describe('pending prompt rows (2)', () => {
  it('drops accepted prompts when a page of their session loads', async () => {
    const ctx = setup();
    const { fake, store } = ctx;
    await shown(ctx);
    fake.handle('prompt:send', () => ok({ accepted: true as const, duplicate: false }));
    await store.getState().sendPrompt('hello');
    await flush();
    expect([...store.getState().pendingSends.values()][0]?.status).toBe('accepted');
    // The user_message is not on the newest page (many events followed): the row still goes.
    fake.handle('transcript:page', () => ok({ events: range(100, 149), hasMore: true }));
    await store.getState().switchSession(SID2);
    await store.getState().switchSession(SID);
    expect(store.getState().pendingSends.size).toBe(0);
  });

  it('drops accepted prompts of a session the window leaves, keeps ones still sending', async () => {
    const ctx = setup();
    const { fake, store } = ctx;
    await shown(ctx);
    const second = deferred<Result<{ accepted: true; duplicate: boolean }>>();
    let n = 0;
    fake.handle('prompt:send', () => (++n === 1 ? ok({ accepted: true as const, duplicate: false }) : second.promise));
    await store.getState().sendPrompt('one');
    await store.getState().sendPrompt('two');
    await flush();
    await store.getState().switchSession(SID2);
    expect([...store.getState().pendingSends.values()].map((p) => p.text)).toEqual(['two']);
  });

  it('clears a pending row whose user_message is on an older page', async () => {
    const ctx = setup();
    const { fake, store } = ctx;
    fake
      .handle('sessions:switch', () => ok(answer({ lastSeq: 60 })))
      .handle('transcript:page', (req) =>
        ok(req.beforeSeq ? { events: [ev(10, 'user_message', { text: 'x', clientMessageId: 'c1' }), ...range(11, 30)], hasMore: false } : { events: range(31, 60), hasMore: true }),
      );
    await store.getState().switchSession(SID);
    store.setState({ pendingSends: new Map([['c1', { clientMessageId: 'c1', sessionId: SID, text: 'x', status: 'sending', retry: false }]]) });
    await store.getState().loadOlder();
    expect(store.getState().pendingSends.size).toBe(0);
  });
});

describe('sending over a dropped link (3)', () => {
  it('keeps retrying with the same id while the link is down', async () => {
    const conn = manualConnection('reconnecting');
    const ctx = setup(conn);
    const { fake, store } = ctx;
    await shown(ctx);
    let calls = 0;
    fake.handle('prompt:send', () => (++calls < 25 ? lost : ok({ accepted: true as const, duplicate: false })));
    await store.getState().sendPrompt('hello');
    await flush();
    await flush();
    await flush();
    const sent = fake.callsOf('prompt:send') as { clientMessageId: string }[];
    expect(sent.length).toBe(25);
    expect(new Set(sent.map((s) => s.clientMessageId)).size).toBe(1);
    expect(store.getState().sendError).toBeUndefined();
  });

  it('gives up only while the link is up, and Retry reuses the same id', async () => {
    const ctx = setup();
    const { fake, store } = ctx;
    await shown(ctx);
    fake.handle('prompt:send', () => lost);
    await store.getState().sendPrompt('hello');
    await flush();
    const err = store.getState().sendError;
    expect(err?.code).toBe('disconnected');
    expect(err?.unsent?.text).toBe('hello');
    const id = (fake.callsOf('prompt:send')[0] as { clientMessageId: string }).clientMessageId;
    fake.handle('prompt:send', () => ok({ accepted: true as const, duplicate: true }));
    store.getState().retrySend();
    expect(store.getState().pendingSends.get(id)?.status).toBe('sending');
    await flush();
    const last = fake.callsOf('prompt:send').at(-1) as { clientMessageId: string };
    expect(last.clientMessageId).toBe(id);
    expect(store.getState().sendError).toBeUndefined();
    expect(store.getState().pendingSends.get(id)?.status).toBe('accepted');
  });
});

describe('attention (5)', () => {
  it('does not walk the sessions on a change that does not touch them', async () => {
    const ctx = setup();
    const { store } = ctx;
    let walks = 0;
    class CountingMap<K, V> extends Map<K, V> {
      override values() {
        walks++;
        return super.values();
      }
    }
    store.setState({ sessionsById: new CountingMap([[SID, view()]]) });
    const titles: string[] = [];
    watchAttention(store, { setTitle: (t) => titles.push(t), isHidden: () => false, notify: undefined });
    const before = walks;
    for (let i = 0; i < 20; i++) store.setState({ notices: [] });
    expect(walks).toBe(before);
    store.setState({ sessionsById: new CountingMap([[SID, view()], [SID2, view({ id: SID2, pendingPermissions: 2 })]]) });
    expect(titles.at(-1)).toBe('(2) Switchboard');
  });
});

describe('failed switch (6)', () => {
  it('detaches the target and the session it came from', async () => {
    const ctx = setup();
    const { fake, store } = ctx;
    await shown(ctx);
    fake.handle('sessions:switch', () => ({ ok: false, error: { code: 'agent_unavailable', message: 'no' } }));
    await store.getState().switchSession(SID2);
    await flush();
    expect(fake.callsOf('sessions:detach')).toEqual([{ sessionId: SID2 }, { sessionId: SID }]);
    // Nothing is watched now: the next switch has no fromSessionId.
    fake.handle('sessions:switch', () => ok(answer()));
    await store.getState().switchSession(SID);
    expect(fake.callsOf('sessions:switch').at(-1)).toEqual({ sessionId: SID });
  });

  it('does not detach on a disconnected answer', async () => {
    const ctx = setup();
    const { fake, store } = ctx;
    await shown(ctx);
    fake.handle('sessions:switch', () => lost);
    await store.getState().switchSession(SID2);
    await flush();
    expect(fake.callsOf('sessions:detach')).toEqual([]);
  });
});

describe('announcements (8)', () => {
  it('announces a new permission request and a live error, not a loaded page', async () => {
    const ctx = setup();
    const { fake, store } = ctx;
    await shown(ctx);
    const said: string[] = [];
    store.subscribe((next, prev) => {
      const a = announcementFor(prev, next);
      if (a) said.push(a);
    });
    fake.emit('permission:requested', permission('r9', SID, 'Run tests'));
    fake.emit('session:event', ev(1, 'error', { code: 'agent_exited', message: 'Agent exited' }));
    expect(said).toEqual(['Permission requested: Run tests', 'Error: Agent exited']);
    said.length = 0;
    fake
      .handle('sessions:switch', () => ok(answer({ session: view({ id: SID2 }), pendingPermissions: [permission('old', SID2)] })))
      .handle('transcript:page', () => ok({ events: [ev(1, 'error', { code: 'agent_error', message: 'old' }, SID2)], hasMore: false }));
    await store.getState().switchSession(SID2);
    expect(said).toEqual([]);
  });
});
