import { describe, expect, it } from 'vitest';
import type { Result, SwitchResultT } from '../../../../../shared/contract';
import { alwaysOpen } from '../../../api/connection';
import { announcementFor } from '../../announce';
import { createAppStore } from '../../app-store';
import { bindApi } from '../../bind-api';
import { ev, FakeApi, flush, range, SID, testDeps, view } from '../../../test-support/fake-api';

const ok = <T,>(value: T): Result<T> => ({ ok: true, value });

function answer(lastSeq: number): SwitchResultT {
  return { session: view({ lastSeq }), running: false, lastSeq, pendingPermissions: [], pendingQuestions: [] };
}

/** A session whose host holds seqs 1..`newest`, with a window that keeps at most `cap`. */
async function setup(cap: number, newest: number) {
  const fake = new FakeApi();
  const store = createAppStore(testDeps(fake, { pageSize: 5, transcriptCap: cap }));
  bindApi(store, fake.api, alwaysOpen);
  fake
    .handle('sessions:switch', () => ok(answer(newest)))
    .handle('transcript:page', (req) => {
      const before = req.beforeSeq ?? newest + 1;
      const from = Math.max(1, before - (req.limit ?? 5));
      return ok({ events: range(from, before - 1), hasMore: from > 1 });
    });
  await store.getState().switchSession(SID);
  return { fake, store };
}

const seqs = (s: { transcript: { events: readonly { seq: number }[] } }) => s.transcript.events.map((e) => e.seq);

describe('bounded transcript', () => {
  it('appends live events in place and still hands subscribers a new state and new rows', async () => {
    const { fake, store } = await setup(100, 5);
    const before = store.getState();
    fake.emit('session:event', ev(6, 'error', { code: 'agent_error', message: 'boom' }));
    const after = store.getState();
    expect(after.transcript.events).toBe(before.transcript.events);
    expect(after.transcript).not.toBe(before.transcript);
    expect(after.transcript.rows).not.toBe(before.transcript.rows);
    expect(after.transcript.rows.count).toBe(before.transcript.rows.count + 1);
    expect(after.transcript.lastSeq).toBe(6);
    expect(announcementFor(before, after)).toEqual({ polite: 'Error: boom' });
  });

  it('evicts the oldest events past the cap while following, regrouping once', async () => {
    const { fake, store } = await setup(10, 5);
    for (let s = 6; s <= 10; s++) fake.emit('session:event', ev(s, 'user_message', { text: `q${s}` }));
    expect(store.getState().transcript).toMatchObject({ oldestSeq: 1, hasOlder: false });
    const rowsBefore = store.getState().transcript.rows;
    fake.emit('session:event', ev(11, 'user_message', { text: 'q11' }));
    const t = store.getState().transcript;
    // Over the cap of 10: down to keep = 8.
    expect(seqs(store.getState())).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(t).toMatchObject({ oldestSeq: 4, lastSeq: 11, hasOlder: true });
    expect(t.rows.layout).not.toBe(rowsBefore.layout);
    // Seqs 1–5 are chunks of one bubble: kept whole under its key (not regrouped from seq 4), then one row per prompt.
    expect(t.rows.count).toBe(7);
    expect(t.rows.keyAt(0)).toBe('agent-1');
    expect(t.rows.at(0)).toBe(rowsBefore.at(0));
    // The next appends fold in place again, without another eviction.
    fake.emit('session:event', ev(12));
    expect(store.getState().transcript.oldestSeq).toBe(4);
    expect(store.getState().transcript.events).toBe(t.events);
  });

  it('keeps older output while the user is scrolled up, and evicts once they return', async () => {
    const { fake, store } = await setup(10, 5);
    store.getState().setFollowing(false);
    for (let s = 6; s <= 14; s++) fake.emit('session:event', ev(s));
    expect(store.getState().transcript).toMatchObject({ oldestSeq: 1, lastSeq: 14, hasOlder: false });
    store.getState().setFollowing(true);
    expect(seqs(store.getState())).toEqual([7, 8, 9, 10, 11, 12, 13, 14]);
    expect(store.getState().transcript.hasOlder).toBe(true);
  });

  it('reloads evicted pages through loadOlder, past the cap while scrolled up', async () => {
    const { fake, store } = await setup(10, 20);
    for (let s = 21; s <= 26; s++) fake.emit('session:event', ev(s));
    expect(store.getState().transcript.oldestSeq).toBe(19);
    store.getState().setFollowing(false);
    await store.getState().loadOlder();
    await store.getState().loadOlder();
    await store.getState().loadOlder();
    expect(fake.callsOf('transcript:page').slice(1)).toEqual([
      { sessionId: SID, beforeSeq: 19, limit: 5 },
      { sessionId: SID, beforeSeq: 14, limit: 5 },
      { sessionId: SID, beforeSeq: 9, limit: 5 },
    ]);
    expect(store.getState().transcript).toMatchObject({ oldestSeq: 4, lastSeq: 26, hasOlder: true });
    expect(seqs(store.getState())).toHaveLength(23);
    expect(store.getState().transcript.rows.count).toBe(1);
  });

  it('bounds a catch-up too, and a new session starts out following', async () => {
    const { fake, store } = await setup(10, 5);
    fake.handle('transcript:since', (req) => ok({ events: range(req.afterSeq + 1, 30), hasMore: false }));
    fake.emit('session:event', ev(30));
    await flush();
    expect(store.getState().transcript).toMatchObject({ oldestSeq: 23, lastSeq: 30, hasOlder: true });
    store.getState().setFollowing(false);
    store.getState().beginTranscript(SID);
    expect(store.getState().transcript.following).toBe(true);
  });
});
