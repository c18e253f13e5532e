import { useState } from 'react';
import { useAppStore } from '../../store/context';

/**
 * Delete asks first: it removes the transcript for good. One dialog, whichever control asked
 * (the header's Delete, an entry's menu, a shortcut); it names the session it is about.
 */
export function DeleteConfirm() {
  const sessionId = useAppStore((s) => s.deleteAskedFor);
  const title = useAppStore((s) => (s.deleteAskedFor === undefined ? undefined : s.sessionsById.get(s.deleteAskedFor)?.title));
  const cancelDelete = useAppStore((s) => s.cancelDelete);
  const deleteSession = useAppStore((s) => s.deleteSession);
  const branch = useAppStore((s) => {
    const ws = s.deleteAskedFor === undefined ? undefined : s.sessionsById.get(s.deleteAskedFor)?.workspace;
    return ws?.kind === 'worktree' ? ws.branch : undefined;
  });
  const [deleteBranch, setDeleteBranch] = useState(false);
  if (sessionId === undefined) return null;
  return (
    <div
      role="alertdialog"
      aria-modal="false"
      aria-labelledby="delete-confirm-text"
      className="delete-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          cancelDelete();
        }
      }}
    >
      <p id="delete-confirm-text">
        Delete “{title || 'Untitled session'}”, its transcript and its permission records{branch ? ' and its worktree folder' : ''}? This cannot be undone.
      </p>
      {branch ? (
        <label className="confirm-option">
          <input type="checkbox" checked={deleteBranch} onChange={(e) => setDeleteBranch(e.target.checked)} /> Also delete the branch {branch}
        </label>
      ) : null}
      <button
        type="button"
        className="button-danger"
        onClick={() => {
          cancelDelete();
          void deleteSession(sessionId, branch && deleteBranch ? { deleteBranch: true } : {});
          setDeleteBranch(false);
        }}
      >
        Delete for good
      </button>
      <button type="button" className="button-secondary" onClick={cancelDelete} autoFocus>
        Cancel
      </button>
    </div>
  );
}
