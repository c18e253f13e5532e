import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { range } from '../test-support/capture-logger';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});


/** A started session every given window watches (all switched before anything was stored). */
async function watchedBy(harness: Harness, windows: TestWindow[]): Promise<string> {
  const id = randomUUID();
  harness.host.service.create(id, 'demo', harness.dataDir);
  await Promise.all(windows.map((w) => w.call('sessions:switch', { sessionId: id })));
  await windows[0]!.waitForState(id, 'ACTIVE');
  return id;
}

describe('many windows on one session', () => {
  it('sends each window every event once, in seq order, the same for all', async () => {
    h = await startHarness();
    const windows = [h.window('w1'), h.window('w2'), h.window('w3')];
    const id = await watchedBy(h, windows);
    const [w1] = windows as [TestWindow];
    const sent = [randomUUID(), randomUUID(), randomUUID()];
    await w1.call('prompt:send', { sessionId: id, clientMessageId: sent[0]!, text: '/flood 5000' });
    await w1.call('prompt:send', { sessionId: id, clientMessageId: sent[1]!, text: '/tool Read the notes' });
    await w1.call('prompt:send', { sessionId: id, clientMessageId: sent[2]!, text: 'and done' });
    for (const w of windows) await w.waitAnswered(id, sent[2]!);

    const stored = h.stored(id);
    expect(stored.map((e) => e.seq)).toEqual(range(1, stored.length));
    for (const w of windows) {
      expect(w.seqs(id)).toEqual(range(1, stored.length));
      expect(w.sessionEvents(id)).toEqual(stored);
    }
  });

  it('gives a window that reconnects with its last seq exactly the events it missed', async () => {
    h = await startHarness();
    const [w1, w2] = [h.window('w1'), h.window('w2')];
    const id = await watchedBy(h, [w1, w2]);
    const slow = randomUUID();
    await w1.call('prompt:send', { sessionId: id, clientMessageId: slow, text: '/slow 1' });
    await w1.waitForText(id, 'tick 3 ');
    // The page reloads: this window is gone, a new one comes with the last seq it had.
    w1.dispose();
    const lastSeen = Math.max(...w1.seqs(id));
    await w2.waitAnswered(id, slow);
    expect(w1.seqs(id)).toEqual(range(1, lastSeen));

    const reloaded = h.window('w1 reloaded');
    const answer = await reloaded.call('sessions:switch', { sessionId: id });
    const missed = await reloaded.call('transcript:since', { sessionId: id, afterSeq: lastSeen });
    expect(missed.hasMore).toBe(false);
    expect(missed.events).toEqual(h.stored(id).filter((e) => e.seq > lastSeen));
    expect(missed.events.map((e) => e.seq)).toEqual(range(lastSeen + 1, answer.lastSeq));
    expect([...w1.seqs(id), ...missed.events.map((e) => e.seq)]).toEqual(range(1, answer.lastSeq));

    // In pages, it is the same events, the last page saying there is no more.
    const first = await reloaded.call('transcript:since', { sessionId: id, afterSeq: lastSeen, limit: 2 });
    expect(first).toMatchObject({ hasMore: true, events: missed.events.slice(0, 2) });
    const end = await reloaded.call('transcript:since', { sessionId: id, afterSeq: answer.lastSeq });
    expect(end).toEqual({ events: [], hasMore: false });

    // From here on it is pushed what comes next, and nothing it already had.
    const next = await reloaded.prompt(id, 'welcome back');
    expect(reloaded.seqs(id)).toEqual(range(answer.lastSeq + 1, next.seq));
  });

  it('changes nothing for the other windows when one window closes', async () => {
    h = await startHarness();
    const [w1, w2] = [h.window('w1'), h.window('w2')];
    const id = await watchedBy(h, [w1, w2]);
    const slow = randomUUID();
    await w1.call('prompt:send', { sessionId: id, clientMessageId: slow, text: '/slow 1' });
    await w2.waitForText(id, 'tick 2 ');
    const mark = w2.mark();
    w1.dispose();
    w1.dispose();
    expect(h.host.store.sessions.get(id)?.state).toBe('ACTIVE');
    expect(h.host.watchers.count(id)).toBe(1);
    await w2.waitAnswered(id, slow);
    expect(w2.seqs(id)).toEqual(range(1, h.host.eventLog.committedSeq(id)));
    expect(w2.agentText(id)).toContain('Done after 1s');
    expect(w2.events.slice(mark).filter((e) => e.event === 'session:updated' && (e.payload as { state: string }).state !== 'ACTIVE')).toEqual([]);
    // A permission request still reaches the window that is left, with no deadline.
    await w2.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: '/permission Edit' });
    const request = await w2.waitFor('permission:requested', (p) => p.sessionId === id);
    expect(request.deadlineAt).toBeUndefined();

    w2.dispose();
    expect(h.host.store.sessions.get(id)?.state).toBe('DETACHED');
  });

  it('changes nothing when a window detaches twice, or detaches from a session it never watched', async () => {
    h = await startHarness();
    const [w1, stranger] = [h.window('w1'), h.window('stranger')];
    const id = await watchedBy(h, [w1]);
    const before = h.host.store.sessions.get(id);
    const strangerMark = stranger.mark();
    const mark = w1.mark();

    await expect(stranger.call('sessions:detach', { sessionId: id })).resolves.toEqual({ ok: true });
    expect(h.host.store.sessions.get(id)).toEqual(before);
    expect(h.host.watchers.count(id)).toBe(1);
    expect(w1.events.slice(mark)).toEqual([]);
    await w1.prompt(id, 'still watched');

    await w1.call('sessions:detach', { sessionId: id });
    const detached = h.host.store.sessions.get(id);
    expect(detached?.state).toBe('DETACHED');
    const pushes = w1.mark();
    await expect(w1.call('sessions:detach', { sessionId: id })).resolves.toEqual({ ok: true });
    await expect(stranger.call('sessions:detach', { sessionId: id })).resolves.toEqual({ ok: true });
    // Same row: the idle clock (detached_at) did not restart, nothing was pushed.
    expect(h.host.store.sessions.get(id)).toEqual(detached);
    expect(w1.events.slice(pushes)).toEqual([]);
    expect(stranger.events.slice(strangerMark).filter((e) => e.event !== 'session:updated')).toEqual([]);
    expect(h.host.watchers.count(id)).toBe(0);
  });
});
