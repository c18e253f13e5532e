import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../app-store';
import { deferred, FakeApi, SID, SID2, testDeps, view } from '../../../test-support/fake-api';
import type { CommandResponse, Result } from '../../../../../shared/contract';
import { boundStore, ok, showSession } from '../../../test-support/store-fixtures';

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

describe('rename, open in a new window, delete confirmation', () => {
  it("applies the host's renamed view, and says why when it is refused", async () => {
    const ctx = boundStore();
    await showSession(ctx);
    ctx.fake.handle('sessions:rename', (req) => ok(view({ title: req.title, renamed: true, updatedAt: 5 })));
    expect(await ctx.store.getState().renameSession(SID, 'Mine')).toBe(true);
    expect(ctx.store.getState().sessionsById.get(SID)).toMatchObject({ title: 'Mine', renamed: true });
    ctx.fake.handle('sessions:rename', () => ({ ok: false, error: { code: 'not_found', message: 'gone' } }));
    expect(await ctx.store.getState().renameSession(SID, 'x')).toBe(false);
    expect(ctx.store.getState().notices.at(-1)?.text).toBe('Could not rename the session: gone');
  });

  it('Rename from the sidebar shows the session and opens its name for editing', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    ctx.store.getState().beginRename(SID2);
    expect(ctx.store.getState()).toMatchObject({ currentSessionId: SID2, renamingSessionId: SID2 });
  });

  it('opens a browser tab itself, and asks the host for a desktop window', async () => {
    const opened: string[] = [];
    const browser = createAppStore(testDeps(new FakeApi(), { openTab: (id) => (opened.push(id), true) }));
    await browser.getState().openInNewWindow(SID);
    expect(opened).toEqual([SID]);

    const ctx = boundStore();
    ctx.fake.handle('windows:open', () => ok({ ok: true as const }));
    await ctx.store.getState().openInNewWindow(SID);
    expect(ctx.fake.callsOf('windows:open')).toEqual([{ sessionId: SID }]);
  });

  it('a deleted session takes its pending confirmation and rename with it', () => {
    const ctx = boundStore();
    ctx.store.getState().upsertSession(view());
    ctx.store.getState().askDelete(SID);
    ctx.store.setState({ renamingSessionId: SID });
    ctx.store.getState().removeSession(SID);
    expect(ctx.store.getState()).toMatchObject({ deleteAskedFor: undefined, renamingSessionId: undefined });
  });
});

describe('next and previous session', () => {
  it('go by the sidebar as shown, wrapping around', async () => {
    const ctx = boundStore();
    await showSession(ctx, SID);
    const third = '33333333-3333-4333-8333-333333333333';
    ctx.store.getState().setSidebarVisible([SID2, SID, third]);
    ctx.store.getState().switchBy(1);
    expect(ctx.store.getState().currentSessionId).toBe(third);
    ctx.store.getState().switchBy(1);
    expect(ctx.store.getState().currentSessionId).toBe(SID2);
    ctx.store.getState().switchBy(-1);
    expect(ctx.store.getState().currentSessionId).toBe(third);
  });
});
