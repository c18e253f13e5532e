import { describe, expect, it } from 'vitest';
import type { ConnectionMonitor, ConnectionStatus } from '../../../api/connection';
import { flush } from '../../../test-support/fake-api';
import { boundStore, lost, ok, showSession } from '../../../test-support/store-fixtures';

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

describe('sending a prompt over a dropped link', () => {
  it('keeps retrying with the same client message id while the link is down', async () => {
    const ctx = boundStore(manualConnection('reconnecting'));
    const { fake, store } = ctx;
    await showSession(ctx);
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

  it('shows a send error only while the link is up, and Retry sends the same client message id', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
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
