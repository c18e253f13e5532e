import { describe, expect, it } from 'vitest';
import type { CommandResponse, Result } from '../../../../../shared/contract';
import { deferred, ev, flush, SID } from '../../../test-support/fake-api';
import { boundStore, ok, showSession } from '../../../test-support/store-fixtures';
import { composerSelectors } from './selectors';

describe('sending prompts', () => {
  async function switched() {
    const ctx = boundStore();
    await showSession(ctx);
    return ctx;
  }

  it('retries a disconnected send with the same clientMessageId', async () => {
    const { fake, store } = await switched();
    let calls = 0;
    fake.handle('prompt:send', () =>
      ++calls === 1
        ? { ok: false, error: { code: 'disconnected', message: 'lost' } }
        : ok({ accepted: true as const, duplicate: false }),
    );
    expect(await store.getState().sendPrompt('hello')).toBe(true);
    await flush();
    const sent = fake.callsOf('prompt:send') as { clientMessageId: string }[];
    expect(sent).toHaveLength(2);
    expect(sent[0]?.clientMessageId).toBe(sent[1]?.clientMessageId);
    expect(store.getState().sendError).toBeUndefined();
  });

  it('shows other errors by code and drops the optimistic row', async () => {
    const { fake, store } = await switched();
    fake.handle('prompt:send', () => ({ ok: false, error: { code: 'agent_unavailable', message: 'no agent' } }));
    await store.getState().sendPrompt('hello');
    await flush();
    expect(store.getState().sendError).toMatchObject({ code: 'agent_unavailable', text: 'hello' });
    expect(store.getState().pendingSends.size).toBe(0);
  });

  it('does not send blank text', async () => {
    const { fake, store } = await switched();
    expect(await store.getState().sendPrompt('  \n')).toBe(false);
    expect(fake.callsOf('prompt:send')).toHaveLength(0);
  });

  it('drops the optimistic row once the host echoes the prompt', async () => {
    const { fake, store } = await switched();
    fake.handle('prompt:send', () => ok({ accepted: true as const, duplicate: false }));
    await store.getState().sendPrompt('hello');
    await flush();
    const [pending] = [...store.getState().pendingSends.values()];
    expect(pending?.status).toBe('accepted');
    fake.emit('session:event', ev(1, 'user_message', { text: 'hello', clientMessageId: pending?.clientMessageId }));
    expect(store.getState().pendingSends.size).toBe(0);
  });

  it('retries the last prompt with a new clientMessageId', async () => {
    const { fake, store } = await switched();
    fake.handle('prompt:send', () => ok({ accepted: true as const, duplicate: false }));
    fake.emit('session:event', ev(1, 'user_message', { text: 'build it', clientMessageId: 'old' }));
    await store.getState().retryLastPrompt();
    const [req] = fake.callsOf('prompt:send') as { text: string; clientMessageId: string }[];
    expect(req?.text).toBe('build it');
    expect(req?.clientMessageId).not.toBe('old');
  });
});

describe('Retry after a crash loop', () => {
  it('re-sends the last prompt with a new clientMessageId and retry: true, once per click burst', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    const { fake, store } = ctx;
    fake.handle('prompt:send', () => ok({ accepted: true as const, duplicate: false }));
    const held = deferred<Result<CommandResponse<'prompt:send'>>>();
    fake.handle('prompt:send', () => held.promise);
    fake.emit('session:event', ev(1, 'user_message', { text: 'build it', clientMessageId: 'c-old' }));
    fake.emit('session:event', ev(2, 'error', { code: 'crash_loop', message: 'agent keeps crashing' }));
    const first = store.getState().retryLastPrompt();
    await flush();
    expect(composerSelectors.isRetrying(store.getState())).toBe(true);
    await store.getState().retryLastPrompt();
    held.resolve(ok({ accepted: true as const, duplicate: false }));
    await first;
    await flush();
    const sent = fake.callsOf('prompt:send') as { text: string; clientMessageId: string; retry?: boolean }[];
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ sessionId: SID, text: 'build it', retry: true });
    expect(sent[0]?.clientMessageId).not.toBe('c-old');
    expect(composerSelectors.isRetrying(store.getState())).toBe(false);
  });

  it('sends ordinary prompts without the retry flag', async () => {
    const ctx = boundStore();
    await showSession(ctx);
    const { fake, store } = ctx;
    fake.handle('prompt:send', () => ok({ accepted: true as const, duplicate: false }));
    await store.getState().sendPrompt('hi');
    await flush();
    expect(fake.callsOf('prompt:send')[0]).not.toHaveProperty('retry');
  });
});
