import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEventT, SessionViewT } from '../../shared/contract';
import { defaultSpawn, type SpawnFn } from '../brokers/broker';
import { startHarness, type Harness, type TestWindow, liveSession } from '../test-support/host-harness';
import { agentFootprint, demoAgents, groupMembers, isLive, killAll, waitUntil } from '../test-support/processes';
import { ShiftableClock } from '../test-support/shiftable-clock';
import { silentLogger } from '../util/log';
import { SessionHost, type HostOptions } from './session-host';

/**
 * The agent process lifecycle through the real host (issue 4): real demo agent processes,
 * real SQLite, counted before and after.
 */

const harnesses: Harness[] = [];
/** Every agent process group a host here started, with its command line: helpers outlive their leader. */
const groups = new Map<number, string>();
let spawns = 0;

const countingSpawn: SpawnFn = (command, args, options) => {
  spawns++;
  const child = defaultSpawn(command, args, options);
  if (child.pid) groups.set(child.pid, args.join(' '));
  return child;
};

/** What agents started for `dataDir` still run: the agents and every member of their groups. */
function footprint(dataDir: string) {
  return agentFootprint(dataDir, [...groups].filter(([, args]) => args.includes(dataDir)).map(([pgid]) => pgid));
}

afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    await h.host.shutdown();
    killAll(footprint(h.dataDir));
    await h.cleanup();
  }
  killAll(groupMembers(groups.keys()));
  groups.clear();
  spawns = 0;
});

async function harness(options: Partial<HostOptions> = {}): Promise<Harness> {
  const h = await startHarness({ spawn: countingSpawn, ...options });
  harnesses.push(h);
  return h;
}

/** Creates a session nobody watches and waits until its agent session is live. */
async function detachedSession(h: Harness, w: TestWindow): Promise<string> {
  const view = await w.call('sessions:create', { cwd: h.dataDir });
  await w.waitFor('session:updated', (v) => v.id === view.id && v.state === 'DETACHED', 30_000);
  return view.id;
}

function send(w: TestWindow, sessionId: string, text: string, retry?: boolean) {
  return w.call('prompt:send', { sessionId, clientMessageId: randomUUID(), text, ...(retry ? { retry } : {}) });
}

async function stored(w: TestWindow, sessionId: string): Promise<SessionEventT[]> {
  return (await w.call('transcript:since', { sessionId, afterSeq: 0, limit: 5000 })).events;
}

async function view(w: TestWindow, sessionId: string): Promise<SessionViewT> {
  const all = await w.call('sessions:list', {});
  return all.find((v) => v.id === sessionId) as SessionViewT;
}

function brokerOwners(h: Harness): { broker_id: string; session_id: string }[] {
  return h.host.store.db.prepare(`SELECT broker_id, session_id FROM broker_owners ORDER BY session_id`).all() as never;
}

function ended(w: TestWindow, sessionId: string, reason: string): Promise<SessionViewT> {
  return w.waitFor('session:updated', (v) => v.id === sessionId && v.state === 'ENDED' && v.stateReason === reason, 20_000);
}

