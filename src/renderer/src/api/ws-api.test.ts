import { describe, expect, it } from 'vitest';
import { FakeSocket, ManualTimers } from '../test-support/fake-socket';
import { apiOverTransport, WsTransport } from './ws-api';

function setup() {
  const sockets: FakeSocket[] = [];
  const timers = new ManualTimers();
  const transport = new WsTransport({
    url: 'ws://host/ws?token=t',
    timers,
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
  });
  const api = apiOverTransport(transport);
  const last = () => sockets[sockets.length - 1] as FakeSocket;
  return { sockets, timers, transport, api, last };
}

describe('WsTransport', () => {
  it('sends request frames and resolves them by id', async () => {
    const { api, last } = setup();
    last().open();
    const p = api['sessions:list']({});
    const frame = last().sent[0];
    expect(frame).toMatchObject({ command: 'sessions:list', payload: {} });
    last().reply(frame?.id ?? -1, { ok: true, value: [] });
    await expect(p).resolves.toEqual({ ok: true, value: [] });
  });

  it('delivers events to listeners', () => {
    const { api, last } = setup();
    last().open();
    const got: unknown[] = [];
    const off = api.on('session:resync', (p) => got.push(p));
    last().push('session:resync', { sessionId: 'x', lastSeq: 3 });
    off();
    last().push('session:resync', { sessionId: 'x', lastSeq: 4 });
    expect(got).toEqual([{ sessionId: 'x', lastSeq: 3 }]);
  });

  it('answers in-flight requests disconnected when the socket drops', async () => {
    const { api, last, transport } = setup();
    last().open();
    const p = api['host:info']({});
    transport.dropSocket();
    await expect(p).resolves.toMatchObject({ ok: false, error: { code: 'disconnected' } });
    expect(transport.status).toBe('reconnecting');
  });

  it('holds requests made while down and sends them after the reconnect listeners ran', async () => {
    const { api, last, transport, timers, sockets } = setup();
    last().open();
    transport.dropSocket();
    const order: string[] = [];
    api.onReconnect(() => {
      order.push('reconnect');
      void api['sessions:switch']({ sessionId: 's' });
    });
    const p = api['prompt:send']({ sessionId: 's', clientMessageId: 'c', text: 'hi' });
    timers.fire(250);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(order).toEqual(['reconnect']);
    expect(last().sent.map((f) => f.command)).toEqual(['sessions:switch', 'prompt:send']);
    last().reply(last().sent[1]?.id ?? -1, { ok: true, value: { accepted: true, duplicate: false } });
    await expect(p).resolves.toMatchObject({ ok: true });
  });

  it('gives up on a held request after the queue timeout', async () => {
    const { api, last, transport, timers } = setup();
    last().open();
    transport.dropSocket();
    const p = api['sessions:list']({});
    timers.fire(30_000);
    await expect(p).resolves.toMatchObject({ ok: false, error: { code: 'disconnected' } });
  });

  it('backs off from 250 ms doubling to 5 s, and resets after a successful open', () => {
    const { last, timers, transport } = setup();
    const seen: number[] = [];
    last().close();
    for (let i = 0; i < 7; i++) {
      const [delay] = timers.delays();
      seen.push(delay ?? -1);
      timers.fire(delay ?? -1);
      last().close();
    }
    expect(seen).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    timers.fire(5000);
    last().open();
    expect(transport.status).toBe('open');
    last().close();
    expect(timers.delays()).toEqual([250]);
  });

  it('does not call reconnect listeners on the first open', () => {
    const { api, last } = setup();
    let calls = 0;
    api.onReconnect(() => calls++);
    last().open();
    expect(calls).toBe(0);
  });

  it('sends a host:info heartbeat every 15 s and drops a link that does not answer in 10 s', async () => {
    const { sockets, timers, api, last } = setup();
    last().open();
    expect(timers.delays()).toContain(15_000);
    timers.fire(15_000);
    const beat = last().sent.at(-1);
    expect(beat?.command).toBe('host:info');
    last().reply(beat?.id ?? -1, { ok: true, value: {} });
    // Answered: the next beat is scheduled, no drop.
    expect(timers.delays()).toContain(15_000);
    expect(timers.delays()).not.toContain(10_000);
    const inflight = api['sessions:list']({});
    timers.fire(15_000);
    expect(timers.delays()).toContain(10_000);
    timers.fire(10_000);
    // Dropped: in-flight requests answer disconnected and the transport reconnects.
    await expect(inflight).resolves.toMatchObject({ ok: false, error: { code: 'disconnected' } });
    expect(timers.delays()).toContain(250);
    timers.fire(250);
    expect(sockets).toHaveLength(2);
  });

  it('drops the link when a request goes unanswered for 60 s', async () => {
    const { timers, api, last } = setup();
    last().open();
    const p = api['sessions:list']({});
    expect(timers.delays()).toContain(60_000);
    timers.fire(60_000);
    await expect(p).resolves.toMatchObject({ ok: false, error: { code: 'disconnected' } });
    expect(timers.delays()).not.toContain(15_000);
  });

  it('clears a request timeout when the answer comes', async () => {
    const { timers, api, last } = setup();
    last().open();
    const p = api['sessions:list']({});
    last().reply(last().sent[0]?.id ?? -1, { ok: true, value: [] });
    await p;
    expect(timers.delays()).not.toContain(60_000);
  });
});
