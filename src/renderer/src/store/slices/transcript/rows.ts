import type { SessionEventT } from '../../../../../shared/contract';
import { isRec, recs, str, strings, type Rec } from '../../../lib/payload';

export interface ToolCallState {
  toolCallId: string;
  title: string;
  kind: string | undefined;
  status: string | undefined;
  content: readonly unknown[];
  locations: readonly Rec[];
  rawInput: unknown;
}

export interface PlanEntry {
  content: string;
  status: string;
  priority: string | undefined;
}

export type Decider =
  | { kind: 'window'; clientId: string | undefined; label: string | undefined }
  | { kind: 'timeout' }
  | { kind: 'rule'; ruleId: string | undefined }
  | { kind: 'cancel'; reason: string | undefined }
  | { kind: 'unknown' };

export interface PermissionResolution {
  outcome: 'selected' | 'cancelled';
  optionName: string | undefined;
  optionId: string | undefined;
  decider: Decider;
  reason: string | undefined;
}

/** One visual row of the transcript; `key` stays stable while the row grows. */
export type Row =
  | { type: 'user'; key: string; text: string; pending: boolean }
  | { type: 'agent'; key: string; text: string }
  | { type: 'thought'; key: string; text: string }
  | { type: 'tool'; key: string; call: ToolCallState }
  | { type: 'plan'; key: string; entries: readonly PlanEntry[] }
  | { type: 'stopped'; key: string; text: string }
  | { type: 'error'; key: string; code: string | undefined; message: string; stderrTail: readonly string[] }
  | {
      type: 'permission';
      key: string;
      requestId: string;
      title: string;
      toolKind: string | undefined;
      resolution: PermissionResolution | undefined;
    }
  | { type: 'notice'; key: string; text: string };

/** Kinds that never make a row; they also do not split a run of message chunks. */
const INVISIBLE = new Set(['session_info', 'available_commands', 'agent_update']);

const STOP_NOTES: Record<string, string> = {
  cancelled: 'Stopped',
  max_tokens: 'Stopped: the agent reached its token limit',
  max_turn_requests: 'Stopped: the agent reached its request limit',
  refusal: 'The agent refused to continue',
};

function toolFrom(id: string, p: Rec, prev: ToolCallState | undefined): ToolCallState {
  const base: ToolCallState = prev ?? {
    toolCallId: id,
    title: 'Tool call',
    kind: undefined,
    status: undefined,
    content: [],
    locations: [],
    rawInput: undefined,
  };
  // An update carries only the fields that changed; absent means "unchanged".
  return {
    toolCallId: id,
    title: str(p.title) ?? base.title,
    kind: str(p.kind) ?? base.kind,
    status: str(p.status) ?? base.status,
    content: Array.isArray(p.content) ? p.content : base.content,
    locations: Array.isArray(p.locations) ? recs(p.locations) : base.locations,
    rawInput: p.rawInput !== undefined ? p.rawInput : base.rawInput,
  };
}

function deciderFrom(v: unknown): Decider {
  if (!isRec(v)) return { kind: 'unknown' };
  switch (v.kind) {
    case 'window':
      return { kind: 'window', clientId: str(v.clientId), label: str(v.label) };
    case 'timeout':
      return { kind: 'timeout' };
    case 'rule':
      return { kind: 'rule', ruleId: str(v.ruleId) };
    case 'cancel':
      return { kind: 'cancel', reason: str(v.reason) };
    default:
      return { kind: 'unknown' };
  }
}

function resolutionFrom(p: Rec): PermissionResolution {
  return {
    outcome: p.outcome === 'selected' ? 'selected' : 'cancelled',
    optionName: str(p.optionName),
    optionId: str(p.optionId),
    decider: deciderFrom(p.decider),
    reason: str(p.reason),
  };
}

/**
 * Folds stored events into rows: consecutive message (or thought) chunks become one bubble,
 * a tool call and its later updates become one card where the call first appeared, a plan is
 * shown once per turn with its latest entries, and a permission request row gets its outcome.
 * Pure and O(n); the view memoises it on the events array.
 */
