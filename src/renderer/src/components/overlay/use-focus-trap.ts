import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { TABBABLE, trapTarget } from '../../lib/focus';

export interface FocusTrapOptions {
  /** Escape asks this (the owner closes by unmounting or turning `active` off). */
  onClose: () => void;
  /** Takes the focus when the trap starts; else the first thing Tab reaches inside. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** False: the container is shown but not trapping (a drawer closed). Default true. */
  active?: boolean;
}

/** The stops Tab reaches in `box`, in order: shown, not inert, one per radio group. */
export function tabStops(box: HTMLElement): HTMLElement[] {
  const seenRadios = new Set<string>();
  return [...box.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => {
    if (el.getClientRects().length === 0 || el.closest('[inert]') || el.tabIndex < 0) return false;
    if (el instanceof HTMLInputElement && el.type === 'radio' && el.name) {
      // Tab enters a radio group once, at its checked button (or the first).
      const group = [...box.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(el.name)}"]`)];
      const stop = group.find((r) => r.checked) ?? group[0];
      if (stop !== el || seenRadios.has(el.name)) return false;
      seenRadios.add(el.name);
    }
    return true;
  });
}

/**
 * Focus for a dialog or drawer: it moves in when the trap starts, Tab and Shift+Tab wrap inside,
 * Escape asks to close, and when the trap ends the focus goes back to what had it before, unless
 * a choice made in it moved the focus somewhere on purpose (a started session's message box).
 * Returns the container's key handler.
 */
export function useFocusTrap(container: RefObject<HTMLElement | null>, { onClose, initialFocus, active = true }: FocusTrapOptions) {
  const close = useRef(onClose);
  useLayoutEffect(() => {
    close.current = onClose;
  });

  useLayoutEffect(() => {
    const box = container.current;
    if (!active || !box) return undefined;
    const opener = document.activeElement instanceof HTMLElement && !box.contains(document.activeElement) ? document.activeElement : undefined;
    const first = initialFocus?.current ?? tabStops(box)[0] ?? box;
    first.focus();
    return () => {
      const now = document.activeElement;
      const lost = now === null || now === document.body || box.contains(now) || !now.isConnected;
      if (lost && opener?.isConnected) opener.focus();
    };
    // The initial focus is read once, when the trap starts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, container]);

  return (e: KeyboardEvent<HTMLElement>): void => {
    const box = container.current;
    if (!active || !box) return;
    if (e.key === 'Escape' && !e.nativeEvent.isComposing && !e.defaultPrevented) {
      // Handled here, so neither the message box's Stop nor the native dialog's cancel sees it.
      e.preventDefault();
      e.stopPropagation();
      close.current();
      return;
    }
    if (e.key !== 'Tab' || e.altKey || e.ctrlKey || e.metaKey) return;
    const stops = tabStops(box);
    const to = trapTarget(stops.indexOf(document.activeElement as HTMLElement), stops.length, e.shiftKey);
    if (to === undefined) return;
    e.preventDefault();
    stops[to]?.focus();
  };
}
