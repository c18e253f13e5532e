import { describe, expect, it } from 'vitest';
import { view, SID } from '../../test-support/fake-api';
import { renderWith as render, storeWith } from '../../test-support/static-render';
import { SignInPanel } from './sign-in-panel';

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
    expect(html).toContain('>Copy</button>');
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
