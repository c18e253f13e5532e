import type { AppState } from '../../app-store';
import type { ChangedFileT, WorkspaceStatusT, WorkspaceViewT } from '../../../../../shared/contract';

function workspaceOf(s: AppState, sessionId: string | undefined): WorkspaceViewT | undefined {
  return sessionId === undefined ? undefined : s.sessionsById.get(sessionId)?.workspace;
}

function statusOf(s: AppState, sessionId: string | undefined): WorkspaceStatusT | undefined {
  return sessionId === undefined ? undefined : s.workspaceStatus.get(sessionId);
}

/** "3 ahead, 1 behind" of the header; empty when level with the base. */
function aheadBehindText(st: WorkspaceStatusT): string {
  const parts: string[] = [];
  if (st.ahead) parts.push(`${st.ahead} ahead`);
  if (st.behind) parts.push(`${st.behind} behind`);
  return parts.join(', ');
}

/** How a changed file is described: its status, binary, and lines. */
function fileSummary(f: ChangedFileT): string {
  const status = f.status === 'renamed' && f.from ? `renamed from ${f.from}` : f.status;
  const lines = f.binary ? 'binary' : f.added !== undefined || f.removed !== undefined ? `+${f.added ?? 0} −${f.removed ?? 0}` : '';
  return lines ? `${status}, ${lines}` : status;
}

/** Whether a session's turns can be restored from this window: a worktree, or a shared folder no other live session works in. */
function canRestore(s: AppState, sessionId: string): boolean {
  const ws = workspaceOf(s, sessionId);
  if (!ws || ws.removed) return false;
  if (ws.kind === 'worktree') return true;
  for (const other of s.sessionsById.values()) {
    if (other.id === sessionId || other.archivedAt !== undefined) continue;
    const live = other.state === 'ACTIVE' || other.state === 'STARTING' || other.state === 'CREATED' || other.running;
    if (live && other.workspace?.kind === 'shared' && other.workspace.folder === ws.folder) return false;
  }
  return true;
}

export const workspaceSelectors = { workspaceOf, statusOf, aheadBehindText, fileSummary, canRestore };
