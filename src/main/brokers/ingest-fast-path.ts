/**
 * The ingest fast path for an agent's stdout. The ACP SDK validates every `session/update`
 * twice (its notification spec, then its session router), which caps a connection at ~95k
 * updates/s here. This stream sits in front of `acp.ndJsonStream`: it splits the bytes into
 * lines, parses each once, validates each `session/update` notification once with the SDK's
 * own schema and hands it straight to `onUpdate`; every other line goes to the SDK unchanged.
 *
 * Order: a fast update is delivered only after every message that came before it on the wire
 * has been dispatched by the SDK (a `session/new` answer, a permission request). The SDK reads
 * one message, starts dispatching it, then asks for the next: so a read request on the stream
 * the SDK consumes, plus one macrotask turn for its promise chain, means everything it was
 * given before has reached its handler (and an awaited answer has resumed its caller).
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { Readable } from 'node:stream';
import type { Logger } from '../util/log';
import { agentReadBudget, type TurnBudget } from '../util/turn-budget';
import { NdJsonSplitter } from '../util/ndjson-splitter';
import { textChunkLine } from './text-chunk-line';
import { sessionUpdateValidator, type SessionNotificationSchema } from './session-update-schema';
import { acpSdk } from '../util/acp-sdk';

export interface FastPathOptions {
  /** Gets each valid `session/update`, synchronously, in wire order. */
  onUpdate(notification: acp.SessionNotification): void;
  log: Logger;
  /** Sees every byte read from the agent, as it comes (the Agent log's protocol tap). */
  onBytes?: (chunk: Buffer) => void;
  maxMessageBytes?: number;
  /** For tests: the schema to validate with (default: the SDK's, with the plain text chunk checked first). */
  schema?: SessionNotificationSchema | undefined;
  /** Time per loop turn for reading, shared with the other agents (default: the host's). */
  budget?: TurnBudget;
}

export interface FastPathStats {
  /** Updates validated and delivered by the fast path. */
  fast: number;
  /** Updates that failed validation: logged and dropped, as the SDK does. */
  invalid: number;
  /** Messages handed to the SDK and dispatched by it. */
  sdk: number;
}

/** Held fast updates above this pause the agent's stdout until the SDK catches up. */
const HELD_HIGH_WATER = 4_096;
const SESSION_UPDATE: typeof acp.methods.client.session.update = 'session/update';

export interface FastPathStream extends acp.Stream {
  readonly stats: FastPathStats;
  /** False when the SDK's schema could not be loaded: every line goes through the SDK. */
  readonly active: boolean;
}

