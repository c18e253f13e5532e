import type * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/errors';
import { defined } from '../util/defined';
import {
  ToolCallView,
  type PayloadOf,
  type PermissionCancelReason,
  type PermissionDeciderT,
  type PermissionOptionT,
  type PermissionViewT,
  type ToolCallViewT,
} from '../../shared/contract';
import { unmodelled } from '../util/unmodelled';
import type { PermissionsRepo } from '../store/permissions.repo';
import type { Clock } from '../util/clock';
import { Emitter, type Event } from '../util/event';
import type { Disposable } from '../util/lifecycle';
import type { TimerQueue } from '../util/timer-queue';
import { describeDuration, type Resumed, type SuspendAware } from '../util/suspend-watch';

export interface PermissionGateOptions {
  repo: PermissionsRepo;
  clock: Clock;
  timers: TimerQueue;
  /** Current `permissionTimeoutMs` setting. */
  timeoutMs(): number;
  /** How many windows watch a session now. */
  watchers(sessionId: string): number;
  /** False for a session that is closing, ended or unknown: its requests are answered at once. */
  isOpen(sessionId: string): boolean;
  /** Appends a transcript event. */
  record<K extends 'permission_requested' | 'permission_resolved' | 'notice'>(sessionId: string, kind: K, payload: PayloadOf<K>): void;
  /** Labels a window for the transcript ("window 2"). */
  clientLabel(clientId: string): string;
  /**
   * Sleeps of the computer: a deadline counts only the time awake. The host's timer moves the
   * deadline's task itself; the gate moves the deadline it shows and says so in the transcript.
   */
  suspend?: SuspendAware;
}

type Response = acp.RequestPermissionResponse;

interface Pending {
  view: PermissionViewT;
  resolve(response: Response): void;
  /** The timeout the running deadline was armed with (the transcript says how long it waited). */
  waitedMs?: number;
}

const CANCELLED: Response = { outcome: { outcome: 'cancelled' } };

/** The tool call as its schema types it; what the agent sent beyond that stays in the event's `extra`. */
function toToolCall(tc: acp.ToolCallUpdate): ToolCallViewT {
  const parsed = ToolCallView.safeParse(
    defined({
      toolCallId: tc.toolCallId,
      title: tc.title ?? 'Tool call',
      kind: tc.kind,
      status: tc.status,
      content: tc.content,
      locations: tc.locations,
      rawInput: tc.rawInput,
    }),
  );
  return parsed.success ? parsed.data : { toolCallId: tc.toolCallId, title: tc.title ?? 'Tool call' };
}

/**
 * Every `session/request_permission` ends with an answer. Requests go to every window
 * watching the session (first answer wins). With no window watching, a request waits up to
 * the permission timeout, then the agent gets its reject option (else `cancelled`). Cancel,
 * close, agent exit and quit answer `cancelled`. Remembered "always" rules answer at once.
 */
