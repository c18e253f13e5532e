import { useEffect, useRef } from 'react';
import { useAppStore } from '../../store/context';

/**
 * The one confirmation the window asks before losing work (revert, discard, restore, archive a
 * worktree, delete unmerged work): named by its question, the focus on Cancel, Escape cancels,
 * and the action runs only on the confirm button.
 */
export function ConfirmDialog() {
  const confirm = useAppStore((s) => s.confirm);
  const accept = useAppStore((s) => s.acceptConfirm);
  const cancel = useAppStore((s) => s.cancelConfirm);
  const setOption = useAppStore((s) => s.setConfirmOption);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const open = confirm !== undefined;
  useEffect(() => {
    if (!open) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    cancelButton.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);
  if (!confirm) return null;
  return (
    <div className="overlay">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-label={confirm.title}
        aria-describedby="confirm-dialog-text"
        className="settings confirm-dialog"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            e.stopPropagation();
            cancel();
          }
        }}
      >
        <h2>{confirm.title}</h2>
        <p id="confirm-dialog-text">{confirm.text}</p>
        {confirm.options.map((o) => (
          <label key={o.id} className="confirm-option">
            <input type="checkbox" checked={o.checked} onChange={(e) => setOption(o.id, e.target.checked)} /> {o.label}
          </label>
        ))}
        <div className="form-actions">
          <span className="spacer" />
          <button ref={cancelButton} type="button" className="button-secondary" onClick={cancel}>
            Cancel
          </button>
          <button type="button" className={confirm.danger ? 'button-danger' : 'button-primary'} onClick={accept}>
            {confirm.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