export function buildRows(events: readonly SessionEventT[]): Row[] {
  const rows: Row[] = [];
  const toolIndex = new Map<string, number>();
  const permissionIndex = new Map<string, number>();
  let planIndex: number | undefined;
  // Index of the row that a following chunk of the same kind may extend.
  let open: { index: number; kind: 'agent' | 'thought' } | undefined;

  const replace = (index: number, row: Row): void => {
    rows[index] = row;
  };

  for (const e of events) {
    const p = e.payload;
    if (INVISIBLE.has(e.kind)) continue;
    if (e.kind === 'agent_message' || e.kind === 'agent_thought') {
      const kind = e.kind === 'agent_message' ? 'agent' : 'thought';
      const text = str(p.text) ?? '';
      const prev = open?.kind === kind ? rows[open.index] : undefined;
      if (open && prev && (prev.type === 'agent' || prev.type === 'thought')) {
        replace(open.index, { ...prev, text: prev.text + text });
      } else {
        rows.push({ type: kind, key: `${kind}-${e.seq}`, text });
        open = { index: rows.length - 1, kind };
      }
      continue;
    }
    open = undefined;
    switch (e.kind) {
      case 'user_message':
        planIndex = undefined;
        rows.push({ type: 'user', key: `user-${e.seq}`, text: str(p.text) ?? '', pending: false });
        break;
      case 'turn_started':
        break;
      case 'turn_ended': {
        const note = STOP_NOTES[str(p.stopReason) ?? ''];
        if (note) rows.push({ type: 'stopped', key: `stop-${e.seq}`, text: note });
        break;
      }
      case 'tool_call':
      case 'tool_call_update': {
        const id = str(p.toolCallId);
        if (id === undefined) break;
        const at = toolIndex.get(id);
        const prev = at === undefined ? undefined : rows[at];
        const call = toolFrom(id, p, prev?.type === 'tool' ? prev.call : undefined);
        if (at === undefined) {
          toolIndex.set(id, rows.length);
          rows.push({ type: 'tool', key: `tool-${e.seq}`, call });
        } else if (prev) {
          replace(at, { type: 'tool', key: prev.key, call });
        }
        break;
      }
      case 'plan': {
        const entries = recs(p.entries).map((x) => ({
          content: str(x.content) ?? '',
          status: str(x.status) ?? 'pending',
          priority: str(x.priority),
        }));
        const prev = planIndex === undefined ? undefined : rows[planIndex];
        if (planIndex !== undefined && prev) replace(planIndex, { type: 'plan', key: prev.key, entries });
        else {
          planIndex = rows.length;
          rows.push({ type: 'plan', key: `plan-${e.seq}`, entries });
        }
        break;
      }
      case 'error':
        rows.push({
          type: 'error',
          key: `error-${e.seq}`,
          code: str(p.code),
          message: str(p.message) ?? 'The agent reported an error',
          stderrTail: strings(p.stderrTail),
        });
        break;
      case 'permission_requested': {
        const requestId = str(p.requestId) ?? `seq-${e.seq}`;
        const call = isRec(p.toolCall) ? p.toolCall : {};
        permissionIndex.set(requestId, rows.length);
        rows.push({
          type: 'permission',
          key: `perm-${e.seq}`,
          requestId,
          title: str(call.title) ?? 'Tool call',
          toolKind: str(call.kind),
          resolution: undefined,
        });
        break;
      }
      case 'permission_resolved': {
        const requestId = str(p.requestId) ?? `seq-${e.seq}`;
        const at = permissionIndex.get(requestId);
        const prev = at === undefined ? undefined : rows[at];
        const resolution = resolutionFrom(p);
        if (at !== undefined && prev?.type === 'permission') replace(at, { ...prev, resolution });
        else
          rows.push({
            type: 'permission',
            key: `perm-${e.seq}`,
            requestId,
            title: 'Permission request',
            toolKind: undefined,
            resolution,
          });
        break;
      }
      case 'notice':
        rows.push({ type: 'notice', key: `notice-${e.seq}`, text: str(p.text) ?? '' });
        break;
      default:
        break;
    }
  }
  return rows;
}

/** The text of the newest user prompt among loaded events (for Retry after a crash loop). */
export function lastUserPrompt(events: readonly SessionEventT[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.kind === 'user_message') {
      const text = str(e.payload.text);
      if (text) return text;
    }
  }
  return undefined;
}

/** clientMessageIds of prompts already in the transcript (their optimistic rows can go). */
export function seenClientMessageIds(events: readonly SessionEventT[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const e of events) {
    if (e.kind !== 'user_message') continue;
    const id = str(e.payload.clientMessageId);
    if (id) ids.add(id);
  }
  return ids;
}
