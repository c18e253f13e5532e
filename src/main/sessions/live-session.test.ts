import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Broker, defaultSpawn, type SessionSink } from '../brokers/broker';
import { demoAgent } from '../test-support/demo-agent';
import { FakeClock } from '../test-support/fake-clock';
import { tempDir } from '../test-support/temp-dir';
import { silentLogger } from '../util/log';
import { LiveSession } from './live-session';
import type { MappedEvent } from './update-mapper';

/** One real demo agent process behind a real Broker, on a fake clock; each test uses its own ACP sessions. */
let shared: { broker: Broker; clock: FakeClock; cwd: string; cleanup(): void };
beforeAll(async () => {
  const dir = tempDir();
  const clock = new FakeClock(Date.now());
  const broker = new Broker({ id: 'b1', agent: demoAgent(join(dir.path, 'demo')), spawn: defaultSpawn, clock, log: silentLogger, initTimeoutMs: 30_000 });
  shared = { broker, clock, cwd: dir.path, cleanup: dir.cleanup };
  await broker.ready;
});
afterAll(async () => {
  // Killed outright: a graceful shutdown waits on the (fake) clock.
  if (shared.broker.status !== 'exited') shared.broker.child.kill('SIGKILL');
  await shared.broker.exited;
  shared.cleanup();
});

const startBroker = () => shared;

function recordingSink(cwd: string): SessionSink & { updates: string[] } {
  const updates: string[] = [];
  return {
    cwd,
    updates,
    onUpdate: (n) => void updates.push(n.update.sessionUpdate),
    onPermission: () => Promise.resolve({ outcome: { outcome: 'cancelled' } }),
  };
}

const newSession = (broker: Broker, cwd: string) => broker.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });

describe('updates for an ACP session id not bound yet', () => {
  it('are held and handed over, once and in order, when the id is bound', async () => {
    const { broker, cwd } = startBroker();
    const { sessionId } = await newSession(broker, cwd);
    // Both updates came before the answer, while nothing was bound to the id.
    expect(broker.boundSessions).toBe(0);
    const sink = recordingSink(cwd);
    broker.bind(sessionId, sink);
    expect(sink.updates).toEqual(['available_commands_update', 'session_info_update']);

    const again = recordingSink(cwd);
    broker.unbind(sessionId, sink);
    broker.bind(sessionId, again);
    expect(again.updates).toEqual([]);
    expect(sink.updates).toHaveLength(2);
  });

  it('are dropped when nobody claims them within 120 s of the last one, or when the id is given up', async () => {
    const { broker, clock, cwd } = startBroker();
    const stale = await newSession(broker, cwd);
    await clock.advance(120_001);
    // The next unclaimed update is what sweeps out the expired ones.
    const fresh = await newSession(broker, cwd);
    const late = recordingSink(cwd);
    broker.bind(stale.sessionId, late);
    expect(late.updates).toEqual([]);

    const dropped = await newSession(broker, cwd);
    broker.dropUnclaimed(dropped.sessionId);
    const none = recordingSink(cwd);
    broker.bind(dropped.sessionId, none);
    expect(none.updates).toEqual([]);

    const kept = recordingSink(cwd);
    broker.bind(fresh.sessionId, kept);
    expect(kept.updates).toEqual(['available_commands_update', 'session_info_update']);
  });
});

describe('LiveSession', () => {
  function liveSession(cwd: string) {
    const recorded: MappedEvent[] = [];
    const live = new LiveSession('s', cwd, {
      record: (_id, e) => void recorded.push(e),
      permission: () => Promise.resolve({ outcome: { outcome: 'selected', optionId: 'allow_once' } }),
    });
    return { live, recorded };
  }

  it('stores what was held for its id as soon as it is bound', async () => {
    const { broker, cwd } = startBroker();
    const { live, recorded } = liveSession(cwd);
    const { sessionId } = await newSession(broker, cwd);
    live.bind(broker, sessionId);
    expect(recorded.map((e) => e.kind)).toEqual(['available_commands', 'session_info']);
    expect(recorded[1]).toMatchObject({ payload: { updatedAt: expect.any(String) } });
  });

  it('hears nothing once detached: updates are not stored and permission requests are answered cancelled', async () => {
    const { broker, cwd } = startBroker();
    const { live, recorded } = liveSession(cwd);
    const { sessionId } = await newSession(broker, cwd);
    live.bind(broker, sessionId);
    const before = recorded.length;
    const bound = broker.boundSessions;
    live.detach();
    expect(broker.boundSessions).toBe(bound - 1);
    // A bind after detach (a start finishing after its close) must not re-attach it.
    live.bind(broker, sessionId);
    expect(broker.boundSessions).toBe(bound - 1);

    const res = await broker.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '/permission Edit' }] });
    expect(res.stopReason).toBe('end_turn');
    expect(recorded).toHaveLength(before);
    await expect(live.onPermission({ sessionId, toolCall: { toolCallId: 't' }, options: [] }, new AbortController().signal)).resolves.toEqual({
      outcome: { outcome: 'cancelled' },
    });
  });

  it('stores only state updates while the agent replays history on session/load', async () => {
    const { broker, cwd } = startBroker();
    const { sessionId } = await newSession(broker, cwd);
    broker.bind(sessionId, recordingSink(cwd));
    await broker.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '/plan' }] });
    broker.unbind(sessionId);
    const { live, recorded } = liveSession(cwd);
    live.replaying = true;
    live.bind(broker, sessionId);
    await broker.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    live.replaying = false;
    expect(recorded.map((e) => e.kind)).toEqual(['available_commands', 'session_info']);
  });
});
