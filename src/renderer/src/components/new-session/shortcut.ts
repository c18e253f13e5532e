import { isShortcut } from '../../lib/shortcuts';

/**
 * Ctrl+N (Cmd+N on a Mac): start a session at once with the last choices. The chord comes from
 * the one shortcut table, so the sheet lists what is bound; only the platform's own modifier
 * counts (Ctrl+N on a Mac is "next line" in text fields).
 */
export function isNewSessionShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'isComposing'>, mac: boolean): boolean {
  return !e.isComposing && isShortcut('newSession', e, mac);
}

/** Short form of a folder for the sidebar: its last two parts (the whole path goes in a tooltip). */
export function shortFolder(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  if (parts.length <= 2) return path;
  return `…/${parts.slice(-2).join('/')}`;
}
