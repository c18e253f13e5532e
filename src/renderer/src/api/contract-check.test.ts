// First, as in main.tsx: the schemas are built jitless, as the window runs them.
import '../lib/zod-config';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Api, EventName, WireError } from '../../../shared/contract';
import { createAppStore } from '../store/app-store';
import { bindApi } from '../store/bind-api';
import { sampleEvents, sampleSwitch } from '../test-support/contract-samples';
import { flush, SID } from '../test-support/fake-api';
import { FakeSocket, ManualTimers } from '../test-support/fake-socket';
import { checkApi } from './contract-check';
import { apiOverTransport, WsTransport } from './ws-api';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The browser's transport over a socket the test drives, checked as connectToHost checks it. */
function overWebSocket() {
  let socket: FakeSocket | undefined;
  const transport = new WsTransport({
    url: 'ws://host/ws',
    timers: new ManualTimers(),
    heartbeatIntervalMs: 0,
    createSocket: (url) => (socket = new FakeSocket(url)),
  });
  const logged: WireError[] = [];
  const checked = checkApi(apiOverTransport(transport), (e) => logged.push(e));
  const host = socket as FakeSocket;
  host.open();
  /** Answers the latest request for `command` with `result`. */
  const reply = (command: string, result: unknown): void => {
    const frame = host.sent.filter((f) => f.command === command).at(-1);
    if (!frame) throw new Error(`no ${command} was sent`);
    host.reply(frame.id, result);
  };
  return { transport, checked, host, reply, logged };
}

/** The desktop app's `window.api` as the preload builds it: one function per command, IPC events. */
function overPreload(answers: Record<string, unknown>) {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const preload: Record<string, unknown> = {
    on: (event: string, l: (payload: unknown) => void) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(l);
      return () => set.delete(l);
    },
    onReconnect: () => () => {},
  };
  for (const [name, result] of Object.entries(answers)) preload[name] = () => Promise.resolve(structuredClone(result));
  const emit = (event: EventName, payload: unknown): void => {
    for (const l of listeners.get(event) ?? []) l(structuredClone(payload));
  };
  return { preload: preload as unknown as Api, emit };
}

