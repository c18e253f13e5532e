import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { holdOrder, nextHeld, sameRow, sidebarRows, ARCHIVED_GROUP, type SidebarRow } from '../../lib/sidebar-rows';
import { useAppStore } from '../../store/context';
import { useAgentName } from './use-agent-name';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { EntryMenu } from './entry-menu';
import { listKeyTarget } from './list-keys';
import { SessionEntry, type MenuRequest } from './session-entry';
import { useFocusTrap } from '../overlay/use-focus-trap';

const noop = (): void => {};

const ENTRY_HEIGHT = 56;
const GROUP_HEIGHT = 30;
/**
 * Up to this many rows are all kept in the DOM (cheap, and find-in-page and assistive tech
 * see every session); beyond it the list is windowed so 10,000 sessions stay fast.
 */
const RENDER_ALL_UP_TO = 500;

const FILTER_ID = 'filter-sessions';

function rangeExtractor(range: Range): number[] {
  if (range.count > RENDER_ALL_UP_TO) return defaultRangeExtractor(range);
  return Array.from({ length: range.count }, (_, i) => i);
}

/**
 * The order to show: the store's (most recent activity first), except that while the pointer
 * is over the list or the focus is in it, entries keep their places (new ones appear on top)
 * so nothing moves under the person's hand; the new order lands when they leave.
 */
function useHeldOrder(order: readonly string[], loaded: boolean) {
  const [held, setHeld] = useState<readonly string[] | undefined>(undefined);
  const shown = useMemo(() => (held ? holdOrder(held, order) : order), [held, order]);
  const pointer = useRef(false);
  const focus = useRef(false);
  const update = useCallback(() => {
    const holding = pointer.current || focus.current;
    setHeld((h) => nextHeld(h, holding, loaded, shown));
  }, [shown, loaded]);
  return {
    shown,
    holding: held !== undefined,
    handlers: {
      onPointerEnter: () => {
        pointer.current = true;
        update();
      },
      onPointerLeave: () => {
        pointer.current = false;
        update();
      },
      onFocus: () => {
        focus.current = true;
        update();
      },
      onBlur: (e: React.FocusEvent<HTMLElement>) => {
        if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
        focus.current = false;
        update();
      },
    },
  };
}

/** `Import session…`: a JSON file an earlier `Export…` wrote, read back as a read-only session. */
function ImportButton() {
  const importSession = useAppStore((s) => s.importSession);
  const picker = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="button-secondary" onClick={() => picker.current?.click()}>
        Import session…
      </button>
      <input
        ref={picker}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="Session file to import"
        onChange={(e) => {
          const file = e.target.files?.[0];
          // The same file can be chosen again after a refusal.
          e.target.value = '';
          if (file) void file.text().then((text) => importSession(file.name, text));
        }}
      />
    </>
  );
}

export interface SidebarDrawer {
  open: boolean;
  onClose: () => void;
}

/**
 * The session list with New session and Settings. In a phone-sized window it is a drawer
 * (`drawer`): shown on demand over the window, the focus kept in it until it closes (Escape,
 * Close, a press beside it, or choosing a session).
 */
