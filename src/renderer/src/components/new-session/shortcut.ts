/** Ctrl+N (Cmd+N on a Mac): start a session at once with the last choices. */
export function isNewSessionShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'isComposing'>, mac: boolean): boolean {
  if (e.isComposing || e.shiftKey || e.altKey) return false;
  // Only the platform's own modifier: Ctrl+N on a Mac is "next line" in text fields.
  return (mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey) && e.key.toLowerCase() === 'n';
}

/** Short form of a folder for the sidebar: its last two parts (the whole path goes in a tooltip). */
export function shortFolder(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  if (parts.length <= 2) return path;
  return `…/${parts.slice(-2).join('/')}`;
}
