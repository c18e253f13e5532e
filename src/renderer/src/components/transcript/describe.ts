import type { Decider, PermissionResolution } from '../../store/slices/transcript/rows';

function who(d: Decider): string {
  switch (d.kind) {
    case 'window':
      return d.label ? `answered in ${d.label}` : 'answered in a window';
    case 'timeout':
      return 'no answer in time';
    case 'rule':
      return 'by a remembered rule';
    case 'cancel':
      return d.reason ? `withdrawn (${d.reason})` : 'withdrawn';
    case 'unknown':
      return 'decided';
  }
}

/** One line: what was chosen and who decided, e.g. `Allow once — answered in window 2`. */
export function describeResolution(r: PermissionResolution): string {
  const outcome = r.outcome === 'selected' ? (r.optionName ?? r.optionId ?? 'Answered') : 'Cancelled';
  const reason = r.reason && r.decider.kind !== 'cancel' ? ` (${r.reason})` : '';
  return `${outcome} — ${who(r.decider)}${reason}`;
}

const STATUS_LABEL: Record<string, string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Done',
  failed: 'Failed',
};

/** Tool call status as shown on a card; never "Running", which the composer status owns. */
export function toolStatusLabel(status: string | undefined): string {
  if (status === undefined) return 'Pending';
  return STATUS_LABEL[status] ?? status;
}

const KIND_LABEL: Record<string, string> = {
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

export function toolKindLabel(kind: string | undefined): string {
  return kind === undefined ? 'Tool' : (KIND_LABEL[kind] ?? kind);
}
