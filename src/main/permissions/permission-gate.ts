import type * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/errors';
import { defined } from '../util/defined';
import {
  ToolCallView,
  type PayloadOf,
  type PermissionOptionT,
  type PermissionViewT,
  type ToolCallViewT,
} from '../../shared/contract';
import { unmodelled } from '../util/unmodelled';
import type { PermissionsRepo } from '../store/permissions.repo';
import type { Event } from '../util/event';
import { PendingRequests, waitedFor, type Decision, type PendingRequestsOptions } from './pending-requests';

export interface PermissionGateOptions extends PendingRequestsOptions {
  repo: PermissionsRepo;
  /** False for a session that is closing, ended or unknown: its requests are answered at once. */
  isOpen(sessionId: string): boolean;
  /** Appends a transcript event. */
  record<K extends 'permission_requested' | 'permission_resolved'>(sessionId: string, kind: K, payload: PayloadOf<K>): void;
}

type Response = acp.RequestPermissionResponse;

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
export class PermissionGate extends PendingRequests<PermissionViewT, Response> {
  /** A request waits for a person: the windows watching its session show it. */
  readonly onDidRequest: Event<PermissionViewT> = this.onDidAsk;
  protected readonly cancelled = CANCELLED;

  constructor(private readonly opts: PermissionGateOptions) {
    super(opts, { timer: 'permission', noun: 'permission request', tooLate: () => new AppError('permission_answered', 'This permission request was already answered') }, opts.repo);
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
        this.finish(view, response, this.decision({ kind: 'rule', ruleId: rule.id }, `remembered: ${rule.decision.replace('_', ' ')} for ${rule.toolKind}`));
        return Promise.resolve(response);
      }
    }
    return this.wait(view, signal);
  }

  /** A window's answer. Late, duplicate, unknown or foreign answers are refused and change nothing. */
  answer(clientId: string, requestId: string, sessionId: string, optionId: string): void {
    const pending = this.answering(requestId, sessionId);
    const option = pending.options.find((o) => o.optionId === optionId);
    if (!option) throw new AppError('invalid_request', `Unknown option ${optionId}`);
    const kind = pending.toolCall.kind;
    if (kind && (option.kind === 'allow_always' || option.kind === 'reject_always')) {
      this.opts.repo.upsertRule({ id: randomUUID(), sessionId, toolKind: kind, decision: option.kind, createdAt: this.opts.clock.now() });
    }
    this.settle(requestId, { outcome: { outcome: 'selected', optionId } }, { kind: 'window', clientId });
  }

  protected expired(view: PermissionViewT, waitedMs: number): { response: Response; reason: string } {
    const reject = pickOption(view.options, ['reject_once']);
    const response: Response = reject ? { outcome: { outcome: 'selected', optionId: reject.optionId } } : CANCELLED;
    return { response, reason: `Denied automatically: no window watched this session for ${waitedFor(waitedMs)}` };
  }

  protected finish(view: PermissionViewT, response: Response, { decider, by, why }: Decision): void {
    const optionId = response.outcome.outcome === 'selected' ? response.outcome.optionId : undefined;
    this.opts.repo.decide(view.requestId, { outcome: response.outcome.outcome, optionId, decidedBy: by, reason: why }, this.opts.clock.now());
    const option = view.options.find((o) => o.optionId === optionId);
    this.opts.record(view.sessionId, 'permission_resolved', {
      requestId: view.requestId,
      title: view.toolCall.title,
      outcome: response.outcome.outcome,
      ...(optionId ? { optionId, optionName: option?.name } : {}),
      decider,
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
