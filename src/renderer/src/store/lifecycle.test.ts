import { describe, expect, it } from 'vitest';
import { deferred, SID, SID2, view } from '../test-support/fake-api';
import type { CommandResponse, Result } from '../../../shared/contract';
import { boundStore, ok, showSession } from '../test-support/store-fixtures';

describe('sign-in from the window', () => {
  it('shows progress while authenticate runs, then the host\'s answer', async () => {
    const ctx = boundStore();
    const answer = deferred<Result<CommandResponse<'agents:authenticate'>>>();
    ctx.fake.handle('agents:authenticate', () => answer.promise);
    const run = ctx.store.getState().authenticate(SID, 'demo-login');
    expect(ctx.store.getState().signIn).toEqual({ sessionId: SID, methodId: 'demo-login', status: 'running' });
    answer.resolve(ok({ ok: true as const, message: 'Signed in with Log in to the demo.' }));
    await run;
    expect(ctx.store.getState().signIn).toMatchObject({ status: 'done', message: 'Signed in with Log in to the demo.' });
    expect(ctx.fake.callsOf('agents:authenticate')).toEqual([{ sessionId: SID, methodId: 'demo-login' }]);
  });

  it("keeps the agent's error as it was sent when the sign-in fails", async () => {
    const ctx = boundStore();
    ctx.fake.handle('agents:authenticate', () => ({ ok: false, error: { code: 'auth_required', message: 'Demo agent asks you to sign in: key is not set' } }));
    await ctx.store.getState().authenticate(SID, 'demo-api-key', 'k');
    expect(ctx.store.getState().signIn).toMatchObject({ status: 'failed', message: 'Demo agent asks you to sign in: key is not set' });
    expect(ctx.fake.callsOf('agents:authenticate')).toEqual([{ sessionId: SID, methodId: 'demo-api-key', value: 'k' }]);
  });
});

describe('archive and delete', () => {
  it('applies the archived view the host answers', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    ctx.fake.handle('sessions:archive', () => ok(view({ archivedAt: 10, updatedAt: 99 })));
    await ctx.store.getState().archiveSession(SID);
    expect(ctx.store.getState().sessionsById.get(SID)?.archivedAt).toBe(10);
  });

  it('drops a session deleted here or in another window, and the current one is no longer shown', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    ctx.store.getState().upsertSession(view({ id: SID2 }));
    ctx.fake.handle('sessions:delete', () => ok({ ok: true as const }));
    await ctx.store.getState().deleteSession(SID);
    expect(ctx.store.getState().sessionsById.has(SID)).toBe(false);
    expect(ctx.store.getState().sessionOrder).toEqual([SID2]);
    expect(ctx.store.getState().currentSessionId).toBeUndefined();
    ctx.fake.emit('session:deleted', { sessionId: SID2 });
    expect(ctx.store.getState().sessionOrder).toEqual([]);
  });
});
