import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ofKind } from '../../shared/contract';
import { overrideCapabilities, spyAcp, unansweredPrompts } from '../test-support/acp-spy';
import { startHarness, type Harness } from '../test-support/host-harness';
import { scriptedAgent } from '../test-support/scripted-agent';
import { FakeClock } from '../test-support/fake-clock';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});

const kinds = (events: { kind: string }[]) => events.map((e) => e.kind);
const agentText = (events: { kind: string; payload: Record<string, unknown> }[]) =>
  events
    .filter((e) => e.kind === 'agent_message')
    .map((e) => String(e.payload.text))
    .join('');

describe('registration before the request', () => {
  it('keeps and shows the updates the agent sends while answering session/new', async () => {
    h = await startHarness();
    const w = h.window();
    const id = randomUUID();
    // Both handlers run synchronously: the window watches before any agent process exists.
    const created = w.call('sessions:create', { id });
    const switched = w.call('sessions:switch', { sessionId: id });
    await Promise.all([created, switched]);
    const active = await w.waitForState(id, 'ACTIVE');

    const stored = h.stored(id);
    expect(kinds(stored)).toEqual(['available_commands', 'session_info']);
    expect(stored.map((e) => e.seq)).toEqual([1, 2]);
    const commands = stored.filter(ofKind('available_commands')).flatMap((e) => e.payload.commands.map((c) => c.name));
    expect(commands).toEqual(expect.arrayContaining(['slow', 'history', 'crash']));
    // The demo agent names no title until `/title`; the view falls back to a placeholder.
    expect(stored[1]?.payload).toEqual({ updatedAt: expect.any(String) });
    expect(w.sessionEvents(id)).toEqual(stored);
    expect(active.title).toBe('New session');
  });

  it('is in the registry, with its sink bound where the id is known, before session/new, session/load and session/resume are sent', async () => {
    h = await startHarness();
    const harness = h;
    const spy = spyAcp();
    const id = randomUUID();
    const seen: string[] = [];
    for (const method of [acp.methods.agent.session.new, acp.methods.agent.session.load, acp.methods.agent.session.resume] as const) {
      spy.onSend(method, (broker, params) => {
        const live = harness.host.service.registry.get(id);
        const row = harness.host.store.sessions.get(id);
        const bound = live?.broker === broker && (method === 'session/new' || live.acpSessionId === params.sessionId);
        seen.push(`${method}: ${live ? 'registered' : 'missing'} ${bound ? 'bound' : 'unbound'} ${row?.state}`);
      });
    }
    const w = h.window();
    await w.call('sessions:create', { id });
    await w.waitForState(id, 'DETACHED');
    // The broker is only known to the session once the pool handed it over: for session/new
    // the sink is the broker's hold on updates for ids not bound yet.
    expect(seen).toEqual(['session/new: registered unbound STARTING']);

    await h.host.service.close(id, 'closed_by_user');
    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: 'resume me' });
    await h.settled(id);
    expect(seen.at(-1)).toBe('session/resume: registered bound STARTING');

    await h.host.service.close(id, 'closed_by_user');
    overrideCapabilities(h.host.pool, { loadSession: true });
    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: 'load me' });
    await h.settled(id);
    expect(seen.at(-1)).toBe('session/load: registered bound STARTING');
    expect(agentText(h.stored(id))).toBe('Echo: resume meEcho: load me');
  });

  it('ends a session whose agent cannot be started, says why, and fires nothing later', async () => {
    h = await startHarness({ agents: [{ id: 'missing', name: 'Missing agent', command: '/nonexistent/switchboard-agent', args: [], env: {} }] });
    const w = h.window();
    const view = await w.call('sessions:create', { agentId: 'missing' });
    const ended = await w.waitForState(view.id, 'ENDED');
    // Not asleep: its command could not be started at all.
    expect(ended.stateReason).toBe('agent_unavailable');
    await h.settled(view.id);

    expect(h.host.service.registry.has(view.id)).toBe(false);
    expect(h.host.pool.liveBrokers).toHaveLength(0);
    const stored = h.stored(view.id);
    expect(kinds(stored)).toEqual(['error']);
    expect(stored[0]?.payload).toMatchObject({ code: 'agent_unavailable', message: expect.stringMatching(/Missing agent.*ENOENT/) });
    expect(h.host.store.sessions.get(view.id)).toMatchObject({ state: 'ENDED', state_reason: 'agent_unavailable' });
  });

  it('ends a session whose agent refuses session/new as needing sign-in, and refuses later prompts without respawning it', async () => {
    h = await startHarness({ agents: [scriptedAgent('refuser', 'refuse-new')] });
    const spy = spyAcp();
    const w = h.window();
    const view = await w.call('sessions:create', { agentId: 'refuser' });
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitForState(view.id, 'ENDED', 'auth_required');
    await h.settled(view.id);
    expect(h.host.service.registry.has(view.id)).toBe(false);
    // The last owner out shut the agent down before the failure was reported.
    expect(h.host.pool.liveBrokers).toHaveLength(0);
    const stored = h.stored(view.id);
    // The update the agent sent for a session it never named was held, never stored.
    expect(kinds(stored)).toEqual(['error', 'auth_required']);
    expect(stored[0]?.payload).toMatchObject({ code: 'auth_required', message: expect.stringMatching(/sign in: Authentication required/) as string });
    expect(stored[1]?.payload).toMatchObject({ methods: [{ id: 'login', name: 'Log in', kind: 'agent' }] });

    // A message is refused with what helps; nothing is stored and no agent is started again.
    await expect(w.call('prompt:send', { sessionId: view.id, clientMessageId: randomUUID(), text: 'hello?' })).rejects.toMatchObject({ code: 'auth_required' });
    await h.settled(view.id);
    expect(kinds(h.stored(view.id))).toEqual(['error', 'auth_required']);
    expect(spy.count(acp.methods.agent.initialize)).toBe(1);
    expect(h.host.service.view(h.host.service.row(view.id))).toMatchObject({ state: 'ENDED', running: false });
    expect(h.host.service.registry.has(view.id)).toBe(false);
  });

  it('ends a session whose session/new times out, and tells the agent to close the session it names too late', async () => {
    const clock = new FakeClock(Date.now());
    h = await startHarness({ clock, requestTimeoutMs: 1_000, agents: [scriptedAgent('late', 'late-new')] });
    const spy = spyAcp();
    const w = h.window();
    // A keeps the agent process alive (a shared broker) after B gives up on it.
    const a = await w.call('sessions:create', { agentId: 'late' });
    await w.call('sessions:switch', { sessionId: a.id });
    await w.waitForState(a.id, 'ACTIVE');

    const secondNew = spy.next(acp.methods.agent.session.new);
    const b = await w.call('sessions:create', { agentId: 'late' });
    await secondNew;
    await clock.advance(1_000);
    await w.waitForState(b.id, 'ENDED', 'start_failed');
    await h.settled(b.id);
    expect(h.host.service.registry.has(b.id)).toBe(false);
    expect(h.stored(b.id)).toEqual([expect.objectContaining({ kind: 'error', payload: expect.objectContaining({ message: expect.stringMatching(/did not answer session\/new within 1000 ms/) }) })]);

    // A prompt to A makes the agent answer B's session/new now, and report whether the host
    // then closed the session it named (it waits up to 3 s of its own time for that).
    await w.call('prompt:send', { sessionId: a.id, clientMessageId: randomUUID(), text: 'go' });
    await w.waitIdle(a.id);
    expect(w.agentText(a.id)).toBe('closed: s2');
    expect(spy.count(acp.methods.agent.session.close)).toBe(1);
    // Nothing the late answer carried (its title update) reached B or anything else.
    expect(kinds(h.stored(b.id))).toEqual(['error']);
    expect(h.host.store.sessions.get(b.id)).toMatchObject({ state: 'ENDED', acp_session_id: null });
  });

  it('refuses to create a session with an id that exists and leaves the live one untouched', async () => {
    h = await startHarness();
    const w = h.window();
    const id = randomUUID();
    await w.call('sessions:create', { id });
    await w.call('sessions:switch', { sessionId: id });
    await w.waitForState(id, 'ACTIVE');
    const live = h.host.service.registry.get(id);
    const row = h.host.store.sessions.get(id);
    const brokers = h.host.pool.liveBrokers;
    const mark = w.mark();

    await expect(w.call('sessions:create', { id })).rejects.toMatchObject({ code: 'already_exists' });
    await expect(w.call('sessions:create', { id, cwd: '/tmp' })).rejects.toMatchObject({ code: 'already_exists' });
    expect(h.host.service.registry.get(id)).toBe(live);
    expect(h.host.store.sessions.get(id)).toEqual(row);
    expect(h.host.pool.liveBrokers).toEqual(brokers);
    expect(w.events.slice(mark)).toEqual([]);

    await w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: 'still here' });
    await w.waitForText(id, 'Echo: still here');
    expect(h.host.service.registry.get(id)).toBe(live);

    // An id that only exists in the store (an ended session) is taken as well.
    await h.host.service.close(id, 'closed_by_user');
    await expect(w.call('sessions:create', { id })).rejects.toMatchObject({ code: 'already_exists' });
    expect(h.host.store.sessions.get(id)).toMatchObject({ state: 'ENDED', state_reason: 'closed_by_user' });
  });

  it('does not start a session that was closed before its start ran', async () => {
    h = await startHarness();
    const spy = spyAcp();
    const id = randomUUID();
    h.host.service.create(id, 'demo', h.dataDir);
    const closed = h.host.service.close(id, 'closed_by_user');
    await closed;
    await h.settled(id);
    expect(h.host.store.sessions.get(id)).toMatchObject({ state: 'ENDED', state_reason: 'closed_by_user' });
    expect(spy.count(acp.methods.agent.initialize)).toBe(0);
    expect(h.host.pool.liveBrokers).toHaveLength(0);
    expect(h.stored(id)).toEqual([]);
  });

  it('answers a prompt to a session whose agent is no longer configured with the reason', async () => {
    h = await startHarness({ agents: [{ id: 'gone', name: 'Gone agent', command: '/nonexistent/switchboard-agent', args: [], env: {} }] });
    const id = randomUUID();
    await h.window().call('sessions:create', { id, agentId: 'gone' });
    await h.settled(id);
    await h.restart({ agents: [] });
    const w = h.window();
    await w.call('sessions:switch', { sessionId: id });
    // Its agent never started: a plain message is refused, Retry tries once and says why.
    await expect(w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: 'hello?' })).rejects.toMatchObject({ code: 'invalid_state' });
    const clientMessageId = randomUUID();
    await w.call('prompt:send', { sessionId: id, clientMessageId, text: 'anyone?', retry: true });
    await w.waitIdle(id);
    const events = w.sessionEvents(id);
    expect(events).toMatchObject([
      { kind: 'user_message' },
      { kind: 'error', payload: { code: 'not_found', message: expect.stringMatching(/No agent named gone/) } },
      { kind: 'turn_ended', payload: { stopReason: 'error' } },
    ]);
    expect(events).toHaveLength(3);
    expect(unansweredPrompts(h.stored(id))).toEqual([]);
    await w.waitForRunning(id, false);
    expect(h.host.service.isRunning(id)).toBe(false);
  });
});
