import { describe, expect, it } from 'vitest';
import { sessionNotificationSchema } from './session-update-schema';
import { plainTextChunk, withTextChunkFastPath } from './text-chunk-validator';
import { seededRandom as prng } from '../test-support/seeded-random';

const sdk = sessionNotificationSchema()!;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = Record<string, unknown>;

function samples(seed: number) {
  const rand = prng(seed);
  const int = (n: number): number => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const text = (): string => pick(['', 'flood 1\n', 'a', 'ünïcödé ✓', '😀 split', '"quoted" \\ back', ' \n\t ', 'x'.repeat(int(300))]);
  const TAGS = ['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk'] as const;
  const OTHER_TAGS = ['tool_call', 'tool_call_update', 'plan', 'session_info_update', 'usage_update', 'nonsense', '', 'Agent_message_chunk'];
  const KEYS = ['_meta', 'annotations', 'extra', 'messageId', 'constructor', 'toString', 'text', 'type', 'sessionId', 'update', 'content', 'sessionUpdate'];
  const scalar = (depth = 0): unknown =>
    pick<() => unknown>([
      () => null,
      () => undefined,
      () => int(3) - 1,
      () => 1.5,
      () => rand() < 0.5,
      text,
      () => [],
      () => (depth < 2 ? [scalar(depth + 1)] : []),
      () => ({}),
      () => (depth < 2 ? { [pick(KEYS)]: scalar(depth + 1) } : {}),
      () => ({ type: 'text', text: text() }),
      () => Object.create(null) as unknown,
    ])();

  /** A notification of exactly the hot shape. */
  const hot = (): Obj => {
    const update: Obj = { sessionUpdate: pick(TAGS), content: { type: 'text', text: text() } };
    if (rand() < 0.4) update.messageId = pick(['m1', '', 'msg-ü']);
    return { sessionId: pick(['s', '', 'sess-1', '00000000-0000-4000-8000-000000000000']), update };
  };

  /** The hot shape with one thing changed: a key added, removed or retyped, at any level. */
  const nearMiss = (): unknown => {
    const n = hot();
    const update = n.update as Obj;
    const content = update.content as Obj;
    const target = pick([n, update, content]);
    switch (int(7)) {
      case 0:
        target[pick(KEYS)] = scalar();
        break;
      case 1:
        delete target[pick(Object.keys(target))];
        break;
      case 2:
        target[pick(Object.keys(target))] = scalar();
        break;
      case 3:
        update.sessionUpdate = pick(OTHER_TAGS);
        break;
      case 4:
        content.type = pick(['image', 'audio', 'resource', 'resource_link', 'Text', '']);
        break;
      case 5:
        update.messageId = pick([null, 5, {}, [], true]);
        break;
      default:
        // The `__proto__` key as JSON.parse makes it: an own property, not the prototype.
        return JSON.parse(JSON.stringify(n).replace('{"type"', '{"__proto__":{"text":1},"type"')) as unknown;
    }
    return rand() < 0.5 ? (JSON.parse(JSON.stringify(n)) as Json) : n;
  };

  return { hot, nearMiss, scalar };
}

describe('plain text chunk validator', () => {
  it('accepts only what the SDK schema accepts, with the same result, on seeded random samples', () => {
    const fast = withTextChunkFastPath(sdk);
    let hits = 0;
    let misses = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const g = samples(seed);
      for (let i = 0; i < 250; i++) {
        const value = pick3(i, g.hot, g.nearMiss, () => g.scalar());
        const expected = sdk.safeParse(value);
        const chunk = plainTextChunk(value);
        if (chunk) {
          hits++;
          expect(expected.success, `seed ${seed} sample ${i}: ${JSON.stringify(value)}`).toBe(true);
          expect(chunk).toStrictEqual(expected.success ? expected.data : undefined);
        } else {
          misses++;
        }
        const got = fast.safeParse(value);
        expect(got.success, `seed ${seed} sample ${i}`).toBe(expected.success);
        if (got.success && expected.success) expect(got.data).toStrictEqual(expected.data);
      }
    }
    // Both sides of the check were exercised.
    expect(hits).toBeGreaterThan(2_000);
    expect(misses).toBeGreaterThan(4_000);
  });

  it('takes every notification of the exact hot shape, valid by the SDK too', () => {
    const g = samples(7);
    for (let i = 0; i < 2_000; i++) {
      const value = g.hot();
      expect(sdk.safeParse(value).success).toBe(true);
      expect(plainTextChunk(value)).toBe(value);
    }
  });

  it('leaves anything with one more or one wrong field to the SDK schema', () => {
    const base = () => ({ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } });
    const variants: unknown[] = [
      { ...base(), _meta: { a: 1 } },
      { ...base(), sessionId: 1 },
      { sessionId: 's', update: { ...base().update, messageId: null } },
      { sessionId: 's', update: { ...base().update, _meta: null } },
      { sessionId: 's', update: { ...base().update, content: { type: 'text', text: 'hi', annotations: null } } },
      { sessionId: 's', update: { ...base().update, content: { type: 'text', text: 5 } } },
      { sessionId: 's', update: { ...base().update, sessionUpdate: 'tool_call' } },
      JSON.parse('{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","__proto__":{}}}}'),
      Object.assign(Object.create(null) as Obj, base()),
      [base()],
    ];
    for (const v of variants) expect(plainTextChunk(v), JSON.stringify(v)).toBeUndefined();
  });
});

/** Samples in a fixed mix: a third hot, a third near misses, a third anything. */
function pick3<T>(i: number, a: () => T, b: () => T, c: () => T): T {
  return i % 3 === 0 ? a() : i % 3 === 1 ? b() : c();
}
