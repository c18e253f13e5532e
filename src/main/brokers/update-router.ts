import type * as acp from '@agentclientprotocol/sdk';
import type { Clock } from '../util/clock';
import type { RequestScope } from './client-handlers';

/**
 * Where a live agent session's traffic goes. `onUpdate` must work synchronously. It is also the
 * scope of the agent's client requests (`fs/*`, `terminal/*`) for that session.
 */
export interface SessionSink extends RequestScope {
  onUpdate(notification: acp.SessionNotification): void;
  onPermission(request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** A question from the agent (`elicitation/create`) for this session; absent: answered `cancel`. */
  onQuestion?(request: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** The agent's `elicitation/complete`; true when it closed a question of this session. */
  onQuestionComplete?(elicitationId: string): boolean;
}

/** Updates for an ACP session id not bound yet are held this long, then dropped. */
const UNCLAIMED_TTL_MS = 120_000;
const UNCLAIMED_MAX = 1_000;
/** Closed ACP session ids remembered so late output for them is dropped, not held. */
const MAX_CLOSED_IDS = 256;

/**
 * Routes one agent connection's `session/update`s by ACP session id to the sink bound to it.
 * Updates for an id that is not bound yet (sent while `session/new` is in flight) are held
 * and handed over on bind; those for an id closed on our side are dropped.
 */
export class UpdateRouter {
  private readonly sinks = new Map<string, SessionSink>();
  private readonly closedIds = new Set<string>();
  private readonly unclaimed = new Map<string, { at: number; updates: acp.SessionNotification[] }>();

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.sinks.size;
  }

  sinkFor(acpSessionId: string): SessionSink | undefined {
    return this.sinks.get(acpSessionId);
  }

  /** Every bound session. */
  allSinks(): Iterable<SessionSink> {
    return this.sinks.values();
  }

  /** Routes updates for `acpSessionId` to `sink`, first handing over any held ones, in order. */
  bind(acpSessionId: string, sink: SessionSink): void {
    this.closedIds.delete(acpSessionId);
    this.sinks.set(acpSessionId, sink);
    const held = this.unclaimed.get(acpSessionId);
    if (!held) return;
    this.unclaimed.delete(acpSessionId);
    for (const update of held.updates) sink.onUpdate(update);
  }

  unbind(acpSessionId: string, sink?: SessionSink): void {
    if (sink && this.sinks.get(acpSessionId) !== sink) return;
    this.sinks.delete(acpSessionId);
  }

  /**
   * A session closed on our side: what the agent still sends for it (the rest of a cancelled
   * stream) is dropped, never held for a later resume of the same id to pick up.
   */
  closeSession(acpSessionId: string, sink: SessionSink): void {
    this.unbind(acpSessionId, sink);
    this.unclaimed.delete(acpSessionId);
    this.closedIds.add(acpSessionId);
    if (this.closedIds.size > MAX_CLOSED_IDS) this.closedIds.delete(this.closedIds.values().next().value as string);
  }

  /** Drops updates held for an id that will never be bound (a failed session/new). */
  dropUnclaimed(acpSessionId: string): void {
    this.unclaimed.delete(acpSessionId);
  }

  route(notification: acp.SessionNotification): void {
    const sink = this.sinks.get(notification.sessionId);
    if (sink) return sink.onUpdate(notification);
    if (this.closedIds.has(notification.sessionId)) return;
    const now = this.clock.now();
    // Age counts from the latest update: a slow session/new keeps what it sent first.
    for (const [id, held] of this.unclaimed) if (now - held.at > UNCLAIMED_TTL_MS) this.unclaimed.delete(id);
    const held = this.unclaimed.get(notification.sessionId) ?? { at: now, updates: [] };
    if (held.updates.length >= UNCLAIMED_MAX) return;
    held.at = now;
    held.updates.push(notification);
    this.unclaimed.set(notification.sessionId, held);
  }

  /** The connection is gone: nothing is routed or held any more. */
  clear(): void {
    this.sinks.clear();
    this.unclaimed.clear();
  }
}
