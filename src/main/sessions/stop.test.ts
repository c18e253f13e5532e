import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spyAcp, unansweredPrompts } from '../test-support/acp-spy';
import { startHarness, type Harness } from '../test-support/host-harness';
import { scriptedAgent } from '../test-support/scripted-agent';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});

/** Nothing is left running: not in memory, not in the view, not in the transcript. */
async function expectNothingRunning(harness: Harness, sessionId: string): Promise<void> {
  await harness.settled(sessionId);
  const events = harness.stored(sessionId);
  expect(unansweredPrompts(events)).toEqual([]);
  expect(harness.host.service.isRunning(sessionId)).toBe(false);
  expect(harness.host.service.view(harness.host.service.row(sessionId)).running).toBe(false);
  expect(harness.host.service.registry.get(sessionId)?.turn).toBeUndefined();
  const ended = events.filter((e) => e.kind === 'turn_ended');
  expect(ended.at(-1)?.payload.stopReason).toBe('cancelled');
  // Whatever the agent said, none of it came after the turn ended.
  expect(events.slice(events.indexOf(ended.at(-1)!) + 1).filter((e) => e.kind === 'agent_message')).toEqual([]);
}

const ticks = (harness: Harness, id: string) => harness.stored(id).filter((e) => e.kind === 'agent_message' && String(e.payload.text).includes('tick'));

