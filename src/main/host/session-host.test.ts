import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../test-support/host-harness';

let h: Harness;
afterEach(async () => {
  await h?.cleanup();
});

describe('SessionHost with the demo agent', () => {
  it('creates a session, streams a reply and stores it', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.call('prompt:send', { sessionId: view.id, clientMessageId: randomUUID(), text: 'hello' });
    await w.waitIdle(view.id);
    expect(w.agentText(view.id)).toContain('Echo: hello');
    const page = await w.call('transcript:page', { sessionId: view.id });
    expect(page.events.map((e) => e.kind)).toContain('user_message');
    expect(page.events.map((e) => e.seq)).toEqual(page.events.map((_, i) => i + 1));
  });
});
