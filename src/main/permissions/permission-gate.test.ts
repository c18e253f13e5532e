import type * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionViewT } from '../../shared/contract';
import { tempStore } from '../test-support/temp-store';
import { FakeClock, flushMicrotasks } from '../test-support/fake-clock';
import { TimerQueue } from '../util/timer-queue';
import { PermissionGate } from './permission-gate';

type Response = acp.RequestPermissionResponse;

const ALL_OPTIONS: acp.PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject once', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Reject always', kind: 'reject_always' },
];

function params(kind: acp.ToolKind | undefined = 'edit', options = ALL_OPTIONS): acp.RequestPermissionRequest {
  return {
    sessionId: 'acp-session',
    toolCall: { toolCallId: randomUUID(), title: `A ${kind ?? 'kindless'} tool call`, ...(kind ? { kind } : {}), status: 'pending' },
    options,
  };
}

/** Lets a test look at a promise's outcome without awaiting it. */
function track(p: Promise<Response>): { value: Response | undefined } {
  const t: { value: Response | undefined } = { value: undefined };
  void p.then((v) => (t.value = v));
  return t;
}

const selected = (optionId: string): Response => ({ outcome: { outcome: 'selected', optionId } });
const CANCELLED: Response = { outcome: { outcome: 'cancelled' } };

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setup(timeoutMs = 60_000) {
  const store = tempStore(cleanups);
  const clock = new FakeClock();
  const timers = new TimerQueue(clock);
  const watchers = new Map<string, number>();
  const open = new Set<string>();
  const recorded: { sessionId: string; kind: string; payload: Record<string, unknown> }[] = [];
  const requested: PermissionViewT[] = [];
  const resolved: { requestId: string; sessionId: string }[] = [];
  const pendingChanged: string[] = [];
  const s = { timeoutMs };
  const gate = new PermissionGate({
    repo: store.permissions,
    clock,
    timers,
    timeoutMs: () => s.timeoutMs,
    watchers: (id) => watchers.get(id) ?? 0,
    isOpen: (id) => open.has(id),
    record: (sessionId, kind, payload) => recorded.push({ sessionId, kind, payload }),
    clientLabel: (id) => (id === 'client-1' ? 'window 1' : id === 'client-2' ? 'window 2' : 'a window'),
  });
  gate.onDidRequest((view) => requested.push(view));
  gate.onDidResolve((r) => resolved.push(r));
  gate.onDidChangePending((id) => pendingChanged.push(id));
  const session = (): string => {
    const id = randomUUID();
    store.sessions.insert({ id, agent_id: 'demo', cwd: '/', state: 'CREATED' }, clock.now());
    open.add(id);
    return id;
  };
  const resolutions = (sessionId: string) => recorded.filter((r) => r.sessionId === sessionId && r.kind === 'permission_resolved').map((r) => r.payload);
  return { store, clock, timers, watchers, open, recorded, requested, resolved, pendingChanged, gate, session, resolutions, s };
}

