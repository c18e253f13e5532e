import { useEffect } from 'react';
import { useAppStore } from '../../store/context';
import { isNewSessionShortcut } from './shortcut';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Ctrl/Cmd+N anywhere in the window: a session with the last agent and folder, no dialog. */
export function NewSessionShortcut() {
  const startSession = useAppStore((s) => s.startSession);
  const creating = useAppStore((s) => s.creatingSessionId !== undefined);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !isNewSessionShortcut(e, MAC)) return;
      // The browser's own Ctrl+N (a new window) is not what the person asked for here.
      e.preventDefault();
      // One press, one session: as the button, it waits for the create in flight.
      if (!creating) startSession();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [startSession, creating]);
  return null;
}
