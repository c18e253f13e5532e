import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionEventT } from '../../shared/contract';
import { overrideCapabilities, spyAcp, unansweredPrompts, type AcpSpy } from '../test-support/acp-spy';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});

const M = acp.methods.agent;
const send = (w: TestWindow, sessionId: string, text: string, clientMessageId: string = randomUUID()) =>
  w.call('prompt:send', { sessionId, clientMessageId, text });
const agentText = (events: SessionEventT[]) =>
  events
    .filter((e) => e.kind === 'agent_message')
    .map((e) => String(e.payload.text))
    .join('');
const counts = (spy: AcpSpy) =>
  Object.fromEntries([M.initialize, M.session.new, M.session.load, M.session.resume, M.session.close, M.session.prompt].map((m) => [m, spy.count(m)]));

/** A watched, ACTIVE session that has answered `first`, then was closed (ENDED). */
async function endedSession(harness: Harness, w: TestWindow): Promise<string> {
  const view = await w.call('sessions:create', {});
  await w.call('sessions:switch', { sessionId: view.id });
  await w.prompt(view.id, 'first');
  await w.call('sessions:close', { sessionId: view.id });
  expect(harness.host.store.sessions.get(view.id)?.state).toBe('ENDED');
  return view.id;
}

describe('routing a prompt by stored state', () => {
  it('sends a prompt to a live session straight to its agent session', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitForState(view.id, 'ACTIVE');
    const live = h.host.service.registry.get(view.id);
    const spy = spyAcp();
    await w.prompt(view.id, 'hello');
    expect(w.agentText(view.id)).toBe('Echo: hello');
    expect(counts(spy)).toMatchObject({ [M.initialize]: 0, [M.session.new]: 0, [M.session.resume]: 0, [M.session.load]: 0, [M.session.prompt]: 1 });
    expect(h.host.service.registry.get(view.id)).toBe(live);
    expect(h.host.store.sessions.get(view.id)?.state).toBe('ACTIVE');
  });

  it('resumes an ENDED session with session/resume: nothing replayed, and the agent remembers', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await endedSession(h, w);
    const before = h.stored(id);
    const spy = spyAcp();
    await w.prompt(id, '/history');
    expect(counts(spy)).toMatchObject({ [M.session.resume]: 1, [M.session.load]: 0, [M.session.new]: 0, [M.session.prompt]: 1 });
    const after = h.stored(id).slice(before.length);
    expect(after.map((e) => e.kind)).toEqual(['user_message', 'available_commands', 'session_info', 'turn_started', 'agent_message', 'turn_ended']);
    expect(agentText(h.stored(id))).toBe('Echo: firstHistory: 1 earlier prompts');
    expect(h.host.store.sessions.get(id)).toMatchObject({ state: 'ACTIVE', state_reason: 'resumed' });
  });

  it('loads an ENDED session when the agent cannot resume, never storing its replay twice', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await endedSession(h, w);
    const before = h.stored(id);
    overrideCapabilities(h.host.pool, { loadSession: true });
    const spy = spyAcp();
    await w.prompt(id, '/history');
    expect(counts(spy)).toMatchObject({ [M.session.resume]: 0, [M.session.load]: 1, [M.session.new]: 0, [M.session.prompt]: 1 });
    // The agent replayed 'first', its thought and its answer: none of it is stored or shown again.
    expect(agentText(h.stored(id))).toBe('Echo: firstHistory: 1 earlier prompts');
    const after = h.stored(id).slice(before.length);
    expect(after.map((e) => e.kind)).toEqual(['user_message', 'available_commands', 'session_info', 'turn_started', 'agent_message', 'turn_ended']);
    expect(w.sessionEvents(id).filter((e) => e.kind === 'agent_thought')).toHaveLength(1);
    expect(h.host.store.sessions.get(id)).toMatchObject({ state: 'ACTIVE', state_reason: 'loaded' });
  });

  it('starts a new agent session seeded with the transcript when the agent can neither resume nor load', async () => {
    h = await startHarness();
    const w = h.window();
    const id = await endedSession(h, w);
    const oldAcpId = h.host.store.sessions.get(id)?.acp_session_id;
    overrideCapabilities(h.host.pool, {});
    const spy = spyAcp();
    await w.prompt(id, 'second');
    expect(counts(spy)).toMatchObject({ [M.session.resume]: 0, [M.session.load]: 0, [M.session.new]: 1, [M.session.prompt]: 1 });
    const row = h.host.store.sessions.get(id);
    expect(row).toMatchObject({ state: 'ACTIVE', state_reason: 'recreated' });
    expect(row?.acp_session_id).not.toBe(oldAcpId);
    expect(h.stored(id).filter((e) => e.kind === 'notice').map((e) => e.payload.text)).toEqual([expect.stringMatching(/could not restore/)]);
    // The demo agent echoes what it was sent: the earlier conversation, then the new prompt.
    const reply = w.agentText(id).slice('Echo: first'.length);
    expect(reply).toMatch(/^Echo: \(Context: .*\nUser: first\nAssistant: Echo: first\n\)\n\nsecond$/s);
  });

  it('stops a stale in-memory session (stored as ENDED) and resumes it before delivering the prompt', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitForState(view.id, 'ACTIVE');
    const stale = h.host.service.registry.get(view.id);
    const oldBroker = stale?.broker;
    // The stored state is the source of truth; memory disagrees with it.
    expect(h.host.store.sessions.setState(view.id, 'ACTIVE', 'ENDED', 'closed_by_user', Date.now())).toBe(true);
    const spy = spyAcp();
    const teardowns = h.host.pool.teardowns;
    await w.prompt(view.id, 'after stale');
    expect(w.agentText(view.id)).toBe('Echo: after stale');
    expect(stale?.isDetached).toBe(true);
    expect(oldBroker?.isAlive).toBe(false);
    expect(h.host.pool.teardowns).toBe(teardowns + 1);
    expect(h.host.service.registry.get(view.id)).not.toBe(stale);
    expect(counts(spy)).toMatchObject({ [M.session.close]: 1, [M.session.resume]: 1, [M.session.new]: 0, [M.session.prompt]: 1 });
    expect(h.host.store.sessions.get(view.id)).toMatchObject({ state: 'ACTIVE', state_reason: 'resumed' });
  });

  it('resumes a session stored as live that has nothing in memory behind it', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitForState(view.id, 'ACTIVE');
    const lost = h.host.service.registry.get(view.id);
    if (!lost) throw new Error('not live');
    h.host.service.registry.remove(lost);
    lost.detach();
    await w.prompt(view.id, 'still there?');
    expect(w.agentText(view.id)).toBe('Echo: still there?');
    expect(h.host.store.sessions.get(view.id)).toMatchObject({ state: 'ACTIVE', state_reason: 'resumed' });
    expect(unansweredPrompts(h.stored(view.id))).toEqual([]);
  });

  it('makes prompts sent while a session starts wait for that start, never starting a second agent session', async () => {
    h = await startHarness();
    const spy = spyAcp();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    expect(h.host.store.sessions.get(view.id)?.state).toBe('STARTING');
    const one = await send(w, view.id, 'one');
    expect(one.duplicate).toBe(false);
    await send(w, view.id, 'two');
    await h.settled(view.id);
    expect(counts(spy)).toMatchObject({ [M.initialize]: 1, [M.session.new]: 1, [M.session.prompt]: 2 });
    expect(agentText(h.stored(view.id))).toBe('Echo: oneEcho: two');

    // The same when prompts arrive for an ENDED session: one resume for both.
    await w.call('sessions:close', { sessionId: view.id });
    expect(h.host.store.sessions.get(view.id)?.state).toBe('ENDED');
    await send(w, view.id, 'three');
    await send(w, view.id, 'four');
    await h.settled(view.id);
    expect(counts(spy)).toMatchObject({ [M.initialize]: 2, [M.session.new]: 1, [M.session.resume]: 1, [M.session.prompt]: 4 });
    expect(agentText(h.stored(view.id))).toBe('Echo: oneEcho: twoEcho: threeEcho: four');
    expect(h.host.pool.liveBrokers).toHaveLength(1);
    expect(unansweredPrompts(h.stored(view.id))).toEqual([]);
  });

  it('runs a retried send with the same client message id once', async () => {
    h = await startHarness();
    const spy = spyAcp();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    const clientMessageId = randomUUID();
    const [first, concurrent] = await Promise.all([send(w, view.id, 'once', clientMessageId), send(w, view.id, 'once', clientMessageId)]);
    expect(first).toEqual({ accepted: true, duplicate: false });
    expect(concurrent).toEqual({ accepted: true, duplicate: true });
    await w.waitAnswered(view.id, clientMessageId);
    await expect(send(w, view.id, 'once', clientMessageId)).resolves.toEqual({ accepted: true, duplicate: true });
    await h.settled(view.id);
    const events = h.stored(view.id);
    expect(events.filter((e) => e.kind === 'user_message')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'turn_started')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'turn_ended')).toHaveLength(1);
    expect(spy.count(M.session.prompt)).toBe(1);
    expect(agentText(events)).toBe('Echo: once');
  });
});
