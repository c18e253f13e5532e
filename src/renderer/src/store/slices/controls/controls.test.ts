import { describe, expect, it } from 'vitest';
import { headerControls, type SessionControls } from '../../../../../shared/contract';
import { SID } from '../../../test-support/fake-api';
import { answer, boundStore, ok, showSession } from '../../../test-support/store-fixtures';
import { view } from '../../../test-support/fake-api';

const controls = (rev: number, mode = 'ask'): SessionControls => ({
  rev,
  modes: { currentModeId: mode, availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
});

describe('controls in the store', () => {
  it('takes the controls from the switch answer, then pushed ones, never an older rev over a newer', async () => {
    const ctx = boundStore();
    ctx.fake
      .handle('sessions:switch', () => ok(answer({ session: view({ id: SID }), controls: controls(2) })))
      .handle('transcript:page', () => ok({ events: [], hasMore: false }));
    await ctx.store.getState().switchSession(SID);
    expect(ctx.store.getState().controlsById.get(SID)?.rev).toBe(2);
    ctx.fake.emit('session:controls', { sessionId: SID, controls: controls(3, 'code') });
    expect(ctx.store.getState().controlsById.get(SID)?.modes?.currentModeId).toBe('code');
    ctx.fake.emit('session:controls', { sessionId: SID, controls: controls(1) });
    expect(ctx.store.getState().controlsById.get(SID)?.rev).toBe(3);
  });

  it('sends the change to the host and shows what the host answers', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    ctx.store.getState().receiveControls({ sessionId: SID, controls: controls(1) });
    ctx.fake.handle('sessions:configure', () => ok(controls(2, 'code')));
    const mode = headerControls(ctx.store.getState().controlsById.get(SID))[0]!;
    const done = ctx.store.getState().configureSession(SID, mode, 'code');
    expect(ctx.store.getState().pendingControls).toEqual([{ sessionId: SID, key: 'mode', value: 'code' }]);
    await done;
    expect(ctx.fake.calls.find((c) => c.command === 'sessions:configure')?.req).toEqual({ sessionId: SID, target: { kind: 'mode' }, value: 'code' });
    expect(ctx.store.getState().pendingControls).toEqual([]);
    expect(ctx.store.getState().controlsById.get(SID)?.modes?.currentModeId).toBe('code');
  });

  it('goes back to what the host holds and says why when the change is refused', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    ctx.store.getState().receiveControls({ sessionId: SID, controls: controls(1) });
    ctx.fake.handle('sessions:configure', () => ({ ok: false, error: { code: 'agent_error', message: 'Demo agent refused session/set_mode: no' } }));
    const mode = headerControls(ctx.store.getState().controlsById.get(SID))[0]!;
    await ctx.store.getState().configureSession(SID, mode, 'code');
    expect(ctx.store.getState().pendingControls).toEqual([]);
    expect(ctx.store.getState().controlsById.get(SID)?.modes?.currentModeId).toBe('ask');
    expect(ctx.store.getState().controlError).toEqual({ sessionId: SID, label: 'Mode', message: 'Demo agent refused session/set_mode: no' });
    ctx.store.getState().dismissControlError();
    expect(ctx.store.getState().controlError).toBeUndefined();
  });
});
