import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../util/log';
import { liveSession, startHarness, type Harness } from '../test-support/host-harness';
import { WaitingBadge } from './waiting-badge';

describe('the dock badge counts sessions waiting for the person', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('counts a pending permission request, across windows, until it is answered', async () => {
    h = await startHarness();
    const shown: number[] = [];
    const badge = new WaitingBadge(h.host, (n) => shown.push(n), silentLogger);
    await badge.start();
    expect(shown).toEqual([0]);

    const w = h.window('window 1');
    const id = await liveSession(h, w);
    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/permission Edit greeting.txt' });
    const request = await w.waitFor('permission:requested', (p) => p.sessionId === id);
    await w.until(() => badge.count === 1, 'badge shows the waiting session');

    await w.call('permissions:answer', { requestId: request.requestId, sessionId: id, optionId: request.options[0]?.optionId ?? '' });
    await w.until(() => badge.count === 0, 'badge clears when answered');
    expect(shown).toEqual([0, 1, 0]);
    badge.dispose();
    w.dispose();
  });

  it('starts from what is already waiting, and forgets a deleted session', async () => {
    h = await startHarness();
    const w = h.window('window 1');
    const id = await liveSession(h, w);
    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/permission Edit greeting.txt' });
    await w.waitFor('permission:requested', (p) => p.sessionId === id);

    const badge = new WaitingBadge(h.host, () => undefined, silentLogger);
    await badge.start();
    expect(badge.count).toBe(1);

    await w.call('sessions:delete', { sessionId: id });
    await w.until(() => badge.count === 0, 'a deleted session no longer counts');
    badge.dispose();
    w.dispose();
  });
});
