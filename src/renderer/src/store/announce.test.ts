import { describe, expect, it } from 'vitest';
import { ev, SID, SID2, view } from '../test-support/fake-api';
import { answer, boundStore, ok, permission, showSession } from '../test-support/store-fixtures';
import { announcementFor } from './announce';

describe('screen reader announcements', () => {
  it('announces a live permission request and a live error, not what a switch or a loaded page brings', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
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
