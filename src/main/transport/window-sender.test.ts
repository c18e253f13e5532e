import { describe, expect, it } from 'vitest';
import type { SessionEventT } from '../../shared/contract';
import { WindowSender } from './window-sender';

function setup() {
  let buffered = 0;
  let poller: (() => boolean) | undefined;
  const frames: { event: string; payload: unknown }[] = [];
  const sender = new WindowSender({
    bufferedAmount: () => buffered,
    write: (f) => frames.push(f as { event: string; payload: unknown }),
    maxBufferedBytes: 1000,
    poll: (fn) => {
      poller = fn;
      return () => (poller = undefined);
    },
  });
  const ev = (sessionId: string, seq: number): SessionEventT => ({ sessionId, seq, kind: 'agent_message', payload: { text: 'x' }, at: 0 });
  return {
    sender,
    frames,
    ev,
    setBuffered: (n: number) => (buffered = n),
    tick: () => poller?.(),
    get polling() {
      return poller !== undefined;
    },
  };
}

describe('WindowSender', () => {
  it('sends events straight through while the window keeps up', () => {
    const t = setup();
    t.sender.send('session:event', t.ev('a', 1));
    t.sender.send('session:event', t.ev('a', 2));
    expect(t.frames.map((f) => (f.payload as SessionEventT).seq)).toEqual([1, 2]);
    expect(t.polling).toBe(false);
  });

  it('stops buffering a slow window and resynchronises it from its last seq once drained', () => {
    const t = setup();
    t.sender.send('session:event', t.ev('a', 1));
    t.setBuffered(5000);
    t.sender.send('session:event', t.ev('a', 2));
    t.sender.send('session:event', t.ev('b', 7));
    t.setBuffered(0);
    t.sender.send('session:event', t.ev('a', 3)); // still behind until the resync went out
    expect(t.frames).toHaveLength(1);
    t.setBuffered(600); // drained, but not enough
    expect(t.tick()).toBe(false);
    t.setBuffered(100);
    expect(t.tick()).toBe(true);
    expect(t.frames.slice(1)).toEqual([
      { type: 'event', event: 'session:resync', payload: { sessionId: 'a', lastSeq: 1 } },
      { type: 'event', event: 'session:resync', payload: { sessionId: 'b', lastSeq: 0 } },
    ]);
    t.sender.send('session:event', t.ev('a', 4));
    expect((t.frames.at(-1)?.payload as SessionEventT).seq).toBe(4);
    expect(t.sender.lagging.size).toBe(0);
  });

  it('keeps sending other events (state, permissions) while a session lags', () => {
    const t = setup();
    t.setBuffered(5000);
    t.sender.send('session:event', t.ev('a', 1));
    t.sender.send('permission:resolved', { requestId: 'r', sessionId: 'a' });
    expect(t.frames.map((f) => f.event)).toEqual(['permission:resolved']);
  });
});
