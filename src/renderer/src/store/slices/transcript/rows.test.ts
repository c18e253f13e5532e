import { describe, expect, it } from 'vitest';
import { ev } from '../../test/fake-api';
import { buildRows, lastUserPrompt } from './rows';

describe('buildRows', () => {
  it('groups consecutive agent_message chunks into one bubble with a stable key', () => {
    const rows = buildRows([
      ev(1, 'user_message', { text: 'hi', clientMessageId: 'c1' }),
      ev(2, 'turn_started', { clientMessageId: 'c1' }),
      ev(3, 'agent_message', { text: 'Hel' }),
      ev(4, 'agent_message', { text: 'lo ' }),
      ev(5, 'available_commands', { commands: [] }),
      ev(6, 'agent_message', { text: 'world' }),
    ]);
    expect(rows.map((r) => r.type)).toEqual(['user', 'agent']);
    expect(rows[1]).toMatchObject({ key: 'agent-3', text: 'Hello world' });
  });

  it('starts a new bubble after a tool call and keeps thoughts apart', () => {
    const rows = buildRows([
      ev(1, 'agent_thought', { text: 'think ' }),
      ev(2, 'agent_thought', { text: 'more' }),
      ev(3, 'agent_message', { text: 'a' }),
      ev(4, 'tool_call', { toolCallId: 't1', title: 'Read file', status: 'pending' }),
      ev(5, 'agent_message', { text: 'b' }),
    ]);
    expect(rows.map((r) => [r.type, 'text' in r ? r.text : ''])).toEqual([
      ['thought', 'think more'],
      ['agent', 'a'],
      ['tool', ''],
      ['agent', 'b'],
    ]);
  });

  it('merges tool_call_update events into the card where the call first appeared', () => {
    const rows = buildRows([
      ev(1, 'tool_call', { toolCallId: 't1', title: 'Run tests', kind: 'execute', status: 'pending', rawInput: { command: 'npm test' } }),
      ev(2, 'agent_message', { text: 'waiting' }),
      ev(3, 'tool_call_update', { toolCallId: 't1', status: 'in_progress' }),
      ev(4, 'tool_call_update', { toolCallId: 't1', status: 'completed', title: 'Ran tests', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] }),
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      type: 'tool',
      key: 'tool-1',
      call: { title: 'Ran tests', status: 'completed', kind: 'execute', rawInput: { command: 'npm test' } },
    });
    expect(rows[0]?.type === 'tool' && rows[0].call.content).toHaveLength(1);
  });

  it('shows one plan per turn with its latest entries', () => {
    const rows = buildRows([
      ev(1, 'plan', { entries: [{ content: 'a', status: 'pending', priority: 'high' }] }),
      ev(2, 'plan', { entries: [{ content: 'a', status: 'completed', priority: 'high' }] }),
      ev(3, 'user_message', { text: 'next' }),
      ev(4, 'plan', { entries: [] }),
    ]);
    expect(rows.map((r) => r.type)).toEqual(['plan', 'user', 'plan']);
    expect(rows[0]).toMatchObject({ entries: [{ content: 'a', status: 'completed' }] });
  });

  it('notes a cancelled turn and hides a normal end', () => {
    const rows = buildRows([ev(1, 'turn_ended', { stopReason: 'end_turn' }), ev(2, 'turn_ended', { stopReason: 'cancelled' })]);
    expect(rows).toEqual([{ type: 'stopped', key: 'stop-2', text: 'Stopped' }]);
  });

  it('keeps the error code and stderr tail', () => {
    const [row] = buildRows([ev(1, 'error', { code: 'crash_loop', message: 'agent keeps crashing', stderrTail: ['boom', 3] })]);
    expect(row).toMatchObject({ type: 'error', code: 'crash_loop', message: 'agent keeps crashing', stderrTail: ['boom'] });
  });

  it('puts the outcome of a permission request on its row', () => {
    const rows = buildRows([
      ev(1, 'permission_requested', { requestId: 'r1', toolCall: { title: 'Edit a.ts', kind: 'edit' }, options: [] }),
      ev(2, 'permission_resolved', { requestId: 'r1', outcome: 'selected', optionId: 'o', optionName: 'Allow', decider: { kind: 'window', clientId: 'c', label: 'window 1' } }),
      ev(3, 'permission_resolved', { requestId: 'r9', outcome: 'cancelled', decider: { kind: 'timeout' } }),
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      title: 'Edit a.ts',
      resolution: { outcome: 'selected', optionName: 'Allow', decider: { kind: 'window', label: 'window 1' } },
    });
    expect(rows[1]).toMatchObject({ requestId: 'r9', resolution: { decider: { kind: 'timeout' } } });
  });

  it('survives payloads of the wrong shape', () => {
    const rows = buildRows([
      ev(1, 'tool_call', { title: 'no id' }),
      ev(2, 'plan', { entries: 'nope' }),
      ev(3, 'agent_message', {}),
      ev(4, 'notice', { text: 7 }),
    ]);
    expect(rows.map((r) => r.type)).toEqual(['plan', 'agent', 'notice']);
  });
});

describe('lastUserPrompt', () => {
  it('finds the newest prompt', () => {
    const events = [ev(1, 'user_message', { text: 'one' }), ev(2, 'user_message', { text: 'two' }), ev(3, 'error', {})];
    expect(lastUserPrompt(events)).toBe('two');
    expect(lastUserPrompt([])).toBeUndefined();
  });
});
