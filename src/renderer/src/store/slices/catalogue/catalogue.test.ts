import { describe, expect, it } from 'vitest';
import type { AgentListT, AgentTestResultT, AgentViewT, HostInfoT } from '../../../../../shared/contract';
import { deferred, flush } from '../../../test-support/fake-api';
import { boundStore, ok } from '../../../test-support/store-fixtures';
import { agentsSelectors } from './selectors';

function agent(over: Partial<AgentViewT> = {}): AgentViewT {
  return {
    id: 'demo',
    name: 'Demo agent',
    command: 'node',
    args: [],
    env: [],
    source: 'builtin',
    editable: false,
    removable: false,
    openSessions: 0,
    availability: { status: 'installed', detail: 'Found node' },
    hints: [],
    ...over,
  };
}
const list = (agents: AgentViewT[], fileError?: string): AgentListT => ({ agents, agentsFile: '/data/agents.json', ...(fileError ? { fileError } : {}) });
const info: HostInfoT = {
  version: '0.1.0',
  headless: true,
  clientId: 'c1',
  agents: [{ id: 'demo', name: 'Demo agent', command: 'node', args: [] }],
  settings: { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/tmp', defaultAgentId: 'demo', maxSessionsPerBroker: 8 },
};
const passed: AgentTestResultT = { ok: true, at: 5, durationMs: 40, agentName: 'demo-agent', agentVersion: '0.1.0', protocolVersion: 1, capabilities: {}, authMethods: [] };

describe('agents slice', () => {
  it('loads the catalogue and the agents.json error', async () => {
    const { fake, store } = boundStore();
    fake.handle('agents:list', () => ok(list([agent()], 'agents.json: bad')));
    expect(await store.getState().loadAgents()).toBeUndefined();
    expect(agentsSelectors.agents(store.getState()).map((a) => a.id)).toEqual(['demo']);
    expect(agentsSelectors.fileError(store.getState())).toBe('agents.json: bad');
  });

  it('keeps the agent picker in step with the catalogue', async () => {
    const { fake, store } = boundStore();
    store.setState({ hostInfo: info });
    fake.emit('agents:changed', list([agent(), agent({ id: 'mine', name: 'Mine', source: 'user', command: 'mine' })]));
    await flush();
    expect(store.getState().hostInfo?.agents.map((a) => a.id)).toEqual(['demo', 'mine']);
  });

  it('adds a saved agent and returns the host refusal to the form', async () => {
    const { fake, store } = boundStore();
    fake.handle('agents:save', (req) =>
      req.id === 'bad'
        ? { ok: false, error: { code: 'invalid_request', message: 'command is empty' } }
        : ok(agent({ id: req.id, name: req.name, source: 'user' })),
    );
    expect(await store.getState().saveAgent({ id: 'bad', name: 'Bad', command: '', create: true })).toMatchObject({ code: 'invalid_request' });
    expect(store.getState().agents).toEqual([]);
    expect(await store.getState().saveAgent({ id: 'mine', name: 'Mine', command: 'x', create: true })).toBeUndefined();
    expect(agentsSelectors.agent('mine')(store.getState())?.name).toBe('Mine');
    await store.getState().saveAgent({ id: 'mine', name: 'Renamed', command: 'x' });
    expect(store.getState().agents.map((a) => a.name)).toEqual(['Renamed']);
  });

  it('removes an agent only when the host agreed', async () => {
    const { fake, store } = boundStore();
    store.setState({ agents: [agent(), agent({ id: 'mine' })] });
    fake.handle('agents:remove', (req) =>
      req.agentId === 'demo' ? { ok: false, error: { code: 'invalid_request', message: 'built in' } } : ok({ ok: true as const }),
    );
    expect(await store.getState().removeAgent('demo')).toMatchObject({ code: 'invalid_request' });
    expect(await store.getState().removeAgent('mine')).toBeUndefined();
    expect(store.getState().agents.map((a) => a.id)).toEqual(['demo']);
  });

  it('shows a test as running with its progress, then its result', async () => {
    const { fake, store } = boundStore();
    store.setState({ agents: [agent()] });
    const answer = deferred<ReturnType<typeof ok<AgentTestResultT>>>();
    fake.handle('agents:test', () => answer.promise);
    const running = store.getState().testAgent('demo');
    expect(agentsSelectors.testProgress('demo')(store.getState())?.step).toBe('spawning');
    fake.emit('agents:progress', { agentId: 'demo', step: 'initializing', elapsedMs: 12 });
    expect(agentsSelectors.testProgress('demo')(store.getState())).toEqual({ agentId: 'demo', step: 'initializing', elapsedMs: 12 });
    fake.emit('agents:progress', { agentId: 'demo', step: 'done', elapsedMs: 40 });
    answer.resolve(ok(passed));
    expect(await running).toBeUndefined();
    expect(agentsSelectors.testProgress('demo')(store.getState())).toBeUndefined();
    expect(agentsSelectors.agent('demo')(store.getState())?.lastTest).toEqual(passed);
  });

  it('ignores progress of a test this window did not start', () => {
    const { fake, store } = boundStore();
    fake.emit('agents:progress', { agentId: 'demo', step: 'initializing', elapsedMs: 1 });
    expect(store.getState().agentTests.size).toBe(0);
  });

  it("signs in to an agent from Settings, then reloads the catalogue so a stored variable shows as set", async () => {
    const { fake, store } = boundStore();
    const keyed = agent({ env: [{ name: 'SWITCHBOARD_DEMO_API_KEY', secret: true, set: true }] });
    fake.handle('agents:signin', () => ok({ ok: true as const, message: 'stored' }));
    fake.handle('agents:list', () => ok(list([keyed])));
    expect(await store.getState().signInAgent('demo', 'demo-api-key', 'k')).toEqual({ ok: true, message: 'stored' });
    expect(fake.calls.find((c) => c.command === 'agents:signin')?.req).toEqual({ agentId: 'demo', methodId: 'demo-api-key', value: 'k' });
    expect(store.getState().agents[0]?.env).toEqual(keyed.env);
  });

  it("hands back the host's refusal of a sign-in", async () => {
    const { fake, store } = boundStore();
    fake.handle('agents:signin', () => ({ ok: false, error: { code: 'invalid_request', message: 'Run x in a terminal' } }));
    expect(await store.getState().signInAgent('demo', 'term')).toMatchObject({ ok: false, error: { message: 'Run x in a terminal' } });
  });

  it('signs an agent out, and opens a terminal sign-in, handing back what the host said', async () => {
    const { fake, store } = boundStore();
    fake.handle('agents:signout', (req) => (req.agentId === 'demo' ? { ok: false, error: { code: 'unsupported', message: 'no auth.logout' } } : ok({ ok: true as const, message: 'Signed out of Locked.' })));
    expect(await store.getState().signOutAgent('locked')).toEqual({ ok: true, message: 'Signed out of Locked.' });
    expect(await store.getState().signOutAgent('demo')).toMatchObject({ ok: false, error: { code: 'unsupported' } });
    fake.handle('agents:terminal', () => ({ ok: false, error: { code: 'unsupported', message: 'run x yourself' } }));
    expect(await store.getState().signInAgentInTerminal('locked', 'demo-terminal')).toMatchObject({ message: 'run x yourself' });
    expect(fake.calls.find((c) => c.command === 'agents:terminal')?.req).toEqual({ agentId: 'locked', methodId: 'demo-terminal' });
  });
});
