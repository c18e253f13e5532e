import { describe, expect, it } from 'vitest';
import type { Result } from '../../../../../shared/contract';
import { deferred, ev, flush, range, SID, SID2 } from '../../../test-support/fake-api';
import { answer, boundStore, ok, showSession } from '../../../test-support/store-fixtures';
import { transcriptSelectors } from '../transcript/selectors';
import { composerSelectors } from './selectors';

/** A window on an empty session that sent `text`, which the host accepted. */
async function acceptedPrompt(text: string) {
  const ctx = boundStore();
  await showSession(ctx);
  ctx.fake.handle('prompt:send', () => ok({ accepted: true as const, duplicate: false }));
  await ctx.store.getState().sendPrompt(text);
  await flush();
  return ctx;
}

describe('pending prompt rows', () => {
  it('drops an accepted prompt row when a page of its session loads, even one without its user_message', async () => {
    const { fake, store } = await acceptedPrompt('hello');
    expect([...store.getState().pendingSends.values()][0]?.status).toBe('accepted');
    // The user_message is not on the newest page (many events followed): the row still goes.
    fake.handle('transcript:page', () => ok({ events: range(100, 149), hasMore: true }));
    await store.getState().switchSession(SID2);
    await store.getState().switchSession(SID);
    expect(store.getState().pendingSends.size).toBe(0);
  });

  it('drops the accepted rows of a session the window leaves and keeps the rows still sending', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
    const second = deferred<Result<{ accepted: true; duplicate: boolean }>>();
    let n = 0;
    fake.handle('prompt:send', () => (++n === 1 ? ok({ accepted: true as const, duplicate: false }) : second.promise));
    await store.getState().sendPrompt('one');
    await store.getState().sendPrompt('two');
    await flush();
    await store.getState().switchSession(SID2);
    expect([...store.getState().pendingSends.values()].map((p) => p.text)).toEqual(['two']);
  });

  it('clears a pending row when its user_message arrives on an older page', async () => {
    const { fake, store } = boundStore();
    fake
      .handle('sessions:switch', () => ok(answer({ lastSeq: 60 })))
      .handle('transcript:page', (req) =>
        ok(req.beforeSeq ? { events: [ev(10, 'user_message', { text: 'x', clientMessageId: 'c1' }), ...range(11, 30)], hasMore: false } : { events: range(31, 60), hasMore: true }),
      );
    await store.getState().switchSession(SID);
    store.setState({ pendingSends: new Map([['c1', { clientMessageId: 'c1', sessionId: SID, text: 'x', status: 'sending', retry: false }]]) });
    await store.getState().loadOlder();
    expect(store.getState().pendingSends.size).toBe(0);
  });

  it('keys the row of a prompt being sent as its stored row, which takes its place', async () => {
    const { fake, store } = await acceptedPrompt('hello');
    const before = store.getState();
    expect(before.transcript.rows.count).toBe(0);
    const sent = transcriptSelectors.rowAt(before, 0);
    expect(sent).toMatchObject({ type: 'user', pending: true });
    const clientMessageId = [...before.pendingSends.keys()][0]!;
    fake.emit('session:event', ev(1, 'user_message', { text: 'hello', clientMessageId }));
    const after = store.getState();
    expect(after.pendingSends.size).toBe(0);
    expect(after.transcript.rows.count).toBe(1);
    expect(transcriptSelectors.rowAt(after, 0)).toMatchObject({ type: 'user', pending: false, key: sent!.key });
  });

  it("keeps the list of pending ids the same object when a prompt's answer only changes its status", async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
    const answerOf = deferred<Result<{ accepted: true; duplicate: boolean }>>();
    fake.handle('prompt:send', () => answerOf.promise);
    await store.getState().sendPrompt('hello');
    const sending = composerSelectors.pendingIdsForCurrent(store.getState());
    const entries = composerSelectors.pendingForCurrent(store.getState());
    expect(sending).toHaveLength(1);
    answerOf.resolve(ok({ accepted: true as const, duplicate: false }));
    await flush();
    const s = store.getState();
    expect([...s.pendingSends.values()][0]?.status).toBe('accepted');
    // The entries changed (their status), the ids did not: the transcript sees one list.
    expect(composerSelectors.pendingForCurrent(s)).not.toBe(entries);
    expect(composerSelectors.pendingIdsForCurrent(s)).toBe(sending);
    await store.getState().sendPrompt('again');
    const two = composerSelectors.pendingIdsForCurrent(store.getState());
    expect(two).not.toBe(sending);
    expect(two).toHaveLength(2);
  });
});
