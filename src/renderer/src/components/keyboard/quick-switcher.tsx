import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { matchesFilter } from '../../lib/sidebar-rows';
import { useAppStore } from '../../store/context';
import { useAgentName } from '../sidebar/use-agent-name';
import { ModalDialog } from '../overlay/modal-dialog';

/** Enough to choose from; typing narrows the rest. */
const MAX_RESULTS = 50;

/**
 * Ctrl/Cmd+K: a dialog named `Switch session`. Typing narrows every session (archived too) by
 * title, folder and agent, most recent activity first; arrows move, Enter opens, Escape closes.
 * A combobox over a listbox, so a screen reader hears the highlighted session.
 */
export function QuickSwitcher({ onClose }: { onClose: () => void }) {
  const order = useAppStore((s) => s.sessionOrder);
  const byId = useAppStore((s) => s.sessionsById);
  const switchSession = useAppStore((s) => s.switchSession);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();

  const agentName = useAgentName();
  const results = useMemo(() => {
    const found: string[] = [];
    for (const id of order) {
      const view = byId.get(id);
      if (view && matchesFilter(view, query.trim(), agentName)) found.push(id);
      if (found.length === MAX_RESULTS) break;
    }
    return found;
  }, [order, byId, query, agentName]);
  const activeIndex = Math.min(active, Math.max(results.length - 1, 0));

  const open = (id: string | undefined) => {
    if (id === undefined) return;
    onClose();
    void switchSession(id);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'ArrowDown') setActive((activeIndex + 1) % Math.max(results.length, 1));
    else if (e.key === 'ArrowUp') setActive((activeIndex - 1 + results.length) % Math.max(results.length, 1));
    else if (e.key === 'Enter') open(results[activeIndex]);
    else if (e.key === 'Escape') onClose();
    else return;
    e.preventDefault();
  };

  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <ModalDialog label="Switch session" className="quick-switcher" onClose={onClose} initialFocus={input}>
        <input
          ref={input}
          type="text"
          role="combobox"
          aria-label="Find a session"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={results.length > 0 ? optionId(activeIndex) : undefined}
          placeholder="Type a title, folder or agent"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label="Sessions found">
          {results.map((id, i) => {
            const view = byId.get(id);
            if (!view) return null;
            return (
              <li
                key={id}
                id={optionId(i)}
                role="option"
                aria-selected={i === activeIndex}
                className={i === activeIndex ? 'is-active' : undefined}
                onPointerMove={() => setActive(i)}
                onClick={() => open(id)}
              >
                <span className="switcher-title">{view.title || 'Untitled session'}</span>{' '}
                <span className="switcher-meta muted">
                  {agentName(view.agentId)} · {view.cwd}
                  {view.archivedAt !== undefined ? ' · Archived' : ''}
                </span>
              </li>
            );
          })}
        </ul>
        {results.length === 0 ? (
          <p className="muted small pad" role="status">
            No session matches.
          </p>
        ) : null}
    </ModalDialog>
  );
}
