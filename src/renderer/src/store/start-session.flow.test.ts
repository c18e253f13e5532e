import { describe, expect, it } from 'vitest';
import type { AgentInfoT, CommandResponse, HostInfoT, Result, SwitchResultT } from '../../../shared/contract';
import { alwaysOpen } from '../api/connection';
import { createAppStore, type AppStoreApi } from './app-store';
import { bindApi } from './bind-api';
import { sessionsSelectors } from './slices/sessions/selectors';
import { composerSelectors } from './slices/composer/selectors';
import { deferred, FakeApi, flush, SID, testDeps, view } from '../test-support/fake-api';

const ok = <T,>(value: T): Result<T> => ({ ok: true, value });
type Created = Result<CommandResponse<'sessions:create'>>;

const demo: AgentInfoT = { id: 'demo', name: 'Demo agent', command: 'node', args: [] };
const claude: AgentInfoT = { id: 'claude', name: 'Claude Code', command: 'claude-acp', args: [] };

function hostInfo(agents: AgentInfoT[], defaultAgentId = 'demo'): HostInfoT {
  return {
    version: '0.1.0',
    headless: true,
    clientId: 'c1',
    agents,
    settings: {
      idleTimeoutMs: 0,
      reapIntervalMs: 0,
      permissionTimeoutMs: 0,
      defaultCwd: '/tmp',
      defaultAgentId,
      maxSessionsPerBroker: 8,
    },
  };
}

function switched(sessionId: string): SwitchResultT {
  return { session: view({ id: sessionId, title: '' }), running: false, lastSeq: 0, pendingPermissions: [], pendingQuestions: [] };
}

function setup(agents: AgentInfoT[] = [demo], defaultAgentId = 'demo') {
  const fake = new FakeApi();
  const store = createAppStore(testDeps(fake));
  bindApi(store, fake.api, alwaysOpen);
  fake
    .handle('host:info', () => ok(hostInfo(agents, defaultAgentId)))
    .handle('sessions:list', () => ok([]))
    .handle('sessions:switch', (req) => ok(switched(req.sessionId)))
    .handle('transcript:page', () => ok({ events: [], hasMore: false }))
    .handle('prompt:send', () => ok({ accepted: true as const, duplicate: false }));
  return { fake, store };
}

/** `sessions:create` answers only when the test says so. */
function holdCreate(fake: FakeApi) {
  const answer = deferred<Created>();
  fake.handle('sessions:create', () => answer.promise);
  return {
    succeed: (id: string) => answer.resolve(ok(view({ id, title: '', createdAt: 5, updatedAt: 5 }))),
    fail: () => answer.resolve({ ok: false, error: { code: 'invalid_request', message: 'no such folder' } }),
  };
}

const commands = (fake: FakeApi) => fake.calls.map((c) => c.command);

/** Ctrl/Cmd+N, waited for until the session is created and shown: its id, or undefined if the create failed. */
async function createSession(store: AppStoreApi): Promise<string | undefined> {
  const id = store.getState().startSession();
  const error = await store.getState().whenCreated(id);
  await flush();
  return error ? undefined : id;
}

