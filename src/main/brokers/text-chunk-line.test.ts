import { describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS, textChunkLine } from './text-chunk-line';
import { withTextChunkFastPath } from './text-chunk-validator';
import { sessionNotificationSchema } from './session-update-schema';
import { seededRandom as prng } from '../test-support/seeded-random';

const schema = withTextChunkFastPath(sessionNotificationSchema()!);

/** What the general path makes of a line: `JSON.parse`, the `session/update` check, the schema. */
function general(line: string): unknown {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  if (m.method !== 'session/update' || m.jsonrpc !== '2.0' || 'id' in m) return undefined;
  const result = schema.safeParse(m.params);
  return result.success ? result.data : undefined;
}

const TAGS = ['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk'] as const;

function lines(seed: number) {
  const rand = prng(seed);
  const int = (n: number): number => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  // Every kind of character a text can hold: controls, quotes, backslashes, slashes, non-ASCII,
  // astral, lone surrogates, the line separator.
  const ATOMS = ['a', ' ', 'flood 7', '\n', '\r', '\t', '\u0000', '\u001f', '"', '\\', '/', '\\n', 'ü', '✓', '😀', '\ud800', '\udc00', '\u2028', '\u007f', '{}', '","'];
  const text = (): string => Array.from({ length: int(12) }, () => pick(ATOMS)).join('');
  const notification = (): Record<string, unknown> => {
    const update: Record<string, unknown> = { sessionUpdate: pick(TAGS), content: { type: 'text', text: text() } };
    if (rand() < 0.3) update.messageId = pick(['m1', '', 'msg-ü', 'a"b', 'x\\y']);
    return { sessionId: pick(['s', '', '00000000-0000-4000-8000-000000000000', 'ü', 'a"b', 'x\ny']), update };
  };
  const line = (): string => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: notification() });
  /** A line changed by one edit of its characters: most are no longer the shape, some not JSON. */
  const mutated = (): string => {
    const s = line();
    const at = int(s.length + 1);
    const edits = [
      () => s.slice(0, at) + pick([' ', '\n', '"', '\\', ',', '}', 'x', '\\u00', '\\q', '\u0001', '{"a":1},']) + s.slice(at),
      () => s.slice(0, at) + s.slice(at + 1),
      () => s.replace('"jsonrpc":"2.0",', '') + '',
      () => s.replace('"method":"session/update"', '"method":"session/update","id":1'),
      () => s.replace(/"type":"text"/, pick(['"type":"image"', '"type":"text","_meta":{}', '"type" : "text"'])),
      () => s.replace(/^\{"jsonrpc":"2.0",("method":"[^"]*"),/, '{$1,"jsonrpc":"2.0",'),
      () => s.replace('"sessionUpdate":"', '"sessionUpdate":"x'),
      () => s.replace('}}}', ',"messageId":null}}}'),
      // Escapes written another way inside the text: still the shape.
      () => s.replace('"text":"', `"text":"${pick(['\\u0041', '\\/', '\\ud83d\\ude00', '\\uDC00', '\\b\\f', '\\"\\\\'])}`),
      () => s.replace('"text":"', `"text":"${pick(['\\x', '\\u00g0', '\u0001', '"'])}`),
    ];
    return pick(edits)();
  };
  return { line, mutated };
}

describe('text chunk line', () => {
  it('reads every compact plain text chunk as the general path does', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const g = lines(seed);
      for (let i = 0; i < 300; i++) {
        const line = g.line();
        const expected = general(line);
        expect(expected, line).toBeDefined();
        const got = textChunkLine(line);
        // Ids that need an escape (a quote, a control character) take the general path.
        if (/"(sessionId|messageId)":"[^"\\]*\\/.test(line)) expect([undefined, expected], line).toContainEqual(got);
        else expect(got, line).toStrictEqual(expected);
      }
    }
  });

  it('gives undefined, or what the general path gives, for lines one edit away', () => {
    let read = 0;
    let left = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const g = lines(seed);
      for (let i = 0; i < 300; i++) {
        const line = g.mutated();
        const got = textChunkLine(line);
        if (got === undefined) {
          left++;
          continue;
        }
        read++;
        expect(got, line).toStrictEqual(general(line));
      }
    }
    // Both sides were exercised: edits inside a text keep the shape, most others do not.
    expect(read).toBeGreaterThan(600);
    expect(left).toBeGreaterThan(3_000);
  });

  it('leaves other shapes, white space and invalid strings to the general path', () => {
    const ok = '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}';
    expect(textChunkLine(ok)).toStrictEqual({ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } });
    for (const line of [
      ok.replace('"hi"', '"h\ni"'), // a raw control character: not JSON
      ok.replace('"hi"', '"h\\xi"'), // an invalid escape
      ok.replace('"hi"', '"h\\u12"'), // a short \u escape
      ok.replace('"hi"', '"hi\\"'), // an escaped closing quote: the string never ends
      ok.replace(':{"sessionId"', ': {"sessionId"'),
      ok.replace('"hi"}', '"hi","annotations":null}'),
      ok.replace('"agent_message_chunk"', '"tool_call"'),
      ok.replace('}}}}', '}}},"id":3}'),
      ok.replace('"2.0"', '"1.0"'),
      `${ok} `,
      ok.slice(0, -1),
    ]) {
      expect(textChunkLine(line), line).toBeUndefined();
    }
  });

  it('leaves a line longer than its bound to the general path, even one dense with escapes', () => {
    const line = (text: string): string =>
      JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
    const under = line('x'.repeat(MAX_LINE_CHARS - 200));
    expect(textChunkLine(under)).toStrictEqual(general(under));
    expect(textChunkLine(line('x'.repeat(MAX_LINE_CHARS)))).toBeUndefined();
    // Two million escapes overflow the expression's stack: such a line is never given to it.
    expect(() => textChunkLine(line('"\n'.repeat(1_000_000)))).not.toThrow();
  });
});
