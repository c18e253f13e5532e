import { describe, expect, it } from 'vitest';
import type { SessionEventT } from '../../../../../shared/contract';
import { ev, SID, SID2, view } from '../../../test-support/fake-api';
import { answer, boundStore, ok } from '../../../test-support/store-fixtures';
import { transcriptSelectors } from './selectors';

/** A transcript of turns: prompt, answer, turn end (three events, two rows each). */
function turns(from: number, to: number, sessionId = SID): SessionEventT[] {
  const out: SessionEventT[] = [];
  for (let seq = from; seq <= to; seq++) {
    const k = seq % 3;
    out.push(
      k === 1
        ? ev(seq, 'user_message', { text: `q${seq}` }, sessionId)
        : k === 2
          ? ev(seq, 'agent_message', { text: `a${seq}` }, sessionId)
          : ev(seq, 'turn_ended', { stopReason: 'end_turn' }, sessionId),
    );
  }
  return out;
}

/** A host with one 10,000-event session whose pages are served from `turns`. */
function hostWithLongSession() {
  const ctx = boundStore();
  const last = 10_000;
  ctx.fake
    .handle('sessions:switch', (req) => ok(answer({ session: view({ id: req.sessionId, lastSeq: last }), lastSeq: last })))
    .handle('transcript:page', (req) => {
      const before = Math.min(req.beforeSeq ?? last + 1, last + 1);
      const limit = req.limit ?? 200;
      const from = Math.max(1, before - limit);
      return ok({ events: turns(from, before - 1, req.sessionId), hasMore: from > 1 });
    })
    .handle('transcript:since', (req) => {
      const limit = req.limit ?? 2000;
      const to = Math.min(last, req.afterSeq + limit);
      return ok({ events: turns(req.afterSeq + 1, to, req.sessionId), hasMore: to < last });
    });
  return { ...ctx, last };
}

describe('a transcript opened at a search hit', () => {
  it('opens a hit deep in a long transcript on the page around it, with its row to scroll to', async () => {
    const { fake, store } = hostWithLongSession();
    await store.getState().openAt(SID, 1_234);
    const t = store.getState().transcript;
    expect(fake.callsOf('transcript:page')).toEqual([{ sessionId: SID, beforeSeq: 1_260, limit: 50 }]);
    expect([t.oldestSeq, t.lastSeq, t.hasOlder, t.hasNewer, t.following]).toEqual([1_210, 1_259, true, true, false]);
    expect(t.focus?.seq).toBe(1_234);
    const index = transcriptSelectors.rowIndexOfSeq(store.getState(), 1_234);
    expect(index).toBeDefined();
    expect(t.rows.at(index!)).toMatchObject({ type: 'user', text: 'q1234' });
    // A turn end makes no row: it points at the row before it (the answer).
    expect(t.rows.at(transcriptSelectors.rowIndexOfSeq(store.getState(), 1_236)!)).toMatchObject({ type: 'agent', text: 'a1235' });
  });

  it('does not apply live events past what is loaded, and reaches the newest events on request', async () => {
    const { fake, store, last } = hostWithLongSession();
    await store.getState().openAt(SID, 9_000);
    fake.emit('session:event', ev(last + 1, 'user_message', { text: 'live' }));
    expect(store.getState().transcript.lastSeq).toBe(9_025);
    expect(fake.callsOf('transcript:since')).toEqual([]);
    await store.getState().loadNewer();
    expect(store.getState().transcript.lastSeq).toBe(9_075);
    expect(store.getState().transcript.hasNewer).toBe(true);
    for (let i = 0; i < 30 && store.getState().transcript.hasNewer; i++) await store.getState().loadNewer();
    expect(store.getState().transcript.hasNewer).toBe(false);
    expect(store.getState().transcript.lastSeq).toBe(last);
    // At the end again: live events apply.
    fake.emit('session:event', ev(last + 1, 'agent_message', { text: 'live' }));
    expect(store.getState().transcript.lastSeq).toBe(last + 1);
  });

  it('Jump to latest goes back to the newest page, following the stream', async () => {
    const { store, last } = hostWithLongSession();
    await store.getState().openAt(SID, 500);
    await store.getState().showLatest();
    const t = store.getState().transcript;
    expect([t.lastSeq, t.hasNewer, t.following, t.focus]).toEqual([last, false, true, undefined]);
  });

  it('opens a hit already loaded without reloading, and a hit near the end on the newest page', async () => {
    const { fake, store, last } = hostWithLongSession();
    await store.getState().openAt(SID, last - 3);
    expect(fake.callsOf('transcript:page')).toEqual([{ sessionId: SID, limit: 50 }]);
    expect(store.getState().transcript.hasNewer).toBe(false);
    const nonce = store.getState().transcript.focus?.nonce;
    await store.getState().openAt(SID, last - 10);
    expect(fake.callsOf('transcript:page')).toHaveLength(1);
    expect(store.getState().transcript.focus).toEqual({ seq: last - 10, nonce: nonce! + 1, applied: false });
    await store.getState().openAt(SID2, 4_000);
    expect(store.getState().currentSessionId).toBe(SID2);
    expect(store.getState().transcript.focus?.seq).toBe(4_000);
  });
});
