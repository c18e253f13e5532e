import { describe, expect, it } from 'vitest';
import type { AgentInfoT, AgentSessionInfoT, BranchCheckT, FolderCheckT, HostInfoT, Result, WorkspaceProbeT } from '../../../../../shared/contract';
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

  it('fills an empty, untouched Folder box once the window has loaded what it opens with', async () => {
    const fake = new FakeApi();
    const store = createAppStore(testDeps(fake));
    bindApi(store, fake.api, alwaysOpen);
    fake
      .handle('host:info', () => ok(hostInfo()))
      .handle('sessions:list', () => ok([]))
      .handle('folders:recent', () => ok({ folders: [] }))
      .handle('folders:check', (req) => ok(checkOf(req.path)));
    // Clicked while the window boots: nothing known yet, so the box is empty.
    store.getState().openNewSession();
    expect(store.getState().newSession?.folder).toBe('');
    await flush();
    // No recent folders; the settings arrive with the default folder.
    await store.getState().loadHostInfo();
    await flush();
    expect(store.getState().newSession?.folder).toBe('/home/me');
    expect(fake.callsOf('folders:check')).toEqual([{ path: '/home/me' }]);

    // Once the person typed (even clearing the box), what arrives later leaves it alone.
    store.getState().closeNewSession();
    store.setState({ settings: undefined, hostInfo: undefined });
    store.getState().openNewSession();
    store.getState().setNewSessionFolder('');
    await store.getState().loadHostInfo();
    await flush();
    expect(store.getState().newSession?.folder).toBe('');
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

describe('the New session dialog in a git repository', () => {
  const repoProbe = (over: Partial<Extract<WorkspaceProbeT, { kind: 'repository' }>> = {}): WorkspaceProbeT => ({
    kind: 'repository',
    topLevel: '/work/app',
    branch: 'main',
    head: 'a'.repeat(40),
    worktree: { ok: true },
    suggestedBranch: 'session-1a2b',
    worktreeDefault: true,
    preparing: false,
    ...over,
  });
  /** `main` and `taken` exist; a name with `..` is not a valid ref. */
  const branchOf = (name: string): BranchCheckT =>
    name.includes('..')
      ? { ok: false, problem: 'invalid', message: `${name} is not a valid branch name.` }
      : name === 'main' || name === 'taken'
        ? { ok: false, problem: 'taken', message: `A branch named ${name} already exists.` }
        : { ok: true, name };

  async function repoSetup(probe: WorkspaceProbeT = repoProbe()) {
    const ctx = await setup();
    ctx.fake.handle('workspace:probe', (req) => ok(req.path.startsWith('/work/app') ? probe : { kind: 'not_repository' as const })).handle('branches:check', (req) => ok(branchOf(req.name)));
    ctx.fake.handle('repositories:save', (req) => ok({ repository: '/work/app', worktreeDefault: req.worktreeDefault ?? true }));
    return ctx;
  }

  it('offers a worktree on by default, prefills the branch the host suggests and checks it, and starts with it', async () => {
    const { fake, store } = await repoSetup();
    store.getState().openNewSession();
    await flush();
    expect(newSessionSelectors.isRepository(store.getState())).toBe(true);
    expect(newSessionSelectors.worktreeOn(store.getState())).toBe(true);
    expect(store.getState().newSession?.branch).toBe('session-1a2b');
    expect(fake.callsOf('branches:check')).toEqual([{ path: '/work/app', name: 'session-1a2b' }]);
    // The box is on: a worktree is prepared ahead so Start only claims it.
    expect(fake.callsOf('workspace:probe')).toEqual([{ path: '/work/app' }, { path: '/work/app', prepare: true }]);
    expect(newSessionSelectors.canStart(store.getState())).toBe(true);
    store.getState().submitNewSession();
    expect(fake.callsOf('sessions:create')).toEqual([{ id: expect.any(String), agentId: 'claude', cwd: '/work/app', additionalDirs: [], worktree: { branch: 'session-1a2b' } }]);
  });

  it('checks the branch as typed, shows why a name cannot be used, and keeps Start disabled until one can', async () => {
    const { store } = await repoSetup();
    store.getState().openNewSession();
    await flush();
    store.getState().setNewSessionBranch('taken');
    expect(newSessionSelectors.startBlocked(store.getState())).toBe('Checking the branch name…');
    await flush();
    expect(newSessionSelectors.branchProblem(store.getState())).toBe('A branch named taken already exists.');
    expect(newSessionSelectors.startBlocked(store.getState())).toBe('A branch named taken already exists.');
    store.getState().setNewSessionBranch('a..b');
    await flush();
    expect(newSessionSelectors.branchProblem(store.getState())).toBe('a..b is not a valid branch name.');
    store.getState().setNewSessionBranch('');
    expect(newSessionSelectors.startBlocked(store.getState())).toBe('Name the branch');
    store.getState().setNewSessionBranch('fix-login');
    await flush();
    expect(newSessionSelectors.canStart(store.getState())).toBe(true);
  });

  it('keeps a branch the person typed when the folder is checked again', async () => {
    const { store } = await repoSetup();
    store.getState().openNewSession();
    await flush();
    store.getState().setNewSessionBranch('mine');
    store.getState().setNewSessionFolder('/work/app/src');
    await flush();
    expect(store.getState().newSession?.branch).toBe('mine');
  });

  it('with the box unchecked starts in the folder as today, and remembers the choice for the repository', async () => {
    const { fake, store } = await repoSetup();
    store.getState().openNewSession();
    await flush();
    store.getState().setNewSessionWorktree(false);
    store.getState().addAlsoRunOn('demo');
    store.getState().submitNewSession();
    expect(fake.callsOf('sessions:create')).toEqual([{ id: expect.any(String), agentId: 'claude', cwd: '/work/app', additionalDirs: [] }]);
    expect(fake.callsOf('repositories:save')).toEqual([{ path: '/work/app', worktreeDefault: false }]);
  });

  it('starts the box off where the repository remembers it off, and sends Also run on agents with the worktree', async () => {
    const { fake, store } = await repoSetup(repoProbe({ worktreeDefault: false }));
    store.getState().openNewSession();
    await flush();
    expect(newSessionSelectors.worktreeOn(store.getState())).toBe(false);
    expect(fake.callsOf('workspace:probe')).toEqual([{ path: '/work/app' }]);
    store.getState().setNewSessionWorktree(true);
    store.getState().addAlsoRunOn('demo');
    store.getState().addAlsoRunOn('demo');
    store.getState().addAlsoRunOn('claude');
    store.getState().removeAlsoRunOn(2);
    await flush();
    store.getState().submitNewSession();
    expect(fake.callsOf('sessions:create')).toEqual([
      { id: expect.any(String), agentId: 'claude', cwd: '/work/app', additionalDirs: [], worktree: { branch: 'session-1a2b' }, alsoRunOn: ['demo', 'demo'] },
    ]);
  });

  it('says why no worktree can be made (a detached HEAD) and starts in the shared folder', async () => {
    const { fake, store } = await repoSetup(repoProbe({ worktree: { ok: false, problem: 'detached_head', message: 'HEAD is detached: check out a branch first.' } }));
    store.getState().openNewSession();
    await flush();
    expect(newSessionSelectors.worktreeProblem(store.getState())).toBe('HEAD is detached: check out a branch first.');
    expect(newSessionSelectors.worktreeOn(store.getState())).toBe(false);
    store.getState().submitNewSession();
    expect(fake.callsOf('sessions:create')).toEqual([{ id: expect.any(String), agentId: 'claude', cwd: '/work/app', additionalDirs: [] }]);
  });

  it('offers nothing more for a folder outside a repository', async () => {
    const { fake, store } = await repoSetup();
    store.getState().openNewSession();
    store.getState().setNewSessionFolder('/work/lib');
    await flush();
    expect(newSessionSelectors.isRepository(store.getState())).toBe(false);
    expect(newSessionSelectors.canStart(store.getState())).toBe(true);
    expect(fake.callsOf('branches:check')).toEqual([]);
  });
});
