/**
 * The hot shape of `session/update`, checked without zod: a message chunk whose content is
 * one plain text block, `{sessionId, update: {sessionUpdate, content: {type: "text", text},
 * messageId?}}` and nothing else. Profiled during a flood, the SDK's `zSessionNotification`
 * (a union of intersections: every chunk is tried against several variants and merged) took
 * most of the host's time per update. For exactly this shape the SDK's schema accepts the
 * value and returns a deep copy of it, so the value itself is the result; any other value,
 * valid or not, even one extra key, an `_meta` or a `null`, goes to the full schema.
 * `text-chunk-validator.test.ts` checks that against the SDK on seeded random samples.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { ParseResult, SessionNotificationSchema } from './session-update-schema';

type Obj = Record<string, unknown>;

/** The `sessionUpdate` tags whose schema is the SDK's `ContentChunk` (identical for all three). */
const CHUNK_TAGS: ReadonlySet<unknown> = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk']);

/** `value` when it is a plain text chunk notification (see above), else undefined: not this shape. */
export function plainTextChunk(value: unknown): acp.SessionNotification | undefined {
  if (!isPlainObject(value) || !keysAre(value, 'sessionId', 'update') || typeof value.sessionId !== 'string') return undefined;
  const update = value.update;
  if (!isPlainObject(update) || !CHUNK_TAGS.has(update.sessionUpdate)) return undefined;
  const withId = 'messageId' in update;
  if (withId ? typeof update.messageId !== 'string' || !keysAre(update, 'sessionUpdate', 'content', 'messageId') : !keysAre(update, 'sessionUpdate', 'content')) {
    return undefined;
  }
  const content = update.content;
  if (!isPlainObject(content) || !keysAre(content, 'type', 'text') || content.type !== 'text' || typeof content.text !== 'string') return undefined;
  return value as unknown as acp.SessionNotification;
}

/** `schema` with the plain text chunk checked first; everything else is `schema`'s. */
export function withTextChunkFastPath(schema: SessionNotificationSchema): SessionNotificationSchema {
  return {
    safeParse(value: unknown): ParseResult {
      const chunk = plainTextChunk(value);
      return chunk ? { success: true, data: chunk } : schema.safeParse(value);
    },
  };
}

function isPlainObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * True when the enumerable keys of `o` (own and inherited, as `for…in` sees them) are exactly
 * `a`, `b` and `c` if given: no allocation, unlike `Object.keys`, on a path run per update.
 */
function keysAre(o: Obj, a: string, b: string, c?: string): boolean {
  let n = 0;
  for (const key in o) {
    if (key !== a && key !== b && key !== c) return false;
    n++;
  }
  return n === (c === undefined ? 2 : 3);
}
