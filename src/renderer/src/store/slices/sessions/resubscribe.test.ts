import { describe, expect, it } from 'vitest';
import type { Result, SwitchResultT } from '../../../../../shared/contract';
import { deferred, flush, SID, view } from '../../../test-support/fake-api';
import { answer, boundStore, ok, permission, showSession } from '../../../test-support/store-fixtures';

describe('resubscribing after a reconnect', () => {
  it('keeps a turn end and permission changes pushed while the session list is still loading', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
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

  it('keeps state pushed after the switch request went out when its older answer arrives', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
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
