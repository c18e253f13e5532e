/**
 * Issue 6 at the host level: the real SessionHost, a temp data dir, the real demo agent, and
 * TestWindows standing in for renderer windows. The demo agent's `/permission TITLE` sends an
 * edit tool call, asks `session/request_permission` (Allow once / Allow always / Reject once /
 * Reject always) and then says `Permission outcome: <optionId | cancelled>`.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionViewT, SessionEventT } from '../../shared/contract';
import { isAlive } from '../util/process-info';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import { FakeClock } from '../test-support/fake-clock';
import { TAIL_MS } from '../store/search-tails';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});


function eventsNamed<P>(w: TestWindow, event: string, from = 0): P[] {
  return w.events.slice(from).filter((e) => e.event === event).map((e) => e.payload as P);
}

async function createSession(w: TestWindow): Promise<string> {
  return (await w.call('sessions:create', { cwd: h!.dataDir })).id;
}

function send(w: TestWindow, sessionId: string, text: string) {
  return w.call('prompt:send', { sessionId, clientMessageId: randomUUID(), text });
}

function requestedIn(w: TestWindow, sessionId: string): Promise<PermissionViewT> {
  return w.waitFor('permission:requested', (p) => p.sessionId === sessionId);
}

/** A window watching a session whose demo agent is waiting on `/permission Edit greeting.txt`. */
async function pendingRequest(): Promise<{ w: TestWindow; id: string; req: PermissionViewT }> {
  const w = h!.window('window 1');
  const id = await createSession(w);
  await w.call('sessions:switch', { sessionId: id });
  await send(w, id, '/permission Edit greeting.txt');
  return { w, id, req: await requestedIn(w, id) };
}

async function transcript(w: TestWindow, sessionId: string): Promise<SessionEventT[]> {
  h!.host.eventLog.flush();
  return (await w.call('transcript:since', { sessionId, afterSeq: 0 })).events;
}

const resolvedEvents = (events: SessionEventT[]) => events.filter((e) => e.kind === 'permission_resolved').map((e) => e.payload);
const agentSaid = (events: SessionEventT[]) =>
  events
    .filter((e) => e.kind === 'agent_message')
    .map((e) => String(e.payload.text))
    .join('\n');

function storedDecision(requestId: string) {
  return h!.host.store.db.prepare(`SELECT status, outcome, option_id, decided_by, reason FROM permissions WHERE request_id = ?`).get(requestId);
}

/** What the demo agent wrote in its own history for a session: proof of what it received. */
function agentJournal(acpSessionId: string): string {
  return readFileSync(join(h!.dataDir, 'demo-agent', 'sessions', `${acpSessionId}.jsonl`), 'utf8');
}

function editRequest(title = 'Edit by hand'): acp.RequestPermissionRequest {
  return {
    sessionId: 'agent-side-id',
    toolCall: { toolCallId: randomUUID(), title, kind: 'edit', status: 'pending' },
    options: [
      { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'reject_once', name: 'Reject once', kind: 'reject_once' },
    ],
  };
}