describe('PermissionGate: routing and answers', () => {
  it('shows a request to the watching windows and keeps it pending in SQLite', async () => {
    const { gate, session, watchers, requested, store, pendingChanged } = setup();
    const s1 = session();
    watchers.set(s1, 2);
    const answer = track(gate.request(s1, params()));
    await flushMicrotasks();
    expect(answer.value).toBeUndefined();
    expect(requested).toHaveLength(1);
    const view = requested[0]!;
    expect(view).toMatchObject({ sessionId: s1, toolCall: { kind: 'edit' }, options: ALL_OPTIONS.map((o) => ({ ...o })) });
    expect(view.deadlineAt).toBeUndefined();
    expect(store.permissions.pendingFor(s1).map((p) => p.requestId)).toEqual([view.requestId]);
    expect(gate.pendingFor(s1).map((p) => p.requestId)).toEqual([view.requestId]);
    expect(gate.countFor(s1)).toBe(1);
    expect(pendingChanged).toEqual([s1]);
  });

  it('gives the agent the first answer; a second answer is refused with permission_answered and changes nothing', async () => {
    const { gate, session, watchers, requested, resolved, store, resolutions } = setup();
    const s1 = session();
    watchers.set(s1, 2);
    const answer = track(gate.request(s1, params()));
    const { requestId } = requested[0]!;
    gate.answer('client-1', requestId, s1, 'allow_once');
    await flushMicrotasks();
    expect(answer.value).toEqual(selected('allow_once'));
    expect(resolved).toEqual([{ requestId, sessionId: s1 }]);
    expect(() => gate.answer('client-2', requestId, s1, 'reject_once')).toThrow(expect.objectContaining({ code: 'permission_answered' }));
    expect(() => gate.answer('client-1', requestId, s1, 'allow_once')).toThrow(expect.objectContaining({ code: 'permission_answered' }));
    expect(resolved).toHaveLength(1);
    expect(resolutions(s1)).toHaveLength(1);
    expect(store.permissions.get(requestId)).toMatchObject({ status: 'decided' });
    expect(store.db.prepare('SELECT option_id, decided_by FROM permissions WHERE request_id = ?').get(requestId)).toEqual({
      option_id: 'allow_once',
      decided_by: 'window:client-1',
    });
  });

  it('refuses an unknown request id with not_found', () => {
    const { gate, session } = setup();
    const s1 = session();
    expect(() => gate.answer('client-1', randomUUID(), s1, 'allow_once')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it("refuses another session's request id with not_found and leaves the request pending", async () => {
    const { gate, session, watchers, requested, store, resolved } = setup();
    const s1 = session();
    const s2 = session();
    watchers.set(s1, 1);
    const answer = track(gate.request(s1, params()));
    const { requestId } = requested[0]!;
    expect(() => gate.answer('client-1', requestId, s2, 'allow_once')).toThrow(expect.objectContaining({ code: 'not_found' }));
    await flushMicrotasks();
    expect(answer.value).toBeUndefined();
    expect(resolved).toEqual([]);
    expect(store.permissions.get(requestId)?.status).toBe('pending');
    // Also once decided: a foreign id never reads as "already answered".
    gate.answer('client-1', requestId, s1, 'allow_once');
    expect(() => gate.answer('client-1', requestId, s2, 'allow_once')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('refuses an option the agent did not offer and keeps the request pending', () => {
    const { gate, session, watchers, requested, store } = setup();
    const s1 = session();
    watchers.set(s1, 1);
    void gate.request(s1, params());
    const { requestId } = requested[0]!;
    expect(() => gate.answer('client-1', requestId, s1, 'yolo')).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(store.permissions.get(requestId)?.status).toBe('pending');
    expect(gate.countFor(s1)).toBe(1);
  });
});

describe('PermissionGate: nobody watching', () => {
  it("answers the agent's reject_once at the deadline and records that it was the timeout, and why", async () => {
    const { gate, session, clock, store, resolutions, resolved, s } = setup(90_000);
    const s1 = session();
    const answer = track(gate.request(s1, params()));
    s.timeoutMs = 5_000; // a settings change applies to later deadlines, not this one
    const [pending] = gate.pendingFor(s1);
    expect(pending?.deadlineAt).toBe(clock.now() + 90_000);
    expect(store.permissions.get(pending!.requestId)?.deadlineAt).toBe(clock.now() + 90_000);
    await clock.advance(89_999);
    expect(answer.value).toBeUndefined();
    await clock.advance(1);
    expect(answer.value).toEqual(selected('reject_once'));
    expect(resolved).toEqual([{ requestId: pending!.requestId, sessionId: s1 }]);
    expect(resolutions(s1)).toEqual([
      expect.objectContaining({ outcome: 'selected', optionId: 'reject_once', decider: { kind: 'timeout' }, reason: expect.stringMatching(/automatically.*90 s/) }),
    ]);
  });

  it('answers cancelled at the deadline when the agent offered no reject_once', async () => {
    const { gate, session, clock, resolutions } = setup(1_000);
    const s1 = session();
    const answer = track(gate.request(s1, params('edit', ALL_OPTIONS.filter((o) => o.kind !== 'reject_once'))));
    await clock.advance(1_000);
    expect(answer.value).toEqual(CANCELLED);
    expect(resolutions(s1)[0]).toMatchObject({ outcome: 'cancelled', decider: { kind: 'timeout' } });
  });

  it('waits for the person once a window attaches before the deadline', async () => {
    const { gate, session, clock, watchers, store } = setup(1_000);
    const s1 = session();
    const answer = track(gate.request(s1, params()));
    const [pending] = gate.pendingFor(s1);
    await clock.advance(500);
    watchers.set(s1, 1);
    gate.watchersChanged(s1);
    expect(gate.pendingFor(s1)[0]?.deadlineAt).toBeUndefined();
    expect(store.permissions.get(pending!.requestId)?.deadlineAt).toBeUndefined();
    await clock.advance(10_000);
    expect(answer.value).toBeUndefined();
    gate.answer('client-1', pending!.requestId, s1, 'allow_once');
    await flushMicrotasks();
    expect(answer.value).toEqual(selected('allow_once'));
  });

  it('starts a fresh deadline when the last window leaves', async () => {
    const { gate, session, clock, watchers } = setup(1_000);
    const s1 = session();
    watchers.set(s1, 1);
    const answer = track(gate.request(s1, params()));
    await clock.advance(5_000);
    watchers.set(s1, 0);
    gate.watchersChanged(s1);
    expect(gate.pendingFor(s1)[0]?.deadlineAt).toBe(clock.now() + 1_000);
    await clock.advance(999);
    expect(answer.value).toBeUndefined();
    await clock.advance(1);
    expect(answer.value).toEqual(selected('reject_once'));
  });

  it('arms one clock timer however many requests wait for a deadline', async () => {
    const { gate, session, clock, timers } = setup(1_000);
    const answers = [];
    for (let i = 0; i < 50; i++) {
      const id = session();
      await clock.advance(10);
      answers.push(track(gate.request(id, params())));
    }
    expect(timers.size).toBe(50);
    expect(timers.isArmed).toBe(true);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(1_000);
    expect(answers.every((a) => a.value?.outcome.outcome === 'selected')).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('PermissionGate: withdrawn requests answer cancelled', () => {
  it('cancelSession answers every pending request of that session cancelled and no other', async () => {
    const { gate, session, watchers, store, resolutions, resolved } = setup();
    const s1 = session();
    const s2 = session();
    watchers.set(s1, 1);
    watchers.set(s2, 1);
    const a = track(gate.request(s1, params()));
    const b = track(gate.request(s1, params('execute')));
    const other = track(gate.request(s2, params()));
    gate.cancelSession(s1, 'turn_cancelled');
    await flushMicrotasks();
    expect(a.value).toEqual(CANCELLED);
    expect(b.value).toEqual(CANCELLED);
    expect(other.value).toBeUndefined();
    expect(resolved.filter((r) => r.sessionId === s1)).toHaveLength(2);
    expect(store.permissions.pendingFor(s1)).toEqual([]);
    expect(resolutions(s1)).toEqual([
      expect.objectContaining({ outcome: 'cancelled', decider: { kind: 'cancel', reason: 'turn_cancelled' } }),
      expect.objectContaining({ outcome: 'cancelled', decider: { kind: 'cancel', reason: 'turn_cancelled' } }),
    ]);
    expect(gate.countFor(s2)).toBe(1);
  });

  it('cancelAll answers every pending request cancelled (host quit)', async () => {
    const { gate, session, store } = setup();
    const answers = [session(), session()].map((id) => track(gate.request(id, params())));
    gate.cancelAll('host_shutdown');
    await flushMicrotasks();
    expect(answers.map((a) => a.value)).toEqual([CANCELLED, CANCELLED]);
    expect(store.permissions.allPending()).toEqual([]);
    expect(gate.size).toBe(0);
  });

  it('answers cancelled when the agent withdraws its request', async () => {
    const { gate, session, resolutions } = setup();
    const s1 = session();
    const abort = new AbortController();
    const answer = track(gate.request(s1, params(), abort.signal));
    abort.abort();
    await flushMicrotasks();
    expect(answer.value).toEqual(CANCELLED);
    expect(gate.countFor(s1)).toBe(0);
    expect(resolutions(s1)[0]).toMatchObject({ outcome: 'cancelled', decider: { kind: 'cancel' } });
  });

  it('answers cancelled at once when the agent withdrew the request before it arrived', async () => {
    const { gate, session, timers } = setup();
    const s1 = session();
    const abort = new AbortController();
    abort.abort();
    const answer = track(gate.request(s1, params(), abort.signal));
    await flushMicrotasks();
    expect(answer.value).toEqual(CANCELLED);
    expect(gate.countFor(s1)).toBe(0);
    expect(timers.size).toBe(0);
  });

  it('answers a request for a closing, ended or unknown session cancelled at once and keeps nothing', async () => {
    const { gate, session, open, requested, timers, store } = setup();
    const closing = session();
    open.delete(closing);
    const unknown = randomUUID();
    const answers = [track(gate.request(closing, params())), track(gate.request(unknown, params()))];
    await flushMicrotasks();
    expect(answers.map((a) => a.value)).toEqual([CANCELLED, CANCELLED]);
    expect(requested).toEqual([]);
    expect(gate.size).toBe(0);
    expect(timers.size).toBe(0);
    expect(store.permissions.allPending()).toEqual([]);
  });
});

describe('PermissionGate: remembered rules', () => {
  it('remembers Allow always per session and tool kind and answers later matching requests by rule', async () => {
    const { gate, session, watchers, requested, store, resolutions } = setup();
    const s1 = session();
    const s2 = session();
    watchers.set(s1, 1);
    watchers.set(s2, 1);
    void gate.request(s1, params('edit'));
    gate.answer('client-1', requested[0]!.requestId, s1, 'allow_always');
    const [rule] = store.permissions.rules(s1);
    expect(rule).toMatchObject({ sessionId: s1, toolKind: 'edit', decision: 'allow_always' });

    const auto = track(gate.request(s1, params('edit')));
    await flushMicrotasks();
    expect(auto.value).toEqual(selected('allow_always'));
    expect(requested).toHaveLength(1);
    expect(resolutions(s1).at(-1)).toMatchObject({ decider: { kind: 'rule', ruleId: rule!.id }, reason: expect.stringContaining('edit') });

    // Another tool kind, or the same kind in another session, still asks a person.
    const otherKind = track(gate.request(s1, params('execute')));
    const otherSession = track(gate.request(s2, params('edit')));
    await flushMicrotasks();
    expect(otherKind.value).toBeUndefined();
    expect(otherSession.value).toBeUndefined();
    expect(requested).toHaveLength(3);
  });

  it('remembers Reject always and answers with the reject_always option', async () => {
    const { gate, session, watchers, requested, store } = setup();
    const s1 = session();
    watchers.set(s1, 1);
    void gate.request(s1, params('execute'));
    gate.answer('client-1', requested[0]!.requestId, s1, 'reject_always');
    expect(store.permissions.rules(s1)).toEqual([expect.objectContaining({ toolKind: 'execute', decision: 'reject_always' })]);
    const auto = track(gate.request(s1, params('execute')));
    await flushMicrotasks();
    expect(auto.value).toEqual(selected('reject_always'));
  });

  it('asks a person again once the rule is revoked', async () => {
    const { gate, session, watchers, requested, store } = setup();
    const s1 = session();
    watchers.set(s1, 1);
    void gate.request(s1, params('edit'));
    gate.answer('client-1', requested[0]!.requestId, s1, 'allow_always');
    const [rule] = store.permissions.rules(s1);
    expect(store.permissions.deleteRule(s1, rule!.id)).toBe(true);
    const again = track(gate.request(s1, params('edit')));
    await flushMicrotasks();
    expect(again.value).toBeUndefined();
    expect(requested).toHaveLength(2);
  });

  it('never remembers Allow once or Reject once', () => {
    const { gate, session, watchers, requested, store } = setup();
    const s1 = session();
    watchers.set(s1, 1);
    void gate.request(s1, params('edit'));
    gate.answer('client-1', requested[0]!.requestId, s1, 'allow_once');
    void gate.request(s1, params('edit'));
    gate.answer('client-1', requested[1]!.requestId, s1, 'reject_once');
    expect(store.permissions.rules(s1)).toEqual([]);
  });
});

describe('PermissionGate: the transcript says who decided', () => {
  it('records the request and each decision with the window label, the timeout, the rule or the cancel', async () => {
    const { gate, session, watchers, requested, clock, store, recorded } = setup(1_000);
    const s1 = session();
    watchers.set(s1, 1);
    void gate.request(s1, params('edit'));
    gate.answer('client-2', requested[0]!.requestId, s1, 'allow_always');
    void gate.request(s1, params('edit'));
    void gate.request(s1, params('execute'));
    gate.cancelSession(s1, 'closed_by_user');
    watchers.set(s1, 0);
    void gate.request(s1, params('read'));
    await clock.advance(1_000);

    const kinds = recorded.map((r) => r.kind);
    expect(kinds.filter((k) => k === 'permission_requested')).toHaveLength(4);
    const deciders = recorded.filter((r) => r.kind === 'permission_resolved').map((r) => r.payload.decider);
    const [rule] = store.permissions.rules(s1);
    expect(deciders).toEqual([
      { kind: 'window', clientId: 'client-2', label: 'window 2' },
      { kind: 'rule', ruleId: rule!.id },
      { kind: 'cancel', reason: 'closed_by_user' },
      { kind: 'timeout' },
    ]);
    const rows = store.db.prepare(`SELECT decided_by FROM permissions WHERE session_id = ? ORDER BY created_at, rowid`).all(s1);
    expect(rows).toEqual([
      { decided_by: 'window:client-2' },
      { decided_by: `rule:${rule!.id}` },
      { decided_by: 'cancel' },
      { decided_by: 'timeout' },
    ]);
  });
});
