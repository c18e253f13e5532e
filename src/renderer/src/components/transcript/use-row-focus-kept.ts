import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Keeps the keyboard's place in the transcript when the focused row's element is replaced: a
 * prompt shown while it is sent becomes its stored row (another key, so another element), rows
 * are regrouped. Without this the focus falls to the page and the next arrow key scrolls the page
 * instead of moving between messages. The row now at the same index takes the focus.
 *
 * A row the person left (a click elsewhere, Tab out) is forgotten: only a row whose element left
 * the page while it had the focus is given back.
 */
export function useRowFocusKept(scrollRef: RefObject<HTMLElement | null>): void {
  const focused = useRef<{ el: HTMLElement; index: number } | undefined>(undefined);
  useEffect(() => {
    const log = scrollRef.current;
    if (!log) return;
    const onIn = (e: FocusEvent) => {
      const t = e.target;
      focused.current = t instanceof HTMLElement && t.dataset.row !== undefined ? { el: t, index: Number(t.dataset.row) } : undefined;
    };
    const onOut = (e: FocusEvent) => {
      const was = focused.current;
      if (!was || e.target !== was.el) return;
      if (e.relatedTarget) {
        focused.current = undefined;
        return;
      }
      // Chromium says focusout when a focused element is removed, too: only one still on the page was left.
      queueMicrotask(() => {
        if (focused.current === was && was.el.isConnected) focused.current = undefined;
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
    if (!was || was.el.isConnected) return;
    focused.current = undefined;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const rows = scrollRef.current?.querySelectorAll<HTMLElement>('[data-row]');
    if (!rows?.length) return;
    let next: HTMLElement | undefined;
    for (const row of rows) {
      // The same index, else the nearest before it (rows taken away from the end).
      if (Number(row.dataset.row) <= was.index && (!next || Number(row.dataset.row) > Number(next.dataset.row))) next = row;
    }
    (next ?? rows[0])?.focus({ preventScroll: true });
  });
}