describe('permission gate (host): windows watching', () => {
  it('shows the request in every watching window; the first answer wins, the other dialog closes, the agent hears one outcome', async () => {
    h = await startHarness();
    const w1 = h.window('window 1');
    const w2 = h.window('window 2');
    const id = await createSession(w1);
    await w1.call('sessions:switch', { sessionId: id });
    await w2.call('sessions:switch', { sessionId: id });
    await send(w1, id, '/permission Edit greeting.txt');

    const [r1, r2] = await Promise.all([requestedIn(w1, id), requestedIn(w2, id)]);
    expect(r1).toEqual(r2);
    expect(r1.toolCall).toMatchObject({ title: 'Edit greeting.txt', kind: 'edit', locations: [expect.objectContaining({ path: expect.stringContaining('greeting.txt') })] });
    expect(r1.options.map((o) => o.name)).toEqual(['Allow once', 'Allow always', 'Reject once', 'Reject always']);

    await w2.call('permissions:answer', { requestId: r1.requestId, sessionId: id, optionId: 'allow_once' });
    await Promise.all([
      w1.waitFor('permission:resolved', (p) => p.requestId === r1.requestId),
      w2.waitFor('permission:resolved', (p) => p.requestId === r1.requestId),
    ]);
    await expect(w1.call('permissions:answer', { requestId: r1.requestId, sessionId: id, optionId: 'reject_once' })).rejects.toMatchObject({
      code: 'permission_answered',
    });
    await expect(w2.call('permissions:answer', { requestId: r1.requestId, sessionId: id, optionId: 'allow_once' })).rejects.toMatchObject({
      code: 'permission_answered',
    });

    await w1.waitIdle(id);
    const events = await transcript(w1, id);
    expect(agentSaid(events).match(/Permission outcome: \w+/g)).toEqual(['Permission outcome: allow_once']);
    expect(resolvedEvents(events)).toEqual([
      expect.objectContaining({ outcome: 'selected', optionId: 'allow_once', optionName: 'Allow once', decider: { kind: 'window', clientId: w2.id, label: 'window 2' } }),
    ]);
    expect(eventsNamed(w1, 'permission:resolved')).toHaveLength(1);
    expect(storedDecision(r1.requestId)).toEqual({ status: 'decided', outcome: 'selected', option_id: 'allow_once', decided_by: `window:${w2.id}`, reason: null });
  });

  it("refuses an unknown request id and another session's request id with not_found, and changes nothing", async () => {
    h = await startHarness();
    const w = h.window('window 1');
    const s1 = await createSession(w);
    const s2 = await createSession(w);
    await w.call('sessions:switch', { sessionId: s1 });
    await w.call('sessions:switch', { sessionId: s2 });
    await send(w, s1, '/permission Edit greeting.txt');
    const req = await requestedIn(w, s1);

    await expect(w.call('permissions:answer', { requestId: req.requestId, sessionId: s2, optionId: 'allow_once' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(w.call('permissions:answer', { requestId: randomUUID(), sessionId: s1, optionId: 'allow_once' })).rejects.toMatchObject({ code: 'not_found' });
    expect(h.host.gate.pendingFor(s1).map((p) => p.requestId)).toEqual([req.requestId]);
    expect(h.host.store.permissions.pendingFor(s1).map((p) => p.requestId)).toEqual([req.requestId]);
    expect(eventsNamed(w, 'permission:resolved')).toEqual([]);
    expect(w.sessionEvents(s1).filter((e) => e.kind === 'permission_resolved')).toEqual([]);

    await w.call('permissions:answer', { requestId: req.requestId, sessionId: s1, optionId: 'reject_once' });
    await w.waitForText(s1, 'Permission outcome: reject_once');
  });

  it('shows a pending request again after a window reload, from the host and SQLite', async () => {
    h = await startHarness();
    const w1 = h.window('window 1');
    const id = await createSession(w1);
    await w1.call('sessions:switch', { sessionId: id });
    await send(w1, id, '/permission Edit greeting.txt');
    const req = await requestedIn(w1, id);

    w1.dispose(); // the window reloads
    const [stored] = h.host.store.permissions.pendingFor(id);
    expect(stored).toMatchObject({ requestId: req.requestId, toolCall: { title: 'Edit greeting.txt' }, deadlineAt: expect.any(Number) });

    const w2 = h.window('window 1 (reloaded)');
    const switched = await w2.call('sessions:switch', { sessionId: id });
    expect(switched.pendingPermissions).toEqual([expect.objectContaining({ requestId: req.requestId, toolCall: req.toolCall, options: req.options })]);
    expect(switched.pendingPermissions[0]?.deadlineAt).toBeUndefined();
    expect(switched.session.pendingPermissions).toBe(1);
    expect(switched.running).toBe(true);

    await w2.call('permissions:answer', { requestId: req.requestId, sessionId: id, optionId: 'allow_once' });
    await w2.waitForText(id, 'Permission outcome: allow_once');
    const [decision] = resolvedEvents(await transcript(w2, id));
    expect(decision).toMatchObject({ decider: { kind: 'window', clientId: w2.id, label: 'window 1 (reloaded)' } });
  });

  it('tells windows not watching the session its pending count (the sidebar badge), not the dialog', async () => {
    h = await startHarness();
    const watching = h.window('window 1');
    const elsewhere = h.window('window 2');
    const id = await createSession(watching);
    await watching.call('sessions:switch', { sessionId: id });
    await send(watching, id, '/permission Edit greeting.txt');
    const req = await requestedIn(watching, id);
    await elsewhere.waitFor('session:updated', (v) => v.id === id && v.pendingPermissions === 1);
    const mark = elsewhere.events.length;
    await watching.call('permissions:answer', { requestId: req.requestId, sessionId: id, optionId: 'allow_once' });
    await elsewhere.until(() => eventsNamed<{ id: string; pendingPermissions: number }>(elsewhere, 'session:updated', mark).some((v) => v.id === id && v.pendingPermissions === 0), 'badge cleared');
    expect(eventsNamed(elsewhere, 'permission:requested')).toEqual([]);
    expect(eventsNamed(elsewhere, 'permission:resolved')).toEqual([]);
  });
});

describe('permission gate (host): nobody watching', () => {
  it("gives the agent its reject_once at the permission timeout; the turn goes on and ends; the transcript says it was the timeout and why", async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock, settings: { permissionTimeoutMs: 90_000, idleTimeoutMs: 0 } });
    const w = h.window('window 1'); // never switches to the session: nobody watches it
    const id = await createSession(w);
    await send(w, id, '/permission Edit greeting.txt');
    await w.waitFor('session:updated', (v) => v.id === id && v.pendingPermissions === 1);
    const [pending] = h.host.gate.pendingFor(id);
    expect(pending?.deadlineAt).toBe(clock.now() + 90_000);
    expect(h.host.store.permissions.get(pending!.requestId)?.deadlineAt).toBe(clock.now() + 90_000);

    await clock.advance(89_999);
    expect(h.host.gate.countFor(id)).toBe(1);
    const mark = w.events.length;
    await clock.advance(1);
    expect(h.host.gate.countFor(id)).toBe(0);
    await w.until(() => eventsNamed<{ id: string; running: boolean }>(w, 'session:updated', mark).some((v) => v.id === id && !v.running), 'turn end');

    const events = await transcript(w, id);
    expect(agentSaid(events)).toContain('Permission outcome: reject_once');
    expect(resolvedEvents(events)).toEqual([
      expect.objectContaining({ outcome: 'selected', optionId: 'reject_once', decider: { kind: 'timeout' }, reason: expect.stringMatching(/Denied automatically.*90 s/) }),
    ]);
    const kinds = events.map((e) => e.kind);
    expect(kinds.indexOf('turn_ended')).toBeGreaterThan(kinds.indexOf('permission_resolved'));
    expect(events.find((e) => e.kind === 'turn_ended')?.payload).toMatchObject({ stopReason: 'end_turn' });
    expect(storedDecision(pending!.requestId)).toMatchObject({ outcome: 'selected', option_id: 'reject_once', decided_by: 'timeout' });
    // A window answering now is too late, and changes nothing.
    await expect(w.call('permissions:answer', { requestId: pending!.requestId, sessionId: id, optionId: 'allow_once' })).rejects.toMatchObject({
      code: 'permission_answered',
    });
    expect(storedDecision(pending!.requestId)).toMatchObject({ option_id: 'reject_once', decided_by: 'timeout' });
  });

  it('waits for the person once a window attaches before the deadline', async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock, settings: { permissionTimeoutMs: 90_000, idleTimeoutMs: 0 } });
    const w = h.window('window 1');
    const id = await createSession(w);
    await send(w, id, '/permission Edit greeting.txt');
    await w.waitFor('session:updated', (v) => v.id === id && v.pendingPermissions === 1);
    await clock.advance(89_999);

    const switched = await w.call('sessions:switch', { sessionId: id });
    expect(switched.pendingPermissions).toHaveLength(1);
    expect(switched.pendingPermissions[0]?.deadlineAt).toBeUndefined();
    await clock.advance(10 * 90_000);
    expect(h.host.gate.countFor(id)).toBe(1);

    await w.call('permissions:answer', { requestId: switched.pendingPermissions[0]!.requestId, sessionId: id, optionId: 'allow_once' });
    await w.waitForText(id, 'Permission outcome: allow_once');
  });

  it('arms one clock timer however many requests are waiting for their deadline', async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock, settings: { permissionTimeoutMs: 90_000, idleTimeoutMs: 0 } });
    const w = h.window('window 1');
    // The host's own tasks (the look for a sleep, the database check) share the timer too.
    const hostTasks = h.host.timers.size;
    const ids = [await createSession(w), await createSession(w), await createSession(w)];
    for (const id of ids) {
      await send(w, id, `/permission Edit ${id}`);
      await clock.advance(1_000);
    }
    await w.until(() => h!.host.gate.size === 3, 'three pending requests');
    // What the turns stored waits for the search index for TAIL_MS, on a timer of its own that
    // goes once it ran.
    await clock.advance(TAIL_MS);
    await w.until(() => !h!.host.timers.has('search:tails'), 'the search index caught up');
    expect(h.host.timers.size).toBe(hostTasks + 3);
    expect(h.host.timers.isArmed).toBe(true);
    expect(clock.pendingTimers).toBe(1);

    await clock.advance(90_000);
    expect(h.host.gate.size).toBe(0);
  });
});

