import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { EventsRepo, LATEST_COMMANDS_SQL } from './events.repo';
import { SessionsRepo } from './sessions.repo';
import { Store } from './store';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Payloads exactly as the host stored them before ADR 0009 (and some from before that). */
const OLD_ROWS: [kind: string, payload: unknown][] = [
  ['user_message', { text: 'Fix the build', clientMessageId: 'c1' }],
  ['turn_started', { clientMessageId: 'c1' }],
  ['agent_message', { text: 'Looking' }],
  // The ACP objects as the agent sent them, `_meta` and annotations included.
  [
    'tool_call',
    {
      toolCallId: 't1',
      title: 'Edit a.ts',
      kind: 'edit',
      status: 'pending',
      content: [
        { type: 'content', content: { type: 'text', text: 'out', annotations: { priority: 1 } } },
        { type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'b', _meta: { x: 1 } },
      ],
      locations: [{ path: '/w/a.ts', line: 3 }],
      rawInput: { path: '/w/a.ts' },
    },
  ],
  ['tool_call_update', { toolCallId: 't1', status: 'completed', rawOutput: { ok: true } }],
  ['plan', { entries: [{ content: 'Read', priority: 'high', status: 'pending', _meta: null }] }],
  ['available_commands', { commands: [{ name: 'title', description: 'Name it', input: null }] }],
  ['session_info', { updatedAt: '2026-01-01T00:00:00Z' }],
  [
    'permission_requested',
    {
      requestId: 'r1',
      toolCall: { toolCallId: 't1', title: 'Edit a.ts', kind: 'edit', locations: [{ path: '/w/a.ts', line: null }], rawInput: { path: '/w/a.ts' } },
      options: [{ optionId: 'o1', name: 'Allow once', kind: 'allow_once' }],
    },
  ],
  [
    'permission_resolved',
    { requestId: 'r1', title: 'Edit a.ts', outcome: 'selected', optionId: 'o1', optionName: 'Allow once', decider: { kind: 'window', clientId: 'c', label: 'window 1' } },
  ],
  [
    'permission_resolved',
    { requestId: 'r2', title: 'Run', outcome: 'cancelled', decider: { kind: 'cancel', reason: 'host_restart' }, reason: 'host_restart' },
  ],
  ['error', { code: 'agent_exited', message: 'Demo exited with code 1', stderrTail: ['boom'] }],
  ['notice', { text: 'Demo exited; the next prompt restarts it.', stderrTail: ['boom'] }],
  ['turn_ended', { stopReason: 'cancelled', clientMessageId: 'c1', reason: 'agent_ignored_cancel' }],
  ['agent_update', { update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan' } }],
  // Rows from before prompts had client message ids, and a tool call that named no status.
  ['user_message', { text: 'older' }],
  ['tool_call', { toolCallId: 't0', title: 'Read' }],
  ['turn_ended', { stopReason: 'end_turn' }],
];

/** Rows no version of this schema reads: damaged text, a wrong shape, a kind from elsewhere. */
const GARBAGE_ROWS: [kind: string, raw: string][] = [
  ['agent_message', 'not json{'],
  ['tool_call', '{"title":"no id"}'],
  ['mode_changed', '{"mode":"plan"}'],
  ['notice', 'null'],
];

function storeWithRows(rows: [kind: string, raw: string][]) {
  const dir = tempDir();
  const file = join(dir.path, 'host.db');
  const writer = Store.open(file);
  writer.sessions.insert({ id: 's', agent_id: 'demo', cwd: '/', state: 'ENDED' }, 1);
  const insert = writer.db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES ('s', ?, ?, ?, ?)`);
  rows.forEach(([kind, raw], i) => insert.run(i + 1, kind, raw, 100 + i));
  writer.db.prepare(`UPDATE sessions SET last_seq = ? WHERE id = 's'`).run(rows.length);
  writer.dispose();
  // Read back through a fresh open of the same file, as the next start would.
  const store = Store.open(file);
  cleanups.push(() => {
    store.dispose();
    dir.cleanup();
  });
  return { events: new EventsRepo(store.db), db: store.db };
}

describe('EventsRepo reading stored rows', () => {
  it("reads every payload today's and older versions stored as its own kind", () => {
    const store = storeWithRows(OLD_ROWS.map(([kind, payload]) => [kind, JSON.stringify(payload)]));
    const { events, hasMore } = store.events.pageAfter('s', 0, 100);
    expect(hasMore).toBe(false);
    expect(events.map((e) => e.kind)).toEqual(OLD_ROWS.map(([kind]) => kind));
    expect(events.map((e) => e.seq)).toEqual(OLD_ROWS.map((_, i) => i + 1));
    expect(events.find((e) => e.kind === 'agent_update')?.payload).toEqual({ sessionUpdate: 'current_mode_update', extra: { currentModeId: 'plan' } });
    expect(events.at(-2)?.payload).toEqual({ toolCallId: 't0', title: 'Read', status: 'pending' });
    expect(events.find((e) => e.kind === 'notice')?.payload).toEqual({ text: 'Demo exited; the next prompt restarts it.', stderrTail: ['boom'] });
    expect(events.find((e) => e.kind === 'tool_call')?.payload).toMatchObject({
      content: [
        { type: 'content', content: { type: 'text', text: 'out' } },
        { type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'b' },
      ],
    });
  });

  it('returns a row that does not parse as an unreadable event with its stored kind and text, in its place', () => {
    const rows: [string, string][] = [['user_message', JSON.stringify({ text: 'hi', clientMessageId: 'c1' })], ...GARBAGE_ROWS, ['agent_message', '{"text":"after"}']];
    const store = storeWithRows(rows);
    const { events } = store.events.pageAfter('s', 0, 100);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events[0]).toMatchObject({ kind: 'user_message', payload: { text: 'hi' } });
    expect(events.slice(1, 5)).toEqual(
      GARBAGE_ROWS.map(([kind, raw], i) => ({ sessionId: 's', seq: i + 2, at: 101 + i, kind: 'unreadable', payload: { storedKind: kind, raw } })),
    );
    expect(events[5]).toMatchObject({ kind: 'agent_message', payload: { text: 'after' } });
    // Pages the other way and kind queries see the same rows.
    expect(store.events.pageBefore('s', 7, 3).events.map((e) => e.kind)).toEqual(['unreadable', 'unreadable', 'agent_message']);
    expect(store.events.recentOfKinds('s', ['agent_message'], 10).map((e) => e.kind)).toEqual(['unreadable', 'agent_message']);
  });
});

describe('EventsRepo: the latest command list', () => {
  const commands = (names: string[]) => JSON.stringify({ commands: names.map((name) => ({ name, description: name })) });

  it('finds the newest command list of the session, none when there is none', () => {
    const store = storeWithRows([
      ['available_commands', commands(['old'])],
      ['agent_message', JSON.stringify({ text: 'hi' })],
      ['available_commands', commands(['new'])],
      ['agent_message', JSON.stringify({ text: 'later' })],
    ]);
    const found = store.events.latestCommands('s');
    expect(found?.kind === 'available_commands' ? found.payload.commands.map((c) => c.name) : undefined).toEqual(['new']);
    expect(store.events.latestCommands('other')).toBeUndefined();
  });

  it('looks it up through its own index, not by walking the transcript (switching asks every time)', () => {
    const store = storeWithRows([['agent_message', JSON.stringify({ text: 'hi' })]]);
    const plan = store.db
      .prepare(`EXPLAIN QUERY PLAN ${LATEST_COMMANDS_SQL}`)
      .all('s') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toContain('events_available_commands');
  });
});

describe('EventsRepo: the newest page, kept', () => {
  const rows = (n: number): [string, string][] => Array.from({ length: n }, (_, i) => ['agent_message', JSON.stringify({ text: `m${i + 1}`, messageId: `m${i + 1}` })]);
  /** Changes a stored row behind the repository's back (the seq stays): a kept page does not see it. */
  const rewrite = (db: ReturnType<typeof storeWithRows>['db'], session: string, seq: number, text: string): void =>
    void db.prepare(`UPDATE events SET payload = ? WHERE session_id = ? AND seq = ?`).run(JSON.stringify({ text }), session, seq);

  it('serves the newest page again while nothing was committed to the session, and reads it afresh after a commit', () => {
    const store = storeWithRows(rows(6));
    const first = store.events.pageBefore('s', Number.MAX_SAFE_INTEGER, 3);
    expect(first.events.map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(Object.isFrozen(first) && Object.isFrozen(first.events)).toBe(true);
    rewrite(store.db, 's', 6, 'changed');
    expect(store.events.pageBefore('s', Number.MAX_SAFE_INTEGER, 3)).toBe(first);
    // Any seq past the last asks for the newest page.
    expect(store.events.pageBefore('s', 7, 3)).toBe(first);

    // A commit moves the session's last seq in the same transaction as its rows.
    store.db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES ('s', 7, 'agent_message', '{"text":"m7"}', 1)`).run();
    store.db.prepare(`UPDATE sessions SET last_seq = 7 WHERE id = 's'`).run();
    const after = store.events.pageBefore('s', Number.MAX_SAFE_INTEGER, 3);
    expect(after.events.map((e) => (e.kind === 'agent_message' ? e.payload.text : e.kind))).toEqual(['m5', 'changed', 'm7']);
  });

  it('reads the newest page afresh once a clean-up deleted the transcript’s oldest rows (the last seq stays)', () => {
    const store = storeWithRows(rows(6));
    const kept = store.events.pageBefore('s', Number.MAX_SAFE_INTEGER, 3);
    expect(kept.hasMore).toBe(true);
    // As clean-up.ts deletes a long transcript: a slice of its oldest rows at a time.
    store.db.prepare(`DELETE FROM events WHERE session_id = 's' AND seq <= 4`).run();
    const after = store.events.pageBefore('s', Number.MAX_SAFE_INTEGER, 3);
    expect(after).not.toBe(kept);
    expect(after).toEqual({ events: [expect.objectContaining({ seq: 5 }), expect.objectContaining({ seq: 6 })], hasMore: false });
  });

  it('keeps no older page, and keys the newest one by its size', () => {
    const store = storeWithRows(rows(6));
    const older = store.events.pageBefore('s', 4, 2);
    expect(older.events.map((e) => e.seq)).toEqual([2, 3]);
    rewrite(store.db, 's', 3, 'changed');
    expect(store.events.pageBefore('s', 4, 2).events.map((e) => (e.kind === 'agent_message' ? e.payload.text : e.kind))).toEqual(['m2', 'changed']);

    const three = store.events.pageBefore('s', Number.MAX_SAFE_INTEGER, 3);
    const two = store.events.pageBefore('s', Number.MAX_SAFE_INTEGER, 2);
    expect(two).not.toBe(three);
    expect(two.events.map((e) => e.seq)).toEqual([5, 6]);
  });

  it('forgets a session’s page when told, and the page read longest ago past 32 sessions', () => {
    const store = storeWithRows(rows(2));
    const sessions = new SessionsRepo(store.db);
    const insertEvent = store.db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, 1, 'agent_message', '{"text":"x"}', 1)`);
    const bump = store.db.prepare(`UPDATE sessions SET last_seq = 1 WHERE id = ?`);
    const read = (id: string) => store.events.pageBefore(id, Number.MAX_SAFE_INTEGER, 5);
    const kept = read('s');
    store.events.forgetNewest('s');
    expect(read('s')).not.toBe(kept);

    const first = read('s');
    for (let i = 0; i < 32; i++) {
      sessions.insert({ id: `o${i}`, agent_id: 'demo', cwd: '/', state: 'ENDED' }, 1);
      insertEvent.run(`o${i}`);
      bump.run(`o${i}`);
      read(`o${i}`);
    }
    expect(read('o0')).toBe(read('o0'));
    expect(read('s')).not.toBe(first);
  });
});