/** An `acp.Stream` over a child's stdin/stdout with the `session/update` fast path. */
export function fastPathStream(output: WritableStream<Uint8Array>, input: Readable, opts: FastPathOptions): FastPathStream {
  const schema = 'schema' in opts ? opts.schema : sessionUpdateValidator();
  const maxMessageBytes = opts.maxMessageBytes ?? acpSdk().DEFAULT_MAX_MESSAGE_BYTES;
  const stats: FastPathStats = { fast: 0, invalid: 0, sdk: 0 };
  if (!schema) opts.log.warn('session/update fast path off: the SDK schema was not found, every update goes through the SDK');
  let sdkInput!: ReadableStreamDefaultController<Uint8Array>;
  let stopped = false;
  // Messages given to the SDK / dispatched by it; a held update waits for `dispatched >= after`.
  let forwarded = 0;
  let dispatched = 0;
  const held: { after: number; notification: acp.SessionNotification }[] = [];
  const budget = opts.budget ?? agentReadBudget;
  // Why stdout is paused: too many updates held for the SDK, or this turn's read budget spent.
  // It flows again only when neither holds.
  let heldFull = false;
  let outOfBudget = false;
  const flow = (): void => {
    if (stopped) return;
    if (heldFull || outOfBudget) input.pause();
    else if (input.isPaused()) input.resume();
  };
  // Chunks that arrived after the budget was spent (one read loop of libuv can still hand over
  // a chunk or two after the pause): read first on the next turn.
  const later: Buffer[] = [];
  const read = (chunk: Buffer): void => {
    budget.begin();
    opts.onBytes?.(chunk);
    splitter.push(chunk);
  };
  const nextTurn = (): void => {
    outOfBudget = false;
    try {
      while (later.length > 0 && !stopped) {
        // Another stream resumed before this one may have spent the new turn's budget already.
        if (budget.spent()) return outOfTurn();
        read(later.shift()!);
      }
    } finally {
      // Flowing again even when reading a held chunk threw, so the stream is not left paused.
      if (!outOfBudget) flow();
    }
  };
  const outOfTurn = (): void => {
    if (outOfBudget) return;
    outOfBudget = true;
    flow();
    budget.wait(nextTurn);
  };

  const deliver = (notification: acp.SessionNotification): void => {
    stats.fast++;
    opts.onUpdate(notification);
  };
  const drainHeld = (): void => {
    let i = 0;
    while (i < held.length && held[i]!.after <= dispatched) deliver(held[i++]!.notification);
    if (i > 0) held.splice(0, i);
    if (heldFull && held.length < HELD_HIGH_WATER) {
      heldFull = false;
      flow();
    }
  };
  const toSdk = (bytes: Buffer, willBeMessage: boolean): void => {
    if (stopped) return;
    if (willBeMessage) forwarded++;
    sdkInput.enqueue(bytes);
  };

  // The compact plain text chunk is read by its shape (`text-chunk-line.ts`) when validating
  // with the default schema; a schema given for a test sees every update.
  const linesByShape = Boolean(schema) && !('schema' in opts);
  const accept = (notification: acp.SessionNotification): void => {
    if (held.length === 0 && dispatched >= forwarded) return deliver(notification);
    held.push({ after: forwarded, notification });
    if (held.length >= HELD_HIGH_WATER && !heldFull) {
      heldFull = true;
      flow();
    }
  };
  const splitter = new NdJsonSplitter(
    {
      raw: (bytes) => toSdk(bytes, false),
      line: (chunk, start, end) => {
        const text = chunk.toString('utf8', start, end).trim();
        if (!text) return;
        const byShape = linesByShape ? textChunkLine(text) : undefined;
        if (byShape) return accept(byShape);
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          // The SDK answers a parse error: give it the line as it came.
          return toSdk(withLf(chunk, start, end), false);
        }
        const record = typeof message === 'object' && message !== null && !Array.isArray(message);
        if (!record || !schema || !isSessionUpdate(message as Record<string, unknown>)) return toSdk(withLf(chunk, start, end), record);
        const result = schema.safeParse((message as { params?: unknown }).params);
        if (!result.success) {
          // What the SDK does with a notification whose params are invalid: log, drop, go on.
          stats.invalid++;
          opts.log.warn('invalid session/update dropped', { code: -32602, issues: result.error.issues.slice(0, 3).map(describeIssue) });
          return;
        }
        accept(result.data);
      },
    },
    maxMessageBytes,
  );

  const bytes = new ReadableStream<Uint8Array>({
    start(controller) {
      sdkInput = controller;
      input.on('data', (chunk: Buffer) => {
        if (stopped) return;
        // A chunk is at most one read (64 KiB, 1–2 ms of parsing): the turn's budget, shared
        // with every other agent's stdout, is checked before and after each.
        if (outOfBudget || budget.spent()) {
          later.push(chunk);
          return outOfTurn();
        }
        read(chunk);
        if (budget.spent()) outOfTurn();
      });
      input.on('end', () => {
        if (stopped) return;
        for (const chunk of later.splice(0)) read(chunk);
        splitter.end();
        stopped = true;
        budget.cancel(nextTurn);
        controller.close();
      });
      input.on('error', (err) => {
        if (stopped) return;
        stopped = true;
        budget.cancel(nextTurn);
        controller.error(err);
      });
    },
    cancel() {
      stopped = true;
      budget.cancel(nextTurn);
      input.destroy();
    },
  });

  const sdk = acpSdk().ndJsonStream(output, bytes, { maxMessageBytes });
  const reader = sdk.readable.getReader();
  let delivered = 0;
  // High-water mark 0: `pull` runs only when the SDK asks for a message, i.e. after it has
  // dispatched every message it was given before.
  const readable = new ReadableStream<acp.AnyMessage>(
    {
      async pull(controller) {
        // The SDK dispatches a message through a chain of promise handlers before it reaches
        // ours: after one macrotask turn the handler of everything it was given has run.
        if (delivered > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        dispatched += delivered;
        stats.sdk += delivered;
        delivered = 0;
        drainHeld();
        const { value, done } = await reader.read();
        if (done) {
          // Nothing more can come before the updates still held: hand them over.
          dispatched = Number.POSITIVE_INFINITY;
          drainHeld();
          return controller.close();
        }
        delivered++;
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );

  return { readable, writable: sdk.writable, stats, active: schema !== undefined };
}

function isSessionUpdate(message: Record<string, unknown>): boolean {
  return message.method === SESSION_UPDATE && message.jsonrpc === '2.0' && !('id' in message);
}

/** A copy of the line `start`…`end` of `chunk` with its LF (the SDK keeps it past the read). */
function withLf(chunk: Buffer, start: number, end: number): Buffer {
  const line = Buffer.allocUnsafe(end - start + 1);
  chunk.copy(line, 0, start, end);
  line[end - start] = 0x0a;
  return line;
}

function describeIssue(issue: { path: readonly PropertyKey[]; message: string }): string {
  return `${issue.path.map(String).join('.')}: ${issue.message}`;
}
