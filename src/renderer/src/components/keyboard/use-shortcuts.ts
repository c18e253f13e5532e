import { useEffect } from 'react';
import { FOCUS_NEWEST_EVENT, isMac, isTypingTarget, matchShortcut, type WindowShortcutId } from '../../lib/shortcuts';
import type { AppStoreApi } from '../../store/app-store';

/** The searchbox another part of the window owns; found by its id, else by its name. */
const SEARCH_TRANSCRIPTS_ID = 'search-transcripts';
const MESSAGE_BOX_SELECTOR = 'textarea[aria-label="Message"]';
/** A question's first control: its first field, else (a URL question) its first button or link. */
const QUESTION_FIRST_STOP = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href]';

interface ShortcutTargets {
  openSwitcher(): void;
  openSheet(): void;
}

function focusElement(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  el.focus();
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) el.select();
  return true;
}

/**
 * The window's shortcuts (the table in `lib/shortcuts.ts`), on one keydown listener. Keys a
 * focused control handled already (`defaultPrevented`) and keys typed while an IME composes
 * are left alone.
 */
export function useShortcuts(store: AppStoreApi, targets: ShortcutTargets): void {
  useEffect(() => {
    const mac = isMac(navigator.platform || navigator.userAgent);
    const run: Record<WindowShortcutId, (index: number) => boolean> = {
      quickSwitch: () => (targets.openSwitcher(), true),
      showShortcuts: () => (targets.openSheet(), true),
      sessionByNumber: (index) => {
        const id = store.getState().sidebarVisible[index];
        if (id !== undefined) void store.getState().switchSession(id);
        return id !== undefined;
      },
      nextSession: () => (store.getState().switchBy(1), true),
      previousSession: () => (store.getState().switchBy(-1), true),
      focusComposer: () => focusElement(document.querySelector(MESSAGE_BOX_SELECTOR)),
      focusTranscript: () => {
        const log = document.querySelector('[role="log"][aria-label="Transcript"]');
        log?.dispatchEvent(new Event(FOCUS_NEWEST_EVENT));
        return log !== null;
      },
      answerPermission: () => {
        // The oldest request on screen: a permission's first answer, a question's first field.
        const request = document.querySelector('.permission-stack .permission');
        return focusElement(request?.querySelector(request.matches('.question') ? QUESTION_FIRST_STOP : '.permission-options button:not([disabled])') ?? null);
      },
      stopTurn: () => {
        const s = store.getState();
        const running = s.currentSessionId !== undefined && s.sessionsById.get(s.currentSessionId)?.running === true;
        if (running) void s.cancelTurn();
        return running;
      },
      searchTranscripts: () =>
        focusElement(document.getElementById(SEARCH_TRANSCRIPTS_ID) ?? document.querySelector('[aria-label="Search transcripts"]')),
      filterSessions: () => focusElement(document.getElementById('filter-sessions')),
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      // A modal dialog (Settings, the switcher, the sheet) owns the keyboard while it is open.
      if (document.querySelector('dialog[open][data-modal], [aria-modal="true"]')) return;
      const hit = matchShortcut(e, { mac, typing: isTypingTarget(e.target) });
      // Shortcuts bound elsewhere never match here (see matchShortcut).
      if (!hit || hit.shortcut.boundElsewhere) return;
      if (run[hit.shortcut.id as WindowShortcutId](hit.chord)) e.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [store, targets]);
}
