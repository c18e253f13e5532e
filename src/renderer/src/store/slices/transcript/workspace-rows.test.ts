import { describe, expect, it } from 'vitest';
import { ev } from '../../../test-support/fake-api';
import { buildRows } from '../../../test-support/rows';

const cp = (seq: number, checkpointId: string, clientMessageId?: string, partial?: boolean) =>
  ev(seq, 'checkpoint', { checkpointId, commit: 'c'.repeat(40), reason: 'turn', ...(clientMessageId ? { clientMessageId } : {}), ...(partial ? { partial } : {}) });

describe('turn end lines with checkpoints', () => {
  it("gives each turn's end line the checkpoint taken before that turn's prompt", () => {
    const rows = buildRows([
      ev(1, 'user_message', { text: 'one', clientMessageId: 'm1' }),
      cp(2, 'cp-1', 'm1'),
      ev(3, 'turn_started', { clientMessageId: 'm1' }),
      ev(4, 'agent_message', { text: 'done one' }),
      ev(5, 'turn_ended', { stopReason: 'end_turn', clientMessageId: 'm1' }),
      ev(6, 'user_message', { text: 'two', clientMessageId: 'm2' }),
      cp(7, 'cp-2', 'm2', true),
      ev(8, 'turn_ended', { stopReason: 'end_turn', clientMessageId: 'm2' }),
    ]);
    expect(rows.filter((r) => r.type === 'turn-end')).toEqual([
      { type: 'turn-end', key: 'turnend-5', checkpointId: 'cp-1', partial: false },
      { type: 'turn-end', key: 'turnend-8', checkpointId: 'cp-2', partial: true },
    ]);
  });

  it('adds the end line when the checkpoint is stored after its turn ended, and never splits a streaming bubble', () => {
    const rows = buildRows([
      ev(1, 'user_message', { text: 'one', clientMessageId: 'm1' }),
      ev(2, 'agent_message', { text: 'Hel' }),
      cp(3, 'cp-other', 'm-other'),
      ev(4, 'agent_message', { text: 'lo' }),
      ev(5, 'turn_ended', { stopReason: 'end_turn', clientMessageId: 'm1' }),
      cp(6, 'cp-1', 'm1'),
    ]);
    expect(rows.map((r) => r.type)).toEqual(['user', 'agent', 'turn-end']);
    expect(rows[1]).toMatchObject({ text: 'Hello' });
    expect(rows[2]).toMatchObject({ checkpointId: 'cp-1' });
  });

  it('shows no end line for a turn without a checkpoint (a folder outside git), nor for an archive checkpoint', () => {
    const rows = buildRows([
      ev(1, 'user_message', { text: 'one', clientMessageId: 'm1' }),
      ev(2, 'turn_ended', { stopReason: 'end_turn', clientMessageId: 'm1' }),
      ev(3, 'checkpoint', { checkpointId: 'cp-a', commit: 'c'.repeat(40), reason: 'archive' }),
    ]);
    expect(rows.map((r) => r.type)).toEqual(['user']);
  });

  it('shows restores and setup runs as rows of their own', () => {
    const rows = buildRows([
      ev(1, 'files_restored', { action: 'restore', checkpointId: 'cp-1', undo: 'u1', removed: 1, written: 2, paths: ['a', 'b', 'c'], text: 'Restored to before the turn.' }),
      ev(2, 'setup_command', { command: 'npm ci', output: 'added 3 packages', truncated: false, exit: { exitCode: 1 }, durationMs: 1500, failed: true }),
    ]);
    expect(rows.map((r) => r.type)).toEqual(['restored', 'setup']);
    expect(rows[0]).toMatchObject({ restored: { undo: 'u1', action: 'restore' } });
    expect(rows[1]).toMatchObject({ setup: { command: 'npm ci', failed: true } });
  });
});