describe('last owner out', () => {
  it.each([
    ['a well-behaved agent', []],
    ['a stubborn agent (ignores EOF and SIGTERM) and its helper', ['--stubborn']],
  ])('closing the last session leaves no process of %s', async (_name, demoAgentArgs) => {
    const h = await harness({ demoAgentArgs });
    const w = h.window();
    const id = await liveSession(h, w);
    await send(w, id, 'hello');
    await w.waitIdle(id);
    const [agent] = demoAgents(h.dataDir);
    expect(agent).toBeDefined();
    const members = groupMembers([agent!.pid]).map((p) => p.pid);
    if (demoAgentArgs.length) expect(members.length).toBeGreaterThanOrEqual(2); // the helper

    const closed = await w.call('sessions:close', { sessionId: id });
    expect(closed).toMatchObject({ state: 'ENDED', stateReason: 'closed_by_user', running: false });
    expect(footprint(h.dataDir)).toEqual([]);
    for (const pid of members) expect(isLive(pid)).toBe(false);
    expect(h.host.store.brokers.all()).toEqual([]);
    expect(brokerOwners(h)).toEqual([]);
    expect(h.host.pool.teardowns).toBe(1);
  });

  it('sessions of one agent share a broker up to maxSessionsPerBroker; the next session gets its own', async () => {
    const h = await harness({ settings: { maxSessionsPerBroker: 2 } });
    const w = h.window();
    const ids = [await detachedSession(h, w), await detachedSession(h, w), await detachedSession(h, w)];
    expect(spawns).toBe(2);
    expect(demoAgents(h.dataDir)).toHaveLength(2);
    const rows = brokerOwners(h);
    const byBroker = new Map<string, string[]>();
    for (const r of rows) byBroker.set(r.broker_id, [...(byBroker.get(r.broker_id) ?? []), r.session_id]);
    expect([...byBroker.values()].map((s) => s.length).sort()).toEqual([1, 2]);
    expect(rows.map((r) => r.session_id).sort()).toEqual([...ids].sort());
    expect(h.host.pool.brokerOf(ids[0]!)).toBe(h.host.pool.brokerOf(ids[1]!));
    expect(h.host.pool.brokerOf(ids[2]!)).not.toBe(h.host.pool.brokerOf(ids[0]!));

    // The shared agent stays while one of its two sessions remains.
    await w.call('sessions:close', { sessionId: ids[0]! });
    expect(demoAgents(h.dataDir)).toHaveLength(2);
    await w.call('sessions:switch', { sessionId: ids[1]! });
    await send(w, ids[1]!, 'still here');
    await w.waitForText(ids[1]!, 'Echo: still here');
  });

  it('tears a shared broker down exactly once when its 20 sessions close at the same moment', async () => {
    const h = await harness({ settings: { maxSessionsPerBroker: 20 } });
    const w = h.window();
    const ids = await Promise.all(Array.from({ length: 20 }, () => detachedSession(h, w)));
    expect(spawns).toBe(1);
    expect(brokerOwners(h)).toHaveLength(20);
    const [agent] = demoAgents(h.dataDir);

    const views = await Promise.all(ids.map((sessionId) => w.call('sessions:close', { sessionId })));
    expect(views.every((v) => v.state === 'ENDED')).toBe(true);
    expect(h.host.pool.teardowns).toBe(1);
    expect(isLive(agent!.pid)).toBe(false);
    expect(footprint(h.dataDir)).toEqual([]);
    expect(brokerOwners(h)).toEqual([]);
    expect(h.host.store.brokers.all()).toEqual([]);
  });

  it('gives a session that starts while its agent is shutting down a fresh agent', async () => {
    const h = await harness({ demoAgentArgs: ['--stubborn'] }); // a slow shutdown: grace, SIGTERM, grace, SIGKILL
    const w = h.window();
    const first = await liveSession(h, w);
    const old = h.host.pool.brokerOf(first)!;
    const closing = w.call('sessions:close', { sessionId: first });
    await waitUntil(() => old.status === 'closing', 'the old agent to start shutting down');

    const second = await liveSession(h, w);
    const fresh = h.host.pool.brokerOf(second)!;
    expect(fresh).not.toBe(old);
    await send(w, second, 'fresh');
    await w.waitForText(second, 'Echo: fresh');
    await closing;
    expect(isLive(old.pid!)).toBe(false);
    expect(isLive(fresh.pid!)).toBe(true);
    expect(brokerOwners(h)).toEqual([{ broker_id: fresh.id, session_id: second }]);
  });
});

