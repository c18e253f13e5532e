import { describe, expect, it } from 'vitest';
import { NdJsonSplitter } from './ndjson-splitter';

function collect(maxLineBytes = 1024) {
  const out: { kind: 'line' | 'raw'; text: string }[] = [];
  const splitter = new NdJsonSplitter(
    {
      line: (b, start, end) => out.push({ kind: 'line', text: b.toString('utf8', start, end) }),
      raw: (b) => out.push({ kind: 'raw', text: b.toString('utf8') }),
    },
    maxLineBytes,
  );
  return { splitter, out };
}

describe('NdJsonSplitter', () => {
  it('emits whole lines whatever the chunk boundaries', () => {
    const { splitter, out } = collect();
    const text = '{"a":1}\n{"b":2}\n\n{"c":3}\n';
    for (let i = 0; i < text.length; i += 3) splitter.push(Buffer.from(text.slice(i, i + 3)));
    expect(out).toEqual([
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
      { kind: 'line', text: '' },
      { kind: 'line', text: '{"c":3}' },
    ]);
  });

  it('joins a multi-byte UTF-8 character split across chunks before decoding it', () => {
    const { splitter, out } = collect();
    const bytes = Buffer.from('{"t":"héllo 🚀 wörld"}\n', 'utf8');
    const rocket = bytes.indexOf(Buffer.from('🚀', 'utf8'));
    // Cut inside the 4-byte rocket and inside the 2-byte é: every piece alone is invalid UTF-8.
    const cuts = [4, rocket + 1, rocket + 3, bytes.length];
    let start = 0;
    for (const cut of cuts) {
      splitter.push(bytes.subarray(start, cut));
      start = cut;
    }
    expect(out).toEqual([{ kind: 'line', text: '{"t":"héllo 🚀 wörld"}' }]);
  });

  it('passes an over-long line on raw, piece by piece, and finds the next line after it', () => {
    const { splitter, out } = collect(16);
    splitter.push(Buffer.from('{"small":1}\n{"huge":"'));
    splitter.push(Buffer.from('x'.repeat(20)));
    splitter.push(Buffer.from('yy"}\n{"next":2}\n'));
    expect(out).toEqual([
      { kind: 'line', text: '{"small":1}' },
      { kind: 'raw', text: `{"huge":"${'x'.repeat(20)}` },
      { kind: 'raw', text: 'yy"}\n' },
      { kind: 'line', text: '{"next":2}' },
    ]);
    expect(out.filter((o) => o.kind === 'raw').map((o) => o.text).join('')).toBe(`{"huge":"${'x'.repeat(20)}yy"}\n`);
  });

  it('holds a line of exactly the limit and emits it whole', () => {
    const { splitter, out } = collect(8);
    splitter.push(Buffer.from('1234'));
    splitter.push(Buffer.from('5678\n'));
    expect(out).toEqual([{ kind: 'line', text: '12345678' }]);
  });

  it('emits an unterminated last line at end of input, and nothing for an empty tail', () => {
    const { splitter, out } = collect();
    splitter.push(Buffer.from('{"a":1}\n{"b"'));
    splitter.push(Buffer.from(':2}'));
    splitter.end();
    splitter.end();
    expect(out).toEqual([
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
    ]);
  });
});
