import { describe, expect, it } from 'vitest';
import { ev, SID, SID2, view } from '../test-support/fake-api';
import { answer, boundStore, ok, permission, question, showSession } from '../test-support/store-fixtures';
import { announcementFor } from './announce';

/** What the live regions would say from now on, each line marked `polite:` or `assertive:`. */
function heard(store: ReturnType<typeof boundStore>['store']): string[] {
  const said: string[] = [];
  store.subscribe((next, prev) => {
    const a = announcementFor(prev, next);
    if (a?.polite) said.push(`polite: ${a.polite}`);
    if (a?.assertive) said.push(`assertive: ${a.assertive}`);
  });
  return said;
}

describe('screen reader announcements', () => {
  it('announces a live permission request and a live error, not what a switch or a loaded page brings', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
    const said = heard(store);
    fake.emit('permission:requested', permission('r9', SID, 'Run tests'));
    fake.emit('session:event', ev(1, 'error', { code: 'agent_exited', message: 'Agent exited' }));
    expect(said).toEqual(['assertive: Permission requested: Run tests', 'polite: Error: Agent exited']);
    said.length = 0;
    fake
      .handle('sessions:switch', () => ok(answer({ session: view({ id: SID2 }), lastSeq: 1, pendingPermissions: [permission('old', SID2)] })))
      .handle('transcript:page', () => ok({ events: [ev(1, 'error', { code: 'agent_error', message: 'old' }, SID2)], hasMore: false }));
    await store.getState().switchSession(SID2);
    expect(said).toEqual([]);
  });

  it("announces how a turn ended when it ended while the switch's page loaded, not what was stored before the switch", async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
    const said = heard(store);
    // Seqs 1–2 were stored before the switch answered (its last seq is 2); 3–5 while the page loaded.
    fake
      .handle('sessions:switch', () => ok(answer({ session: view({ id: SID2 }), lastSeq: 2, pendingPermissions: [permission('old', SID2)] })))
      .handle('transcript:page', () =>
        ok({
          events: [
            ev(1, 'error', { code: 'agent_error', message: 'old' }, SID2),
            ev(2, 'turn_ended', { stopReason: 'cancelled' }, SID2),
            ev(3, 'user_message', { text: 'hi', clientMessageId: 'm1' }, SID2),
            ev(4, 'agent_message', { text: 'hello' }, SID2),
            ev(5, 'turn_ended', { stopReason: 'end_turn' }, SID2),
          ],
          hasMore: false,
        }),
      );
    await store.getState().switchSession(SID2);
    expect(said).toEqual(['polite: The agent finished']);
    // Jump to latest loads the same page again: nothing in it is news then.
    said.length = 0;
    await store.getState().showLatest();
    expect(store.getState().transcript.loaded).toBe(true);
    expect(said).toEqual([]);
  });

  it('says politely how each turn ended: finished, stopped, failed', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
    const said: string[] = [];
    store.subscribe((next, prev) => {
      const a = announcementFor(prev, next);
      if (a?.polite) said.push(a.polite);
      expect(a?.assertive).toBeUndefined();
    });
    fake.emit('session:event', ev(1, 'turn_ended', { stopReason: 'end_turn' }));
    fake.emit('session:event', ev(2, 'turn_ended', { stopReason: 'cancelled', reason: 'closed_by_user' }));
    fake.emit('session:event', ev(3, 'error', { code: 'agent_exited', message: 'Agent exited' }));
    fake.emit('session:event', ev(4, 'turn_ended', { stopReason: 'error' }));
    expect(said).toEqual(['The agent finished', 'The turn was stopped', 'Error: Agent exited', 'The turn failed']);
  });

  it('announces a question from the agent in the session on screen at once (assertive), not one elsewhere', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
    const said = heard(store);
    fake.emit('question:asked', question('q1', SID2));
    fake.emit('question:asked', question('q2'));
    expect(said).toEqual(['assertive: Question from the agent: Who are you?']);
  });

  it("does not announce another session's request in this window's live regions (the title counts it)", async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    await showSession(ctx);
    let heard = 0;
    store.subscribe((next, prev) => void (announcementFor(prev, next) && heard++));
    fake.emit('permission:requested', permission('r1', SID2, 'Elsewhere'));
    fake.emit('session:updated', view({ id: SID2, pendingPermissions: 1 }));
    expect(store.getState().sessionsById.get(SID2)?.pendingPermissions).toBe(1);
    expect(heard).toBe(0);
  });
});
