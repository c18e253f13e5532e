/**
 * The ACP SDK's own zod schema for `session/update` params. The SDK uses it internally but
 * does not export it (its package `exports` map hides `dist/v1/schema/zod.gen.js`), so it is
 * loaded by file path next to the SDK's entry point: the very module instance the SDK itself
 * uses, never a copy of the schema that could drift from the protocol version in use. Read on
 * the first agent's stream, not with the host (see `util/acp-sdk.ts`, which loads it the same way).
 */
import type * as acp from '@agentclientprotocol/sdk';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { withTextChunkFastPath } from './text-chunk-validator';

export type ParseResult =
  | { success: true; data: acp.SessionNotification }
  | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };

export interface SessionNotificationSchema {
  safeParse(value: unknown): ParseResult;
}

function load(): SessionNotificationSchema | undefined {
  try {
    const require = createRequire(import.meta.url);
    const entry = require.resolve('@agentclientprotocol/sdk');
    const mod = require(join(dirname(entry), '../schema/zod.gen.js')) as { zSessionNotification?: unknown };
    const schema = mod.zSessionNotification as Partial<SessionNotificationSchema> | undefined;
    return typeof schema?.safeParse === 'function' ? (schema as SessionNotificationSchema) : undefined;
  } catch {
    return undefined;
  }
}

let loaded: { schema: SessionNotificationSchema | undefined; validator: SessionNotificationSchema | undefined } | undefined;
const schemas = (): NonNullable<typeof loaded> => {
  if (!loaded) {
    const schema = load();
    loaded = { schema, validator: schema && withTextChunkFastPath(schema) };
  }
  return loaded;
};

/**
 * Undefined when an SDK upgrade moved the schema: the broker then leaves every message to
 * the SDK (slower, still correct), and the fast-path test fails so the move is noticed.
 */
export const sessionNotificationSchema = (): SessionNotificationSchema | undefined => schemas().schema;

/**
 * What the ingest fast path validates each `session/update`'s params with: a plain text chunk
 * is checked by `plainTextChunk` (as strict as the SDK's schema for that shape), anything
 * else by the SDK's schema itself.
 */
export const sessionUpdateValidator = (): SessionNotificationSchema | undefined => schemas().validator;