describe('permission gate (host): withdrawn requests answer cancelled', () => {
  it('answers cancelled on prompt:cancel and closes the dialogs', async () => {
    h = await startHarness();
    const { w, id, req } = await pendingRequest();
    await w.call('prompt:cancel', { sessionId: id });
    await w.waitFor('permission:resolved', (p) => p.requestId === req.requestId);
    await w.waitIdle(id);
    const events = await transcript(w, id);
    expect(agentSaid(events)).toContain('Permission outcome: cancelled');
    expect(resolvedEvents(events)).toEqual([expect.objectContaining({ outcome: 'cancelled', decider: { kind: 'cancel', reason: 'turn_cancelled' } })]);
    expect(storedDecision(req.requestId)).toMatchObject({ status: 'decided', outcome: 'cancelled' });
  });

  it('answers cancelled when the session is closed and closes the dialogs', async () => {
    h = await startHarness();
    const { w, id, req } = await pendingRequest();
    const acpId = h.host.store.sessions.get(id)!.acp_session_id!;
    const closed = await w.call('sessions:close', { sessionId: id });
    expect(closed.state).toBe('ENDED');
    expect(eventsNamed(w, 'permission:resolved')).toEqual([{ requestId: req.requestId, sessionId: id }]);
    expect(h.host.gate.countFor(id)).toBe(0);
    expect(storedDecision(req.requestId)).toMatchObject({ outcome: 'cancelled', decided_by: 'cancel', reason: 'closed_by_user' });
    expect(resolvedEvents(await transcript(w, id))).toEqual([expect.objectContaining({ outcome: 'cancelled', decider: { kind: 'cancel', reason: 'closed_by_user' } })]);
    expect(agentJournal(acpId)).toContain('Permission outcome: cancelled');
  });

  it('answers cancelled when the agent process dies and closes the dialogs', async () => {
    h = await startHarness();
    const { w, id, req } = await pendingRequest();
    const pid = h.host.pool.brokerOf(id)!.pid!;
    process.kill(pid, 'SIGKILL');
    await w.waitFor('permission:resolved', (p) => p.requestId === req.requestId);
    await w.waitFor('session:updated', (v) => v.id === id && v.state === 'ENDED');
    expect(isAlive(pid)).toBe(false);
    expect(h.host.gate.countFor(id)).toBe(0);
    expect(storedDecision(req.requestId)).toMatchObject({ status: 'decided', outcome: 'cancelled', decided_by: 'cancel' });
    expect(resolvedEvents(await transcript(w, id))).toEqual([expect.objectContaining({ outcome: 'cancelled', decider: expect.objectContaining({ kind: 'cancel' }) })]);
  });

  it('answers cancelled when the host quits and closes the dialogs', async () => {
    h = await startHarness();
    const { w, id, req } = await pendingRequest();
    const acpId = h.host.store.sessions.get(id)!.acp_session_id!;
    await h.host.shutdown();
    expect(eventsNamed(w, 'permission:resolved')).toEqual([{ requestId: req.requestId, sessionId: id }]);
    expect(agentJournal(acpId)).toContain('Permission outcome: cancelled');

    await h.restart();
    // Decided by the quit itself, not by the next start's recovery.
    expect(storedDecision(req.requestId)).toMatchObject({ outcome: 'cancelled', decided_by: 'cancel', reason: 'host_shutdown' });
    const w2 = h.window('window 2');
    expect(resolvedEvents(await transcript(w2, id))).toEqual([expect.objectContaining({ outcome: 'cancelled', decider: { kind: 'cancel', reason: 'host_shutdown' } })]);
  });

  it('answers a request for a closing, ended or unknown session at once and keeps nothing pending', async () => {
    const clock = new FakeClock();
    h = await startHarness({ clock, settings: { idleTimeoutMs: 60_000, reapIntervalMs: 60_000 } });
    const w = h.window('window 1');
    const id = await createSession(w);
    await w.call('sessions:switch', { sessionId: id });
    await send(w, id, 'hello');
    await w.waitIdle(id);
    await w.call('sessions:detach', { sessionId: id });
    const live = h.host.service.registry.get(id)!;
    const broker = h.host.pool.brokerOf(id)!;

    // Hold the agent's session/close so the reaper's close stays in flight.
    let releaseClose!: () => void;
    const held = new Promise<void>((r) => (releaseClose = r));
    const request = broker.request.bind(broker);
    broker.request = ((method: string, params: unknown, timeoutMs?: number) =>
      method === 'session/close' ? held.then(() => request(method as never, params as never, timeoutMs)) : request(method as never, params as never, timeoutMs)) as typeof broker.request;
    await clock.advance(60_000);
    expect(h.host.service.isClosing(id)).toBe(true);

    const signal = new AbortController().signal;
    // What the broker does with a request that arrives for this session now, and the gate itself.
    await expect(live.onPermission(editRequest(), signal)).resolves.toEqual({ outcome: { outcome: 'cancelled' } });
    await expect(h.host.gate.request(id, editRequest())).resolves.toEqual({ outcome: { outcome: 'cancelled' } });
    releaseClose();
    await w.waitFor('session:updated', (v) => v.id === id && v.state === 'ENDED');
    await expect(h.host.gate.request(id, editRequest())).resolves.toEqual({ outcome: { outcome: 'cancelled' } });
    await expect(h.host.gate.request(randomUUID(), editRequest())).resolves.toEqual({ outcome: { outcome: 'cancelled' } });
    expect(h.host.gate.size).toBe(0);
    expect(h.host.store.permissions.allPending()).toEqual([]);
    expect(eventsNamed(w, 'permission:requested')).toEqual([]);
  });
});

