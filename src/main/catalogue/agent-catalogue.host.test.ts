import { randomUUID } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentListT, AgentTestProgressT } from '../../shared/contract';
import { defaultSpawn, type SpawnFn } from '../brokers/broker';
import { isAlive } from '../util/process-info';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { startHarness, type Harness } from '../test-support/host-harness';
import { demoAgent } from './demo-agent';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.cleanup()));
});

async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  harnesses.push(h);
  return h;
}

/** A Settings agent that runs the real demo agent, as a person would add it by hand. */
function demoCopy(h: Harness, id = 'my-demo') {
  const demo = demoAgent(h.paths.demoAgent);
  return { id, name: 'My demo', command: demo.command, args: demo.args, env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1', secret: false }], create: true };
}

describe('agents:test', () => {
  it("runs initialize on the demo agent, shows what it says about itself, and ends the process", async () => {
    const h = await harness();
    const w = h.window();
    const before = w.mark();
    const result = await w.call('agents:test', { agentId: 'demo' });
    expect(result).toMatchObject({ ok: true, agentName: 'demo-agent', agentTitle: 'Switchboard demo agent', agentVersion: '0.1.0', protocolVersion: 1 });
    expect(result.ok && result.capabilities).toMatchObject({ loadSession: true });
    const steps = w.events.slice(before).filter((e) => e.event === 'agents:progress').map((e) => (e.payload as AgentTestProgressT).step);
    expect(steps).toEqual(['spawning', 'initializing', 'done']);
    // Torn down before the answer: no live broker, no record left.
    expect(h.host.pool.liveBrokers).toEqual([]);
    expect(h.host.store.brokers.all()).toEqual([]);
    const list = await w.call('agents:list', {});
    expect(list.agents.find((a) => a.id === 'demo')?.lastTest).toEqual(result);
  });

  it('reports an agent that cannot start, with its error, and leaves nothing running', async () => {
    const h = await harness({ agents: [{ id: 'nope', name: 'Nope', command: '/definitely/not/here', args: [], env: {} }] });
    const w = h.window();
    const result = await w.call('agents:test', { agentId: 'nope' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/Could not start Nope/);
    expect(h.host.pool.liveBrokers).toEqual([]);
  });

  it('times out an agent that never answers initialize and kills it', async () => {
    // `sleep` reads no stdin and answers nothing: the test's own deadline ends it.
    const pids: (number | undefined)[] = [];
    const spawn: SpawnFn = (command, args, options) => {
      const child = defaultSpawn(command, args, options);
      pids.push(child.pid);
      return child;
    };
    const h = await harness({ spawn, agentTestTimeoutMs: 300, agents: [{ id: 'mute', name: 'Mute', command: 'sleep', args: ['30'], env: {} }] });
    const result = await h.window().call('agents:test', { agentId: 'mute' });
    expect(result).toMatchObject({ ok: false, message: 'Mute did not answer initialize within 300 ms' });
    expect(h.host.pool.liveBrokers).toEqual([]);
    expect(pids).toHaveLength(1);
    expect(isAlive(pids[0]!)).toBe(false);
  });
});

describe('the stored catalogue', () => {
  it('adds an agent that the picker lists and a new session runs on', async () => {
    const h = await harness();
    const w = h.window();
    const saved = await w.call('agents:save', demoCopy(h));
    expect(saved).toMatchObject({ id: 'my-demo', source: 'user', editable: true, removable: true, availability: { status: 'installed' } });
    expect((await w.call('host:info', {})).agents.map((a) => a.id)).toEqual(['demo', 'my-demo']);
    const changed = await w.waitFor('agents:changed', (l) => l.agents.some((a) => a.id === 'my-demo'));
    expect(changed.agents.map((a) => a.id)).toContain('my-demo');

    const session = await w.call('sessions:create', { agentId: 'my-demo', cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: session.id });
    await w.prompt(session.id, 'hello');
    expect(w.agentText(session.id).length).toBeGreaterThan(0);
    expect(h.host.pool.brokerOf(session.id)?.agent.id).toBe('my-demo');
  });

  it("starts an edited agent's next session from the new definition, not the old process", async () => {
    const h = await harness();
    const w = h.window();
    const first = await w.call('agents:save', demoCopy(h));
    const a = await w.call('sessions:create', { agentId: first.id, cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: a.id });
    await w.prompt(a.id, 'one');
    const oldBroker = h.host.pool.brokerOf(a.id)!;

    await w.call('agents:save', { ...demoCopy(h), create: false, env: [...demoCopy(h).env, { name: 'EDITED', value: 'yes', secret: false }] });
    const b = await w.call('sessions:create', { agentId: first.id, cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: b.id });
    await w.prompt(b.id, 'two');
    const newBroker = h.host.pool.brokerOf(b.id)!;
    expect(newBroker.id).not.toBe(oldBroker.id);
    expect(newBroker.agent.env).toMatchObject({ EDITED: 'yes' });
  });

  it('validates what it stores', async () => {
    const h = await harness();
    const w = h.window();
    await expect(w.call('agents:save', { ...demoCopy(h), id: 'bad id!' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('agents:save', { ...demoCopy(h), command: '  ' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('agents:save', { ...demoCopy(h), env: [{ name: '1BAD', value: 'x', secret: false }] })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('agents:save', { ...demoCopy(h), env: [{ name: 'KEY', secret: true }] })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('agents:save', { ...demoCopy(h), id: 'demo' })).rejects.toMatchObject({ code: 'already_exists' });
    await w.call('agents:save', demoCopy(h));
    await expect(w.call('agents:save', demoCopy(h))).rejects.toMatchObject({ code: 'already_exists' });
    await expect(w.call('agents:save', { ...demoCopy(h, 'ghost'), create: false })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses to remove the demo agent, and an agent while a session of it is open', async () => {
    const h = await harness();
    const w = h.window();
    await expect(w.call('agents:remove', { agentId: 'demo' })).rejects.toMatchObject({ code: 'invalid_request' });
    await w.call('agents:save', demoCopy(h));
    const s = await w.call('sessions:create', { agentId: 'my-demo', cwd: h.dataDir });
    await expect(w.call('agents:remove', { agentId: 'my-demo' })).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('My demo is used by 1 open session; close it first') as unknown,
    });
    await w.call('sessions:close', { sessionId: s.id });
    await w.call('agents:remove', { agentId: 'my-demo' });
    expect((await w.call('agents:list', {})).agents.map((a) => a.id)).toEqual(['demo']);
  });

  it('keeps agents across restarts', async () => {
    const h = await harness();
    await h.window().call('agents:save', demoCopy(h));
    await h.restart();
    expect((await h.window().call('host:info', {})).agents.map((a) => a.id)).toEqual(['demo', 'my-demo']);
  });
});

describe('secrets', () => {
  it('reach the agent process and nothing else: not the window, the log, the transcript or the database', async () => {
    const entries: LogEntry[] = [];
    const envs: NodeJS.ProcessEnv[] = [];
    const spawn: SpawnFn = (command, args, options) => {
      envs.push(options.env ?? {});
      return defaultSpawn(command, args, options);
    };
    const SECRET = `sk-${randomUUID()}`;
    const h = await harness({ log: captureLogger(entries), spawn });
    const w = h.window();
    const saved = await w.call('agents:save', { ...demoCopy(h), env: [...demoCopy(h).env, { name: 'API_KEY', value: SECRET, secret: true }] });
    expect(saved.env).toContainEqual({ name: 'API_KEY', secret: true, set: true });

    await w.call('agents:test', { agentId: 'my-demo' });
    const s = await w.call('sessions:create', { agentId: 'my-demo', cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: s.id });
    await w.prompt(s.id, 'hello');
    expect(envs.length).toBeGreaterThanOrEqual(2);
    for (const env of envs) expect(env.API_KEY).toBe(SECRET);

    // A save that leaves the secret's value out keeps it.
    await w.call('agents:save', { ...demoCopy(h), create: false, env: [...demoCopy(h).env, { name: 'API_KEY', secret: true }] });
    expect(h.host.catalogue.resolve('my-demo')?.env.API_KEY).toBe(SECRET);

    expect(JSON.stringify(w.events)).not.toContain(SECRET);
    expect(JSON.stringify(entries)).not.toContain(SECRET);
    expect(JSON.stringify(h.stored(s.id))).not.toContain(SECRET);
    h.host.eventLog.flush();
    expect(readFileSync(h.paths.database).includes(SECRET)).toBe(false);
    const file = h.paths.secrets;
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('setEnv stores a sign-in variable for an agent; the next start gets it', async () => {
    const h = await harness();
    const w = h.window();
    await w.call('agents:save', demoCopy(h));
    h.host.catalogue.setEnv('my-demo', 'GEMINI_API_KEY', 'g-key');
    expect(h.host.catalogue.resolve('my-demo')?.env.GEMINI_API_KEY).toBe('g-key');
    const view = (await w.call('agents:list', {})).agents.find((a) => a.id === 'my-demo')!;
    expect(view.env).toContainEqual({ name: 'GEMINI_API_KEY', secret: true, set: true });
    h.host.catalogue.setEnv('my-demo', 'GEMINI_API_KEY', undefined);
    expect(h.host.catalogue.resolve('my-demo')?.env.GEMINI_API_KEY).toBeUndefined();
  });
});

describe('agents.json', () => {
  it('is imported on start: its agents are listed as coming from the file and can run', async () => {
    const h = await harness();
    const demo = demoAgent(h.paths.demoAgent);
    writeFileSync(h.paths.agents, JSON.stringify({ agents: [{ id: 'from-file', name: 'From file', command: demo.command, args: demo.args, env: demo.env }] }));
    await h.restart();
    const w = h.window();
    const list: AgentListT = await w.call('agents:list', {});
    expect(list.agents.find((a) => a.id === 'from-file')).toMatchObject({ source: 'file', editable: false, removable: false });
    expect(list.fileError).toBeUndefined();
    await expect(w.call('agents:remove', { agentId: 'from-file' })).rejects.toMatchObject({ code: 'invalid_state' });
    const result = await w.call('agents:test', { agentId: 'from-file' });
    expect(result.ok).toBe(true);

    // Gone from the file, gone from the catalogue.
    writeFileSync(h.paths.agents, '[]');
    await h.restart();
    expect((await h.window().call('agents:list', {})).agents.map((a) => a.id)).toEqual(['demo']);
  });

  it('an invalid file is reported in the window, and changes nothing', async () => {
    const h = await harness();
    writeFileSync(h.paths.agents, '{"agents": [{"id": "x"}]}');
    await h.restart();
    const list = await h.window().call('agents:list', {});
    expect(list.fileError).toMatch(/agents\.json/);
    expect(list.agents.map((a) => a.id)).toEqual(['demo']);
  });
});
