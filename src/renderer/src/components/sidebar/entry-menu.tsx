import type { SessionViewT } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import type { MenuRequest } from './session-entry';
import { Menu } from '../overlay/menu';

type EntryAction = 'open-window' | 'rename' | 'fork' | 'export' | 'archive' | 'restore' | 'delete';

/**
 * What the menu of an entry offers, in order: Fork where its agent can fork it, Archive or
 * Restore depending on where it is.
 */
export function entryMenuItems(view: Pick<SessionViewT, 'archivedAt' | 'canFork'>): { action: EntryAction; label: string }[] {
  return [
    { action: 'open-window', label: 'Open in new window' },
    { action: 'rename', label: 'Rename' },
    ...(view.canFork ? [{ action: 'fork' as const, label: 'Fork' }] : []),
    { action: 'export', label: 'Export…' },
    view.archivedAt === undefined ? { action: 'archive', label: 'Archive' } : { action: 'restore', label: 'Restore' },
    { action: 'delete', label: 'Delete…' },
  ];
}

/**
 * An entry's context menu (the shared `Menu`: arrow keys, Home/End and typed letters move,
 * Enter or Space chooses, Escape or Tab closes and gives the focus back to the entry).
 */
export function EntryMenu({ request, onClose }: { request: MenuRequest; onClose: () => void }) {
  const view = useAppStore((s) => s.sessionsById.get(request.sessionId));
  const openInNewWindow = useAppStore((s) => s.openInNewWindow);
  const beginRename = useAppStore((s) => s.beginRename);
  const archiveSession = useAppStore((s) => s.archiveSession);
  const restoreSession = useAppStore((s) => s.restoreSession);
  const askDelete = useAppStore((s) => s.askDelete);
  const forkSession = useAppStore((s) => s.forkSession);
  const askExport = useAppStore((s) => s.askExport);

  if (!view) return null;
  // Kept on screen near the right and bottom edges (no window when rendered on the server in tests).
  const viewport = typeof window === 'undefined' ? { w: Infinity, h: Infinity } : { w: window.innerWidth, h: window.innerHeight };
  const id = request.sessionId;
  const run: Record<EntryAction, () => void> = {
    'open-window': () => void openInNewWindow(id),
    rename: () => beginRename(id),
    fork: () => void forkSession(id),
    export: () => askExport(id),
    archive: () => void archiveSession(id),
    restore: () => void restoreSession(id),
    delete: () => askDelete(id),
  };
  return (
    <Menu
      label={`Session ${view.title || 'Untitled session'}`}
      className="entry-menu"
      style={{ left: Math.max(0, Math.min(request.x, viewport.w - 220)), top: Math.max(0, Math.min(request.y, viewport.h - 180)) }}
      items={entryMenuItems(view).map((item) => ({ id: item.action, label: item.label, onSelect: run[item.action] }))}
      onClose={onClose}
    />
  );
}
