import { describe, expect, it } from 'vitest';
import { commandNameList, eventNameList } from './channels';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  commands,
  eventPayloads,
  events,
  SendPrompt,
  SessionEvent,
  TranscriptPage,
  CreateSession,
  WsFrame,
  eventNames,
  WsRequest,
  type EventOf,
  type SessionEventT,
} from './contract';

describe('the contract', () => {
  it('names the same commands and events as the zod-free channel list the preload uses', () => {
    expect([...commandNameList].sort()).toEqual(Object.keys(commands).sort());
    expect([...eventNameList].sort()).toEqual(Object.keys(events).sort());
  });

  it('names commands domain:verb and events domain:noun', () => {
    for (const name of [...Object.keys(commands), ...Object.keys(events)]) expect(name).toMatch(/^[a-z]+:[a-z]+$/);
  });

  it('accepts a well-formed prompt and refuses bad ones', () => {
    const ok = { sessionId: crypto.randomUUID(), clientMessageId: crypto.randomUUID(), text: 'hi' };
    expect(SendPrompt.safeParse(ok).success).toBe(true);
    expect(SendPrompt.safeParse({ ...ok, text: '' }).success).toBe(false);
    expect(SendPrompt.safeParse({ ...ok, sessionId: 'not-a-uuid' }).success).toBe(false);
    expect(SendPrompt.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    expect(SendPrompt.safeParse({ ...ok, retry: 'yes' }).success).toBe(false);
  });

  it('defaults and bounds the transcript page size', () => {
    const sessionId = crypto.randomUUID();
    expect(TranscriptPage.parse({ sessionId })).toEqual({ sessionId, limit: 200 });
    expect(TranscriptPage.safeParse({ sessionId, limit: 0 }).success).toBe(false);
    expect(TranscriptPage.safeParse({ sessionId, limit: 5000 }).success).toBe(false);
    expect(TranscriptPage.safeParse({ sessionId, beforeSeq: 0 }).success).toBe(false);
  });

  it('refuses unknown fields when creating a session', () => {
    expect(CreateSession.safeParse({}).success).toBe(true);
    expect(CreateSession.safeParse({ agentId: '' }).success).toBe(false);
    expect(CreateSession.safeParse({ cwd: '/tmp', shell: 'rm -rf' }).success).toBe(false);
  });

  it('describes stored events with a positive seq', () => {
    const e = { sessionId: crypto.randomUUID(), seq: 1, kind: 'agent_message', payload: { text: 'x' }, at: 1 };
    expect(SessionEvent.safeParse(e).success).toBe(true);
    expect(SessionEvent.safeParse({ ...e, seq: 0 }).success).toBe(false);
    expect(SessionEvent.safeParse({ ...e, kind: 'made_up' }).success).toBe(false);
  });
});

type Kind = SessionEventT['kind'];

/** One payload of every kind, as the host writes it (a kind missing here is a type error). */
const samples: { [K in Kind]: EventOf<K>['payload'] } = {
  user_message: { text: 'Fix the build', clientMessageId: 'c1' },
  agent_message: { text: 'Looking', extra: { _meta: { model: 'm' } } },
  agent_thought: { text: 'hm' },
  tool_call: {
    toolCallId: 't1',
    title: 'Edit a.ts',
    kind: 'edit',
    status: 'pending',
    content: [
      { type: 'content', content: { type: 'text', text: 'out' } },
      { type: 'diff', path: '/w/a.ts', oldText: null, newText: 'x' },
      { type: 'terminal', terminalId: 'term-1' },
    ],
    locations: [{ path: '/w/a.ts', line: 3 }],
    rawInput: { command: ['npm', 'test'], env: null },
  },
  tool_call_update: { toolCallId: 't1', status: 'completed', rawOutput: { exitCode: 0 } },
  plan: { entries: [{ content: 'Read', priority: 'high', status: 'in_progress' }] },
  session_info: { title: 'Build fix', updatedAt: '2026-01-01T00:00:00Z' },
  available_commands: { commands: [{ name: 'title', description: 'Name it', input: { hint: 'a title' } }] },
  turn_started: { clientMessageId: 'c1' },
  turn_ended: { stopReason: 'cancelled', clientMessageId: 'c1', reason: 'closed_by_user' },
  permission_requested: {
    requestId: 'r1',
    toolCall: { toolCallId: 't1', title: 'Edit a.ts', kind: 'edit' },
    options: [{ optionId: 'o1', name: 'Allow once', kind: 'allow_once' }],
  },
  permission_resolved: {
    requestId: 'r1',
    title: 'Edit a.ts',
    outcome: 'selected',
    optionId: 'o1',
    optionName: 'Allow once',
    decider: { kind: 'window', clientId: 'c', label: 'window 1' },
  },
  error: { code: 'agent_exited', message: 'Demo exited with code 1', stderrTail: ['boom'] },
  notice: { kind: 'agent_exited', text: 'Demo exited; the next prompt restarts it.' },
  question_asked: {
    requestId: 'q1',
    toolCallId: 't1',
    question: {
      mode: 'form',
      message: 'Deploy?',
      form: { title: 'Deploy', fields: [{ kind: 'text', name: 'token', label: 'Token', required: true, patternEnforced: false, secret: true }] },
    },
  },
  question_answered: { requestId: 'q1', action: 'accept', content: { token: '••••••', replicas: 2, features: ['logs'], confirm: true }, decider: { kind: 'window', clientId: 'c' } },
  question_completed: { requestId: 'q2', elicitationId: 'e1' },
  agent_update: { sessionUpdate: 'current_mode_update', extra: { currentModeId: 'plan' } },
  auth_required: {
    message: 'Gemini asks you to sign in: Authentication required',
    methods: [
      { id: 'oauth-personal', name: 'Log in with Google', kind: 'agent' },
      { id: 'gemini-api-key', name: 'Gemini API key', description: 'Use a key', kind: 'env_var', envVar: 'GEMINI_API_KEY' },
      { id: 'login', name: 'Terminal', kind: 'terminal', command: 'claude /login' },
      { id: 'env:IS_SANDBOX', name: 'Set IS_SANDBOX=1', kind: 'env_var', envVar: 'IS_SANDBOX', fromHint: true },
    ],
    hint: 'set IS_SANDBOX=1',
    during: 'start',
  },
  file_written: { path: '/w/a.ts', created: false, bytes: 3, diff: { type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'abc' } },
  terminal_output: { terminalId: 'term-1', command: 'npm test', output: 'ok\n', truncated: false, exit: { exitCode: 0, signal: null } },
  checkpoint: { checkpointId: 'c1', clientMessageId: 'c1', commit: 'a'.repeat(40), reason: 'turn', partial: true },
  files_restored: { action: 'restore', checkpointId: 'c1', undo: 'undo-1', removed: 1, written: 2, paths: ['a.ts', 'b.ts', 'c.ts'], text: 'Restored' },
  setup_command: { command: 'npm ci', output: 'added 3 packages\n', truncated: false, exit: { exitCode: 0, signal: null }, durationMs: 1200, failed: false },
  unreadable: { storedKind: 'mode_changed', raw: '{"mode":1}' },
};

/** For every kind, a payload that breaks its schema. */
const wrong: Record<Kind, unknown> = {
  user_message: { clientMessageId: 'c1' },
  agent_message: { text: 7 },
  agent_thought: {},
  tool_call: { toolCallId: 't1', title: 'Edit', status: 'running' },
  tool_call_update: { toolCallId: 't1', kind: 'compile' },
  plan: { entries: [{ content: 'a', priority: 'urgent', status: 'pending' }] },
  session_info: { title: 3 },
  available_commands: { commands: [{ name: 'x' }] },
  turn_started: { clientMessageId: 4 },
  turn_ended: { stopReason: 'done' },
  permission_requested: { requestId: 'r1', toolCall: { title: 'no id' }, options: [] },
  permission_resolved: { requestId: 'r1', outcome: 'allowed', decider: { kind: 'timeout' } },
  error: { code: 'oops', message: 'x' },
  notice: { kind: 'gossip', text: 'x' },
  agent_update: { sessionUpdate: 5, extra: {} },
  auth_required: { message: 'x', methods: [{ id: 'm', name: 'M', kind: 'password' }], during: 'start' },
  file_written: { path: '/w/a.ts', created: 'no', bytes: 3 },
  question_asked: { requestId: 'q1', question: { mode: 'form', message: 'x', form: { fields: [{ kind: 'slider', name: 'a' }] } } },
  question_answered: { requestId: 'q1', action: 'maybe', decider: { kind: 'window', clientId: 'c' } },
  question_completed: { requestId: 'q2' },
  terminal_output: { terminalId: 'term-1', command: 'x', output: 'ok', truncated: false, exit: { exitCode: 'zero' } },
  checkpoint: { checkpointId: 'c1', commit: 'a', reason: 'whim' },
  files_restored: { action: 'undo', undo: 'u', removed: 0, written: 0, paths: [], text: '' },
  setup_command: { command: 'npm ci', output: '', truncated: false, exit: {}, durationMs: -1, failed: false },
  unreadable: { storedKind: 'x' },
};

const kinds = Object.keys(samples) as Kind[];
const event = (kind: Kind, payload: unknown) => ({ sessionId: crypto.randomUUID(), seq: 3, kind, payload, at: 10 });

describe('transcript events on the wire', () => {
  it('names every stored kind and the unreadable one', () => {
    expect(kinds.sort()).toEqual([...Object.keys(eventPayloads), 'unreadable'].sort());
  });

  it.each(kinds)('round-trips a %s event through JSON and the schema unchanged', (kind) => {
    const e = event(kind, samples[kind]);
    expect(SessionEvent.parse(JSON.parse(JSON.stringify(e)))).toEqual(e);
  });

  it.each(kinds)('refuses a %s event whose payload breaks its schema', (kind) => {
    expect(SessionEvent.safeParse(event(kind, wrong[kind])).success).toBe(false);
  });

  it('reads an agent_update stored before ADR 0009 (the whole update under `update`) as today\'s shape', () => {
    const old = { update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan', _meta: { a: 1 } } };
    expect(eventPayloads.agent_update.parse(old)).toEqual({
      sessionUpdate: 'current_mode_update',
      extra: { currentModeId: 'plan', _meta: { a: 1 } },
    });
  });

  it('types WebSocket frames by the contract tables', () => {
    expect(WsRequest.safeParse({ id: 1, command: 'host:info' }).success).toBe(true);
    expect(WsRequest.safeParse({ id: 1, command: 'host:info', payload: { f: () => 1 } }).success).toBe(false);
    const e = event('agent_message', { text: 'x' });
    expect(WsFrame.safeParse({ type: 'event', event: 'session:event', payload: e }).success).toBe(true);
    expect(WsFrame.safeParse({ type: 'event', event: 'session:event', payload: { ...e, payload: {} } }).success).toBe(false);
    expect(WsFrame.safeParse({ type: 'response', id: 1, result: { ok: false, error: { code: 'not_found', message: 'x' } } }).success).toBe(true);
    expect(WsFrame.safeParse({ type: 'response', id: 1, result: { ok: false, error: { code: 'nope', message: 'x' } } }).success).toBe(false);
    // Every event of the table has its frame; an event name that is not one has none.
    for (const name of eventNames) expect(WsFrame.options.some((o) => o.shape.type.value === 'event' && (o.shape as { event?: { value: string } }).event?.value === name), name).toBe(true);
    expect(WsFrame.safeParse({ type: 'event', event: 'no:such', payload: {} }).success).toBe(false);
  });

  it('leaves nothing untyped: no z.unknown() in the contract, errors or events', () => {
    for (const file of ['contract.ts', 'events.ts', 'errors.ts']) {
      expect(readFileSync(join(__dirname, file), 'utf8')).not.toMatch(/z\.unknown\(|z\.any\(/);
    }
  });
});
