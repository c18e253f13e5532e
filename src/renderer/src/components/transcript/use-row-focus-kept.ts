import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Keeps the keyboard's place in the transcript when the focused row's element is replaced: rows
 * regrouped from scratch can key a row anew (a message whose first chunks came back with an older
 * page), and React then draws it as another element. (A prompt's sent row and its stored row have
 * one key and keep one element: `promptRowKey`.) Without this the focus falls to the page and the
 * next arrow key scrolls the page instead of moving between messages. The row now at the same
 * index takes the focus.
 *
 * A row the person left (a click elsewhere, Tab out) is forgotten: only a row whose element left
 * the page while it had the focus is given back, and only to a row drawn at the same index (a
 * row scrolled out of the rendered range is not replaced: the focus is not moved to another).
 */
export function useRowFocusKept(scrollRef: RefObject<HTMLElement | null>): void {
  const focused = useRef<HTMLElement | undefined>(undefined);
  useEffect(() => {
    const log = scrollRef.current;
    if (!log) return;
    const onIn = (e: FocusEvent) => {
      const t = e.target;
      focused.current = t instanceof HTMLElement && t.dataset.row !== undefined ? t : undefined;
    };
    const onOut = (e: FocusEvent) => {
      const was = focused.current;
      if (!was || e.target !== was) return;
      if (e.relatedTarget) {
        focused.current = undefined;
        return;
      }
      // Chromium says focusout when a focused element is removed, too: only one still on the page
      // was left. The window going to the background says it too, and the row keeps the focus then.
      queueMicrotask(() => {
        if (focused.current === was && was.isConnected && document.hasFocus()) focused.current = undefined;
      });
    };
    log.addEventListener('focusin', onIn);
    log.addEventListener('focusout', onOut);
    return () => {
      log.removeEventListener('focusin', onIn);
      log.removeEventListener('focusout', onOut);
    };
  }, [scrollRef]);
  // After every render of the list: a row replaced under the focus hands it to its successor.
  useLayoutEffect(() => {
    const was = focused.current;
    if (!was || was.isConnected) return;
    focused.current = undefined;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    // Its index as last drawn (a removed element keeps its attributes): rows added before it moved it.
    const next = scrollRef.current?.querySelector<HTMLElement>(`[data-row="${was.dataset.row ?? ''}"]`);
    next?.focus({ preventScroll: true });
  });
}