export class PermissionGate implements Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly didRequest = new Emitter<PermissionViewT>();
  private readonly didResolve = new Emitter<{ requestId: string; sessionId: string }>();
  private readonly didChangePending = new Emitter<string>();
  /** A request waits for a person: the windows watching its session show it. */
  readonly onDidRequest: Event<PermissionViewT> = this.didRequest.event;
  /** A request was answered (by anyone): the windows showing it withdraw it. */
  readonly onDidResolve: Event<{ requestId: string; sessionId: string }> = this.didResolve.event;
  /** A session's pending count changed (its view's badge). */
  readonly onDidChangePending: Event<string> = this.didChangePending.event;

  private readonly resumeSubscription: Disposable | undefined;

  constructor(private readonly opts: PermissionGateOptions) {
    this.resumeSubscription = opts.suspend?.onDidResume((r) => this.resumed(r));
  }

  /**
   * The computer slept while requests waited with a deadline: each deadline moves by the sleep
   * (never expired at wake), windows get the request again with it, and each session's
   * transcript says why.
   */
  private resumed({ sleptMs }: Resumed): void {
    const now = this.opts.clock.now();
    const moved = new Map<string, number>();
    for (const p of this.pending.values()) {
      if (p.view.deadlineAt === undefined) continue;
      const deadlineAt = p.view.deadlineAt + sleptMs;
      p.view = { ...p.view, deadlineAt };
      this.opts.repo.setDeadline(p.view.requestId, deadlineAt);
      this.didRequest.fire(p.view);
      moved.set(p.view.sessionId, Math.min(moved.get(p.view.sessionId) ?? Infinity, deadlineAt - now));
    }
    for (const [sessionId, left] of moved) {
      this.opts.record(sessionId, 'notice', {
        kind: 'slept',
        text: `This computer slept for ${describeDuration(sleptMs)} while a permission request waited. Its deadline counts only the time awake: it is answered automatically in ${describeDuration(Math.max(0, left))} unless a window answers it first.`,
      });
    }
  }

  request(sessionId: string, params: acp.RequestPermissionRequest, signal?: AbortSignal): Promise<Response> {
    // Nobody could ever answer these: a closing or ended session has no windows left to ask,
    // and its close already answered what was pending. Answer now rather than never.
    if (signal?.aborted || !this.opts.isOpen(sessionId)) return Promise.resolve(CANCELLED);
    const toolCall = toToolCall(params.toolCall);
    const options: PermissionOptionT[] = params.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind }));
    const now = this.opts.clock.now();
    const requestId = randomUUID();
    const view: PermissionViewT = { requestId, sessionId, toolCall, options, createdAt: now };
    this.opts.repo.insert(view);
    const { sessionId: _acpSession, ...sent } = params;
    const extra = unmodelled(sent, { toolCall, options });
    this.opts.record(sessionId, 'permission_requested', { requestId, toolCall, options, ...(extra ? { extra } : {}) });

    const rule = toolCall.kind ? this.opts.repo.rule(sessionId, toolCall.kind) : undefined;
    if (rule) {
      const option = pickOption(options, rule.decision === 'allow_always' ? ['allow_always', 'allow_once'] : ['reject_always', 'reject_once']);
      if (option) {
        const response: Response = { outcome: { outcome: 'selected', optionId: option.optionId } };
        this.finish(view, response, { kind: 'rule', ruleId: rule.id }, `remembered: ${rule.decision.replace('_', ' ')} for ${rule.toolKind}`);
        return Promise.resolve(response);
      }
    }

    return new Promise<Response>((resolve) => {
      this.pending.set(requestId, { view, resolve });
      signal?.addEventListener('abort', () => this.settle(requestId, CANCELLED, { kind: 'cancel', reason: 'agent_withdrew' }), {
        once: true,
      });
      this.armDeadline(requestId);
      this.didRequest.fire(this.pending.get(requestId)?.view ?? view);
      this.didChangePending.fire(sessionId);
    });
  }

  /** A window's answer. Late, duplicate, unknown or foreign answers are refused and change nothing. */
  answer(clientId: string, requestId: string, sessionId: string, optionId: string): void {
    const pending = this.pending.get(requestId);
    if (!pending || pending.view.sessionId !== sessionId) {
      const stored = this.opts.repo.get(requestId);
      if (stored && stored.sessionId === sessionId && stored.status === 'decided') {
        throw new AppError('permission_answered', 'This permission request was already answered');
      }
      throw new AppError('not_found', 'No such pending permission request for this session');
    }
    const option = pending.view.options.find((o) => o.optionId === optionId);
    if (!option) throw new AppError('invalid_request', `Unknown option ${optionId}`);
    const kind = pending.view.toolCall.kind;
    if (kind && (option.kind === 'allow_always' || option.kind === 'reject_always')) {
      this.opts.repo.upsertRule({ id: randomUUID(), sessionId, toolKind: kind, decision: option.kind, createdAt: this.opts.clock.now() });
    }
    this.settle(requestId, { outcome: { outcome: 'selected', optionId } }, { kind: 'window', clientId });
  }

  /** Answers every pending request of a session `cancelled` (cancel, close, exit). */
  cancelSession(sessionId: string, reason: PermissionCancelReason): void {
    for (const [requestId, p] of this.pending) {
      if (p.view.sessionId === sessionId) this.settle(requestId, CANCELLED, { kind: 'cancel', reason });
    }
  }

  cancelAll(reason: PermissionCancelReason): void {
    for (const requestId of [...this.pending.keys()]) this.settle(requestId, CANCELLED, { kind: 'cancel', reason });
  }

  /** Host quit: every pending request is answered `cancelled`. Idempotent. */
  dispose(): void {
    this.cancelAll('host_shutdown');
    this.resumeSubscription?.dispose();
  }

  /** Windows came or went: requests wait for a person while one watches, else a deadline runs. */
  watchersChanged(sessionId: string): void {
    for (const [requestId, p] of this.pending) if (p.view.sessionId === sessionId) this.armDeadline(requestId);
  }

  pendingFor(sessionId: string): PermissionViewT[] {
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

  private armDeadline(requestId: string): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    const key = `permission:${requestId}`;
    if (this.opts.watchers(p.view.sessionId) > 0) {
      this.opts.timers.cancel(key);
      if (p.view.deadlineAt !== undefined) {
        const { deadlineAt: _cleared, ...rest } = p.view;
        p.view = rest;
        this.opts.repo.setDeadline(requestId, undefined);
      }
      return;
    }
    if (p.view.deadlineAt !== undefined) return;
    const waitedMs = this.opts.timeoutMs();
    const deadlineAt = this.opts.clock.now() + waitedMs;
    p.view = { ...p.view, deadlineAt };
    p.waitedMs = waitedMs;
    this.opts.repo.setDeadline(requestId, deadlineAt);
    this.opts.timers.at(key, deadlineAt, () => this.expire(requestId));
  }

  private expire(requestId: string): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    const reject = pickOption(p.view.options, ['reject_once']);
    const response: Response = reject ? { outcome: { outcome: 'selected', optionId: reject.optionId } } : CANCELLED;
    const seconds = Math.round((p.waitedMs ?? this.opts.timeoutMs()) / 100) / 10;
    this.settle(requestId, response, { kind: 'timeout' }, `Denied automatically: no window watched this session for ${seconds} s`);
  }

  private settle(requestId: string, response: Response, decider: PermissionDeciderT, reason?: string): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    this.opts.timers.cancel(`permission:${requestId}`);
    this.finish(p.view, response, decider, reason);
    this.didResolve.fire({ requestId, sessionId: p.view.sessionId });
    this.didChangePending.fire(p.view.sessionId);
    p.resolve(response);
  }

  private finish(view: PermissionViewT, response: Response, decider: PermissionDeciderT, reason?: string): void {
    const optionId = response.outcome.outcome === 'selected' ? response.outcome.optionId : undefined;
    const by = decider.kind === 'window' ? `window:${decider.clientId}` : decider.kind === 'rule' ? `rule:${decider.ruleId}` : decider.kind;
    const why = reason ?? (decider.kind === 'cancel' ? decider.reason : undefined);
    this.opts.repo.decide(view.requestId, { outcome: response.outcome.outcome, optionId, decidedBy: by, reason: why }, this.opts.clock.now());
    const option = view.options.find((o) => o.optionId === optionId);
    this.opts.record(view.sessionId, 'permission_resolved', {
      requestId: view.requestId,
      title: view.toolCall.title,
      outcome: response.outcome.outcome,
      ...(optionId ? { optionId, optionName: option?.name } : {}),
      decider: decider.kind === 'window' ? { ...decider, label: this.opts.clientLabel(decider.clientId) } : decider,
      ...(why ? { reason: why } : {}),
    });
  }
}

function pickOption(options: readonly PermissionOptionT[], kinds: readonly PermissionOptionT['kind'][]): PermissionOptionT | undefined {
  for (const kind of kinds) {
    const found = options.find((o) => o.kind === kind);
    if (found) return found;
  }
  return undefined;
}
