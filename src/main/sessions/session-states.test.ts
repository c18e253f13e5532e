import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionStateT } from '../../shared/contract';
import { Store } from '../store/store';
import { spyAcp, unansweredPrompts } from '../test-support/acp-spy';
import { startHarness, type Harness } from '../test-support/host-harness';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});

describe('ACTIVE and DETACHED', () => {
  it('is ACTIVE exactly while at least one window watches, DETACHED when none does', async () => {
    h = await startHarness();
    const harness = h;
    const w1 = h.window('w1');
    const w2 = h.window('w2');
    const other = await w1.call('sessions:create', {});
    const view = await w1.call('sessions:create', {});
    const id = view.id;
    await w1.waitForState(id, 'DETACHED');
    const state = () => harness.host.store.sessions.get(id)?.state;
    const steps: [string, SessionStateT][] = [];
    const step = async (name: string, action: () => Promise<unknown> | void) => {
      await action();
      steps.push([name, state() as SessionStateT]);
      // The invariant itself, whatever the order of watches and leaves.
      expect(state()).toBe(harness.host.watchers.count(id) > 0 ? 'ACTIVE' : 'DETACHED');
    };

    await step('w1 switches to it', () => w1.call('sessions:switch', { sessionId: id }));
    await step('w2 switches to it', () => w2.call('sessions:switch', { sessionId: id }));
    await step('w1 detaches', () => w1.call('sessions:detach', { sessionId: id }));
    await step('w2 closes', () => w2.dispose());
    await step('w1 switches back', () => w1.call('sessions:switch', { sessionId: id }));
    await step('w1 switches away', () => w1.call('sessions:switch', { sessionId: other.id, fromSessionId: id }));
    await step('w1 switches back again', () => w1.call('sessions:switch', { sessionId: id, fromSessionId: other.id }));
    await step('w1 closes', () => w1.dispose());
    expect(steps).toEqual([
      ['w1 switches to it', 'ACTIVE'],
      ['w2 switches to it', 'ACTIVE'],
      ['w1 detaches', 'ACTIVE'],
      ['w2 closes', 'DETACHED'],
      ['w1 switches back', 'ACTIVE'],
      ['w1 switches away', 'DETACHED'],
      ['w1 switches back again', 'ACTIVE'],
      ['w1 closes', 'DETACHED'],
    ]);
  });

  it('starts ACTIVE when a window came to watch while it was starting, DETACHED when it left again', async () => {
    h = await startHarness();
    const w = h.window();
    const a = await w.call('sessions:create', {});
    expect(h.host.store.sessions.get(a.id)?.state).toBe('STARTING');
    await w.call('sessions:switch', { sessionId: a.id });
    await expect(w.waitForState(a.id, 'ACTIVE')).resolves.toMatchObject({ stateReason: 'new' });

    const b = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: b.id, fromSessionId: a.id });
    await w.call('sessions:detach', { sessionId: b.id });
    expect(h.host.store.sessions.get(b.id)?.state).toBe('STARTING');
    await expect(w.waitForState(b.id, 'DETACHED')).resolves.toMatchObject({ stateReason: 'new' });
  });
});

