import { useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useFocusTrap } from './use-focus-trap';

export interface ModalDialogProps {
  /** The accessible name (or `labelledBy`: the id of a heading inside). */
  label?: string;
  labelledBy?: string;
  describedBy?: string;
  /** `alertdialog` for a question that needs an answer (Delete…). */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  onClose: () => void;
  initialFocus?: RefObject<HTMLElement | null>;
  /** A press outside the dialog closes it (default); false for a question that must be answered. */
  closeOnOutsidePress?: boolean;
  children: ReactNode;
}

/**
 * Every modal dialog of the window: a native `<dialog>` opened with `showModal()` (the page
 * behind is inert, and it sits in the top layer above everything), with the focus rules of
 * `useFocusTrap`. Mounting opens it, unmounting closes it: the owner's state says whether it is
 * open. `data-modal` tells the window's shortcuts that a dialog owns the keyboard.
 */
export function ModalDialog({ label, labelledBy, describedBy, role = 'dialog', className, onClose, initialFocus, closeOnOutsidePress = true, children }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // Before the focus trap's effect (declared below): nothing in a closed dialog can take focus.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);
  const onKeyDown = useFocusTrap(ref, { onClose, initialFocus });
  const closed = useRef(false);
  const requestClose = () => {
    if (closed.current) return;
    closed.current = true;
    onClose();
  };
  return (
    <dialog
      ref={ref}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className={`modal${className ? ` ${className}` : ''}`}
      data-modal=""
      onKeyDown={onKeyDown}
      // Escape is taken by the trap; this is the browser closing it some other way.
      onCancel={(e) => {
        e.preventDefault();
        requestClose();
      }}
      onClose={requestClose}
      onMouseDown={(e) => {
        if (!closeOnOutsidePress || e.target !== e.currentTarget) return;
        // The dialog element itself is hit only on its backdrop (outside its box) or its padding.
        const box = e.currentTarget.getBoundingClientRect();
        const outside = e.clientX < box.left || e.clientX > box.right || e.clientY < box.top || e.clientY > box.bottom;
        if (outside) requestClose();
      }}
    >
      {children}
    </dialog>
  );
}