describe('Stop (prompt:cancel)', () => {
  it('stops a prompt sent to a CREATED session before it runs', async () => {
    h = await startHarness();
    const spy = spyAcp();
    const id = randomUUID();
    const service = h.host.service;
    service.create(id, 'demo', h.dataDir);
    const clientMessageId = randomUUID();
    service.send(id, clientMessageId, '/slow 5');
    expect(h.host.store.sessions.get(id)?.state).toBe('CREATED');
    expect(service.isRunning(id)).toBe(true);
    service.cancel(id);
    expect(service.isRunning(id)).toBe(false);
    await expectNothingRunning(h, id);
    expect(h.stored(id).filter((e) => e.kind === 'turn_ended').map((e) => e.payload)).toEqual([
      { stopReason: 'cancelled', clientMessageId, reason: 'cancelled_before_start' },
    ]);
    expect(spy.count(acp.methods.agent.session.prompt)).toBe(0);
    // The session itself still starts: Stop ends prompts, not sessions.
    expect(h.host.store.sessions.get(id)?.state).toBe('DETACHED');
  });

  it('stops a prompt waiting for a STARTING session: it never reaches the agent', async () => {
    h = await startHarness();
    const spy = spyAcp();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    expect(h.host.store.sessions.get(view.id)?.state).toBe('STARTING');
    const clientMessageId = randomUUID();
    await w.call('prompt:send', { sessionId: view.id, clientMessageId, text: '/slow 5' });
    await expect(w.waitForRunning(view.id, true)).resolves.toMatchObject({ state: 'STARTING' });
    // A window switching to it now is told an answer is coming, so it offers Stop.
    await expect(h.window('other').call('sessions:switch', { sessionId: view.id })).resolves.toMatchObject({
      running: true,
      session: { state: 'STARTING', running: true },
    });
    const mark = w.mark();
    await w.call('prompt:cancel', { sessionId: view.id });
    await w.waitForRunning(view.id, false, mark);
    await expect(w.waitAnswered(view.id, clientMessageId)).resolves.toMatchObject({ payload: { stopReason: 'cancelled' } });
    await expectNothingRunning(h, view.id);
    expect(spy.count(acp.methods.agent.session.prompt)).toBe(0);
    expect(h.host.store.sessions.get(view.id)?.state).toBe('ACTIVE');
    // And the next prompt runs normally.
    await expect(w.prompt(view.id, 'next')).resolves.toMatchObject({ payload: { stopReason: 'end_turn' } });
  });

  it('stops the running turn of an ACTIVE session and every prompt queued behind it', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitForState(view.id, 'ACTIVE');
    const running = randomUUID();
    const queued = randomUUID();
    await w.call('prompt:send', { sessionId: view.id, clientMessageId: running, text: '/slow 5' });
    await w.call('prompt:send', { sessionId: view.id, clientMessageId: queued, text: '/slow 5' });
    await w.waitForText(view.id, 'tick 1');
    await w.call('prompt:cancel', { sessionId: view.id });
    await expect(w.waitAnswered(view.id, running)).resolves.toMatchObject({ payload: { stopReason: 'cancelled' } });
    await expect(w.waitAnswered(view.id, queued)).resolves.toMatchObject({ payload: { stopReason: 'cancelled' } });
    await expectNothingRunning(h, view.id);
    expect(h.stored(view.id).filter((e) => e.kind === 'turn_started')).toHaveLength(1);
    expect(w.agentText(view.id)).not.toContain('Done after');
    expect(h.host.store.sessions.get(view.id)?.state).toBe('ACTIVE');
  });

  it('stops the running turn of a DETACHED session, answering its pending permission cancelled', async () => {
    h = await startHarness();
    const spy = spyAcp();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.waitForState(view.id, 'DETACHED');
    const prompted = spy.next(acp.methods.agent.session.prompt);
    await w.call('prompt:send', { sessionId: view.id, clientMessageId: randomUUID(), text: '/permission Edit' });
    await prompted;
    await w.waitFor('session:updated', (v) => v.id === view.id && v.pendingPermissions === 1);
    const mark = w.mark();
    await w.call('prompt:cancel', { sessionId: view.id });
    await w.waitForRunning(view.id, false, mark);
    await expectNothingRunning(h, view.id);
    expect(h.host.gate.countFor(view.id)).toBe(0);
    expect(h.stored(view.id).filter((e) => e.kind === 'permission_resolved').map((e) => e.payload.outcome)).toEqual(['cancelled']);
    expect(h.host.store.sessions.get(view.id)?.state).toBe('DETACHED');
  });

  it('stops a prompt sent to an ENDED session before it resumes anything, and is harmless with nothing to stop', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.prompt(view.id, 'first');
    await w.call('sessions:close', { sessionId: view.id });
    await expect(w.call('prompt:cancel', { sessionId: view.id })).resolves.toEqual({ ok: true });

    const spy = spyAcp();
    const service = h.host.service;
    const clientMessageId = randomUUID();
    service.send(view.id, clientMessageId, '/slow 5');
    expect(h.host.store.sessions.get(view.id)?.state).toBe('ENDED');
    service.cancel(view.id);
    await expectNothingRunning(h, view.id);
    expect(spy.count(acp.methods.agent.initialize)).toBe(0);
    expect(h.host.store.sessions.get(view.id)).toMatchObject({ state: 'ENDED', state_reason: 'closed_by_user' });
    expect(ticks(h, view.id)).toEqual([]);
  });

  it('leaves nothing running when Stop comes while a close of the session is under way', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    const clientMessageId = randomUUID();
    await w.call('prompt:send', { sessionId: view.id, clientMessageId, text: '/slow 5' });
    await w.waitForText(view.id, 'tick 1');
    const closing = w.call('sessions:close', { sessionId: view.id });
    expect(h.host.store.sessions.get(view.id)?.state).toBe('CLOSING');
    await w.call('prompt:cancel', { sessionId: view.id });
    await closing;
    await expectNothingRunning(h, view.id);
    expect(h.stored(view.id).filter((e) => e.kind === 'turn_ended')).toHaveLength(1);
  });

  it('ends the turn itself when the agent ignores session/cancel, and says so', async () => {
    h = await startHarness({ stopGraceMs: 300, agents: [scriptedAgent('deaf', 'ignore-cancel')] });
    const w = h.window();
    const view = await w.call('sessions:create', { agentId: 'deaf', cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: view.id });
    await w.call('prompt:send', { sessionId: view.id, clientMessageId: randomUUID(), text: 'do it' });
    await w.waitForText(view.id, 'working');
    expect(h.host.service.isRunning(view.id)).toBe(true);
    await w.call('prompt:cancel', { sessionId: view.id });
    const ended = await w.waitFor('session:event', (e) => e.sessionId === view.id && e.kind === 'turn_ended');
    expect(ended.payload).toMatchObject({ stopReason: 'cancelled', reason: 'agent_ignored_cancel' });
    await expectNothingRunning(h, view.id);
    expect(h.stored(view.id).some((e) => e.kind === 'notice' && String(e.payload.text).includes('did not stop'))).toBe(true);
    expect(h.host.timers.has(`stop:${view.id}`)).toBe(false);
  });
});
