import type { PermissionCancelReason, PermissionDeciderT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { Clock } from '../util/clock';
import { Emitter, type Event } from '../util/event';
import type { Disposable } from '../util/lifecycle';
import type { TimerQueue } from '../util/timer-queue';

/** What every request the agent makes of a person carries. */
export interface PendingView {
  requestId: string;
  sessionId: string;
  /** When it is answered without a person, while no window watches its session. */
  deadlineAt?: number;
}

export interface PendingRequestsOptions {
  clock: Clock;
  timers: TimerQueue;
  /** How long a request waits while no window watches its session (read when the deadline is armed). */
  timeoutMs(): number;
  /** How many windows watch a session now. */
  watchers(sessionId: string): number;
  /** Labels a window for the transcript ("window 2"). */
  clientLabel(clientId: string): string;
}

/** Where requests are kept while they wait and after (a repository). */
export interface RequestStore {
  /** Keeps a request's deadline with it (or clears it), so a window that opens later shows it. */
  setDeadline(requestId: string, deadlineAt: number | undefined): void;
  /** This request of this session was answered already. */
  isAnswered(requestId: string, sessionId: string): boolean;
}

/** What the subclass's requests are called: their deadlines on the host's timer (`permission:<id>`), to a person, and the refusal of a late answer. */
export interface RequestNames {
  timer: string;
  noun: string;
  tooLate(): AppError;
}

/** How a request ended, as it is kept: who decided (`window:<id>`, `rule:<id>`, `timeout`, `cancel`) and why. */
export interface Decision {
  /** With the window's label, for the transcript. */
  decider: PermissionDeciderT;
  by: string;
  why: string | undefined;
}

interface Pending<V, R> {
  view: V;
  resolve(response: R): void;
  /** The timeout the running deadline was armed with (the transcript says how long it waited). */
  waitedMs?: number;
}

/**
 * Requests an agent makes of a person (a permission, a question) while they wait: shown in
 * every window watching the session, answered once (the first answer wins), with a deadline
 * only while no window watches (then answered without a person), and answered `cancelled` on
 * Stop, close, agent exit, the agent withdrawing it (`$/cancel_request`) and quit. Announced
 * to whoever listens. What a request is and how its end is recorded is the subclass's.
 */
export abstract class PendingRequests<V extends PendingView, R> implements Disposable {
  private readonly pending = new Map<string, Pending<V, R>>();
  private readonly didAsk = new Emitter<V>();
  private readonly didResolve = new Emitter<{ requestId: string; sessionId: string }>();
  private readonly didChangePending = new Emitter<string>();
  /** A request waits for a person: the windows watching its session show it. */
  readonly onDidAsk: Event<V> = this.didAsk.event;
  /** A request was answered (by anyone): the windows showing it withdraw it. */
  readonly onDidResolve: Event<{ requestId: string; sessionId: string }> = this.didResolve.event;
  /** A session's pending count changed (its view's badge). */
  readonly onDidChangePending: Event<string> = this.didChangePending.event;

  constructor(
    private readonly base: PendingRequestsOptions,
    private readonly names: RequestNames,
    private readonly store: RequestStore,
  ) {}

  /** What a cancelled request is answered. */
  protected abstract readonly cancelled: R;
  /** Records how a request ended (the store, the transcript). */
  protected abstract finish(view: V, response: R, decision: Decision): void;
  /** What a request is answered when its deadline passes, and why (said in the transcript). */
  protected abstract expired(view: V, waitedMs: number): { response: R; reason: string };

  /**
   * Waits for a person's answer to `view` (already stored and recorded). `signal` aborting (the
   * agent withdrew the request) answers it `cancelled`.
   */
  protected wait(view: V, signal?: AbortSignal): Promise<R> {
    return new Promise<R>((resolve) => {
      const { requestId, sessionId } = view;
      this.pending.set(requestId, { view, resolve });
      signal?.addEventListener('abort', () => this.settle(requestId, this.cancelled, { kind: 'cancel', reason: abortReason(signal) }), { once: true });
      this.armDeadline(requestId);
      this.didAsk.fire(this.pending.get(requestId)?.view ?? view);
      this.didChangePending.fire(sessionId);
    });
  }

  /**
   * The waiting request a window answers. One that is gone is refused and nothing changes: too
   * late when it was answered (in another window, at its deadline), else not found (unknown, or
   * another session's).
   */
  protected answering(requestId: string, sessionId: string): V {
    const pending = this.pending.get(requestId)?.view;
    if (pending && pending.sessionId === sessionId) return pending;
    if (this.store.isAnswered(requestId, sessionId)) throw this.names.tooLate();
    throw new AppError('not_found', `No such pending ${this.names.noun} for this session`);
  }

  /** How `decider` is kept; `reason` overrides a cancel's own reason. */
  protected decision(decider: PermissionDeciderT, reason?: string): Decision {
    const by = decider.kind === 'window' ? `window:${decider.clientId}` : decider.kind === 'rule' ? `rule:${decider.ruleId}` : decider.kind;
    const why = reason ?? (decider.kind === 'cancel' ? decider.reason : undefined);
    return { decider: decider.kind === 'window' ? { ...decider, label: this.base.clientLabel(decider.clientId) } : decider, by, why };
  }

  /** Answers a waiting request once: recorded, announced, then handed to the agent. False if it was not waiting. */
  protected settle(requestId: string, response: R, decider: PermissionDeciderT, reason?: string): boolean {
    const p = this.pending.get(requestId);
    if (!p) return false;
    this.pending.delete(requestId);
    this.base.timers.cancel(this.timerKey(requestId));
    this.finish(p.view, response, this.decision(decider, reason));
    this.didResolve.fire({ requestId, sessionId: p.view.sessionId });
    this.didChangePending.fire(p.view.sessionId);
    p.resolve(response);
    return true;
  }

  /** Answers every waiting request of a session `cancelled` (Stop, close, exit). */
  cancelSession(sessionId: string, reason: PermissionCancelReason): void {
    for (const [requestId, p] of [...this.pending]) {
      if (p.view.sessionId === sessionId) this.settle(requestId, this.cancelled, { kind: 'cancel', reason });
    }
  }

  cancelAll(reason: PermissionCancelReason): void {
    for (const requestId of [...this.pending.keys()]) this.settle(requestId, this.cancelled, { kind: 'cancel', reason });
  }

  /** Host quit: every waiting request is answered `cancelled`. Idempotent. */
  dispose(): void {
    this.cancelAll('host_shutdown');
  }

  /** Windows came or went: requests wait for a person while one watches, else a deadline runs. */
  watchersChanged(sessionId: string): void {
    for (const [requestId, p] of this.pending) if (p.view.sessionId === sessionId) this.armDeadline(requestId);
  }

  pendingFor(sessionId: string): V[] {
    return [...this.pending.values()].filter((p) => p.view.sessionId === sessionId).map((p) => p.view);
  }

  countFor(sessionId: string): number {
    let n = 0;
    for (const p of this.pending.values()) if (p.view.sessionId === sessionId) n++;
    return n;
  }

  get size(): number {
    return this.pending.size;
  }

  private timerKey(requestId: string): string {
    return `${this.names.timer}:${requestId}`;
  }

  private armDeadline(requestId: string): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    const key = this.timerKey(requestId);
    if (this.base.watchers(p.view.sessionId) > 0) {
      this.base.timers.cancel(key);
      if (p.view.deadlineAt !== undefined) {
        const { deadlineAt: _cleared, ...rest } = p.view;
        p.view = rest as V;
        this.store.setDeadline(requestId, undefined);
      }
      return;
    }
    if (p.view.deadlineAt !== undefined) return;
    const waitedMs = this.base.timeoutMs();
    const deadlineAt = this.base.clock.now() + waitedMs;
    p.view = { ...p.view, deadlineAt };
    p.waitedMs = waitedMs;
    this.store.setDeadline(requestId, deadlineAt);
    this.base.timers.at(key, deadlineAt, () => this.expire(requestId));
  }

  private expire(requestId: string): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    const { response, reason } = this.expired(p.view, p.waitedMs ?? this.base.timeoutMs());
    this.settle(requestId, response, { kind: 'timeout' }, reason);
  }
}

/**
 * Why the agent's side ended a request: it withdrew it (`$/cancel_request`, which the SDK reports
 * as a -32800 error), or its connection closed under it (the agent exited).
 */
function abortReason(signal: AbortSignal): PermissionCancelReason {
  const reason: unknown = signal.reason;
  return typeof reason === 'object' && reason !== null && (reason as { code?: unknown }).code === -32800 ? 'agent_withdrew' : 'agent_exited';
}

/** "for 12.5 s": how long a request waited, as the transcript says it. */
export function waitedFor(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
