import { describe, expect, it } from 'vitest';
import type { AgentInfoT, AgentSessionInfoT, FolderCheckT, HostInfoT, Result } from '../../../../../shared/contract';
import { alwaysOpen } from '../../../api/connection';
import { createAppStore } from '../../app-store';
import { bindApi } from '../../bind-api';
import { newSessionSelectors } from './selectors';
import { deferred, FakeApi, flush, testDeps, view } from '../../../test-support/fake-api';

const ok = <T,>(value: T): Result<T> => ({ ok: true, value });

const agents: AgentInfoT[] = [
  { id: 'demo', name: 'Demo agent', command: 'node', args: [] },
  { id: 'claude', name: 'Claude Code', command: 'claude-acp', args: [] },
];

function hostInfo(over: Partial<HostInfoT> = {}): HostInfoT {
  return {
    version: '0.1.0',
    headless: true,
    clientId: 'c1',
    agents,
    settings: { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/home/me', defaultAgentId: 'claude', maxSessionsPerBroker: 8 },
    ...over,
  };
}

/** The host's folder check: `/work/*` folders exist, anything else is missing. */
function checkOf(path: string): FolderCheckT {
  const trimmed = path.trim().replace(/\/+$/, '');
  return trimmed.startsWith('/work/') ? { ok: true, path: trimmed } : { ok: false, problem: 'missing', message: `There is no folder ${trimmed}.` };
}

async function setup(recent: string[] = ['/work/app', '/work/lib']) {
  const fake = new FakeApi();
  const store = createAppStore(testDeps(fake));
  bindApi(store, fake.api, alwaysOpen);
  fake
    .handle('host:info', () => ok(hostInfo()))
    .handle('sessions:list', () => ok([]))
    .handle('folders:recent', () => ok({ folders: recent }))
    .handle('folders:check', (req) => ok(checkOf(req.path)))
    .handle('sessions:create', (req) => ok(view({ id: req.id!, agentId: req.agentId ?? 'demo', cwd: req.cwd ?? '/home/me', createdAt: 5, updatedAt: 5 })))
    .handle('sessions:switch', (req) => ok({ session: view({ id: req.sessionId }), running: false, lastSeq: 0, pendingPermissions: [], pendingQuestions: [] }))
    .handle('transcript:page', () => ok({ events: [], hasMore: false }));
  await store.getState().start();
  return { fake, store };
}

describe('the New session dialog', () => {
  it('opens with the last agent and the most recent folder, and checks that folder', async () => {
    const { fake, store } = await setup();
    store.getState().openNewSession();
    expect(store.getState().newSession).toMatchObject({ agentId: 'claude', folder: '/work/app' });
    await flush();
    expect(fake.callsOf('folders:check')).toEqual([{ path: '/work/app' }]);
    expect(newSessionSelectors.checkedFolder(store.getState())).toBe('/work/app');
    expect(newSessionSelectors.canStart(store.getState())).toBe(true);
  });

  it('starts with the agent it would preselect when the agent list arrived after the dialog opened', async () => {
    const fake = new FakeApi();
    const store = createAppStore(testDeps(fake));
    bindApi(store, fake.api, alwaysOpen);
    fake.handle('folders:check', (req) => ok(checkOf(req.path))).handle('sessions:create', (req) => ok(view({ id: req.id! })));
    store.setState({ recentFolders: ['/work/app'] });
    store.getState().openNewSession();
    await flush();
    expect(newSessionSelectors.startBlocked(store.getState())).toBe('Choose an agent');
    store.setState({ hostInfo: hostInfo(), settings: hostInfo().settings });
    expect(newSessionSelectors.canStart(store.getState())).toBe(true);
    store.getState().submitNewSession();
    expect(fake.callsOf('sessions:create')).toEqual([{ id: expect.any(String), agentId: 'claude', cwd: '/work/app', additionalDirs: [] }]);
  });

  it('says why a bad folder cannot be used and keeps Start disabled, keeping what was typed', async () => {
    const { store } = await setup();
    store.getState().openNewSession();
    store.getState().setNewSessionFolder('/nowhere/at/all');
    expect(newSessionSelectors.startBlocked(store.getState())).toBe('Checking the folder…');
    await flush();
    expect(newSessionSelectors.folderProblem(store.getState())).toBe('There is no folder /nowhere/at/all.');
    expect(newSessionSelectors.startBlocked(store.getState())).toBe('There is no folder /nowhere/at/all.');
    expect(store.getState().submitNewSession()).toBe(false);
    // Nothing lost: the text and the dialog stay as they were.
    expect(store.getState().newSession?.folder).toBe('/nowhere/at/all');
  });

  it('applies only the answer for the latest text when checks answer out of order', async () => {
    const { fake, store } = await setup();
    store.getState().openNewSession();
    await flush();
    const slow = deferred<Result<FolderCheckT>>();
    fake.handle('folders:check', (req) => (req.path === '/work/old' ? slow.promise : ok(checkOf(req.path))));
    store.getState().setNewSessionFolder('/work/old');
    store.getState().setNewSessionFolder('/elsewhere');
    await flush();
    slow.resolve(ok(checkOf('/work/old')));
    await flush();
    expect(newSessionSelectors.folderProblem(store.getState())).toBe('There is no folder /elsewhere.');
    expect(newSessionSelectors.canStart(store.getState())).toBe(false);
  });

  it('starts the session with the chosen agent, the checked folder and the additional folders, then closes', async () => {
    const { fake, store } = await setup();
    store.getState().openNewSession();
    store.getState().setNewSessionAgent('demo');
    store.getState().setNewSessionFolder('/work/lib/');
    await flush();
    expect(await store.getState().addAdditionalDir('/work/docs')).toBe(true);
    expect(await store.getState().addAdditionalDir('/missing')).toBe(false);
    expect(store.getState().newSession?.additionalDirError).toBe('There is no folder /missing.');
    expect(await store.getState().addAdditionalDir('/work/shared')).toBe(true);
    store.getState().removeAdditionalDir('/work/shared');

    expect(store.getState().submitNewSession()).toBe(true);
    expect(store.getState().newSession).toBeUndefined();
    const [create] = fake.callsOf('sessions:create');
    expect(create).toEqual({ id: expect.any(String), agentId: 'demo', cwd: '/work/lib', additionalDirs: ['/work/docs'] });
    await flush();
    // That folder is the most recent now; that agent the next one preselected.
    expect(store.getState().recentFolders).toEqual(['/work/lib', '/work/app']);
    expect(store.getState().chosenAgentId).toBe('demo');
  });

  it('Ctrl/Cmd+N (startSession with no choice) uses the last agent and the most recent folder', async () => {
    const { fake, store } = await setup();
    store.getState().openNewSession();
    store.getState().setNewSessionAgent('demo');
    store.getState().setNewSessionFolder('/work/lib');
    await flush();
    store.getState().submitNewSession();
    await flush();
    store.getState().startSession();
    await flush();
    const [, second] = fake.callsOf('sessions:create');
    expect(second).toEqual({ id: expect.any(String), agentId: 'demo', cwd: '/work/lib' });
    expect(store.getState().currentSessionId).toBe((second as { id: string }).id);
  });

  it("lists the agent's own sessions and opens one bound to its id", async () => {
    const { fake, store } = await setup();
    const listed: AgentSessionInfoT = { acpSessionId: 'acp-1', cwd: '/work/old', title: 'Earlier work', updatedAt: 1, additionalDirs: [] };
    fake.handle('agents:sessions', () => ok({ sessions: [listed] }));
    store.getState().openNewSession();
    await store.getState().listAgentSessions();
    expect(fake.callsOf('agents:sessions')).toEqual([{ agentId: 'claude' }]);
    expect(store.getState().newSession?.listed).toEqual({ state: 'done', agentId: 'claude', sessions: [listed] });
    store.getState().openListedSession(listed);
    expect(fake.callsOf('sessions:create')).toEqual([{ id: expect.any(String), agentId: 'claude', cwd: '/work/old', acpSessionId: 'acp-1', title: 'Earlier work' }]);
    expect(store.getState().newSession).toBeUndefined();
  });

  it("shows the host's answer when the agent does not list its sessions", async () => {
    const { fake, store } = await setup();
    fake.handle('agents:sessions', () => ({ ok: false, error: { code: 'unsupported', message: 'Claude Code does not list its sessions.' } }));
    store.getState().openNewSession();
    await store.getState().listAgentSessions();
    expect(store.getState().newSession?.listed).toMatchObject({ state: 'error', error: { code: 'unsupported' } });
  });

  it('puts the folder chosen in the native picker into the box and checks it; cancel changes nothing', async () => {
    const { fake, store } = await setup();
    const answers = [{ cancelled: false as const, path: '/work/picked' }, { cancelled: true as const }];
    fake.handle('folders:pick', () => ok(answers.shift()!));
    store.getState().openNewSession();
    await store.getState().pickNewSessionFolder();
    expect(store.getState().newSession?.folder).toBe('/work/picked');
    expect(newSessionSelectors.checkedFolder(store.getState())).toBe('/work/picked');
    await store.getState().pickNewSessionFolder();
    expect(store.getState().newSession?.folder).toBe('/work/picked');
  });
});
