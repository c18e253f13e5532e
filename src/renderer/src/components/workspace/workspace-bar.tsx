import { useEffect } from 'react';
import type { SessionViewT } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { workspaceSelectors } from '../../store/slices/workspace/selectors';

/**
 * The header's git line for a session in a repository: branch, base, commits ahead and behind,
 * uncommitted changes; `Changes` (and `Compare` for a group). A worktree whose folder vanished
 * offers to make it again.
 */
export function WorkspaceBar({ session }: { session: SessionViewT }) {
  const ws = session.workspace;
  const status = useAppStore((s) => workspaceSelectors.statusOf(s, session.id));
  const changesOpen = useAppStore((s) => s.changes?.sessionId === session.id);
  const compareOpen = useAppStore((s) => session.groupId !== undefined && s.compare?.groupId === session.groupId);
  const loadStatus = useAppStore((s) => s.loadWorkspaceStatus);
  const openChanges = useAppStore((s) => s.openChanges);
  const closeChanges = useAppStore((s) => s.closeChanges);
  const openCompare = useAppStore((s) => s.openCompare);
  const closeCompare = useAppStore((s) => s.closeCompare);
  const recreate = useAppStore((s) => s.recreateWorktree);
  const usable = ws !== undefined && !ws.removed && !ws.missing;
  useEffect(() => {
    if (usable) void loadStatus(session.id);
  }, [usable, session.id, loadStatus]);
  if (!ws) return null;
  const branch = status?.branch ?? ws.branch;
  const base = status?.baseBranch ?? ws.baseBranch;
  const aheadBehind = status ? workspaceSelectors.aheadBehindText(status) : '';
  return (
    <div className="workspace-bar" role="group" aria-label="Workspace">
      <span className="workspace-facts">
        {ws.kind === 'worktree' ? 'Worktree' : 'Shared folder'}
        {branch ? (
          <>
            {' · branch '}
            <code className="workspace-branch">{branch}</code>
          </>
        ) : status && !status.branch ? (
          ' · detached HEAD'
        ) : null}
        {base && ws.kind === 'worktree' ? (
          <>
            {' · base '}
            <code className="workspace-base">{base}</code>
          </>
        ) : null}
        {aheadBehind ? ` · ${aheadBehind}` : ''}
        {status ? (status.dirty ? ` · ${status.uncommitted} uncommitted` : ' · clean') : ''}
        {ws.removed ? ' · worktree removed (Restore makes it again)' : ''}
        {ws.missing ? ' · the worktree folder is gone' : ''}
      </span>
      {ws.missing ? (
        <button type="button" className="button-secondary" onClick={() => void recreate(session.id)}>
          Make the worktree again
        </button>
      ) : null}
      {usable ? (
        <button
          type="button"
          className="button-secondary"
          aria-expanded={changesOpen}
          onClick={() => (changesOpen ? closeChanges() : openChanges(session.id))}
        >
          Changes
        </button>
      ) : null}
      {session.groupId !== undefined ? (
        <button
          type="button"
          className="button-secondary"
          aria-expanded={compareOpen}
          onClick={() => (compareOpen ? closeCompare() : openCompare(session.groupId!))}
        >
          Compare
        </button>
      ) : null}
    </div>
  );
}