describe('answers and events checked where they arrive', () => {
  it('turns an answer that breaks the contract into a contract error naming the command and the field, which the store shows', async () => {
    const { transport, checked, reply, logged } = overWebSocket();
    const store = createAppStore({ api: checked.api, newId: () => SID, lastSession: { get: () => undefined, set: () => {} } });
    bindApi(store, checked.api, transport, checked.contract);

    const switching = store.getState().switchSession(SID);
    const bad = sampleSwitch();
    reply('sessions:switch', { ok: true, value: { ...bad, session: { ...bad.session, id: SID, running: 'yes' } } });
    await switching;

    const error = store.getState().switchError;
    expect(error?.code).toBe('contract_violation');
    expect(error?.message).toBe('The answer to sessions:switch does not match the contract: session.running: Invalid input: expected boolean, received string');
    expect(error?.details?.issues).toEqual([{ path: ['session', 'running'], message: 'Invalid input: expected boolean, received string' }]);
    expect(store.getState().transcript.error?.code).toBe('contract_violation');
    expect(store.getState().notices.map((n) => n.text)).toContain(`Switchboard could not read what the host sent. ${error?.message}`);
    expect(logged).toEqual([error]);
    // Nothing of the refused answer reached the store.
    expect(store.getState().sessionsById.get(SID)).toBeUndefined();
  });

  it('drops a pushed event that breaks the contract, naming the event and the field, and keeps the stream going', async () => {
    const { transport, checked, host, reply, logged } = overWebSocket();
    const store = createAppStore({ api: checked.api, newId: () => SID, lastSession: { get: () => undefined, set: () => {} } });
    bindApi(store, checked.api, transport, checked.contract);
    const switching = store.getState().switchSession(SID);
    const answer = sampleSwitch();
    reply('sessions:switch', { ok: true, value: { ...answer, session: { ...answer.session, id: SID, lastSeq: 0 }, lastSeq: 0, pendingPermissions: [] } });
    await flush();
    reply('transcript:page', { ok: true, value: { events: [], hasMore: false } });
    await switching;

    host.push('session:event', { sessionId: SID, seq: 1, at: 1, kind: 'agent_message', payload: { text: 42 } });
    expect(store.getState().transcript.events).toHaveLength(0);
    expect(logged.map((e) => e.message)).toEqual([
      'The event session:event does not match the contract: payload.text: Invalid input: expected string, received number',
    ]);
    expect(store.getState().notices.at(-1)?.text).toBe(`Switchboard could not read what the host sent. ${logged[0]?.message}`);

    // The same fault again is logged again but not said twice; a good event still arrives.
    host.push('session:event', { sessionId: SID, seq: 1, at: 1, kind: 'agent_message', payload: { text: 42 } });
    expect(logged).toHaveLength(2);
    expect(store.getState().notices.filter((n) => n.text.includes('payload.text'))).toHaveLength(1);
    host.push('session:event', { sessionId: SID, seq: 1, at: 1, kind: 'agent_message', payload: { text: 'Hello' } });
    expect(store.getState().transcript.events.map((e) => e.seq)).toEqual([1]);
  });

  it('names each field of a deeper mismatch, and refuses a reply that is not a result at all', async () => {
    const { checked, reply, logged } = overWebSocket();
    const page = checked.api['transcript:page']({ sessionId: SID });
    const events = sampleEvents(5);
    // The third is a thought chunk: its text goes missing.
    const third = events[2] as { payload: object };
    events[2] = { ...third, payload: { ...third.payload, text: undefined } } as unknown as (typeof events)[number];
    reply('transcript:page', { ok: true, value: { events, hasMore: 'no' } });
    const res = await page;
    expect(res.ok ? undefined : res.error.message).toBe(
      'The answer to transcript:page does not match the contract: events[2].payload.text: Invalid input: expected string, received undefined; hasMore: Invalid input: expected boolean, received string',
    );

    const list = checked.api['sessions:list']({});
    reply('sessions:list', { value: [] });
    expect(await list).toMatchObject({ ok: false, error: { code: 'contract_violation', details: { issues: [{ path: ['ok'] }] } } });

    const info = checked.api['host:info']({});
    reply('host:info', { ok: false, error: { code: 'no_such_code', message: 'x' } });
    const refused = await info;
    expect(refused.ok ? undefined : refused.error.message).toMatch(/^The answer to host:info does not match the contract: error\.code: /);
    expect(logged).toHaveLength(3);
  });

  it('passes a refusal the host sent as it is', async () => {
    const { checked, reply, logged } = overWebSocket();
    const send = checked.api['sessions:close']({ sessionId: SID });
    reply('sessions:close', { ok: false, error: { code: 'not_found', message: 'No such session', details: { issues: [{ path: ['sessionId'], message: 'unknown' }] } } });
    expect(await send).toEqual({ ok: false, error: { code: 'not_found', message: 'No such session', details: { issues: [{ path: ['sessionId'], message: 'unknown' }] } } });
    expect(logged).toEqual([]);
  });

  it('hands on good answers and events from the preload unchanged, as the contract’s output types', async () => {
    const switched = sampleSwitch();
    const page = { events: sampleEvents(200), hasMore: true };
    const { preload, emit } = overPreload({ 'sessions:switch': { ok: true, value: switched }, 'transcript:page': { ok: true, value: page } });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { api, contract } = checkApi(preload);
    const refused: WireError[] = [];
    contract.onViolation((e) => refused.push(e));

    expect(await api['sessions:switch']({ sessionId: switched.session.id })).toEqual({ ok: true, value: switched });
    expect(await api['transcript:page']({ sessionId: switched.session.id })).toEqual({ ok: true, value: page });
    const received: unknown[] = [];
    api.on('session:event', (e) => received.push(e));
    for (const e of page.events) emit('session:event', e);
    expect(received).toEqual(page.events);
    expect(refused).toEqual([]);
    expect(errors).not.toHaveBeenCalled();

    // A fault through this transport is refused the same way, and logged to the console.
    emit('session:event', { ...page.events[0], seq: 0 });
    expect(refused.map((e) => e.message)).toEqual([
      'The event session:event does not match the contract: seq: Too small: expected number to be >0',
    ]);
    expect(errors).toHaveBeenCalledWith(`[switchboard] ${refused[0]?.message}`, refused[0]?.details?.issues);
  });
});
