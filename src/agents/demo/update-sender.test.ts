import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { UpdateSender } from './update-sender';

const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

/**
 * An output shared by a fake SDK (whose writes land one macrotask after they are asked for,
 * like its promise-chained write queue) and the direct lines: `wire` is what left, in order.
 */
function harness() {
  const wire: string[] = [];
  const sdkSend = (label: string): Promise<void> =>
    new Promise((resolve) =>
      setImmediate(() => {
        wire.push(label);
        resolve();
      }),
    );
  const sender = new UpdateSender((line) => {
    const { params } = JSON.parse(line) as { params: { sessionId: string; update: { content: { text: string } } } };
    wire.push(`direct ${params.sessionId} ${params.update.content.text}`);
    return undefined;
  });
  const turn = (sessionId: string) => sender.forTurn(sessionId, (u) => sdkSend(`sdk ${sessionId} ${(u as { content: { text: string } }).content.text}`));
  return { wire, sender, sdkSend, turn };
}

describe('UpdateSender', () => {
  it('writes the message the SDK would write: a session/update notification line', async () => {
    const lines: string[] = [];
    const sender = new UpdateSender((line) => void lines.push(line));
    const send = sender.forTurn('s1', () => Promise.resolve());
    await send(chunk('first'));
    await send(chunk('second'));
    expect(lines).toEqual([`${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: chunk('second') } })}\n`]);
  });

  it('writes the same bytes as JSON.stringify of the whole message, whatever the id and text hold', async () => {
    const lines: string[] = [];
    const sender = new UpdateSender((line) => void lines.push(line));
    const id = 'a "quoted" \\ id\u2028';
    const send = sender.forTurn(id, () => Promise.resolve());
    await send(chunk('first'));
    const update = { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read "a.ts"\n', status: 'pending', rawInput: { path: 'é/\u0000' } } as const;
    await send(chunk('line\n"two"\t😀'));
    await send(update as never);
    expect(lines).toEqual([chunk('line\n"two"\t😀'), update].map((u) => `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: id, update: u } })}\n`));
  });

  it('sends a turn’s first update through the SDK; the rest wait until it is out, then go direct, in order', async () => {
    const h = harness();
    // An answer the SDK was asked to write just before the turn (an earlier turn's end).
    const answer = h.sdkSend('sdk answer');
    const send = h.turn('s1');
    await Promise.all([send(chunk('1')), send(chunk('2')), send(chunk('3'))]);
    await send(chunk('4'));
    await answer;
    expect(h.wire).toEqual(['sdk answer', 'sdk s1 1', 'direct s1 2', 'direct s1 3', 'direct s1 4']);
  });

  it('keeps a burst waiting on the fence behind an SDK notification sent meanwhile', async () => {
    const h = harness();
    const send = h.turn('s1');
    const burst = [send(chunk('1')), send(chunk('2'))];
    // Another session's announcement, asked for while the fence is on its way.
    const announce = h.sender.sdk(() => h.sdkSend('sdk announce s2'));
    burst.push(send(chunk('3')));
    await Promise.all([...burst, announce]);
    await send(chunk('4'));
    expect(h.wire).toEqual(['sdk s1 1', 'sdk announce s2', 'sdk s1 2', 'sdk s1 3', 'direct s1 4']);
  });

  it('goes back through the SDK while a notification sent through it is pending', async () => {
    const h = harness();
    const send = h.turn('s1');
    await send(chunk('1'));
    const announce = h.sender.sdk(() => h.sdkSend('sdk announce s2'));
    const next = send(chunk('2'));
    await Promise.all([announce, next]);
    await send(chunk('3'));
    expect(h.wire).toEqual(['sdk s1 1', 'sdk announce s2', 'sdk s1 2', 'direct s1 3']);
  });

  it('goes back through the SDK while a notification of the same session is pending, not for another session’s', async () => {
    const h = harness();
    const s1 = h.turn('s1');
    await s1(chunk('1'));
    const own = h.sender.sdk(() => h.sdkSend('sdk title s1'), 's1');
    const other = h.sender.sdk(() => h.sdkSend('sdk title s2'), 's2');
    const next = s1(chunk('2'));
    await Promise.all([own, other, next]);
    await s1(chunk('3'));
    // s1's own notification keeps s1's update behind it; s2's does not hold s1 up.
    expect(h.wire).toEqual(['sdk s1 1', 'sdk title s1', 'sdk title s2', 'sdk s1 2', 'direct s1 3']);

    const h2 = harness();
    const a = h2.turn('a');
    await a(chunk('1'));
    const busy = h2.sender.sdk(() => h2.sdkSend('sdk title b'), 'b');
    await a(chunk('2'));
    await busy;
    expect(h2.wire).toEqual(['sdk a 1', 'direct a 2', 'sdk title b']);
  });
});
