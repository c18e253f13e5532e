import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createAppStore, type AppState, type AppStoreApi } from '../store/app-store';
import { StoreProvider } from '../store/context';
import { FakeApi, SID, testDeps, view } from '../test-support/fake-api';
import type { SessionEventT } from '../../../shared/contract';
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

describe('running turn status', () => {
  const toolCall = (seq: number, title: string, status: 'pending' | 'in_progress' | 'completed') =>
    ({ sessionId: SID, seq, at: seq, kind: 'tool_call', payload: { toolCallId: `t${seq}`, title, status } }) as const;

  function runningWith(state: 'ACTIVE' | 'STARTING', events: SessionEventT[]): AppStoreApi {
    const store = storeWith({ sessionsById: new Map([[SID, view({ running: true, state, turnStartedAt: 1 })]]), currentSessionId: SID });
    store.getState().beginTranscript(SID);
    store.setState({ transcript: { ...store.getState().transcript, loaded: true } });
    for (const e of events) store.getState().receiveEvent(e);
    store.getInitialState = store.getState;
    return store;
  }

  it('names the latest tool call still under way, not one that finished or one from an earlier turn', () => {
    const user = (seq: number) => ({ sessionId: SID, seq, at: seq, kind: 'user_message', payload: { text: 'go' } }) as const;
    const html = render(runningWith('ACTIVE', [user(1), toolCall(2, 'Read src/app.ts', 'completed'), toolCall(3, 'Run npm test', 'in_progress')]), <Composer sessionId={SID} />);
    expect(html).toContain('<span class="run-tool" title="Run npm test"> · Run npm test</span>');
    const done = render(runningWith('ACTIVE', [toolCall(1, 'Run npm test', 'in_progress'), user(2), toolCall(3, 'Read a', 'completed')]), <Composer sessionId={SID} />);
    expect(done).not.toContain('run-tool');
  });

  it('says the agent is starting while the session starts for the turn', () => {
    const html = render(runningWith('STARTING', [toolCall(1, 'x', 'completed')]), <Composer sessionId={SID} />);
    expect(html).toContain('<span role="status" class="run-status">Starting the agent</span>');
  });
});