describe('permission gate (host): remembered rules', () => {
  it('remembers Allow always per session and tool kind, answers later requests by rule, lists it and revokes it', async () => {
    h = await startHarness();
    const w = h.window('window 1');
    const s1 = await createSession(w);
    const s2 = await createSession(w);
    await w.call('sessions:switch', { sessionId: s1 });
    await w.call('sessions:switch', { sessionId: s2 });
    const turnsEnded = (id: string) => w.sessionEvents(id).filter((e) => e.kind === 'turn_ended').length;

    await send(w, s1, '/permission First edit');
    const first = await requestedIn(w, s1);
    await w.call('permissions:answer', { requestId: first.requestId, sessionId: s1, optionId: 'allow_always' });
    await w.until(() => turnsEnded(s1) === 1, 'first turn');
    const rules = await w.call('permissions:rules', { sessionId: s1 });
    expect(rules).toEqual([expect.objectContaining({ sessionId: s1, toolKind: 'edit', decision: 'allow_always' })]);

    await send(w, s1, '/permission Second edit');
    await w.until(() => turnsEnded(s1) === 2, 'second turn');
    expect(eventsNamed<PermissionViewT>(w, 'permission:requested').filter((p) => p.sessionId === s1)).toHaveLength(1);
    let events = await transcript(w, s1);
    expect(agentSaid(events).match(/Permission outcome: \w+/g)).toEqual(['Permission outcome: allow_always', 'Permission outcome: allow_always']);
    expect(resolvedEvents(events)[1]).toMatchObject({ outcome: 'selected', optionId: 'allow_always', decider: { kind: 'rule', ruleId: rules[0]!.id } });

    // Per session: the other session still asks a person.
    await send(w, s2, '/permission Edit elsewhere');
    const other = await requestedIn(w, s2);
    await w.call('permissions:answer', { requestId: other.requestId, sessionId: s2, optionId: 'reject_once' });
    await w.waitForText(s2, 'Permission outcome: reject_once');
    expect(await w.call('permissions:rules', { sessionId: s2 })).toEqual([]);

    await expect(w.call('permissions:revoke', { sessionId: s2, ruleId: rules[0]!.id })).rejects.toMatchObject({ code: 'not_found' });
    await w.call('permissions:revoke', { sessionId: s1, ruleId: rules[0]!.id });
    expect(await w.call('permissions:rules', { sessionId: s1 })).toEqual([]);
    await send(w, s1, '/permission Third edit');
    const third = await w.waitFor('permission:requested', (p) => p.sessionId === s1 && p.toolCall.title === 'Third edit');
    await w.call('permissions:answer', { requestId: third.requestId, sessionId: s1, optionId: 'reject_always' });
    await w.until(() => turnsEnded(s1) === 3, 'third turn');
    events = await transcript(w, s1);
    expect(agentSaid(events)).toContain('Permission outcome: reject_always');
    expect(await w.call('permissions:rules', { sessionId: s1 })).toEqual([expect.objectContaining({ toolKind: 'edit', decision: 'reject_always' })]);

    await send(w, s1, '/permission Fourth edit');
    await w.until(() => turnsEnded(s1) === 4, 'fourth turn');
    events = await transcript(w, s1);
    expect(resolvedEvents(events).at(-1)).toMatchObject({ optionId: 'reject_always', decider: { kind: 'rule' } });
    expect(eventsNamed<PermissionViewT>(w, 'permission:requested').filter((p) => p.sessionId === s1)).toHaveLength(2);
  });
});
