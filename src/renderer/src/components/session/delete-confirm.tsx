import { useId, useRef, useState } from 'react';
import { useAppStore } from '../../store/context';
import { ModalDialog } from '../overlay/modal-dialog';

/**
 * Delete asks first: it removes the transcript for good. One dialog, whichever control asked
 * (the header's Delete, an entry's menu, a shortcut); it names the session it is about. Cancel
 * has the focus, so Enter pressed by habit deletes nothing. A session in its own worktree loses
 * the worktree folder too, and its branch only when the box is ticked (the host asks again for a
 * branch with unmerged commits).
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
  const cancel = useRef<HTMLButtonElement>(null);
  const textId = useId();
  if (sessionId === undefined) return null;
  return (
    <ModalDialog role="alertdialog" labelledBy={textId} className="delete-confirm" onClose={cancelDelete} initialFocus={cancel}>
      <p id={textId}>
        Delete “{title || 'Untitled session'}”, its transcript and its permission records{branch ? ' and its worktree folder' : ''}? This cannot be undone.
      </p>
      {branch ? (
        <label className="confirm-option">
          <input type="checkbox" checked={deleteBranch} onChange={(e) => setDeleteBranch(e.target.checked)} /> Also delete the branch {branch}
        </label>
      ) : null}
      <div className="form-actions">
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
        <button ref={cancel} type="button" className="button-secondary" onClick={cancelDelete}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
}
