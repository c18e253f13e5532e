import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionEventT, SwitchResultT } from '../../shared/contract';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { FakeClock } from '../test-support/fake-clock';
import { range } from '../test-support/capture-logger';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});


/** Two sessions the window can switch between; it watches `a` and has answered `first` there. */
async function twoSessions(w: TestWindow): Promise<{ a: string; b: string }> {
  const b = (await w.call('sessions:create', {})).id;
  const a = (await w.call('sessions:create', {})).id;
  await w.call('sessions:switch', { sessionId: a });
  await w.prompt(a, 'first');
  return { a, b };
}

describe('sessions:switch', () => {
  it('subscribes before answering: the window gets every event after the answer\'s lastSeq exactly once, and the page holds the rest', async () => {
    h = await startHarness();
    const streaming = h.window('streaming');
    const { a } = await twoSessions(streaming);
    const sent = randomUUID();
    await streaming.call('prompt:send', { sessionId: a, clientMessageId: sent, text: '/flood 20000' });
    await streaming.waitForText(a, 'flood 100\n');

    // Windows switch while events are queued but not yet committed: from inside an append.
    const late = [h.window('late 1'), h.window('late 2'), h.window('late 3')];
    const switching: Promise<SwitchResultT>[] = [];
    const log = h.host.eventLog;
    const append = log.append.bind(log);
    let chunks = 0;
    vi.spyOn(log, 'append').mockImplementation((sessionId, kind, payload) => {
      const seq = append(sessionId, kind, payload);
      const next = late[switching.length];
      if (sessionId === a && kind === 'agent_message' && next && ++chunks % 200 === 0) {
        expect(log.lastSeq(a)).toBeGreaterThan(log.committedSeq(a));
        switching.push(next.call('sessions:switch', { sessionId: a }));
      }
      return seq;
    });
    await streaming.waitFor('session:event', () => switching.length === late.length);
    const answers = await Promise.all(switching);
    await streaming.waitAnswered(a, sent);
    const last = h.host.eventLog.committedSeq(a);
    for (const [i, w] of late.entries()) {
      const answer = answers[i]!;
      await w.waitAnswered(a, sent);
      expect(answer.running).toBe(true);
      expect(w.seqs(a)).toEqual(range(answer.lastSeq + 1, last));
      const page = await w.call('transcript:since', { sessionId: a, afterSeq: 0, limit: answer.lastSeq || 1 });
      expect(page.events.map((e: SessionEventT) => e.seq)).toEqual(range(1, answer.lastSeq));
    }
  });

  it('answers with state, running, lastSeq and the pending permission request after switching away and back', async () => {
    h = await startHarness();
    const w = h.window();
    const { a, b } = await twoSessions(w);
    const sent = randomUUID();
    await w.call('prompt:send', { sessionId: a, clientMessageId: sent, text: '/permission Edit the greeting' });
    const request = await w.waitFor('permission:requested', (p) => p.sessionId === a);
    await w.call('sessions:switch', { sessionId: b, fromSessionId: a });
    expect(h.host.store.sessions.get(a)?.state).toBe('DETACHED');

    const back = await w.call('sessions:switch', { sessionId: a, fromSessionId: b });
    expect(back).toMatchObject({
      session: { id: a, state: 'ACTIVE', running: true, pendingPermissions: 1 },
      running: true,
      lastSeq: h.host.eventLog.committedSeq(a),
      pendingPermissions: [{ requestId: request.requestId, toolCall: { title: 'Edit the greeting' } }],
    });
    // No deadline while a window watches again.
    expect(back.pendingPermissions[0]?.deadlineAt).toBeUndefined();
    await w.call('permissions:answer', { sessionId: a, requestId: request.requestId, optionId: 'allow_once' });
    await expect(w.waitAnswered(a, sent)).resolves.toMatchObject({ payload: { stopReason: 'end_turn' } });
    expect(w.agentText(a)).toContain('Permission outcome: allow_once');
  });

  it('shows a turn still streaming after switching away and back, and answers the first prompt sent after it', async () => {
    h = await startHarness();
    const w = h.window();
    const { a, b } = await twoSessions(w);
    const slow = randomUUID();
    await w.call('prompt:send', { sessionId: a, clientMessageId: slow, text: '/slow 2' });
    await w.waitForText(a, 'tick 1 ');
    // Another window stays on A, to see the stream go on while this one is away.
    const other = h.window('other');
    const otherAnswer = await other.call('sessions:switch', { sessionId: a });
    await w.call('sessions:switch', { sessionId: b, fromSessionId: a });
    const away = w.mark();
    const leftAt = Math.max(...w.seqs(a), otherAnswer.lastSeq);
    await other.waitFor('session:event', (e) => e.sessionId === a && e.kind === 'agent_message' && e.seq > leftAt);
    const back = await w.call('sessions:switch', { sessionId: a, fromSessionId: b });
    expect(back.running).toBe(true);
    expect(back.session.running).toBe(true);
    expect(back.lastSeq).toBeGreaterThan(leftAt);
    // Events committed while away are not pushed (the window pages them in); those after the answer are.
    expect(w.events.slice(away).filter((e) => e.event === 'session:event' && (e.payload as SessionEventT).seq <= back.lastSeq)).toEqual([]);
    await w.waitFor('session:event', (e) => e.sessionId === a && e.seq > back.lastSeq && e.kind === 'agent_message');
    await expect(w.waitAnswered(a, slow)).resolves.toMatchObject({ payload: { stopReason: 'end_turn' } });
    await expect(w.prompt(a, '/history')).resolves.toMatchObject({ payload: { stopReason: 'end_turn' } });
    expect(w.agentText(a)).toContain('History: 2 earlier prompts');
  });

  it('answers the first prompt after returning to a session whose agent crashed', async () => {
    h = await startHarness();
    const w = h.window();
    const { a, b } = await twoSessions(w);
    const crash = await w.prompt(a, '/crash');
    expect(crash).toMatchObject({ kind: 'turn_ended', payload: { stopReason: 'error' } });
    await w.waitForState(a, 'ENDED', 'agent_exited');
    await w.call('sessions:switch', { sessionId: b, fromSessionId: a });
    const back = await w.call('sessions:switch', { sessionId: a, fromSessionId: b });
    expect(back).toMatchObject({ running: false, session: { state: 'ENDED', stateReason: 'agent_exited' } });
    await expect(w.prompt(a, '/history')).resolves.toMatchObject({ payload: { stopReason: 'end_turn' } });
    expect(w.agentText(a)).toContain('History: 2 earlier prompts');
  });

  it('answers the first prompt after returning to a session the idle reaper closed', async () => {
    const clock = new FakeClock(Date.now());
    h = await startHarness({ clock, settings: { idleTimeoutMs: 60_000, reapIntervalMs: 10_000 } });
    const w = h.window();
    const { a, b } = await twoSessions(w);
    await w.call('sessions:switch', { sessionId: b, fromSessionId: a });
    // Exactly the idle time: the reaping tick fires and nothing after it. Moving the fake clock
    // further would also fire the 2 s session/close timeout before the real agent could answer,
    // and that late close then raced the resume below (the agent dropped the resumed session).
    await clock.advance(60_000);
    await w.waitForState(a, 'ENDED', 'idle_timeout');
    expect(h.host.store.sessions.get(b)?.state).toBe('ACTIVE');
    const back = await w.call('sessions:switch', { sessionId: a, fromSessionId: b });
    expect(back).toMatchObject({ running: false, session: { state: 'ENDED', stateReason: 'idle_timeout' } });
    await expect(w.prompt(a, '/history')).resolves.toMatchObject({ payload: { stopReason: 'end_turn' } });
    expect(w.agentText(a)).toContain('History: 1 earlier prompts');
  });

  it('answers the first prompt after a host restart, with the history from before', async () => {
    h = await startHarness();
    const { a } = await twoSessions(h.window());
    await h.restart();
    const w = h.window();
    const back = await w.call('sessions:switch', { sessionId: a });
    expect(back).toMatchObject({ running: false, session: { state: 'ENDED', stateReason: 'host_shutdown' } });
    await expect(w.prompt(a, '/history')).resolves.toMatchObject({ payload: { stopReason: 'end_turn' } });
    expect(w.agentText(a)).toContain('History: 1 earlier prompts');
  });
});
