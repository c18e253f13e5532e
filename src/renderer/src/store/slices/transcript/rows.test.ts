import { describe, expect, it } from 'vitest';
import type { SessionEventT } from '../../../../../shared/contract';
import { ev, SID } from '../../../test-support/fake-api';
import { answer, boundStore, ok } from '../../../test-support/store-fixtures';
import { buildRows } from '../../../test-support/rows';
import { isBlankRow, lastUserPrompt, promptRowKey, RowGrouper, type Row, type RowList } from './rows';

/** A message row's text as its pieces give it (what Markdown feeds on while it streams). */
function piecesText(row: Row | undefined): string | undefined {
  if (row?.type !== 'agent' && row?.type !== 'thought') return undefined;
  const count = row.pieces?.count(row.text.length);
  return count === undefined ? undefined : row.pieces?.text(0, count);
}

const all = (list: RowList): Row[] => Array.from({ length: list.count }, (_, i) => list.at(i) as Row);

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

  it('gives a turn that reported usage a usage line at its end, after any stop note', () => {
    const usage = { tokens: { inputTokens: 1200, outputTokens: 300, totalTokens: 1600 }, cost: { amount: 0.0125, currency: 'USD' } };
    const rows = buildRows([ev(1, 'turn_ended', { stopReason: 'end_turn', usage }), ev(2, 'turn_ended', { stopReason: 'cancelled', usage })]);
    expect(rows).toEqual([
      { type: 'usage', key: 'usage-1', usage },
      { type: 'stopped', key: 'stop-2', text: 'Stopped' },
      { type: 'usage', key: 'usage-2', usage },
    ]);
  });

  it('keeps the error code and stderr tail', () => {
    const [row] = buildRows([ev(1, 'error', { code: 'crash_loop', message: 'agent keeps crashing', stderrTail: ['boom'] })]);
    expect(row).toMatchObject({ type: 'error', code: 'crash_loop', message: 'agent keeps crashing', stderrTail: ['boom'] });
  });

  it('puts the outcome of a permission request on its row', () => {
    const rows = buildRows([
      ev(1, 'permission_requested', { requestId: 'r1', toolCall: { toolCallId: 't1', title: 'Edit a.ts', kind: 'edit' }, options: [] }),
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

  it('shows a stored event it cannot read as its own row, naming the stored kind, between its neighbours', () => {
    const rows = buildRows([
      ev(1, 'agent_message', { text: 'before' }),
      ev(2, 'unreadable', { storedKind: 'tool_call', raw: '{"title":"no id"}' }),
      ev(3, 'agent_message', { text: 'after' }),
    ]);
    expect(rows).toEqual([
      { type: 'agent', key: 'agent-1', text: 'before' },
      { type: 'unreadable', key: 'unreadable-2', storedKind: 'tool_call' },
      { type: 'agent', key: 'agent-3', text: 'after' },
    ]);
  });
});

/** A turn with every kind of row, in `n` events: chunks, tool updates, plans, permissions. */
function script(n: number): SessionEventT[] {
  const kinds: ((seq: number) => SessionEventT)[] = [
    (s) => ev(s, 'user_message', { text: `q${s}`, clientMessageId: `c${s}` }),
    (s) => ev(s, 'turn_started', {}),
    (s) => ev(s, 'agent_thought', { text: 'hm ' }),
    (s) => ev(s, 'agent_message', { text: `a${s} ` }),
    (s) => ev(s, 'agent_message', { text: `b${s} ` }),
    (s) => ev(s, 'tool_call', { toolCallId: `t${Math.floor(s / 20)}`, title: 'Run', status: 'pending' }),
    (s) => ev(s, 'available_commands', { commands: [] }),
    (s) => ev(s, 'agent_message', { text: 'c ' }),
    (s) => ev(s, 'tool_call_update', { toolCallId: `t${Math.floor(s / 20)}`, status: 'completed' }),
    (s) => ev(s, 'plan', { entries: [{ content: `p${s}`, priority: 'medium', status: 'pending' }] }),
    (s) => ev(s, 'permission_requested', { requestId: `r${s}`, toolCall: { toolCallId: `t${s}`, title: 'Edit' }, options: [] }),
    (s) => ev(s, 'permission_resolved', { requestId: `r${s - 1}`, outcome: 'selected', decider: { kind: 'timeout' } }),
    (s) => ev(s, 'turn_ended', { stopReason: s % 3 ? 'end_turn' : 'cancelled' }),
  ];
  return Array.from({ length: n }, (_, i) => (kinds[i % kinds.length] as (seq: number) => SessionEventT)(i + 1));
}

describe('RowGrouper', () => {
  it('gives the same rows one event at a time as all at once', () => {
    const events = script(400);
    const grouper = new RowGrouper();
    for (let i = 1; i <= events.length; i++) grouper.update(events.slice(0, i));
    expect(all(grouper.update(events))).toEqual(buildRows(events));
    expect(grouper.stats).toEqual({ folded: 400, regroups: 0, trims: 0 });
  });

  it('folds only the new events while a long transcript streams: O(1) per event', () => {
    const events = script(5_000);
    const grouper = new RowGrouper();
    grouper.update(events.slice(0, 4_500));
    let current = events.slice(0, 4_500);
    for (const e of events.slice(4_500)) {
      current = [...current, e];
      grouper.update(current);
    }
    expect(grouper.stats).toEqual({ folded: 5_000, regroups: 0, trims: 0 });
    expect(all(grouper.update(current))).toEqual(buildRows(events));
  });

  it('keeps unchanged rows and the layout when a chunk extends the last bubble', () => {
    const events = [ev(1, 'user_message', { text: 'hi' }), ev(2, 'tool_call', { toolCallId: 't', title: 'Read', status: 'pending' }), ev(3, 'agent_message', { text: 'Hel' })];
    const grouper = new RowGrouper();
    const before = grouper.update(events);
    const after = grouper.update([...events, ev(4, 'agent_message', { text: 'lo' })]);
    expect(after).not.toBe(before);
    expect(after.layout).toBe(before.layout);
    expect(after.at(0)).toBe(before.at(0));
    expect(after.at(1)).toBe(before.at(1));
    expect(after.at(2)).toMatchObject({ key: 'agent-3', text: 'Hello' });
  });

  it('updates an earlier tool card in place, without a regroup and without touching the rest', () => {
    const events = [ev(1, 'tool_call', { toolCallId: 't', title: 'Run', status: 'pending' }), ev(2, 'agent_message', { text: 'waiting' })];
    const grouper = new RowGrouper();
    const before = grouper.update(events);
    const after = grouper.update([...events, ev(3, 'tool_call_update', { toolCallId: 't', status: 'completed' })]);
    expect(grouper.stats.regroups).toBe(0);
    expect(after.layout).toBe(before.layout);
    expect(after.at(0)).toMatchObject({ key: 'tool-1', call: { status: 'completed' } });
    expect(after.at(1)).toBe(before.at(1));
  });

  it('folds events pushed onto the same array in place, without a regroup', () => {
    const events = [ev(1, 'user_message', { text: 'hi' }), ev(2, 'agent_message', { text: 'a' })];
    const grouper = new RowGrouper();
    const before = grouper.update(events);
    events.push(ev(3, 'agent_message', { text: 'b' }), ev(4, 'error', { code: 'agent_error', message: 'x' }));
    const after = grouper.update(events);
    expect(after).not.toBe(before);
    expect(grouper.stats).toEqual({ folded: 4, regroups: 0, trims: 0 });
    expect(all(after)).toEqual(buildRows([...events]));
    expect(before.count).toBe(2);
    expect(grouper.update(events)).toBe(after);
  });

  it("keys a stored prompt as it was keyed while sent; a prompt with no id, or an id already keyed, by its seq", () => {
    const events = [
      ev(1, 'user_message', { text: 'sent here', clientMessageId: 'c1' }),
      ev(2, 'agent_message', { text: 'a' }),
      ev(3, 'user_message', { text: 'from an older host' }),
      // The same id again (an imported transcript): keys stay unique.
      ev(4, 'user_message', { text: 'again', clientMessageId: 'c1' }),
    ];
    const grouper = new RowGrouper();
    const keys = (list: RowList): string[] => all(list).map((r) => r.key);
    expect(keys(grouper.update(events))).toEqual([promptRowKey('c1'), 'agent-2', 'user-3', 'user-4']);
    // A regroup from scratch (an older page prepended) keys them the same way again.
    expect(keys(grouper.update([ev(0, 'agent_message', { text: 'older' }), ...events]))).toEqual(['agent-0', promptRowKey('c1'), 'agent-2', 'user-3', 'user-4']);
  });

  it('answers the same list for the same events and for invisible events', () => {
    const events = [ev(1, 'agent_message', { text: 'a' })];
    const grouper = new RowGrouper();
    const list = grouper.update(events);
    expect(grouper.update(events)).toBe(list);
    expect(grouper.update([...events, ev(2, 'session_info', {})])).toBe(list);
  });

  it('lets go of an evicted head without a regroup: a long answer stays one message under its key', () => {
    const events = [ev(1, 'user_message', { text: 'write a lot' }), ...Array.from({ length: 30 }, (_, i) => ev(i + 2, 'agent_message', { text: `c${i + 2} ` }))];
    const grouper = new RowGrouper();
    const before = grouper.update(events.slice(0, 25));
    // The store's cap drops seqs 1..10 and two more chunks arrive before the next frame.
    const after = grouper.update(events.slice(10, 27));
    expect(grouper.stats).toMatchObject({ regroups: 0, trims: 1 });
    expect(after.count).toBe(1);
    expect(after.layout).not.toBe(before.layout);
    const whole = events.slice(1, 27).map((e) => (e.payload as { text: string }).text).join('');
    expect(after.at(0)).toMatchObject({ type: 'agent', key: 'agent-2', text: whole });
    expect(piecesText(after.at(0))).toBe(whole);
    // Every kept event maps to the message; the snapshot handed out before still reads its rows.
    expect(after.rowOfEvent(0)).toBe(0);
    expect(after.rowOfEvent(16)).toBe(0);
    expect(before.at(0)).toMatchObject({ type: 'user', key: 'user-1' });
    expect(before.count).toBe(2);
    // Appends after the trim fold in place again.
    const later = grouper.update(events.slice(10));
    expect(grouper.stats).toMatchObject({ regroups: 0, trims: 1 });
    expect(later.layout).toBe(after.layout);
    expect((later.at(0) as { text: string }).text.endsWith('c31 ')).toBe(true);
  });

  it('gives a streamed message its pieces: each row reads its own text from them, a row handed out earlier too', () => {
    const chunks = ['  ', '\n', 'Hello', ' world', '\n\nmore'];
    const events = [ev(1, 'user_message', { text: 'hi' }), ...chunks.map((text, i) => ev(i + 2, 'agent_message', { text }))];
    const grouper = new RowGrouper();
    const seen: Row[] = [];
    for (let n = 2; n <= events.length; n++) seen.push(grouper.update(events.slice(0, n)).at(1)!);
    // One chunk: no pieces (nothing to read piecemeal); from the second on, all rows share one.
    expect((seen[0] as { pieces?: unknown }).pieces).toBeUndefined();
    const shared = (seen.at(-1) as { pieces?: unknown }).pieces;
    expect(shared).toBeDefined();
    seen.slice(1).forEach((row, i) => {
      expect((row as { pieces?: unknown }).pieces).toBe(shared);
      expect(piecesText(row)).toBe(chunks.slice(0, i + 2).join(''));
    });
    // Blank while only white space came, whatever came after.
    expect(seen.map(isBlankRow)).toEqual([true, true, false, false, false]);
  });

  it('tells a thought of white space from one with text by its pieces, from an empty first chunk on', () => {
    const chunks = ['', ' \n', '\tplan', ''];
    const events = [ev(1, 'user_message', { text: 'hi' }), ...chunks.map((text, i) => ev(i + 2, 'agent_thought', { text }))];
    const grouper = new RowGrouper();
    const seen = [2, 3, 4, 5].map((n) => grouper.update(events.slice(0, n)).at(1)!);
    expect(seen.map((r) => r.type)).toEqual(['thought', 'thought', 'thought', 'thought']);
    expect(seen.map(isBlankRow)).toEqual([true, true, false, false]);
    expect(piecesText(seen.at(-1))).toBe(' \n\tplan');
  });

  it('after a trim, the rows are the newest rows of the whole grouping, and updates reach cards kept', () => {
    const events = script(600);
    const grouper = new RowGrouper();
    grouper.update(events.slice(0, 400));
    for (let i = 400; i < 600; i++) grouper.update(events.slice(150, i + 1));
    const list = grouper.update(events.slice(150));
    expect(grouper.stats).toMatchObject({ regroups: 0, trims: 1 });
    const whole = buildRows(events);
    const rows = all(list);
    // Only rows the dropped events alone made are gone; what is kept is exactly what a full grouping shows.
    expect(rows).toEqual(whole.slice(whole.length - rows.length));
    expect(rows.length).toBeGreaterThanOrEqual(buildRows(events.slice(150)).length - 2);
    const firstKept = Number((rows[0] as Row).key.split('-')[1]);
    expect(firstKept).toBeLessThanOrEqual(151);
  });

  it('keeps a card that a kept event updates, though the dropped events made it', () => {
    const events = [
      ev(1, 'tool_call', { toolCallId: 't', title: 'Run', status: 'pending' }),
      ev(2, 'agent_message', { text: 'waiting' }),
      ev(3, 'user_message', { text: 'and?' }),
      ev(4, 'tool_call_update', { toolCallId: 't', status: 'completed' }),
    ];
    const grouper = new RowGrouper();
    grouper.update(events);
    const list = grouper.update(events.slice(2));
    expect(grouper.stats).toMatchObject({ regroups: 0, trims: 1 });
    expect(all(list).map((r) => r.key)).toEqual(['tool-1', 'agent-2', 'user-3']);
    expect(list.at(0)).toMatchObject({ call: { status: 'completed' } });
    expect(list.rowOfEvent(1)).toBe(0);
    // A card whose events were all dropped is gone; a later update to it starts a new card, as a regroup would.
    const again = new RowGrouper();
    again.update(events.slice(0, 3));
    expect(all(again.update(events.slice(2))).map((r) => r.key)).toEqual(['user-3', 'tool-4']);
    expect(all(again.update(events.slice(2)))).toEqual(buildRows(events.slice(2)));
  });

  it('regroups when an older page is prepended, and starts over for another session', () => {
    const events = script(60);
    const grouper = new RowGrouper();
    grouper.update(events.slice(30));
    const list = grouper.update(events);
    expect(grouper.stats.regroups).toBe(1);
    expect(all(list)).toEqual(buildRows(events));
    expect(grouper.update([]).count).toBe(0);
    const other = [ev(1, 'agent_message', { text: 'other' })];
    expect(all(grouper.update(other))).toEqual(buildRows(other));
  });

  it('leaves a snapshot handed out earlier readable after a regroup', () => {
    const grouper = new RowGrouper();
    const old = grouper.update([ev(5, 'agent_message', { text: 'x' })]);
    grouper.update([ev(4, 'user_message', { text: 'q' }), ev(5, 'agent_message', { text: 'x' })]);
    expect(all(old)).toEqual([{ type: 'agent', key: 'agent-5', text: 'x' }]);
    expect(old.layout.keyAt(0)).toBe('agent-5');
    expect(old.at(1)).toBeUndefined();
  });
});

describe('lastUserPrompt', () => {
  it('finds the newest prompt', () => {
    const events = [ev(1, 'user_message', { text: 'one' }), ev(2, 'user_message', { text: 'two' }), ev(3, 'error', { code: 'agent_error', message: 'x' })];
    expect(lastUserPrompt(events)).toBe('two');
    expect(lastUserPrompt([])).toBeUndefined();
  });
});

describe('the Stopped mark', () => {
  it('is left by every way a turn is stopped, saying which', () => {
    const rows = buildRows([
      ev(1, 'turn_ended', { stopReason: 'cancelled' }),
      ev(2, 'turn_ended', { stopReason: 'cancelled', reason: 'cancelled_before_start' }),
      ev(3, 'turn_ended', { stopReason: 'cancelled', reason: 'agent_ignored_cancel' }),
      ev(4, 'turn_ended', { stopReason: 'cancelled', reason: 'closed_by_user' }),
      ev(5, 'turn_ended', { stopReason: 'cancelled', reason: 'recovered' }),
    ]);
    expect(rows.map((r) => (r.type === 'stopped' ? r.text : r.type))).toEqual([
      'Stopped',
      'Stopped before the agent started on it',
      'Stopped: the agent did not acknowledge Stop',
      'Stopped: the session was closed',
      'Stopped',
    ]);
  });
});

describe('transcript rows in the store', () => {
  it('follow pushed events incrementally: a streamed chunk changes only the last row', async () => {
    const ctx = boundStore();
    const { fake, store } = ctx;
    fake.handle('sessions:switch', () => ok(answer()));
    fake.handle('transcript:page', () =>
      ok({ events: [ev(1, 'user_message', { text: 'hi' }), ev(2, 'agent_message', { text: 'Hel' })], hasMore: false }),
    );
    await store.getState().switchSession(SID);
    const before = store.getState().transcript.rows;
    fake.emit('session:event', ev(3, 'agent_message', { text: 'lo' }));
    const after = store.getState().transcript.rows;
    expect(after.layout).toBe(before.layout);
    expect(after.at(0)).toBe(before.at(0));
    expect(after.at(1)).toMatchObject({ type: 'agent', text: 'Hello' });
    fake.emit('session:event', ev(4, 'turn_ended', { stopReason: 'cancelled' }));
    expect(store.getState().transcript.rows.layout).not.toBe(before.layout);
    expect(store.getState().transcript.rows.count).toBe(3);
  });
});