describe('agent crashes', () => {
  it('/crash mid-turn fails every turn on that agent with its stderr, withdraws permissions, ends its sessions; the next prompt resumes', async () => {
    const h = await harness();
    const w = h.window();
    const asking = await liveSession(h, w);
    const crashing = await liveSession(h, w);
    const broker = h.host.pool.brokerOf(crashing)!;
    expect(h.host.pool.brokerOf(asking)).toBe(broker);

    const other = h.window('second window');
    await other.call('sessions:switch', { sessionId: asking });
    await send(w, asking, '/permission');
    const request = await w.waitFor('permission:requested', (p) => p.sessionId === asking);
    await other.waitFor('permission:requested', (p) => p.requestId === request.requestId);
    await send(w, crashing, '/crash');
    await ended(w, crashing, 'agent_exited');
    await ended(w, asking, 'agent_exited');
    for (const id of [asking, crashing]) {
      await w.waitFor('session:event', (e) => e.sessionId === id && e.kind === 'turn_ended');
    }

    // The pending permission was withdrawn from every window and answered.
    await w.waitFor('permission:resolved', (p) => p.requestId === request.requestId);
    await other.waitFor('permission:resolved', (p) => p.requestId === request.requestId);
    expect(h.host.gate.countFor(asking)).toBe(0);
    expect(h.host.store.permissions.get(request.requestId)?.status).toBe('decided');

    for (const id of [asking, crashing]) {
      const events = await stored(w, id);
      const error = events.find((e) => e.kind === 'error');
      expect(error?.payload).toMatchObject({ code: 'agent_exited' });
      expect((error?.payload.stderrTail as string[]).join('\n')).toContain('crashing on request');
      expect(events.filter((e) => e.kind === 'turn_ended').at(-1)?.payload).toMatchObject({ stopReason: 'error' });
      expect(await view(w, id)).toMatchObject({ state: 'ENDED', stateReason: 'agent_exited', running: false, pendingPermissions: 0 });
    }
    await waitUntil(() => footprint(h.dataDir).length === 0, 'the crashed agent to be gone');
    expect(h.host.store.brokers.all()).toEqual([]);

    // The next prompt starts a new agent and resumes the session where it was.
    await send(w, crashing, '/history');
    await w.waitForText(crashing, 'History: ');
    expect(w.agentText(crashing)).toContain('History: 1 earlier prompts');
    expect(spawns).toBe(2);
    expect(h.host.pool.brokerOf(crashing)).not.toBe(broker);
    expect(await view(w, crashing)).toMatchObject({ state: 'ACTIVE' });
  });

  it('stops respawning an agent that crashed 3 times within a minute; a retry starts it again', async () => {
    const clock = new ShiftableClock();
    const h = await harness({ clock });
    const w = h.window();
    const id = await liveSession(h, w);
    const errors = (): SessionEventT[] => w.sessionEvents(id).filter((e) => e.kind === 'error');

    for (let crash = 1; crash <= 3; crash++) {
      await send(w, id, '/crash');
      await waitUntil(() => errors().length === crash, `crash ${crash} to be recorded`, 20_000);
      await waitUntil(() => h.host.pool.liveBrokers.length === 0, 'the crashed agent to be gone');
    }
    expect(spawns).toBe(3);

    await send(w, id, 'are you there?');
    await waitUntil(() => errors().length === 4, 'the refusal to be recorded');
    expect(errors().at(-1)?.payload).toMatchObject({ code: 'crash_loop' });
    await ended(w, id, 'crash_loop');
    expect(spawns).toBe(3);
    expect(demoAgents(h.dataDir)).toEqual([]);

    await send(w, id, 'retry please', true);
    await w.waitForText(id, 'Echo: retry please');
    expect(spawns).toBe(4);
  });

  it('respawns after 3 crashes once the first of them is more than a minute old', async () => {
    const clock = new ShiftableClock();
    const h = await harness({ clock });
    const w = h.window();
    const id = await liveSession(h, w);
    const errors = (): number => w.sessionEvents(id).filter((e) => e.kind === 'error').length;
    for (let crash = 1; crash <= 3; crash++) {
      await send(w, id, '/crash');
      await waitUntil(() => errors() === crash, `crash ${crash} to be recorded`, 20_000);
      if (crash === 1) clock.shift(61_000);
    }
    await send(w, id, 'back again');
    await w.waitForText(id, 'Echo: back again');
    expect(spawns).toBe(4);
  });
});

