import { describe, expect, it } from 'vitest';
import { flush, SID, SID2 } from '../../../test-support/fake-api';
import { answer, boundStore, lost, ok, showSession } from '../../../test-support/store-fixtures';

describe('a switch the host refuses', () => {
  it('detaches both the target and the session the window came from', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
    fake.handle('sessions:switch', () => ({ ok: false, error: { code: 'agent_unavailable', message: 'no' } }));
    await store.getState().switchSession(SID2);
    await flush();
    expect(fake.callsOf('sessions:detach')).toEqual([{ sessionId: SID2 }, { sessionId: SID }]);
    // Nothing is watched now: the next switch has no fromSessionId.
    fake.handle('sessions:switch', () => ok(answer()));
    await store.getState().switchSession(SID);
    expect(fake.callsOf('sessions:switch').at(-1)).toEqual({ sessionId: SID });
  });

  it('detaches nothing when the answer is lost with the link', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
    fake.handle('sessions:switch', () => lost);
    await store.getState().switchSession(SID2);
    await flush();
    expect(fake.callsOf('sessions:detach')).toEqual([]);
  });
});
