import type { PermissionCancelReason, ToolCallStatus, ToolKind } from '../../../../shared/contract';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import type { Decider, PermissionResolution } from '../../store/slices/transcript/rows';

/** Why a request was withdrawn, said to the person (a state reason reads as the sidebar says it). */
function withdrawnBecause(reason: PermissionCancelReason): string {
  switch (reason) {
    case 'agent_withdrew':
      return 'the agent withdrew it';
    case 'turn_cancelled':
      return 'the turn was stopped';
    case 'host_restart':
      return 'Switchboard restarted';
    default:
      return sessionsSelectors.reasonText(reason).toLowerCase();
  }
}

function who(d: Decider): string {
  switch (d.kind) {
    case 'window':
      return d.label ? `answered in ${d.label}` : 'answered in a window';
    case 'timeout':
      return 'no answer in time';
    case 'rule':
      return 'by a remembered rule';
    case 'cancel':
      return `withdrawn: ${withdrawnBecause(d.reason)}`;
  }
}

/** Who decided a request (a permission, a question) and why, e.g. `answered in window 2`. */
export function describeDecider(decider: Decider, reason: string | undefined): string {
  return `${who(decider)}${reason && decider.kind !== 'cancel' ? ` (${reason})` : ''}`;
}

/** One line: what was chosen and who decided, e.g. `Allow once — answered in window 2`. */
export function describeResolution(r: PermissionResolution): string {
  const outcome = r.outcome === 'selected' ? (r.optionName ?? r.optionId ?? 'Answered') : 'Cancelled';
  return `${outcome} — ${describeDecider(r.decider, r.reason)}`;
}

const STATUS_LABEL: Record<ToolCallStatus, string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Done',
  failed: 'Failed',
};

/** Tool call status as shown on a card; never "Running", which the composer status owns. */
export function toolStatusLabel(status: ToolCallStatus | undefined): string {
  return STATUS_LABEL[status ?? 'pending'];
}

const KIND_LABEL: Record<ToolKind, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Run command',
  think: 'Think',
  fetch: 'Fetch',
  switch_mode: 'Switch mode',
  other: 'Tool',
};

export function toolKindLabel(kind: ToolKind | undefined): string {
  return KIND_LABEL[kind ?? 'other'];
}