describe('quit', () => {
  it.each([
    ['a well-behaved agent', []],
    ['a stubborn agent', ['--stubborn']],
  ])('shutdown during /slow 10 with %s: within 5 s, partial output kept, ENDED host_shutdown, no process, nothing re-sent', async (_name, demoAgentArgs) => {
    const h = await harness({ demoAgentArgs });
    const w = h.window();
    const id = await liveSession(h, w);
    await send(w, id, '/slow 10');
    await w.waitForText(id, 'tick 3');

    const started = Date.now();
    await h.host.shutdown();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(footprint(h.dataDir)).toEqual([]);

    const db = new Database(join(h.dataDir, 'switchboard.db'), { readonly: true });
    try {
      const row = db.prepare(`SELECT state, state_reason FROM sessions WHERE id = ?`).get(id);
      expect(row).toEqual({ state: 'ENDED', state_reason: 'host_shutdown' });
      const events = db.prepare(`SELECT kind, payload FROM events WHERE session_id = ? ORDER BY seq`).all(id) as { kind: string; payload: string }[];
      const text = events.filter((e) => e.kind === 'agent_message').map((e) => (JSON.parse(e.payload) as { text: string }).text).join('');
      expect(text).toContain('tick 3');
      expect(text).not.toContain('Done after');
      expect(JSON.parse(events.filter((e) => e.kind === 'turn_ended').at(-1)!.payload)).toMatchObject({ stopReason: 'cancelled' });
      expect(db.prepare(`SELECT COUNT(*) AS n FROM brokers`).get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }

    // The next start sends nothing again: no agent starts, and the agent has seen one prompt.
    const before = spawns;
    await h.restart();
    expect(spawns).toBe(before);
    expect(demoAgents(h.dataDir)).toEqual([]);
    const w2 = h.window();
    await w2.call('sessions:switch', { sessionId: id });
    expect(await view(w2, id)).toMatchObject({ state: 'ENDED', stateReason: 'host_shutdown', running: false });
    await send(w2, id, '/history');
    await w2.waitForText(id, 'History: ');
    expect(w2.agentText(id)).toContain('History: 1 earlier prompts');
    expect((await stored(w2, id)).filter((e) => e.kind === 'user_message')).toHaveLength(2);
  });

  it('keeps quit within its budget when an agent is slow to stop: the rest is killed outright, sessions still end', async () => {
    const h = await harness({ demoAgentArgs: ['--stubborn'], graceMs: 5_000, shutdownBudgetMs: 500 });
    const w = h.window();
    const id = await liveSession(h, w);
    await send(w, id, '/slow 10');
    await w.waitForText(id, 'tick 2');

    const started = Date.now();
    await h.host.shutdown();
    expect(Date.now() - started).toBeLessThan(2_000);
    await waitUntil(() => footprint(h.dataDir).length === 0, 'every agent process to be killed', 2_000);
    const row = new Database(join(h.dataDir, 'switchboard.db'), { readonly: true });
    try {
      expect(row.prepare(`SELECT state, state_reason FROM sessions WHERE id = ?`).get(id)).toEqual({ state: 'ENDED', state_reason: 'host_shutdown' });
    } finally {
      row.close();
    }
  });
});

describe('hosts and data dirs', () => {
  it('two hosts on two data dirs never touch each other’s agents', async () => {
    const a = await harness({ demoAgentArgs: ['--stubborn'] });
    const b = await harness({ demoAgentArgs: ['--stubborn'] });
    const wa = a.window();
    const wb = b.window();
    await liveSession(a, wa);
    const idB = await liveSession(b, wb);
    const [agentB] = demoAgents(b.dataDir);
    const rowsB = b.host.store.brokers.all();

    await a.host.shutdown();
    expect(footprint(a.dataDir)).toEqual([]);
    await a.restart(); // sweeps a's data dir
    expect(isLive(agentB!.pid)).toBe(true);
    expect(groupMembers([agentB!.pid]).length).toBeGreaterThanOrEqual(2);
    expect(b.host.store.brokers.all()).toEqual(rowsB);
    await send(wb, idB, 'still mine');
    await wb.waitForText(idB, 'Echo: still mine');
  });

  it('refuses a second host on the same data dir, naming the first one’s pid, and touches nothing', async () => {
    const h = await harness({ demoAgentArgs: ['--stubborn'] });
    const w = h.window();
    const id = await liveSession(h, w);
    const [agent] = demoAgents(h.dataDir);
    const rows = h.host.store.brokers.all();

    await expect(SessionHost.start({ dataDir: h.dataDir, headless: true, log: silentLogger })).rejects.toMatchObject({
      code: 'already_exists',
      message: expect.stringContaining(`pid ${process.pid}`),
    });
    expect(isLive(agent!.pid)).toBe(true);
    expect(h.host.store.brokers.all()).toEqual(rows);
    await send(w, id, 'unharmed');
    await w.waitForText(id, 'Echo: unharmed');
  });

  it('at start-up, leaves a recorded pid that now names an unrelated process alone and clears the record', async () => {
    const h = await harness();
    const dataDir = h.dataDir;
    await h.host.shutdown();
    const unrelated = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
    const pid = unrelated.pid as number;
    try {
      const dead = spawn('true');
      await new Promise((r) => dead.once('exit', r));
      const db = new Database(join(dataDir, 'switchboard.db'));
      db.prepare(
        `INSERT INTO brokers (id, agent_id, pid, pid_start_time, host_pid, host_start_time, created_at) VALUES ('old', 'demo', ?, '1', ?, '1', 0)`,
      ).run(pid, dead.pid);
      db.close();

      await h.restart();
      expect(isLive(pid)).toBe(true);
      expect(h.host.store.brokers.all()).toEqual([]);
    } finally {
      killAll([pid]);
    }
  });
});
