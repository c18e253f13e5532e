/**
 * Issue 23, sleep and wake, from the window's side: the laptop sleeps with the window open;
 * its WebSocket does not close (nothing told it), it just goes silent, and the host goes on
 * storing events the window never gets. The heartbeat finds the link dead, the transport
 * reconnects, and the window resyncs the gap from its last seq: the transcript has every
 * event, in order, once. The host side is scripted over a hand-driven socket.
 */
import { describe, expect, it } from 'vitest';
import type { SessionEventT } from '../../../shared/contract';
import { apiOverTransport, WsTransport } from '../api/ws-api';
import { FakeSocket, ManualTimers } from '../test-support/fake-socket';
import { range, SID, testDeps, FakeApi, view, flush } from '../test-support/fake-api';
import { answer } from '../test-support/store-fixtures';
import { createAppStore } from './app-store';
import { bindApi } from './bind-api';

/** The host's side of one socket: answers the commands a window sends, from what it stores. */
function serveOn(socket: FakeSocket, stored: () => SessionEventT[]): void {
  let answered = 0;
  const answerAll = (): void => {
    for (; answered < socket.sent.length; answered++) {
      const { id, command, payload } = socket.sent[answered]!;
      const p = payload as { afterSeq?: number; beforeSeq?: number };
      const last = stored().at(-1)?.seq ?? 0;
      const value =
        command === 'host:info'
          ? { version: '1', headless: true, clientId: 'c', agents: [], settings: { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/', defaultAgentId: 'demo', maxSessionsPerBroker: 8 } }
          : command === 'sessions:list'
            ? [view({ lastSeq: last })]
            : command === 'sessions:switch'
              ? answer({ session: view({ lastSeq: last }), lastSeq: last })
              : command === 'transcript:since'
                ? { events: stored().filter((e) => e.seq > (p.afterSeq ?? 0)), hasMore: false }
                : command === 'transcript:page'
                  ? { events: stored().filter((e) => e.seq < (p.beforeSeq ?? Infinity)), hasMore: false }
                  : { ok: true };
      socket.reply(id, { ok: true, value });
    }
  };
  const send = socket.send.bind(socket);
  socket.send = (data: string) => {
    send(data);
    queueMicrotask(answerAll);
  };
}

describe('a window across a sleep', () => {
  it('drops the silent link at the heartbeat, reconnects and fetches exactly the events it missed', async () => {
    const timers = new ManualTimers();
    const sockets: FakeSocket[] = [];
    const transport = new WsTransport({ url: 'ws://host/ws?token=t', timers, createSocket: (url) => (sockets.push(new FakeSocket(url)), sockets.at(-1)!) });
    const api = apiOverTransport(transport);
    const store = createAppStore(testDeps(new FakeApi(), { api, pageSize: 50 }));
    bindApi(store, api, transport);
    let stored = range(1, 3);
    serveOn(sockets[0]!, () => stored);
    sockets[0]!.open();
    await store.getState().switchSession(SID);
    await flush();
    expect(store.getState().transcript.lastSeq).toBe(3);

    // Asleep: the socket stays "open" but carries nothing either way; the host stores 4..9.
    const asleep = sockets[0]!;
    asleep.send = () => {};
    stored = range(1, 9);

    // Awake: the next heartbeat goes unanswered, and 10 s later the link is dropped.
    timers.fire(15_000);
    timers.fire(10_000);
    expect(store.getState().connection).toBe('reconnecting');
    timers.fire(250);
    expect(sockets).toHaveLength(2);
    serveOn(sockets[1]!, () => stored);
    sockets[1]!.open();
    await flush();

    const t = store.getState().transcript;
    expect(store.getState().connection).toBe('open');
    expect(t.events.slice(0, t.lastSeq - (t.oldestSeq ?? 1) + 1).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const since = sockets[1]!.sent.filter((f) => f.command === 'transcript:since');
    expect(since.map((f) => (f.payload as { afterSeq: number }).afterSeq)).toEqual([3]);
    // Events pushed live after the resync extend it, without a gap or a repeat.
    stored = range(1, 10);
    sockets[1]!.push('session:event', range(10, 10)[0]);
    expect(store.getState().transcript.lastSeq).toBe(10);
  });
});
