import { spawnSync } from 'node:child_process';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spyAcp } from '../test-support/acp-spy';
import { DEMO_KEY } from '../test-support/demo-agent';
import { startHarness, type Harness } from '../test-support/host-harness';
import { demoAgent } from './demo-agent';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});

/** A Settings agent running the real demo agent with a sign-in (`--auth required`), so it offers logout. */
async function signedAgent(options: Parameters<typeof startHarness>[0] = {}) {
  delete process.env[DEMO_KEY];
  h = await startHarness(options);
  const demo = demoAgent(h.paths.demoAgent);
  const w = h.window();
  await w.call('agents:save', {
    id: 'locked',
    name: 'Locked demo',
    command: demo.command,
    args: [...demo.args, '--auth', 'required'],
    env: [
      { name: 'ELECTRON_RUN_AS_NODE', value: '1', secret: false },
      { name: 'OTHER_TOKEN', value: 'tok-kept', secret: true },
    ],
    create: true,
  });
  return { h, w, demo };
}

describe('agents:signout', () => {
  it('is offered where the last Test found auth.logout, and runs ACP logout on a probe torn down after', async () => {
    const spy = spyAcp();
    const { h, w } = await signedAgent();
    expect((await w.call('agents:list', {})).agents.find((a) => a.id === 'locked')?.canSignOut).toBeUndefined();
    await w.call('agents:test', { agentId: 'locked' });
    const listed = await w.call('agents:list', {});
    expect(listed.agents.find((a) => a.id === 'locked')?.canSignOut).toBe(true);
    // The plain demo agent has no sign-in to end.
    await w.call('agents:test', { agentId: 'demo' });
    expect((await w.call('agents:list', {})).agents.find((a) => a.id === 'demo')?.canSignOut).toBeUndefined();

    const result = await w.call('agents:signout', { agentId: 'locked' });
    expect(result).toEqual({
      ok: true,
      message:
        'Signed out of Locked demo. Sessions already running keep their sign-in until their agent restarts. Switchboard still gives it OTHER_TOKEN at each start: remove it with Edit to stay signed out.',
    });
    expect(spy.count(acp.methods.agent.logout)).toBe(1);
    expect(h.host.pool.liveBrokers).toEqual([]);
    expect(h.host.store.brokers.all()).toEqual([]);
  });

  it('refuses an agent that does not offer logout without asking it, and an agent that does not exist', async () => {
    const spy = spyAcp();
    h = await startHarness();
    const w = h.window();
    await expect(w.call('agents:signout', { agentId: 'demo' })).rejects.toMatchObject({ code: 'unsupported', message: expect.stringContaining('auth.logout') as string });
    expect(spy.count(acp.methods.agent.logout)).toBe(0);
    expect(h.host.pool.liveBrokers).toEqual([]);
    await expect(w.call('agents:signout', { agentId: 'ghost' })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('terminal sign-in methods (clientCapabilities.auth.terminal)', () => {
  it("advertises terminal methods, so the agent lists ACP's terminal method: its own command with the method's arguments", async () => {
    const { w, demo } = await signedAgent();
    const result = await w.call('agents:test', { agentId: 'locked' });
    const method = result.ok ? result.methods?.find((m) => m.id === 'demo-terminal') : undefined;
    expect(method).toMatchObject({ kind: 'terminal', name: 'Sign in in a terminal' });
    expect(method?.command).toBe([demo.command, ...demo.args, '--auth', 'required', '--login'].join(' '));

    // The command as shown is what runs: the agent signs in at the terminal and exits 0.
    const run = spawnSync('sh', ['-c', method?.command ?? 'false'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Signed in to the Switchboard demo agent.');
  });

  it('opens the terminal from Settings with the agent’s environment (never in the command), and headless names the command instead', async () => {
    const opened: { command: string; cwd: string; env?: Record<string, string> }[] = [];
    const { h, w } = await signedAgent({ terminal: { name: 'test', open: (command, cwd, env) => opened.push({ command, cwd, ...(env ? { env } : {}) }) }, settings: { defaultCwd: '/' } });
    await w.call('agents:terminal', { agentId: 'locked', methodId: 'demo-terminal' });
    expect(opened).toHaveLength(1);
    expect(opened[0]?.command.endsWith('--auth required --login')).toBe(true);
    expect(opened[0]?.command).not.toContain('tok-kept');
    expect(opened[0]).toMatchObject({ cwd: '/', env: { ELECTRON_RUN_AS_NODE: '1', OTHER_TOKEN: 'tok-kept' } });
    expect(h.host.pool.liveBrokers).toEqual([]);
    await expect(w.call('agents:terminal', { agentId: 'locked', methodId: 'demo-login' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('agents:terminal', { agentId: 'locked', methodId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });

    await h.restart({ terminal: undefined, headless: true });
    const headless = h.window();
    await expect(headless.call('agents:terminal', { agentId: 'locked', methodId: 'demo-terminal' })).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringMatching(/run .*--auth required --login yourself/) as string,
    });
  });
});