export function SessionSidebar({
  id,
  onOpenSettings,
  onOpenShortcuts,
  drawer,
}: {
  id?: string;
  onOpenSettings: () => void;
  onOpenShortcuts?: () => void;
  drawer?: SidebarDrawer;
}) {
  const order = useAppStore((s) => s.sessionOrder);
  const byId = useAppStore((s) => s.sessionsById);
  const currentId = useAppStore((s) => s.currentSessionId);
  const loaded = useAppStore((s) => s.sessionsLoaded);
  const setSidebarVisible = useAppStore((s) => s.setSidebarVisible);
  // One click, one session: the button waits for the create it started (or one a prompt started).
  const creating = useAppStore(sessionsSelectors.isCreating);
  const openNewSession = useAppStore((s) => s.openNewSession);
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const [archiveExpanded, setArchiveExpanded] = useState(false);
  const [menu, setMenu] = useState<MenuRequest | undefined>(undefined);
  const closeMenu = useCallback(() => setMenu(undefined), []);
  const { shown, handlers } = useHeldOrder(order, loaded);

  const agentName = useAgentName();
  // With thousands of sessions listed, building the rows is a walk of all of them: a change of
  // one session that leaves its row where it was (the store's change record says which one)
  // keeps the rows (and the list's measurements) as they were.
  const changed = useAppStore((s) => s.sessionsChanged);
  const lastRows = useRef<{ inputs: readonly unknown[]; byId: typeof byId; rows: ReturnType<typeof sidebarRows> } | undefined>(undefined);
  const { rows, visible } = useMemo(() => {
    const inputs = [shown, filter, collapsed, archiveExpanded, agentName];
    const last = lastRows.current;
    if (
      last &&
      last.inputs.every((v, i) => v === inputs[i]) &&
      changed?.from === last.byId &&
      changed.to === byId &&
      changed.ids.every((id) => sameRow(last.byId.get(id), byId.get(id), filter, agentName))
    ) {
      lastRows.current = { ...last, byId };
      return last.rows;
    }
    const built = sidebarRows({ order: shown, byId, filter, collapsed, archiveExpanded, agentName });
    lastRows.current = { inputs, byId, rows: built };
    return built;
  }, [shown, byId, changed, filter, collapsed, archiveExpanded, agentName]);
  useEffect(() => setSidebarVisible(visible), [visible, setSidebarVisible]);

  const toggle = (key: string) => {
    if (key === `group:${ARCHIVED_GROUP}`) {
      setArchiveExpanded((v) => !v);
      return;
    }
    const group = key.slice('group:'.length);
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(group)) next.add(group);
      return next;
    });
  };

  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; entries subscribe themselves
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.type === 'group' ? GROUP_HEIGHT : ENTRY_HEIGHT),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 10,
    rangeExtractor,
  });

  // The one row Tab reaches: the current session's entry, else the first row.
  const tabStop = currentId !== undefined && visible.includes(currentId) ? currentId : rows[0]?.key;

  /** Arrow keys, Home and End move between rows (entries and group headings); Enter opens or toggles. */
  const onListKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const from = e.target instanceof HTMLElement ? e.target.closest<HTMLElement>('[data-row-key]') : null;
    const at = from ? rows.findIndex((r) => r.key === from.dataset.rowKey) : -1;
    const to = listKeyTarget(e.key, at, rows.length);
    if (to === undefined) return;
    e.preventDefault();
    const key = rows[to]?.key;
    const list = scrollRef.current;
    if (key === undefined || !list) return;
    const focus = (tries: number) => {
      const el = list.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(key)}"] a, [data-row-key="${CSS.escape(key)}"] button`);
      if (el) el.focus();
      // A windowed list renders the row a frame after scrolling to it.
      else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
    };
    virtualizer.scrollToIndex(to, { align: 'auto' });
    focus(5);
  };

  const renderRow = (row: SidebarRow) =>
    row.type === 'group' ? (
      <h2 className="session-group">
        <button
          type="button"
          className="session-group-toggle"
          aria-expanded={row.expanded}
          title={row.title}
          tabIndex={row.key === tabStop ? undefined : -1}
          onClick={() => toggle(row.key)}
        >
          <span className="session-group-chevron" aria-hidden="true">
            {row.expanded ? '▾' : '▸'}
          </span>
          {row.label} ({row.count})
        </button>
      </h2>
    ) : (
      <SessionEntry sessionId={row.id} tabbable={row.key === tabStop} onMenu={setMenu} />
    );

  const nav = useRef<HTMLElement>(null);
  // Opening the drawer puts the focus on the entry Tab would reach (the current session's).
  const entryStop = useMemo(
    () => ({
      get current() {
        return nav.current?.querySelector<HTMLElement>('.session-list a:not([tabindex="-1"]), .session-list button:not([tabindex="-1"])') ?? null;
      },
    }),
    [],
  );
  const onDrawerKeyDown = useFocusTrap(nav, { onClose: drawer?.onClose ?? noop, active: drawer?.open === true, initialFocus: entryStop });
  const closeDrawer = drawer?.open ? drawer.onClose : undefined;
  const asDrawer = (run: () => void) => () => {
    // Closed in the same update as the choice, so the window (inert while the drawer is open)
    // can take the focus the choice gives it.
    closeDrawer?.();
    run();
  };

  return (
    <nav
      ref={nav}
      id={id}
      aria-label="Sessions"
      // Busy until the whole session list is in (the newest are shown first, the rest follows).
      aria-busy={loaded ? undefined : true}
      className={`sidebar${drawer ? ' is-drawer' : ''}${drawer?.open ? ' is-open' : ''}`}
      onKeyDown={drawer?.open ? onDrawerKeyDown : undefined}
      onClickCapture={(e) => {
        if (closeDrawer && e.target instanceof Element && e.target.closest('a.session-entry')) closeDrawer();
      }}
    >
      <div className="sidebar-head">
        <div className="sidebar-title">
          <span className="app-name">Switchboard</span>
          {drawer?.open ? (
            <button type="button" className="button-secondary" onClick={drawer.onClose}>
              Close
            </button>
          ) : null}
        </div>
        <div className="sidebar-actions">
          <button type="button" className="button-primary" disabled={creating} onClick={asDrawer(openNewSession)}>
            New session
          </button>
          <button type="button" className="button-secondary" onClick={asDrawer(onOpenSettings)}>
            Settings
          </button>
          <ImportButton />
        </div>
        <input
          id={FILTER_ID}
          type="search"
          className="session-filter"
          aria-label="Filter sessions"
          placeholder="Filter by title, folder or agent"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && filter !== '') {
              e.preventDefault();
              setFilter('');
            }
          }}
        />
      </div>
      <div ref={scrollRef} className="session-list" onKeyDown={onListKeyDown} {...handlers}>
        {loaded && order.length === 0 ? (
          <p className="muted small pad">No sessions yet. Start one with New session, or just type a message.</p>
        ) : null}
        {loaded && order.length > 0 && rows.length === 0 ? (
          <p className="muted small pad" role="status">
            No session matches “{filter.trim()}”.
          </p>
        ) : null}
        <ul style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            return (
              <li
                key={item.key}
                data-index={item.index}
                data-row-key={row.key}
                ref={virtualizer.measureElement}
                className={row.type === 'group' ? 'group-row' : 'entry-row'}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {renderRow(row)}
              </li>
            );
          })}
        </ul>
      </div>
      {onOpenShortcuts ? (
        <div className="sidebar-foot">
          <button type="button" className="link-button" onClick={asDrawer(onOpenShortcuts)}>
            Keyboard shortcuts
          </button>
        </div>
      ) : null}
      {menu ? <EntryMenu request={menu} onClose={closeMenu} /> : null}
    </nav>
  );
}
