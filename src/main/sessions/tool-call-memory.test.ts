import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { LiveSession } from './live-session';

function session() {
  const asked: acp.RequestPermissionRequest[] = [];
  const live = new LiveSession('s1', '/work', {
    record: () => {},
    permission: (_id, req) => {
      asked.push(req);
      return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    },
  });
  return { live, asked };
}

const update = (u: acp.SessionUpdate): acp.SessionNotification => ({ sessionId: 'acp-1', update: u });
const options: acp.PermissionOption[] = [{ optionId: 'ok', name: 'Allow once', kind: 'allow_once' }];

describe('LiveSession tool call memory', () => {
  it('fills a bare permission request from the tool call the agent announced earlier', async () => {
    const { live, asked } = session();
    live.onUpdate(update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit main.ts', kind: 'edit', locations: [{ path: '/work/main.ts' }] }));
    live.onUpdate(update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' }));
    await live.onPermission({ sessionId: 'acp-1', toolCall: { toolCallId: 't1' }, options }, new AbortController().signal);
    expect(asked[0]?.toolCall).toMatchObject({ toolCallId: 't1', title: 'Edit main.ts', kind: 'edit', status: 'in_progress', locations: [{ path: '/work/main.ts' }] });
  });

  it("lets the request's own fields win over what was remembered", async () => {
    const { live, asked } = session();
    live.onUpdate(update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Old title', kind: 'read' }));
    await live.onPermission({ sessionId: 'acp-1', toolCall: { toolCallId: 't1', title: 'New title' }, options }, new AbortController().signal);
    expect(asked[0]?.toolCall).toMatchObject({ title: 'New title', kind: 'read' });
  });

  it('passes an unknown tool call through unchanged and forgets old calls past its bound', async () => {
    const { live, asked } = session();
    for (let i = 0; i < 100; i++) live.onUpdate(update({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `Call ${i}`, kind: 'edit' }));
    await live.onPermission({ sessionId: 'acp-1', toolCall: { toolCallId: 't0' }, options }, new AbortController().signal);
    await live.onPermission({ sessionId: 'acp-1', toolCall: { toolCallId: 't99' }, options }, new AbortController().signal);
    expect(asked[0]?.toolCall).toEqual({ toolCallId: 't0' });
    expect(asked[1]?.toolCall).toMatchObject({ title: 'Call 99' });
  });
});
