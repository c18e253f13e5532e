import { describe, expect, it } from 'vitest';
import { SID, SID2 } from '../../../test-support/fake-api';
import { answer, boundStore, ok, permission } from '../../../test-support/store-fixtures';

describe('permission answers', () => {
  async function withRequest() {
    const ctx = boundStore();
    ctx.fake
      .handle('sessions:switch', () => ok(answer({ pendingPermissions: [permission('r1')] })))
      .handle('transcript:page', () => ok({ events: [], hasMore: false }));
    await ctx.store.getState().switchSession(SID);
    return ctx;
  }

  it('closes the dialog quietly with a notice when answered elsewhere', async () => {
    const { fake, store } = await withRequest();
    fake.handle('permissions:answer', () => ({ ok: false, error: { code: 'permission_answered', message: 'x' } }));
    await store.getState().answerPermission('r1', 'allow');
    expect(store.getState().pendingPermissions.size).toBe(0);
    expect(store.getState().notices).toHaveLength(1);
  });

  it('closes the dialog on permission:resolved and opens one on permission:requested', async () => {
    const { fake, store } = await withRequest();
    fake.emit('permission:resolved', { requestId: 'r1', sessionId: SID });
    fake.emit('permission:requested', permission('r2'));
    fake.emit('permission:requested', permission('r3', SID2));
    expect([...store.getState().pendingPermissions.keys()]).toEqual(['r2']);
  });
});
