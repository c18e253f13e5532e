import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createAppStore, type AppState, type AppStoreApi } from '../store/app-store';
import { StoreProvider } from '../store/context';
import { FakeApi, SID, testDeps, view } from '../test-support/fake-api';
import { AgentLogPanel } from './agent-log-panel';
import { Composer } from './composer/composer';
import { SessionHeader } from './session-header';
import { TranscriptRow } from './transcript/transcript-row';

function storeWith(state: Partial<AppState>): AppStoreApi {
  const store = createAppStore(testDeps(new FakeApi()));
  store.setState(state);
  store.getInitialState = store.getState;
  return store;
}

const render = (store: AppStoreApi, node: React.ReactNode) => renderToStaticMarkup(<StoreProvider store={store}>{node}</StoreProvider>);
const thoughts = { isOpen: () => false, setOpen: () => {} };

describe('progress and logs in the window', () => {
  it('shows a running turn with its elapsed time and, after the silence threshold, that the agent said nothing', () => {
    const sessions = new Map([[SID, view({ running: true, turnStartedAt: 1, lastAgentActivityAt: 1 })]]);
    const html = render(storeWith({ sessionsById: sessions, currentSessionId: SID }), <Composer sessionId={SID} />);
    expect(html).toContain('>Running</span>');
    expect(html).toMatch(/role="timer"[^>]*> · \d+ h \d+ min<\/span>/);
    expect(html).toContain('The agent has said nothing for');
  });

  it('shows no clock while nothing runs', () => {
    const sessions = new Map([[SID, view({ running: false })]]);
    const html = render(storeWith({ sessionsById: sessions, currentSessionId: SID }), <Composer sessionId={SID} />);
    expect(html).not.toContain('role="timer"');
    expect(html).not.toContain('said nothing');
  });

  it('leaves a visible Stopped mark in the transcript', () => {
    const html = render(storeWith({}), <TranscriptRow row={{ type: 'stopped', key: 's', text: 'Stopped' }} openThoughts={thoughts} />);
    expect(html).toBe('<p class="row-stopped" role="note">Stopped</p>');
  });

  it('has an Agent log button in the session header and a panel with stderr, protocol lines and unknown methods', () => {
    const sessions = new Map([[SID, view()]]);
    const header = render(storeWith({ sessionsById: sessions, currentSessionId: SID }), <SessionHeader />);
    expect(header).toContain('>Agent log</button>');

    const panel = render(
      storeWith({
        sessionsById: sessions,
        currentSessionId: SID,
        agentLog: {
          sessionId: SID,
          loaded: true,
          agentName: 'Demo agent',
          logFile: '/data/logs/agent-demo-1234abcd.log',
          live: true,
          entries: [
            { kind: 'stderr', text: 'demo-agent ready' },
            { kind: 'protocol', at: 1, direction: 'out', method: 'session/prompt', text: '{"method":"session/prompt"}' },
            { kind: 'unknown_method', at: 2, message: 'notification', method: '_demo/heartbeat' },
          ],
          truncated: true,
          dropped: 0,
          error: undefined,
        },
      }),
      <AgentLogPanel sessionId={SID} />,
    );
    expect(panel).toContain('aria-label="Agent log"');
    expect(panel).toContain('demo-agent ready');
    expect(panel).toContain('→ agent session/prompt');
    expect(panel).toContain('The agent sent an unknown notification: _demo/heartbeat');
    expect(panel).toContain('Show protocol messages');
    expect(panel).toContain('Earlier lines are in /data/logs/agent-demo-1234abcd.log');
  });
});
