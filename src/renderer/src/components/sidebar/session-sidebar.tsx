import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useMemo, useRef, type KeyboardEvent } from 'react';
import { useAppStore } from '../../store/context';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { listKeyTarget } from './list-keys';
import { SessionEntry } from './session-entry';

const ENTRY_HEIGHT = 52;
/**
 * Up to this many entries are all kept in the DOM (cheap, and find-in-page and assistive tech
 * see every session); beyond it the list is windowed so 10,000 sessions stay fast.
 */
const RENDER_ALL_UP_TO = 500;

function rangeExtractor(range: Range): number[] {
  if (range.count > RENDER_ALL_UP_TO) return defaultRangeExtractor(range);
  return Array.from({ length: range.count }, (_, i) => i);
}

/** Archived sessions: out of the list, one click away (the header's Restore brings one back). */
function ArchivedSection({ ids }: { ids: readonly string[] }) {
  const byId = useAppStore((s) => s.sessionsById);
  const switchSession = useAppStore((s) => s.switchSession);
  if (ids.length === 0) return null;
  return (
    <details className="archived-sessions">
      <summary>Archived ({ids.length})</summary>
      <ul aria-label="Archived sessions">
        {ids.map((id) => (
          <li key={id}>
            <button type="button" className="button-link" onClick={() => void switchSession(id)}>
              {byId.get(id)?.title || 'Untitled session'}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function SessionSidebar({ onOpenSettings }: { onOpenSettings: () => void }) {
  const all = useAppStore((s) => s.sessionOrder);
  const byId = useAppStore((s) => s.sessionsById);
  const order = useMemo(() => all.filter((id) => byId.get(id)?.archivedAt === undefined), [all, byId]);
  const archived = useMemo(() => all.filter((id) => byId.get(id)?.archivedAt !== undefined), [all, byId]);
  const currentId = useAppStore((s) => s.currentSessionId);
  const loaded = useAppStore((s) => s.sessionsLoaded);
  // One click, one session: the button waits for the create it started (or one a prompt started).
  const creating = useAppStore(sessionsSelectors.isCreating);
  const openNewSession = useAppStore((s) => s.openNewSession);
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; entries subscribe themselves
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ENTRY_HEIGHT,
    getItemKey: (i) => order[i] ?? i,
    overscan: 10,
    rangeExtractor,
  });

  // The one entry Tab reaches: the current session's, else the newest.
  const tabStop = currentId !== undefined && order.includes(currentId) ? currentId : order[0];

  /** Arrow keys, Home and End move between entries; Enter (the link's own) opens one. */
  const onListKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const from = e.target instanceof HTMLElement ? e.target.closest<HTMLElement>('[data-session-id]') : null;
    const at = from ? order.indexOf(from.dataset.sessionId ?? '') : -1;
    const to = listKeyTarget(e.key, at, order.length);
    if (to === undefined) return;
    e.preventDefault();
    const id = order[to];
    const list = scrollRef.current;
    if (id === undefined || !list) return;
    const focus = (tries: number) => {
      const el = list.querySelector<HTMLElement>(`[data-session-id="${CSS.escape(id)}"]`);
      if (el) el.focus();
      // A windowed list renders the entry a frame after scrolling to it.
      else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
    };
    virtualizer.scrollToIndex(to, { align: 'auto' });
    focus(5);
  };

  return (
    <nav aria-label="Sessions" className="sidebar">
      <div className="sidebar-head">
        <span className="app-name">Switchboard</span>
        <div className="sidebar-actions">
          <button type="button" className="button-primary" disabled={creating} onClick={openNewSession}>
            New session
          </button>
          <button type="button" className="button-secondary" onClick={onOpenSettings}>
            Settings
          </button>
        </div>
      </div>
      <div ref={scrollRef} className="session-list" onKeyDown={onListKeyDown}>
        {loaded && order.length === 0 ? (
          <p className="muted small pad">No sessions yet. Start one with New session, or just type a message.</p>
        ) : null}
        <ul style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const id = order[item.index];
            if (id === undefined) return null;
            return (
              <li key={item.key} style={{ transform: `translateY(${item.start}px)`, height: ENTRY_HEIGHT }}>
                <SessionEntry sessionId={id} tabbable={id === tabStop} />
              </li>
            );
          })}
        </ul>
      </div>
      <ArchivedSection ids={archived} />
    </nav>
  );
}
