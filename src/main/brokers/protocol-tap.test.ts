import { describe, expect, it } from 'vitest';
import { LineSplitter, MAX_MESSAGE_CHARS, protocolEntry, redact } from './protocol-tap';

describe('protocol tap', () => {
  it('redacts environment variables, keys and tokens wherever they are nested', () => {
    const message = {
      method: 'session/new',
      params: {
        cwd: '/work',
        mcpServers: [{ name: 'db', command: 'db-mcp', env: [{ name: 'DB_PASSWORD', value: 'hunter2' }], headers: { Authorization: 'Bearer x' } }],
        _meta: { apiKey: 'sk-123', 'x-api-key': 'k', accessToken: 't', clientSecret: 's', usage: { totalTokens: 42 } },
      },
    };
    const text = JSON.stringify(redact(message));
    for (const secret of ['hunter2', 'Bearer x', 'sk-123', '"k"', '"t"', '"s"']) expect(text).not.toContain(secret);
    // Counts and names are not secrets.
    expect(text).toContain('"totalTokens":42');
    expect(text).toContain('"cwd":"/work"');
  });

  it('names the method of a request or notification and cuts a long message', () => {
    const long = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { text: 'x'.repeat(10_000) } });
    const entry = protocolEntry('in', long, 5);
    expect(entry).toMatchObject({ kind: 'protocol', direction: 'in', method: 'session/update', at: 5 });
    expect(entry.kind === 'protocol' && entry.text.length).toBeLessThan(MAX_MESSAGE_CHARS + 50);
    expect(protocolEntry('out', '{"jsonrpc":"2.0","id":1,"result":{}}', 1)).not.toHaveProperty('method');
  });

  it('splits a byte stream into lines across chunk boundaries', () => {
    const split = new LineSplitter();
    const bytes = new TextEncoder().encode('{"a":1}\n{"b":"é');
    expect(split.push(bytes.subarray(0, bytes.length - 1))).toEqual(['{"a":1}']);
    expect(split.push(bytes.subarray(bytes.length - 1))).toEqual([]);
    expect(split.push(new TextEncoder().encode('"}\n'))).toEqual(['{"b":"é"}']);
  });
});