describe('recovery at start-up', () => {
  it('ends sessions a dead host left live as recovered, closes their open turns, and sends nothing', async () => {
    h = await startHarness();
    const w = h.window();
    const live = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: live.id });
    await w.call('prompt:send', { sessionId: live.id, clientMessageId: randomUUID(), text: 'first' });
    await w.waitIdle(live.id);
    const slow = randomUUID();
    await w.call('prompt:send', { sessionId: live.id, clientMessageId: slow, text: '/slow 5' });
    await w.waitForText(live.id, 'tick 1');
    const midTurn = h.host.eventLog.committedSeq(live.id);
    const closed = await w.call('sessions:create', {});
    await h.host.service.close(closed.id, 'closed_by_user');
    const queued = randomUUID();
    const others = { STARTING: randomUUID(), DETACHED: randomUUID(), CLOSING: randomUUID(), CREATED: randomUUID() };

    // What a crash mid-turn leaves behind: rows in live states, a turn with no end, a prompt
    // that never reached the agent, a permission request nobody answered.
    await h.restart({}, () => {
      const store = Store.open(h!.database);
      try {
        const db = store.db;
        db.prepare(`DELETE FROM events WHERE session_id = ? AND seq > ?`).run(live.id, midTurn);
        db.prepare(`UPDATE sessions SET state = 'ACTIVE', state_reason = 'watched', last_seq = ? WHERE id = ?`).run(midTurn, live.id);
        for (const [state, id] of Object.entries(others)) {
          store.sessions.insert({ id, agent_id: 'demo', cwd: h!.dataDir, state: state as SessionStateT }, 1);
        }
        db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, 1, 'user_message', ?, 1)`).run(
          others.DETACHED,
          JSON.stringify({ text: 'queued', clientMessageId: queued }),
        );
        db.prepare(`UPDATE sessions SET last_seq = 1 WHERE id = ?`).run(others.DETACHED);
        store.permissions.insert({
          requestId: 'r1',
          sessionId: others.DETACHED,
          toolCall: { toolCallId: 't1', title: 'Edit' },
          options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
          createdAt: 1,
        });
      } finally {
        store.dispose();
      }
    });
    const spy = spyAcp();

    const rows = h.host.store.sessions;
    for (const id of [live.id, ...Object.values(others)]) expect(rows.get(id)).toMatchObject({ state: 'ENDED', state_reason: 'recovered' });
    expect(rows.get(closed.id)).toMatchObject({ state: 'ENDED', state_reason: 'closed_by_user' });
    expect(h.host.store.permissions.allPending()).toEqual([]);

    const liveEvents = h.stored(live.id).filter((e) => e.seq > midTurn);
    expect(liveEvents).toMatchObject([{ kind: 'turn_ended', payload: { clientMessageId: slow, reason: 'recovered' } }]);
    expect(liveEvents).toHaveLength(1);
    expect(h.stored(others.DETACHED)).toMatchObject([
      { kind: 'user_message', payload: { clientMessageId: queued } },
      { kind: 'turn_ended', payload: { clientMessageId: queued } },
      { kind: 'permission_resolved', payload: { requestId: 'r1' } },
    ]);
    expect(h.stored(others.DETACHED)).toHaveLength(3);
    expect(h.stored(others.DETACHED).at(-1)?.payload).toMatchObject({ outcome: 'cancelled', decider: { kind: 'cancel', reason: 'host_restart' } });
    expect(unansweredPrompts(h.stored(live.id))).toEqual([]);
    // Nothing was sent again: no agent started, no prompt re-sent.
    expect(h.host.pool.liveBrokers).toHaveLength(0);
    expect(spy.count(acp.methods.agent.initialize)).toBe(0);
    for (const id of Object.values(others)) expect(h.stored(id).filter((e) => e.kind === 'turn_started')).toEqual([]);

    // Recovery is done once: a later start changes nothing.
    const snapshot = [rows.get(live.id), h.stored(live.id), h.stored(others.DETACHED)];
    await h.restart();
    expect([h.host.store.sessions.get(live.id), h.stored(live.id), h.stored(others.DETACHED)]).toEqual(snapshot);

    // The first prompt afterwards resumes the session: the agent remembers both prompts.
    const w2 = h.window();
    const answer = await w2.call('sessions:switch', { sessionId: live.id });
    expect(answer).toMatchObject({ running: false, session: { state: 'ENDED', stateReason: 'recovered' } });
    await w2.call('prompt:send', { sessionId: live.id, clientMessageId: randomUUID(), text: '/history' });
    await w2.waitForText(live.id, 'History: 2 earlier prompts');
    expect(spy.count(acp.methods.agent.session.prompt)).toBe(1);
  });
});
