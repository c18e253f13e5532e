import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionEventT } from '../../shared/contract';
import { spyAcp } from '../test-support/acp-spy';
import type { HostOptions } from './session-host';
import { DEMO_KEY } from '../test-support/demo-agent';
import { startHarness, type Harness } from '../test-support/host-harness';


let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.cleanup();
  h = undefined;
});

const kinds = (events: readonly SessionEventT[]): string[] => events.map((e) => e.kind);

async function failedSignInSession(options: Partial<HostOptions> = {}): Promise<{ h: Harness; w: ReturnType<Harness['window']>; id: string }> {
  delete process.env[DEMO_KEY];
  h = await startHarness({ demoAgentArgs: ['--auth', 'required'], ...options });
  const w = h.window();
  const view = await w.call('sessions:create', {});
  await w.call('sessions:switch', { sessionId: view.id });
  await w.waitForState(view.id, 'ENDED', 'auth_required');
  await h.settled(view.id);
  return { h, w, id: view.id };
}

describe('sign-in: an agent that refuses session/new until the person signs in', () => {
  it('runs a terminal-login command in a terminal window where the host can open one, in the session folder', async () => {
    const opened: { command: string; cwd: string }[] = [];
    const { h, w, id } = await failedSignInSession({ terminal: { name: 'test', open: (command, cwd) => opened.push({ command, cwd }) } });
    expect((await w.call('host:info', {})).canOpenTerminal).toBe(true);
    await w.call('agents:login', { sessionId: id, methodId: 'demo-terminal-login' });
    expect(opened).toEqual([{ command: 'switchboard-demo-login --user me', cwd: h.host.service.row(id).cwd }]);
    // Only terminal methods of the request the session shows.
    await expect(w.call('agents:login', { sessionId: id, methodId: 'demo-login' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('says what to run instead where no terminal can be opened (a headless host)', async () => {
    const { w, id } = await failedSignInSession();
    expect((await w.call('host:info', {})).canOpenTerminal).toBe(false);
    await expect(w.call('agents:login', { sessionId: id, methodId: 'demo-terminal-login' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('switchboard-demo-login --user me'),
    });
  });

  it('ends the session as needing sign-in, with the methods from initialize and the agent\'s own message', async () => {
    const { h, id } = await failedSignInSession();
    const view = h.host.service.view(h.host.service.row(id));
    expect(view).toMatchObject({ state: 'ENDED', stateReason: 'auth_required' });
    expect(view.auth?.methods).toEqual([
      { id: 'demo-login', name: 'Log in to the demo', description: 'The agent signs you in itself.', kind: 'agent' },
      expect.objectContaining({ id: 'demo-api-key', kind: 'env_var', envVar: DEMO_KEY }),
      expect.objectContaining({ id: 'demo-terminal-login', kind: 'terminal', command: 'switchboard-demo-login --user me' }),
      // ACP's own terminal method, listed because the host advertises `auth.terminal`.
      expect.objectContaining({ id: 'demo-terminal', kind: 'terminal', command: expect.stringMatching(/ --login$/) as string }),
    ]);
    expect(view.auth?.message).toContain('Authentication required');
    const stored = h.stored(id);
    expect(kinds(stored)).toEqual(['error', 'auth_required']);
    expect(stored[0]?.payload).toMatchObject({ code: 'auth_required' });
    expect(h.host.pool.liveBrokers).toHaveLength(0);
  });

  it('refuses further messages without starting the agent again or adding error rows (no respawn loop)', async () => {
    const spy = spyAcp();
    const { h, w, id } = await failedSignInSession();
    const before = h.stored(id).length;
    for (let i = 0; i < 3; i++) {
      await expect(w.call('prompt:send', { sessionId: id, clientMessageId: randomUUID(), text: `try ${i}` })).rejects.toMatchObject({ code: 'auth_required' });
    }
    await h.settled(id);
    // One agent process (one initialize) for the whole session so far.
    expect(spy.count(acp.methods.agent.initialize)).toBe(1);
    expect(h.stored(id)).toHaveLength(before);
    expect(h.host.pool.liveBrokers).toHaveLength(0);
  });

  it('authenticates with the agent method, then the session starts and answers', async () => {
    const spy = spyAcp();
    const { h, w, id } = await failedSignInSession();
    const result = await w.call('agents:authenticate', { sessionId: id, methodId: 'demo-login' });
    expect(result.message).toBe('Signed in with Log in to the demo.');
    const live = await w.waitForState(id, 'ACTIVE');
    expect(live.auth).toBeUndefined();
    // The agent that took `authenticate` is the one that runs the session.
    expect(spy.count(acp.methods.agent.initialize)).toBe(2);
    expect(h.host.pool.liveBrokers).toHaveLength(1);
    const end = await w.prompt(id, 'hello after sign-in');
    expect(end.payload).toMatchObject({ stopReason: 'end_turn' });
    expect(w.agentText(id)).toContain('Echo: hello after sign-in');
    expect(kinds(h.stored(id)).slice(0, 3)).toEqual(['error', 'auth_required', 'notice']);
  });

  it('runs the prompt that waited for the sign-in once the person signed in', async () => {
    delete process.env[DEMO_KEY];
    h = await startHarness({ demoAgentArgs: ['--auth', 'required'] });
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitForState(view.id, 'ENDED', 'auth_required');
    await h.settled(view.id);
    // Sent with Retry, as the panel's Retry does: the agent still refuses; the prompt waits.
    const clientMessageId = randomUUID();
    await w.call('prompt:send', { sessionId: view.id, clientMessageId, text: 'waiting for you', retry: true });
    await h.settled(view.id);
    expect(h.host.service.view(h.host.service.row(view.id))).toMatchObject({ state: 'ENDED', stateReason: 'auth_required', running: false });
    expect(kinds(h.stored(view.id))).not.toContain('turn_ended');

    await w.call('agents:authenticate', { sessionId: view.id, methodId: 'demo-login' });
    const end = await w.waitAnswered(view.id, clientMessageId);
    expect(end.payload).toMatchObject({ stopReason: 'end_turn' });
    expect(w.agentText(view.id)).toContain('Echo: waiting for you');
  });

  it('stores the variable for the agent, restarts the agent with it, and the session starts', async () => {
    const spy = spyAcp();
    const { h, w, id } = await failedSignInSession();
    await expect(w.call('agents:authenticate', { sessionId: id, methodId: 'demo-api-key' })).rejects.toMatchObject({ code: 'invalid_request' });
    const result = await w.call('agents:authenticate', { sessionId: id, methodId: 'demo-api-key', value: 'k-secret' });
    expect(result.message).toContain(`${DEMO_KEY} is stored for Demo agent`);
    await w.waitForState(id, 'ACTIVE');
    // Kept as a secret of the agent (the 0600 secrets file here), never in SQLite.
    expect(h.host.catalogue.resolve('demo')?.env[DEMO_KEY]).toBe('k-secret');
    expect(readFileSync(h.database).includes('k-secret')).toBe(false);
    // The new agent process got the variable (the demo agent only starts sessions with it).
    expect(spy.count(acp.methods.agent.initialize)).toBe(2);
    expect((await w.prompt(id, 'with a key')).payload).toMatchObject({ stopReason: 'end_turn' });
    // The secret is in no transcript row.
    expect(JSON.stringify(h.stored(id))).not.toContain('k-secret');
  });

  it('refuses a terminal method with the command to run', async () => {
    const { w, id } = await failedSignInSession();
    await expect(w.call('agents:authenticate', { sessionId: id, methodId: 'demo-terminal-login' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('switchboard-demo-login --user me') as string,
    });
  });

  it('Retry starts the agent once more, on purpose', async () => {
    const spy = spyAcp();
    const { w, id } = await failedSignInSession();
    await w.call('sessions:retry', { sessionId: id });
    await w.waitFor('session:event', (e) => e.sessionId === id && e.kind === 'auth_required' && e.seq > 2);
    expect(spy.count(acp.methods.agent.initialize)).toBe(2);
  });
});

describe('sign-in: an agent that says "not logged in" and refuses the first prompt', () => {
  it('shows the refusal as an error of that prompt and keeps the session live, then signs in on the same agent', async () => {
    const spy = spyAcp();
    h = await startHarness({ demoAgentArgs: ['--auth', 'status'] });
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitForState(view.id, 'ACTIVE');
    // Its "Not logged in" status (a message outside any turn) shows the sign-in before any prompt.
    await w.waitFor('session:updated', (v) => v.id === view.id && v.auth?.message === 'Not logged in. Run /login or set SWITCHBOARD_DEMO_API_KEY.');
    const end = await w.prompt(view.id, 'first');
    expect(end.payload).toMatchObject({ stopReason: 'error' });
    const after = h.host.service.view(h.host.service.row(view.id));
    expect(after.state).toBe('ACTIVE');
    expect(after.auth).toMatchObject({ during: 'prompt', methods: expect.arrayContaining([expect.objectContaining({ id: 'demo-login' })]) as unknown });
    const error = h.stored(view.id).find((e) => e.kind === 'error');
    expect(error?.payload).toMatchObject({ code: 'auth_required', message: expect.stringContaining('Not logged in') as string });

    await w.call('agents:authenticate', { sessionId: view.id, methodId: 'demo-login' });
    expect((await w.prompt(view.id, 'second')).payload).toMatchObject({ stopReason: 'end_turn' });
    expect(h.host.service.view(h.host.service.row(view.id)).auth).toBeUndefined();
    expect(spy.count(acp.methods.agent.initialize)).toBe(1);
  });
});

describe('archive, restore and delete, whatever the state', () => {
  it('archives a failed session (hidden flag set), restores it, and deletes it with its rows', async () => {
    const { h, w, id } = await failedSignInSession();
    const archived = await w.call('sessions:archive', { sessionId: id });
    expect(archived.archivedAt).toEqual(expect.any(Number));
    const restored = await w.call('sessions:restore', { sessionId: id });
    expect(restored.archivedAt).toBeUndefined();
    const mark = w.mark();
    await w.call('sessions:delete', { sessionId: id });
    await w.waitFor('session:deleted', (p) => p.sessionId === id, 5_000, mark);
    expect(h.host.store.sessions.get(id)).toBeUndefined();
    const db = h.host.store.db;
    for (const table of ['events', 'prompts', 'permissions', 'permission_rules']) {
      expect(db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE session_id = ?`).get(id)).toEqual({ n: 0 });
    }
  });

  it('archiving a live session releases its agent', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitForState(view.id, 'ACTIVE');
    await w.call('sessions:archive', { sessionId: view.id });
    expect(h.host.service.row(view.id)).toMatchObject({ state: 'ENDED' });
    expect(h.host.pool.liveBrokers).toHaveLength(0);
  });

  it('deleting a live session asks the agent to session/delete it when it lists the capability', async () => {
    const spy = spyAcp();
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.waitForState(view.id, 'ACTIVE');
    await w.call('sessions:delete', { sessionId: view.id });
    expect(spy.count(acp.methods.agent.session.delete)).toBe(1);
    expect(h.host.store.sessions.get(view.id)).toBeUndefined();
  });
});

describe('sign-in with a variable while another session shares the agent', () => {
  it('starts a new agent process with the variable instead of joining the one without it', async () => {
    const spy = spyAcp();
    delete process.env[DEMO_KEY];
    h = await startHarness({ demoAgentArgs: ['--auth', 'status'] });
    const w = h.window();
    // B keeps the agent process without the variable running; A shares it.
    const b = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: b.id });
    await w.waitForState(b.id, 'ACTIVE');
    const a = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: a.id });
    await w.waitForState(a.id, 'ACTIVE');
    expect(h.host.pool.liveBrokers).toHaveLength(1);
    expect((await w.prompt(a.id, 'first')).payload).toMatchObject({ stopReason: 'error' });
    await w.call('agents:authenticate', { sessionId: a.id, methodId: 'demo-api-key', value: 'k-1' });
    await w.waitForState(a.id, 'ACTIVE', undefined, w.mark());
    expect((await w.prompt(a.id, 'second')).payload).toMatchObject({ stopReason: 'end_turn' });
    expect(spy.count(acp.methods.agent.initialize)).toBe(2);
    expect(h.host.pool.liveBrokers).toHaveLength(2);
  });
});
