import { describe, expect, it } from 'vitest';
import { FakeClock } from '../test-support/fake-clock';
import { ProtocolHistory } from './protocol-history';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const msg = (n: number): string => `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { n } })}\n`;

describe('ProtocolHistory', () => {
  it('gives the last lines of every agent in time order, split across chunks, secrets redacted by key', async () => {
    const clock = new FakeClock();
    const history = new ProtocolHistory(clock);
    const line = msg(1);
    history.record('broker-a', 'demo', 'in', enc(line.slice(0, 10)));
    await clock.advance(1);
    history.record('broker-b', 'other', 'out', enc(`${JSON.stringify({ method: 'session/new', params: { env: { KEY: 'x' }, apiKey: 'y' } })}\n`));
    await clock.advance(1);
    history.record('broker-a', 'demo', 'in', enc(line.slice(10)));
    const lines = history.lines();
    expect(lines.map((l) => [l.agentId, l.entry.direction, l.entry.method])).toEqual([
      ['other', 'out', 'session/new'],
      ['demo', 'in', 'session/update'],
    ]);
    expect(lines[0]!.entry.text).toBe('{"method":"session/new","params":{"env":"[redacted]","apiKey":"[redacted]"}}');
  });

  it('stays within its bytes, dropping a line whose start went, and never shows text it cannot redact', () => {
    const history = new ProtocolHistory(new FakeClock(), 1_000);
    for (let n = 0; n < 100; n++) history.record('broker-a', 'demo', 'in', enc(msg(n)));
    history.record('broker-a', 'demo', 'in', enc('not json with a secret\n{"half":'));
    const lines = history.lines(1_000);
    expect(lines.length).toBeLessThan(20);
    expect(lines.at(-3)!.entry.text).toContain('"n":99');
    expect(lines.at(-2)!.entry.text).toBe('(not JSON, 22 characters)');
    expect(lines.at(-1)!.entry.text).toBe('(a message still being written, 8 characters so far)');
    expect(history.lines(2)).toHaveLength(2);
  });
});
