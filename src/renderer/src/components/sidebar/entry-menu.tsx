import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { SessionViewT } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import type { MenuRequest } from './session-entry';

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
 * An entry's context menu (role=menu): arrow keys, Home/End and first letters move, Enter or
 * Space chooses, Escape or Tab closes and gives the focus back to the entry.
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
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const box = menu.current;
    box?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const away = (e: PointerEvent) => {
      if (!box?.contains(e.target as Node)) onClose();
    };
    window.addEventListener('pointerdown', away, true);
    return () => {
      window.removeEventListener('pointerdown', away, true);
      // Back to the entry it was opened from, unless the choice moved the focus on purpose.
      if (opener && (document.activeElement === document.body || box?.contains(document.activeElement))) opener.focus();
    };
  }, [onClose]);

  if (!view) return null;
  const items = entryMenuItems(view);
  // Kept on screen near the right and bottom edges (no window when rendered on the server in tests).
  const viewport = typeof window === 'undefined' ? { w: Infinity, h: Infinity } : { w: window.innerWidth, h: window.innerHeight };
  const run = (action: EntryAction) => {
    onClose();
    const id = request.sessionId;
    switch (action) {
      case 'open-window':
        return void openInNewWindow(id);
      case 'rename':
        return beginRename(id);
      case 'fork':
        return void forkSession(id);
      case 'export':
        return askExport(id);
      case 'archive':
        return void archiveSession(id);
      case 'restore':
        return void restoreSession(id);
      case 'delete':
        return askDelete(id);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => buttons[(i + buttons.length) % buttons.length]?.focus();
    if (e.key === 'ArrowDown') focus(at + 1);
    else if (e.key === 'ArrowUp') focus(at - 1);
    else if (e.key === 'Home') focus(0);
    else if (e.key === 'End') focus(buttons.length - 1);
    else if (e.key === 'Escape' || e.key === 'Tab') onClose();
    else if (e.key.length === 1 && /\S/.test(e.key)) {
      const next = buttons.findIndex((b, i) => i > at && b.textContent?.toLowerCase().startsWith(e.key.toLowerCase()));
      const first = buttons.findIndex((b) => b.textContent?.toLowerCase().startsWith(e.key.toLowerCase()));
      const to = next >= 0 ? next : first;
      if (to >= 0) focus(to);
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div
      ref={menu}
      role="menu"
      aria-label={`Session ${view.title || 'Untitled session'}`}
      className="entry-menu"
      style={{ left: Math.min(request.x, viewport.w - 220), top: Math.min(request.y, viewport.h - 180) }}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => (
        <button key={item.action} type="button" role="menuitem" tabIndex={-1} onClick={() => run(item.action)}>
          {item.label}
        </button>
      ))}
    </div>
  );
}
