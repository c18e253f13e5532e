/**
 * The ACP SDK's own zod schema for `session/update` params. The SDK uses it internally but
 * does not export it (its package `exports` map hides `dist/v1/schema/zod.gen.js`), so it is
 * loaded by file path next to the SDK's entry point: the very module instance the SDK itself
 * uses, never a copy of the schema that could drift from the protocol version in use.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { withTextChunkFastPath } from './text-chunk-validator';

export type ParseResult =
  | { success: true; data: acp.SessionNotification }
  | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };

export interface SessionNotificationSchema {
  safeParse(value: unknown): ParseResult;
}

async function load(): Promise<SessionNotificationSchema | undefined> {
  try {
    const entry = createRequire(import.meta.url).resolve('@agentclientprotocol/sdk');
    const mod = (await import(new URL('../schema/zod.gen.js', pathToFileURL(entry)).href)) as { zSessionNotification?: unknown };
    const schema = mod.zSessionNotification as Partial<SessionNotificationSchema> | undefined;
    return typeof schema?.safeParse === 'function' ? (schema as SessionNotificationSchema) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Undefined when an SDK upgrade moved the schema: the broker then leaves every message to
 * the SDK (slower, still correct), and the fast-path test fails so the move is noticed.
 */
export const sessionNotificationSchema: SessionNotificationSchema | undefined = await load();

/**
 * What the ingest fast path validates each `session/update`'s params with: a plain text chunk
 * is checked by `plainTextChunk` (as strict as the SDK's schema for that shape), anything
 * else by the SDK's schema itself.
 */
export const sessionUpdateValidator: SessionNotificationSchema | undefined =
  sessionNotificationSchema && withTextChunkFastPath(sessionNotificationSchema);
