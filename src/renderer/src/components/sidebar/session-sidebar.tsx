import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { useAppStore } from '../../store/context';
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

export function SessionSidebar({ onOpenSettings }: { onOpenSettings: () => void }) {
  const order = useAppStore((s) => s.sessionOrder);
  const loaded = useAppStore((s) => s.sessionsLoaded);
  const createSession = useAppStore((s) => s.createSession);
  const [creating, setCreating] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ENTRY_HEIGHT,
    getItemKey: (i) => order[i] ?? i,
    overscan: 10,
    rangeExtractor,
  });

  return (
    <nav aria-label="Sessions" className="sidebar">
      <div className="sidebar-head">
        <span className="app-name">Switchboard</span>
        <div className="sidebar-actions">
          <button
            type="button"
            className="button-primary"
            disabled={creating}
            onClick={() => {
              // One click, one session: a double click must not start two agents.
              setCreating(true);
              void createSession().finally(() => setCreating(false));
            }}
          >
            New session
          </button>
          <button type="button" className="button-secondary" onClick={onOpenSettings}>
            Settings
          </button>
        </div>
      </div>
      <div ref={scrollRef} className="session-list">
        {loaded && order.length === 0 ? <p className="muted small pad">No sessions yet.</p> : null}
        <ul style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const id = order[item.index];
            if (id === undefined) return null;
            return (
              <li key={item.key} style={{ transform: `translateY(${item.start}px)`, height: ENTRY_HEIGHT }}>
                <SessionEntry sessionId={id} />
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}
