import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { eventPayloads } from '../../shared/contract';
import { mapUpdate } from './update-mapper';

/** Updates as an agent may send them; some fields are beyond what the SDK's types name. */
const update = (u: Record<string, unknown>): acp.SessionUpdate => u as acp.SessionUpdate;

describe('mapUpdate', () => {
  it('stores a plain text chunk as its text and nothing else (the streaming path)', () => {
    expect(mapUpdate(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hel' } }))).toEqual({
      kind: 'agent_message',
      payload: { text: 'Hel' },
    });
  });

  it('keeps the message id a chunk names beside its text, not in extra', () => {
    expect(mapUpdate(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hel' }, messageId: 'm1' }))).toEqual({
      kind: 'agent_message',
      payload: { text: 'Hel', messageId: 'm1' },
    });
  });

  it('keeps what a richer chunk carried beyond its text in extra', () => {
    const content = { type: 'resource_link', name: 'a.ts', uri: 'file:///w/a.ts', _meta: { x: 1 } };
    expect(mapUpdate(update({ sessionUpdate: 'agent_thought_chunk', content, _meta: { trace: 't' } }))).toEqual({
      kind: 'agent_thought',
      payload: { text: '[a.ts](file:///w/a.ts)', extra: { content, _meta: { trace: 't' } } },
    });
  });

  it('types a tool call and keeps its unmodelled fields, nested ones included, in extra', () => {
    const content = [{ type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'b', _meta: { hunk: 1 } }];
    const mapped = mapUpdate(
      update({
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Edit a.ts',
        kind: 'edit',
        content,
        locations: [{ path: '/w/a.ts', line: 2 }],
        rawInput: { path: '/w/a.ts' },
        _meta: { claude: { tool: 'Edit' } },
        x_vendor: 'kept',
      }),
    );
    expect(mapped).toEqual({
      kind: 'tool_call',
      payload: {
        toolCallId: 't1',
        title: 'Edit a.ts',
        kind: 'edit',
        status: 'pending',
        content: [{ type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'b' }],
        locations: [{ path: '/w/a.ts', line: 2 }],
        rawInput: { path: '/w/a.ts' },
        extra: { content, _meta: { claude: { tool: 'Edit' } }, x_vendor: 'kept' },
      },
    });
    // What is stored parses as its kind.
    expect(eventPayloads.tool_call.safeParse(mapped?.payload).success).toBe(true);
  });

  it('adds no extra when everything the agent sent is modelled', () => {
    const mapped = mapUpdate(update({ sessionUpdate: 'plan', entries: [{ content: 'Read', priority: 'low', status: 'pending' }] }));
    expect(mapped).toEqual({ kind: 'plan', payload: { entries: [{ content: 'Read', priority: 'low', status: 'pending' }] } });
  });

  it('names available commands `commands` and keeps nothing twice', () => {
    const availableCommands = [{ name: 'title', description: 'Name it', input: { hint: 'a title' } }];
    expect(mapUpdate(update({ sessionUpdate: 'available_commands_update', availableCommands }))).toEqual({
      kind: 'available_commands',
      payload: { commands: availableCommands },
    });
  });

  it('keeps an update variant it does not know whole, as agent_update', () => {
    expect(mapUpdate(update({ sessionUpdate: 'usage_update', used: 10, size: 100 }))).toEqual({
      kind: 'agent_update',
      payload: { sessionUpdate: 'usage_update', extra: { used: 10, size: 100 } },
    });
  });

  it('keeps a known update whose fields break their ACP types whole, as agent_update, instead of storing what would not read back', () => {
    const mapped = mapUpdate(update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'X', kind: 'compile' }));
    expect(mapped).toEqual({
      kind: 'agent_update',
      payload: { sessionUpdate: 'tool_call', extra: { toolCallId: 't1', title: 'X', kind: 'compile' } },
    });
  });
});