describe('New session', () => {
  it('makes the new id current at once; a quick Enter goes to it, after the create, without a second session', async () => {
    const { fake, store } = setup();
    await store.getState().start();
    const create = holdCreate(fake);

    const id = store.getState().startSession();
    expect(store.getState().currentSessionId).toBe(id);
    expect(sessionsSelectors.isCreatingCurrent(store.getState())).toBe(true);

    const sent = store.getState().sendPrompt('hello');
    const again = store.getState().sendPrompt('and this');
    await flush();
    // Shown at once, sent only once the session exists.
    expect(composerSelectors.pendingForCurrent(store.getState()).map((p) => p.text)).toEqual(['hello', 'and this']);
    expect(fake.callsOf('prompt:send')).toEqual([]);
    expect(fake.callsOf('sessions:create')).toEqual([{ id }]);

    create.succeed(id);
    expect(await sent).toBe(true);
    expect(await again).toBe(true);
    await flush();
    expect(fake.callsOf('sessions:create')).toHaveLength(1);
    expect(fake.callsOf('prompt:send').map((r) => (r as { sessionId: string }).sessionId)).toEqual([id, id]);
    // The window watches the session before its first prompt goes out.
    expect(commands(fake).filter((c) => c === 'sessions:switch' || c === 'prompt:send')).toEqual([
      'sessions:switch',
      'prompt:send',
      'prompt:send',
    ]);
    const s = store.getState();
    expect(s.currentSessionId).toBe(id);
    expect(s.creatingSessionId).toBeUndefined();
    expect(s.sessionOrder).toEqual([id]);
    expect(s.transcript).toMatchObject({ sessionId: id, loaded: true });
  });

  it('starts exactly one session when a message is sent with none selected, twice in a row', async () => {
    const { fake, store } = setup();
    await store.getState().start();
    const create = holdCreate(fake);
    const first = store.getState().sendPrompt('one');
    const id = store.getState().currentSessionId;
    const second = store.getState().sendPrompt('two');
    create.succeed(id ?? '');
    await Promise.all([first, second]);
    await flush();
    expect(fake.callsOf('sessions:create')).toEqual([{ id }]);
    expect(fake.callsOf('prompt:send').map((r) => (r as { sessionId: string }).sessionId)).toEqual([id, id]);
  });

  it('unwatches the session shown before, and the switch to the new one follows the create', async () => {
    const { fake, store } = setup();
    await store.getState().switchSession(SID);
    const create = holdCreate(fake);
    const id = store.getState().startSession();
    await flush();
    expect(fake.callsOf('sessions:switch')).toEqual([{ sessionId: SID }]);
    create.succeed(id);
    await flush();
    expect(fake.callsOf('sessions:switch')).toEqual([{ sessionId: SID }, { sessionId: id, fromSessionId: SID }]);
  });

  it('does not pull the window back when the user moved on before the create answered', async () => {
    const { fake, store } = setup();
    await store.getState().switchSession(SID);
    const create = holdCreate(fake);
    const id = store.getState().startSession();
    const sent = store.getState().sendPrompt('for the new one');
    await store.getState().switchSession(SID);
    create.succeed(id);
    await sent;
    await flush();
    expect(store.getState().currentSessionId).toBe(SID);
    expect(fake.callsOf('sessions:switch').map((r) => (r as { sessionId: string }).sessionId)).toEqual([SID, SID]);
    expect(fake.callsOf('prompt:send')).toMatchObject([{ sessionId: id, text: 'for the new one' }]);
    expect(store.getState().sessionOrder).toContain(id);
  });

  it('goes back to the previous session when the create fails, and offers the message back there', async () => {
    const { fake, store } = setup();
    await store.getState().switchSession(SID);
    const create = holdCreate(fake);
    store.getState().startSession();
    const sent = store.getState().sendPrompt('lost?');
    create.fail();
    expect(await sent).toBe(false);
    await flush();
    const s = store.getState();
    expect(s.currentSessionId).toBe(SID);
    expect(s.pendingSends.size).toBe(0);
    expect(fake.callsOf('prompt:send')).toEqual([]);
    expect(composerSelectors.sendErrorForCurrent(s)).toMatchObject({ text: 'lost?', summary: expect.stringMatching(/could not be started/) });
    expect(s.notices.map((n) => n.text)).toEqual(['Could not start a session: no such folder']);
  });

  it('offers the message back in the empty window when there was no session before', async () => {
    const { fake, store } = setup();
    await store.getState().start();
    const create = holdCreate(fake);
    const sent = store.getState().sendPrompt('first words');
    create.fail();
    await sent;
    const s = store.getState();
    expect(s.currentSessionId).toBeUndefined();
    expect(composerSelectors.sendErrorForCurrent(s)).toMatchObject({ sessionId: '', text: 'first words' });
  });

  it('retries a create whose answer was lost and takes already_exists as done', async () => {
    const { fake, store } = setup();
    let attempts = 0;
    fake.handle('sessions:create', () =>
      ++attempts === 1
        ? { ok: false, error: { code: 'disconnected', message: 'lost' } }
        : { ok: false, error: { code: 'already_exists', message: 'exists' } },
    );
    const id = await createSession(store);
    expect(id).toBeDefined();
    expect(fake.callsOf('sessions:create')).toEqual([{ id }, { id }]);
    expect(store.getState().currentSessionId).toBe(id);
    expect(store.getState().sessionsById.has(id ?? '')).toBe(true);
  });

  it('does not re-switch a session still being created after a reconnect', async () => {
    const { fake, store } = setup();
    await store.getState().start();
    const create = holdCreate(fake);
    const id = store.getState().startSession();
    fake.reconnect();
    await flush();
    expect(fake.callsOf('sessions:switch')).toEqual([]);
    create.succeed(id);
    await flush();
    expect(fake.callsOf('sessions:switch')).toEqual([{ sessionId: id }]);
  });
});

describe('agent picker', () => {
  it('sends no agentId when the host has one agent (its default)', async () => {
    const { fake, store } = setup([demo]);
    fake.handle('sessions:create', (req) => ok(view({ id: req.id })));
    await store.getState().start();
    expect(sessionsSelectors.agentIdForCreate(store.getState())).toBeUndefined();
    const id = await createSession(store);
    expect(fake.callsOf('sessions:create')).toEqual([{ id }]);
  });

  it('defaults to the settings default agent and creates with the one picked', async () => {
    const { fake, store } = setup([demo, claude], 'claude');
    fake.handle('sessions:create', (req) => ok(view({ id: req.id, agentId: req.agentId })));
    await store.getState().start();
    expect(sessionsSelectors.newSessionAgentId(store.getState())).toBe('claude');
    await createSession(store);
    store.getState().chooseAgent('demo');
    await createSession(store);
    expect(fake.callsOf('sessions:create').map((r) => (r as { agentId?: string }).agentId)).toEqual(['claude', 'demo']);
  });

  it('falls back to the first agent when the default is not among them', async () => {
    const { store } = setup([demo, claude], 'gone');
    await store.getState().start();
    expect(sessionsSelectors.newSessionAgentId(store.getState())).toBe('demo');
    store.getState().chooseAgent('nope');
    expect(sessionsSelectors.newSessionAgentId(store.getState())).toBe('demo');
  });
});
