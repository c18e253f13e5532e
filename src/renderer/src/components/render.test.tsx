import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StateReason, type HostInfoT, type PermissionViewT, type SessionStateT } from '../../../shared/contract';
import { createAppStore, type AppState, type AppStoreApi } from '../store/app-store';
import { StoreProvider } from '../store/context';
import { FakeApi, SID, SID2, testDeps, view } from '../test-support/fake-api';
import { Composer } from './composer/composer';
import { PermissionDialog } from './permissions/permission-dialog';
import { SessionHeader } from './session-header';
import { SignInPanel } from './sign-in-panel';
import { SessionEntry } from './sidebar/session-entry';
import { SessionSidebar } from './sidebar/session-sidebar';
import { TranscriptRow } from './transcript/transcript-row';

/** Server rendering reads the "initial" snapshot; point it at the live state for these checks. */
function storeWith(state: Partial<AppState>): AppStoreApi {
  const store = createAppStore(testDeps(new FakeApi()));
  store.setState(state);
  store.getInitialState = store.getState;
  return store;
}

const render = (store: AppStoreApi, node: React.ReactNode) =>
  renderToStaticMarkup(<StoreProvider store={store}>{node}</StoreProvider>);

describe('sidebar entry', () => {
  const sessions = new Map([
    [SID, view({ title: 'Fix the build', state: 'ENDED', stateReason: 'idle_timeout', pendingPermissions: 1 })],
    [SID2, view({ id: SID2, title: 'Other' })],
  ]);

  it('starts with the title, shows the badge, the reason and the permission flag', () => {
    const html = render(storeWith({ sessionsById: sessions, currentSessionId: SID2 }), <SessionEntry sessionId={SID} />);
    expect(html).toMatch(/^<a [^>]*><span class="session-title">Fix the build<\/span> /);
    // The folder in short form, the whole path in its tooltip.
    expect(html).toContain('<span class="session-folder" title="/tmp/work">/tmp/work</span>');
    expect(html).toContain('>Asleep</span>');
    expect(html).toContain('title="Put to sleep after being idle. Sending a message resumes it."');
    expect(html).toContain('Needs permission');
    expect(html).not.toContain('aria-current');
  });

  /** The badge tooltip as the person sees it, for a session in `state` for `reason`. */
  const tooltip = (state: SessionStateT, reason: StateReason): string => {
    const html = render(storeWith({ sessionsById: new Map([[SID, view({ state, stateReason: reason })]]) }), <SessionEntry sessionId={SID} />);
    const title = /<span class="badge [^"]*" title="([^"]*)"/.exec(html)?.[1];
    if (title === undefined) throw new Error(`no tooltip for ${state}/${reason}: ${html}`);
    return title;
  };

  it.each(StateReason.options)('says in a sentence why a session is in its state, never the code (%s)', (reason) => {
    for (const state of ['ACTIVE', 'ENDED'] as const) {
      const text = tooltip(state, reason);
      expect(text).toMatch(/^[A-Z][a-z]/);
      expect(text).not.toContain('_');
      // A code that is also a word ("resume") may appear in prose; never as the code itself.
      expect(text).not.toContain(`(${reason})`);
      expect(text.toLowerCase()).not.toBe(reason);
      expect(text.split(' ').length).toBeGreaterThanOrEqual(3);
    }
    // A session whose agent never started is not asleep: a message would not wake it.
    if (['auth_required', 'start_failed', 'agent_unavailable'].includes(reason)) expect(tooltip('ENDED', reason)).not.toMatch(/Sending a message resumes it/);
    else expect(tooltip('ENDED', reason)).toMatch(/\. Sending a message resumes it\.$/);
  });

  it('badges a session whose agent never started by what it needs, not Asleep', () => {
    const badge = (reason: StateReason) =>
      render(storeWith({ sessionsById: new Map([[SID, view({ state: 'ENDED', stateReason: reason })]]) }), <SessionEntry sessionId={SID} />);
    expect(badge('auth_required')).toContain('>Needs sign-in</span>');
    expect(badge('start_failed')).toContain('>Could not start</span>');
    expect(badge('agent_unavailable')).toContain('>Could not start</span>');
    expect(badge('idle_timeout')).toContain('>Asleep</span>');
  });

  it('tells a session the person closed apart from one the host put to sleep', () => {
    expect(tooltip('ENDED', 'closed_by_user')).toBe('Closed by you. Sending a message resumes it.');
    const texts = new Set(StateReason.options.map((r) => tooltip('ENDED', r)));
    expect(texts.size).toBe(StateReason.options.length);
  });

  it('marks the current session and hides its permission flag', () => {
    const html = render(storeWith({ sessionsById: sessions, currentSessionId: SID }), <SessionEntry sessionId={SID} />);
    expect(html).toContain('aria-current="page"');
    expect(html).not.toContain('Needs permission');
  });
});

describe('permission dialog', () => {
  const request: PermissionViewT = {
    requestId: 'r1',
    sessionId: SID,
    toolCall: {
      toolCallId: 't1',
      title: 'Edit src/app.ts',
      kind: 'edit',
      locations: [{ path: 'src/app.ts', line: 3 }],
      content: [{ type: 'diff', path: 'src/app.ts', oldText: 'a\nold\n', newText: 'a\nnew\n' }],
    },
    options: [
      { optionId: 'o1', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'o2', name: 'Reject', kind: 'reject_once' },
    ],
    createdAt: 1,
  };

  it('is named by the tool call title and has one button per option, named as the agent named it', () => {
    const html = render(storeWith({}), <PermissionDialog request={request} />);
    expect(html).toContain('role="dialog" aria-label="Edit src/app.ts"');
    expect(html).toContain('>Allow once</button>');
    expect(html).toContain('>Reject</button>');
    expect(html).toContain('src/app.ts:3');
    expect(html).toContain('-old\n');
    expect(html).toContain('+new\n');
  });

  it('shows the command of an execute request', () => {
    const exec: PermissionViewT = { ...request, toolCall: { toolCallId: 't', title: 'Run', kind: 'execute', rawInput: { command: 'npm test' } } };
    expect(render(storeWith({}), <PermissionDialog request={exec} />)).toContain('$ npm test');
  });
});

describe('composer', () => {
  it('reads Running and offers Stop only while a turn runs', () => {
    const running = storeWith({ sessionsById: new Map([[SID, view({ running: true })]]), currentSessionId: SID });
    const html = render(running, <Composer sessionId={SID} />);
    expect(html).toContain('<span role="status" class="run-status">Running</span>');
    expect(html).toContain('>Stop</button>');
    expect(html).toContain('aria-label="Message"');

    const idle = storeWith({ sessionsById: new Map([[SID, view()]]), currentSessionId: SID });
    const idleHtml = render(idle, <Composer sessionId={SID} />);
    expect(idleHtml).toContain('<span role="status" class="run-status"></span>');
    expect(idleHtml).not.toContain('>Stop</button>');
  });
});

describe('transcript rows', () => {
  const thoughts = { isOpen: () => false, setOpen: () => {} };

  it('offers Retry on a crash loop error, with the stderr tail', () => {
    const html = render(
      storeWith({}),
      <TranscriptRow
        row={{ type: 'error', key: 'e', code: 'crash_loop', message: 'Agent crashed 3 times', stderrTail: ['panic: boom'] }}
        openThoughts={thoughts}
      />,
    );
    expect(html).toContain('role="note"');
    expect(html).not.toContain('role="alert"');
    expect(html).toContain('panic: boom');
    expect(html).toContain('>Retry</button>');
  });

  it('renders agent Markdown without raw HTML', () => {
    const html = render(
      storeWith({}),
      <TranscriptRow row={{ type: 'agent', key: 'a', text: '**bold** <img src=x onerror=alert(1)>\n\n```ts\nconst a = 1;\n```' }} openThoughts={thoughts} />,
    );
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<pre><code class="language-ts">');
    expect(html).not.toContain('<img');
  });

  it('collapses a thought under "Thought"', () => {
    const html = render(storeWith({}), <TranscriptRow row={{ type: 'thought', key: 't', text: 'hmm' }} openThoughts={thoughts} />);
    expect(html).toMatch(/<details class="thought"><summary>Thought<\/summary>/);
  });

  it('shows a stored event this version cannot read as a visible row naming its kind', () => {
    const html = render(storeWith({}), <TranscriptRow row={{ type: 'unreadable', key: 'u', storedKind: 'mode_changed' }} openThoughts={thoughts} />);
    expect(html).toContain('Unreadable event (mode_changed)');
  });
});

describe('sidebar head', () => {
  const info = (ids: string[]): HostInfoT => ({
    version: '0',
    headless: true,
    clientId: 'c',
    agents: ids.map((id) => ({ id, name: `Agent ${id}`, command: id, args: [] })),
    settings: {
      idleTimeoutMs: 0,
      reapIntervalMs: 0,
      permissionTimeoutMs: 0,
      defaultCwd: '/',
      defaultAgentId: 'b',
      maxSessionsPerBroker: 1,
    },
  });

  it('offers New session and leaves the choice of agent to its dialog', () => {
    const html = render(storeWith({ hostInfo: info(['a', 'b']) }), <SessionSidebar onOpenSettings={() => {}} />);
    expect(html).toContain('>New session</button>');
    expect(html).not.toContain('<select');
  });

  it('disables New session while a create is in flight', () => {
    const html = render(storeWith({ creatingSessionId: SID }), <SessionSidebar onOpenSettings={() => {}} />);
    expect(html).toMatch(/<button type="button" class="button-primary" disabled="">New session<\/button>/);
  });

  it('makes only the current entry a Tab stop', () => {
    const sessions = new Map([
      [SID, view()],
      [SID2, view({ id: SID2, title: 'Other' })],
    ]);
    const store = storeWith({ sessionsById: sessions, currentSessionId: SID2 });
    expect(render(store, <SessionEntry sessionId={SID} tabbable={false} />)).toContain('tabindex="-1"');
    expect(render(store, <SessionEntry sessionId={SID2} />)).not.toContain('tabindex');
  });
});

describe('sign-in panel', () => {
  const auth = {
    message: 'Demo agent asks you to sign in: Authentication required',
    during: 'start' as const,
    hint: 'set IS_SANDBOX=1',
    methods: [
      { id: 'login', name: 'Log in to the demo', kind: 'agent' as const },
      { id: 'key', name: 'Demo API key', kind: 'env_var' as const, envVar: 'SWITCHBOARD_DEMO_API_KEY' },
      { id: 'term', name: 'Terminal', kind: 'terminal' as const, command: 'demo login --user me' },
    ],
  };

  it("shows the agent's own words, one control per method, and Retry for a session that never started", () => {
    const store = storeWith({ sessionsById: new Map([[SID, view({ state: 'ENDED', stateReason: 'auth_required', auth })]]), currentSessionId: SID });
    const html = render(store, <SignInPanel />);
    expect(html).toContain('Demo agent asks you to sign in: Authentication required');
    expect(html).toContain('set IS_SANDBOX=1');
    expect(html).toContain('>Log in to the demo</button>');
    expect(html).toMatch(/<label for="[^"]+">SWITCHBOARD_DEMO_API_KEY<\/label><input id="[^"]+" type="password"/);
    expect(html).toContain('<code class="sign-in-command">demo login --user me</code>');
    expect(html).toContain('>Retry</button>');
    // A headless host can't open a terminal window in front of the person: copy only.
    expect(html).toContain('>Copy command</button>');
    expect(html).not.toContain('Run in a terminal');
  });

  it('offers to run a terminal login in a terminal where the host can open one (the desktop app)', () => {
    const store = storeWith({ sessionsById: new Map([[SID, view({ state: 'ENDED', stateReason: 'auth_required', auth })]]), currentSessionId: SID });
    store.setState({ hostInfo: { version: '0', headless: false, canOpenTerminal: true, clientId: 'c', agents: [], settings: store.getState().hostInfo?.settings ?? ({} as never) } });
    expect(render(store, <SignInPanel />)).toContain('>Run in a terminal</button>');
  });

  it('shows the sign-in progress, and nothing for a session that runs', () => {
    const live = storeWith({ sessionsById: new Map([[SID, view({ state: 'ACTIVE', auth: { ...auth, during: 'prompt' } })]]), currentSessionId: SID });
    live.setState({ signIn: { sessionId: SID, methodId: 'login', status: 'running' } });
    const html = render(live, <SignInPanel />);
    expect(html).toContain('Signing in…');
    expect(html).not.toContain('>Retry</button>');
    expect(render(storeWith({ sessionsById: new Map([[SID, view({ state: 'ACTIVE' })]]), currentSessionId: SID }), <SignInPanel />)).toBe('');
  });
});

describe('session header', () => {
  it('offers Close, Archive and Delete on a failed session, and Restore on an archived one', () => {
    const failed = render(storeWith({ sessionsById: new Map([[SID, view({ state: 'ENDED', stateReason: 'start_failed' })]]), currentSessionId: SID }), <SessionHeader />);
    expect(failed).toContain('>Close session</button>');
    expect(failed).toContain('>Archive</button>');
    expect(failed).toContain('>Delete</button>');
    const archived = render(storeWith({ sessionsById: new Map([[SID, view({ state: 'ENDED', archivedAt: 5 })]]), currentSessionId: SID }), <SessionHeader />);
    expect(archived).toContain('>Restore</button>');
    expect(archived).not.toContain('>Archive</button>');
  });

  it('stands in for a session whose create has not answered yet', () => {
    const html = render(storeWith({ currentSessionId: SID, creatingSessionId: SID }), <SessionHeader />);
    expect(html).toContain('Starting…');
    expect(html).not.toContain('Close session');
  });
});

describe('composer errors', () => {
  it('explains a message that could not go out because its session did not start', () => {
    const store = storeWith({
      currentSessionId: undefined,
      sendError: { sessionId: '', code: 'invalid_request', message: 'bad folder', text: 'hi', summary: 'The session could not be started, so the message was not sent.' },
    });
    const html = render(store, <Composer sessionId="" />);
    expect(html).toContain('The session could not be started');
    expect(html).toContain('>Restore message</button>');
  });
});
