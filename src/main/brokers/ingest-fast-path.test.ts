import * as acp from '@agentclientprotocol/sdk';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { TurnBudget } from '../util/turn-budget';
import { fastPathStream } from './ingest-fast-path';
import { sessionNotificationSchema } from './session-update-schema';

const update = (sessionId: string, text: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
  });

/** A real SDK client on the fast-path stream; the test plays the agent by writing its stdout. */
function connect(budget?: TurnBudget) {
  const agentStdout = new PassThrough();
  const written: Record<string, unknown>[] = [];
  const order: string[] = [];
  const logged: LogEntry[] = [];
  const decoder = new TextDecoder();
  let pending = '';
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line) written.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  const stream = fastPathStream(output, agentStdout, {
    onUpdate: (n) => order.push(`update ${n.sessionId} ${n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? n.update.content.text : ''}`),
    log: captureLogger(logged),
    ...(budget ? { budget } : {}),
  });
  const conn = acp
    .client({ name: 'test' })
    // Only reached when the fast path is off or hands an update to the SDK by mistake.
    .onNotification(acp.methods.client.session.update, ({ params }) => void order.push(`sdk update ${params.sessionId}`))
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      order.push(`permission ${params.sessionId}`);
      return { outcome: { outcome: 'cancelled' } };
    })
    .connect(stream);
  const until = async (check: () => boolean): Promise<void> => {
    while (!check()) await new Promise<void>((r) => setImmediate(r));
  };
  return { agentStdout, written, order, conn, stream, logged, until };
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('ingest fast path', () => {
  it('loads the SDK’s own SessionNotification schema', () => {
    expect(sessionNotificationSchema()).toBeDefined();
    expect(sessionNotificationSchema()?.safeParse({ sessionId: 's', update: { sessionUpdate: 'nonsense' } }).success).toBe(false);
  });

  it('validates each session/update once, on the fast path, and never hands it to the SDK', async () => {
    const c = connect();
    cleanup = () => c.conn.close();
    expect(c.stream.active).toBe(true);
    c.agentStdout.write(`${update('s1', 'a')}\n${update('s1', 'b')}\n`);
    await c.until(() => c.order.length === 2);
    expect(c.order).toEqual(['update s1 a', 'update s1 b']);
    expect(c.stream.stats).toMatchObject({ fast: 2, invalid: 0 });
  });

  it('delivers updates and SDK messages in wire order, even within one chunk', async () => {
    const c = connect();
    cleanup = () => c.conn.close();
    const permission = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'session/request_permission',
      params: {
        sessionId: 's1',
        toolCall: { toolCallId: 't1', title: 'Edit' },
        options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }],
      },
    });
    c.agentStdout.write([update('s1', 'before'), permission, update('s1', 'after'), ''].join('\n'));
    await c.until(() => c.order.length === 3);
    expect(c.order).toEqual(['update s1 before', 'permission s1', 'update s1 after']);
  });

  it('answers a session/prompt only after the updates the agent sent before the answer', async () => {
    const c = connect();
    cleanup = () => c.conn.close();
    const answered = c.conn.agent.request(acp.methods.agent.session.prompt, { sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }] }).then((res) => {
      c.order.push(`answer ${res.stopReason}`);
    });
    await c.until(() => c.written.some((m) => m.method === 'session/prompt'));
    const id = c.written.find((m) => m.method === 'session/prompt')?.id;
    const answer = JSON.stringify({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
    // Split mid-line, so the answer and the next update arrive in a later chunk.
    const wire = [update('s1', 'one'), update('s1', 'two'), answer, update('s1', 'next turn'), ''].join('\n');
    c.agentStdout.write(wire.slice(0, 100));
    c.agentStdout.write(wire.slice(100));
    await answered;
    await c.until(() => c.order.length === 4);
    expect(c.order.indexOf('answer end_turn')).toBeGreaterThan(c.order.indexOf('update s1 two'));
    expect(c.order.filter((o) => o.startsWith('update'))).toEqual(['update s1 one', 'update s1 two', 'update s1 next turn']);
  });

  it('logs and drops an invalid session/update and goes on with the next one', async () => {
    const c = connect();
    cleanup = () => c.conn.close();
    const invalid = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk' } } });
    c.agentStdout.write(`${invalid}\n${update('s1', 'fine')}\n`);
    await c.until(() => c.order.length === 1);
    expect(c.order).toEqual(['update s1 fine']);
    expect(c.stream.stats.invalid).toBe(1);
    expect(c.logged.some((l) => l.msg === 'invalid session/update dropped')).toBe(true);
    expect(c.conn.signal.aborted).toBe(false);
  });

  it('leaves a line that is not JSON to the SDK, which answers it with a parse error', async () => {
    const c = connect();
    cleanup = () => c.conn.close();
    c.agentStdout.write(`this is not json\n${update('s1', 'after')}\n`);
    await c.until(() => c.order.length === 1 && c.written.length === 1);
    expect(c.written[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(c.order).toEqual(['update s1 after']);
  });

  it('leaves other notifications, requests and batches to the SDK', async () => {
    const c = connect();
    cleanup = () => c.conn.close();
    // A session/update sent as a request (it has an id) is not a notification: the SDK's call.
    const asRequest = JSON.stringify({ ...JSON.parse(update('s2', 'x')), id: 3 });
    c.agentStdout.write(`${asRequest}\n[1,2]\n`);
    await c.until(() => c.written.length === 2);
    expect(c.written.map((m) => (m.error as { code: number }).code).sort((a, b) => a - b)).toEqual([-32601, -32600]);
    expect(c.stream.stats.fast).toBe(0);
  });

  it('closes the connection on a line over the size limit, as the SDK does', async () => {
    const agentStdout = new PassThrough();
    const order: string[] = [];
    const stream = fastPathStream(new WritableStream<Uint8Array>(), agentStdout, {
      onUpdate: (n) => order.push(n.sessionId),
      log: captureLogger([]),
      maxMessageBytes: 1_000,
    });
    const conn = acp.client({ name: 'test' }).connect(stream);
    agentStdout.write(`${update('s1', 'ok')}\n${update('s1', 'x'.repeat(2_000))}\n`);
    await conn.closed;
    expect(order).toEqual(['s1']);
  });

  it('stops reading when the turn’s budget is spent and reads on, in order, on the next turn', async () => {
    let now = 0;
    const turns: (() => void)[] = [];
    const budget = new TurnBudget(3, { now: () => now, later: (fn) => turns.push(fn) });
    const c = connect(budget);
    cleanup = () => c.conn.close();
    c.agentStdout.write(`${update('s1', 'a')}\n`);
    await c.until(() => c.order.length === 1);
    now += 3; // reading that chunk used the turn
    c.agentStdout.write(`${update('s1', 'b')}\n`);
    c.agentStdout.write(`${update('s1', 'c')}\n`);
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
    expect(c.order).toEqual(['update s1 a']);
    expect(c.agentStdout.isPaused()).toBe(true);
    turns.splice(0).forEach((fn) => fn());
    await c.until(() => c.order.length === 3);
    expect(c.order).toEqual(['update s1 a', 'update s1 b', 'update s1 c']);
    expect(c.agentStdout.isPaused()).toBe(false);
  });

  it('reads nothing of a turn whose budget another agent’s stdout spent, and all of it, in order, on the next turn', async () => {
    let now = 0;
    const turns: (() => void)[] = [];
    const budget = new TurnBudget(3, { now: () => now, later: (fn) => turns.push(fn) });
    const c = connect(budget);
    cleanup = () => c.conn.close();
    budget.begin();
    now += 3; // the other agent's reading used the turn
    c.agentStdout.write(`${update('s1', 'a')}\n`);
    c.agentStdout.write(`${update('s1', 'b')}\n`);
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
    expect(c.order).toEqual([]);
    turns.splice(0).forEach((fn) => fn());
    await c.until(() => c.order.length === 2);
    expect(c.order).toEqual(['update s1 a', 'update s1 b']);
  });
});
