import { readFileSync } from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spyAcp } from '../test-support/acp-spy';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { DEMO_KEY } from '../test-support/demo-agent';
import { startHarness, type Harness } from '../test-support/host-harness';
import { demoAgent } from './demo-agent';


let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});

/** A Settings agent running the real demo agent that refuses sessions until signed in. */
async function lockedAgent(entries: LogEntry[] = []): Promise<{ h: Harness; w: ReturnType<Harness['window']> }> {
  delete process.env[DEMO_KEY];
  h = await startHarness({ log: captureLogger(entries) });
  const demo = demoAgent(h.paths.demoAgent);
  const w = h.window();
  await w.call('agents:save', {
    id: 'locked',
    name: 'Locked demo',
    command: demo.command,
    args: [...demo.args, '--auth', 'required'],
    env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1', secret: false }],
    create: true,
  });
  return { h, w };
}

describe('agents:signin: sign-in from the agent in Settings', () => {
  it("lists the agent's methods in its Test result, as the person acts on them", async () => {
    const { w } = await lockedAgent();
    const result = await w.call('agents:test', { agentId: 'locked' });
    expect(result.ok && result.methods).toEqual([
      { id: 'demo-login', name: 'Log in to the demo', description: 'The agent signs you in itself.', kind: 'agent' },
      expect.objectContaining({ id: 'demo-api-key', kind: 'env_var', envVar: DEMO_KEY }),
      expect.objectContaining({ id: 'demo-terminal-login', kind: 'terminal', command: 'switchboard-demo-login --user me' }),
      // ACP's own terminal method, listed because the host advertises `auth.terminal`.
      expect.objectContaining({ id: 'demo-terminal', kind: 'terminal', command: expect.stringMatching(/ --login$/) as string }),
    ]);
  });

  it('runs authenticate with the agent method on a probe of the agent, then tears the probe down', async () => {
    const spy = spyAcp();
    const { h, w } = await lockedAgent();
    const result = await w.call('agents:signin', { agentId: 'locked', methodId: 'demo-login' });
    expect(result).toEqual({ ok: true, message: 'Signed in to Locked demo with Log in to the demo.' });
    expect(spy.count(acp.methods.agent.authenticate)).toBe(1);
    expect(h.host.pool.liveBrokers).toEqual([]);
    expect(h.host.store.brokers.all()).toEqual([]);
  });

  it('stores the variable as a secret (not in SQLite, logs or events), and a new session then starts without a sign-in', async () => {
    const entries: LogEntry[] = [];
    const SECRET = `k-${crypto.randomUUID()}`;
    const { h, w } = await lockedAgent(entries);
    await expect(w.call('agents:signin', { agentId: 'locked', methodId: 'demo-api-key' })).rejects.toMatchObject({ code: 'invalid_request' });
    const result = await w.call('agents:signin', { agentId: 'locked', methodId: 'demo-api-key', value: SECRET });
    expect(result.message).toBe(`${DEMO_KEY} is stored for Locked demo; the agent accepted it.`);
    expect(h.host.pool.liveBrokers).toEqual([]);
    const view = (await w.call('agents:list', {})).agents.find((a) => a.id === 'locked');
    expect(view?.env).toContainEqual({ name: DEMO_KEY, secret: true, set: true });

    const s = await w.call('sessions:create', { agentId: 'locked', cwd: h.dataDir });
    await w.call('sessions:switch', { sessionId: s.id });
    const live = await w.waitForState(s.id, 'ACTIVE');
    expect(live.auth).toBeUndefined();
    expect((await w.prompt(s.id, 'signed in from settings')).payload).toMatchObject({ stopReason: 'end_turn' });
    expect(h.stored(s.id).map((e) => e.kind)).not.toContain('auth_required');

    expect(JSON.stringify(w.events)).not.toContain(SECRET);
    expect(JSON.stringify(entries)).not.toContain(SECRET);
    h.host.eventLog.flush();
    expect(readFileSync(h.paths.database).includes(SECRET)).toBe(false);
  });

  it('refuses a terminal method with the exact command, and a method the agent does not list', async () => {
    const { w } = await lockedAgent();
    await expect(w.call('agents:signin', { agentId: 'locked', methodId: 'demo-terminal-login' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('switchboard-demo-login --user me') as string,
    });
    await expect(w.call('agents:signin', { agentId: 'locked', methodId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
