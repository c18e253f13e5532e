import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ofKind } from '../../shared/contract';
import { spyAcp, unansweredPrompts } from '../test-support/acp-spy';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { scriptedAgent } from '../test-support/scripted-agent';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});

/** A session the window watches, started and ACTIVE. */
async function activeSession(w: TestWindow): Promise<string> {
  const view = await w.call('sessions:create', {});
  await w.call('sessions:switch', { sessionId: view.id });
  await w.waitForState(view.id, 'ACTIVE');
  return view.id;
}

const send = (w: TestWindow, sessionId: string, text: string) => w.call('prompt:send', { sessionId, clientMessageId: randomUUID(), text });

describe('closing a session', () => {
  it('takes it out of the registry as soon as the close starts, ends its turn, and stores nothing the agent says after', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await activeSession(w);
    await send(w, id, '/slow 5');
    await w.waitForText(id, 'tick 2');

    const closing = w.call('sessions:close', { sessionId: id });
    // The handler ran synchronously: nothing the agent sends from here on can reach the session.
    expect(h.host.service.registry.has(id)).toBe(false);
    expect(h.host.store.sessions.get(id)?.state).toBe('CLOSING');
    const view = await closing;
    expect(view).toMatchObject({ state: 'ENDED', stateReason: 'closed_by_user', running: false });

    const events = h.stored(id);
    const end = events.findIndex((e) => e.kind === 'turn_ended');
    expect(events[end]?.payload).toMatchObject({ stopReason: 'cancelled', reason: 'closed_by_user' });
    expect(events.slice(end + 1)).toEqual([]);
    expect(w.agentText(id)).not.toContain('Done after');
    expect(unansweredPrompts(events)).toEqual([]);
  });

  it('drops what an agent shared with other sessions still streams for a closed session', async () => {
    h = await startHarness();
    const w = h.window();
    const a = await activeSession(w);
    const b = await activeSession(w);
    // Sessions of one agent share its process: closing A leaves the process (and its pipe) up.
    expect(h.host.pool.liveBrokers).toHaveLength(1);
    await send(w, a, '/flood 200000');
    await w.waitForText(a, 'flood 2000\n');
    // The agent is far ahead of the host: much of the flood is still in the pipe when the close starts.
    const beforeClose = h.host.eventLog.lastSeq(a);
    await h.host.service.close(a, 'closed_by_user');
    expect(h.host.pool.liveBrokers).toHaveLength(1);

    // B's answer comes down the same pipe after whatever A's flood still had in flight.
    await w.prompt(b, 'after');
    expect(w.agentText(b)).toBe('Echo: after');
    // The close's own record of the turn's end, and nothing from the agent after it.
    const afterStart = h.stored(a).filter((e) => e.seq > beforeClose);
    expect(afterStart).toMatchObject([{ kind: 'turn_ended', payload: { stopReason: 'cancelled' } }]);
    expect(afterStart).toHaveLength(1);
    expect(h.host.store.sessions.get(a)?.last_seq).toBe(beforeClose + 1);
  });

  it('shares one close between concurrent and later calls, doing the work once', async () => {
    h = await startHarness();
    const spy = spyAcp();
    const w = h.window();
    const id = await activeSession(w);
    await send(w, id, '/slow 5');
    await w.waitForText(id, 'tick 1');
    const teardowns = h.host.pool.teardowns;
    const release = vi.spyOn(h.host.pool, 'release');
    const updates = w.mark();

    const first = h.host.service.close(id, 'closed_by_user');
    const second = h.host.service.close(id, 'idle_timeout');
    const viaWindow = w.call('sessions:close', { sessionId: id });
    expect(h.host.service.isClosing(id)).toBe(true);
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    await expect(viaWindow).resolves.toMatchObject({ state: 'ENDED', stateReason: 'closed_by_user' });
    const events = h.stored(id);

    await expect(h.host.service.close(id, 'idle_timeout')).resolves.toBe(true);
    await expect(w.call('sessions:close', { sessionId: id })).resolves.toMatchObject({ stateReason: 'closed_by_user' });
    expect(spy.count(acp.methods.agent.session.close)).toBe(1);
    expect(release.mock.calls).toEqual([[id]]);
    expect(h.host.pool.teardowns).toBe(teardowns + 1);
    // One run: into CLOSING once, into ENDED once (other pushes only change `running`).
    const states = w.events.slice(updates).filter((e) => e.event === 'session:updated').map((e) => (e.payload as { state: string }).state);
    expect(states.filter((s, i) => s !== states[i - 1])).toEqual(['CLOSING', 'ENDED']);
    expect(h.stored(id)).toEqual(events);
    expect(events.filter((e) => e.kind === 'turn_ended')).toHaveLength(1);
    expect(h.host.service.isClosing(id)).toBe(false);
  });

  it('clears everything when the agent fails session/close', async () => {
    h = await startHarness();
    const spy = spyAcp();
    spy.fail(acp.methods.agent.session.close, new acp.RequestError(-32603, 'Internal error'));
    const w = h.window();
    const id = await activeSession(w);
    await send(w, id, '/permission Edit');
    await w.waitFor('permission:requested', (p) => p.sessionId === id);

    await expect(w.call('sessions:close', { sessionId: id })).resolves.toMatchObject({
      state: 'ENDED',
      stateReason: 'closed_by_user',
      running: false,
      pendingPermissions: 0,
    });
    expect(spy.count(acp.methods.agent.session.close)).toBe(1);
    expect(h.host.service.registry.has(id)).toBe(false);
    expect(h.host.service.isClosing(id)).toBe(false);
    expect(h.host.gate.countFor(id)).toBe(0);
    expect(h.host.pool.brokerOf(id)).toBeUndefined();
    expect(h.host.pool.liveBrokers).toHaveLength(0);
    expect(h.host.store.brokers.all()).toEqual([]);
    const events = h.stored(id);
    expect(events.filter((e) => e.kind === 'permission_resolved').map((e) => e.payload.outcome)).toEqual(['cancelled']);
    expect(unansweredPrompts(events)).toEqual([]);

    // And the session still resumes on the next prompt.
    await send(w, id, '/history');
    await w.waitForText(id, 'History: 1 earlier prompts');
  });

  it('ends a session closed while it starts, with no error after the close and no agent left', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    expect(h.host.store.sessions.get(view.id)?.state).toBe('STARTING');
    await expect(w.call('sessions:close', { sessionId: view.id })).resolves.toMatchObject({ state: 'ENDED', stateReason: 'closed_by_user' });
    await h.settled(view.id);

    expect(h.host.store.sessions.get(view.id)).toMatchObject({ state: 'ENDED', state_reason: 'closed_by_user' });
    expect(h.host.service.registry.has(view.id)).toBe(false);
    expect(h.stored(view.id).filter((e) => e.kind === 'error')).toEqual([]);
    expect(h.host.pool.liveBrokers).toHaveLength(0);
  });

  it('stays closed: prompts still queued end with the close instead of resuming the session', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await activeSession(w);
    await send(w, id, '/slow 5');
    await w.waitForText(id, 'tick 1');
    const queued = randomUUID();
    await w.call('prompt:send', { sessionId: id, clientMessageId: queued, text: 'after the close?' });
    await w.call('sessions:close', { sessionId: id });
    await h.settled(id);
    expect(h.host.store.sessions.get(id)).toMatchObject({ state: 'ENDED', state_reason: 'closed_by_user' });
    expect(h.host.service.isRunning(id)).toBe(false);
    expect(h.host.pool.liveBrokers).toHaveLength(0);
    const events = h.stored(id);
    expect(events.filter(ofKind('turn_ended')).filter((e) => e.payload.clientMessageId === queued).map((e) => e.payload.reason)).toEqual(['closed_by_user']);
    expect(events.filter((e) => e.kind === 'turn_started')).toHaveLength(1);
    expect(unansweredPrompts(events)).toEqual([]);
  });

  it('unblocks the session when its agent, shared with another session, never answers the closed turn', async () => {
    h = await startHarness({ stopGraceMs: 200, agents: [scriptedAgent('deaf', 'ignore-cancel')] });
    const w = h.window();
    const a = await w.call('sessions:create', { agentId: 'deaf', cwd: h.dataDir });
    const b = await w.call('sessions:create', { agentId: 'deaf', cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: a.id });
    await send(w, a.id, 'work');
    await w.waitForText(a.id, 'working');
    await w.call('prompt:cancel', { sessionId: a.id }); // arms the Stop deadline, then close comes first
    await w.call('sessions:close', { sessionId: a.id });
    expect(h.host.service.isRunning(a.id)).toBe(false);
    expect(h.host.service.registry.queued(a.id)).toBe(0);
    expect(h.host.timers.has(`stop:${a.id}`)).toBe(false);
    // The agent process lives on for the other session; nothing more is recorded for the closed one.
    expect(h.host.pool.liveBrokers).toHaveLength(1);
    const ends = h.stored(a.id).filter((e) => e.kind === 'turn_ended');
    expect(ends.map((e) => e.payload.reason)).toEqual(['closed_by_user']);
    expect(h.stored(b.id).filter((e) => e.kind === 'error')).toEqual([]);
  });
});
