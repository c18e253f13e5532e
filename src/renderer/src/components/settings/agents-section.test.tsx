import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AgentViewT } from '../../../../shared/contract';
import { createAppStore, type AppState, type AppStoreApi } from '../../store/app-store';
import { StoreProvider } from '../../store/context';
import { FakeApi, testDeps } from '../../test-support/fake-api';
import { AgentsSection } from './agents-section';

function storeWith(state: Partial<AppState>): AppStoreApi {
  const store = createAppStore(testDeps(new FakeApi()));
  store.setState(state);
  store.getInitialState = store.getState;
  return store;
}
const render = (store: AppStoreApi) => renderToStaticMarkup(<StoreProvider store={store}><AgentsSection /></StoreProvider>);

const base: AgentViewT = {
  id: 'gemini',
  name: 'Gemini CLI',
  command: 'gemini',
  args: ['--acp'],
  env: [{ name: 'GEMINI_API_KEY', secret: true, set: true }],
  source: 'user',
  editable: true,
  removable: true,
  openSessions: 0,
  availability: { status: 'installed', detail: 'Found /usr/bin/gemini' },
  hints: [],
};

describe('Settings → Agents', () => {
  it('lists agents with where they come from, whether they can start, and secrets by name only', () => {
    const html = render(storeWith({ agents: [base, { ...base, id: 'f', name: 'From file', source: 'file', editable: false, removable: false, env: [], availability: { status: 'missing', detail: 'x is not on PATH' } }] }));
    expect(html).toContain('aria-label="Agents"');
    expect(html).toContain('Added here');
    expect(html).toContain('From agents.json');
    expect(html).toContain('Found /usr/bin/gemini');
    expect(html).toContain('Not found');
    expect(html).toContain('GEMINI_API_KEY (secret, set)');
    expect(html).toContain('Add agent');
  });

  it("shows the initialize result: the agent's name, version, protocol and sign-in methods", () => {
    const lastTest = {
      ok: true as const,
      at: 1,
      durationMs: 1200,
      agentName: 'gemini-cli',
      agentVersion: '0.61.0',
      protocolVersion: 1,
      capabilities: { loadSession: true },
      authMethods: [{ id: 'gemini-api-key', name: 'Gemini API key', description: 'Use an API key' }],
    };
    const html = render(storeWith({ agents: [{ ...base, lastTest }] }));
    expect(html).toContain('gemini-cli 0.61.0');
    expect(html).toContain('version 1');
    expect(html).toContain('loadSession');
    expect(html).toContain('Gemini API key');
  });

  it("shows a failed test with the agent's last stderr lines, and the agents.json error", () => {
    const lastTest = { ok: false as const, at: 1, durationMs: 30, message: 'Could not start Gemini CLI', stderrTail: ['boom'] };
    const html = render(storeWith({ agents: [{ ...base, lastTest }], agentsFileError: '/d/agents.json: bad id', agentsFile: '/d/agents.json' }));
    expect(html).toContain('Test failed after 0.0 s: Could not start Gemini CLI');
    expect(html).toContain('boom');
    expect(html).toContain('role="alert"');
    expect(html).toContain('/d/agents.json: bad id');
  });

  it('turns the tested sign-in methods into controls: a button, a password input named after the variable, the command with Copy', () => {
    const lastTest = {
      ok: true as const,
      at: 1,
      durationMs: 300,
      protocolVersion: 1,
      capabilities: {},
      authMethods: [],
      methods: [
        { id: 'demo-login', name: 'Log in to the demo', kind: 'agent' as const },
        { id: 'demo-api-key', name: 'Demo API key', kind: 'env_var' as const, envVar: 'SWITCHBOARD_DEMO_API_KEY' },
        { id: 'demo-terminal-login', name: 'Log in from a terminal', kind: 'terminal' as const, command: 'switchboard-demo-login --user me' },
      ],
    };
    const html = render(storeWith({ agents: [{ ...base, lastTest }] }));
    expect(html).toContain('>Log in to the demo</button>');
    expect(html).toContain('<label for="env-gemini-demo-api-key">SWITCHBOARD_DEMO_API_KEY</label><input id="env-gemini-demo-api-key" type="password"');
    expect(html).toContain('Save for this agent</button>');
    expect(html).toContain('<code class="sign-in-command">switchboard-demo-login --user me</code>');
    expect(html).toContain('>Copy</button>');
    expect(html).toContain('Run this in a terminal, then press Test:');
    expect(html).toContain('role="status"');
  });
});
