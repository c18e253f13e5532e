import { describe, expect, it } from 'vitest';
import { SID, view } from '../../test-support/fake-api';
import { renderWith as render, storeWith } from '../../test-support/static-render';
import { AgentLogPanel } from './agent-log-panel';

describe('the Agent log panel', () => {
  it('shows stderr, protocol lines and unknown methods, and where earlier lines are', () => {
    const panel = render(
      storeWith({
        sessionsById: new Map([[SID, view()]]),
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
