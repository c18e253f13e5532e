import { memo, type MouseEvent } from 'react';
import { useAppStore } from '../../store/context';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { shortFolder } from '../new-session/shortcut';

/**
 * A sidebar entry. A link, not a button, so that no session title (the host may name a
 * session "New session") can collide with the toolbar buttons' names; aria-current marks the
 * one being looked at. The spaces between the parts keep the accessible name readable.
 */
export const SessionEntry = memo(function SessionEntry({
  sessionId,
  tabbable = true,
}: {
  sessionId: string;
  /** The list's one Tab stop (roving focus: arrow keys move between entries). */
  tabbable?: boolean;
}) {
  const view = useAppStore(sessionsSelectors.byId(sessionId));
  const current = useAppStore((s) => s.currentSessionId === sessionId);
  const switchSession = useAppStore((s) => s.switchSession);
  if (!view) return null;
  const needs = sessionsSelectors.needsPermission(view, current ? sessionId : undefined);
  const onClick = (e: MouseEvent) => {
    e.preventDefault();
    void switchSession(sessionId);
  };
  return (
    <a
      href={`#session-${sessionId}`}
      className={`session-entry${current ? ' is-current' : ''}`}
      aria-current={current ? 'page' : undefined}
      data-session-id={sessionId}
      tabIndex={tabbable ? undefined : -1}
      onClick={onClick}
    >
      <span className="session-title">{view.title || 'Untitled session'}</span>{' '}
      <span className="session-badges">
        {/* The folder's short form; the whole path in the tooltip. */}
        <span className="session-folder" title={view.cwd}>
          {shortFolder(view.cwd)}
        </span>{' '}
        {view.running ? <span className="running-dot" aria-hidden="true" /> : null}
        <span className={`badge badge-${view.state.toLowerCase()}`} title={sessionsSelectors.badgeTitle(view)}>
          {sessionsSelectors.badgeLabel(view)}
        </span>
        {needs ? (
          <>
            {' '}
            <span className="badge badge-attention">Needs permission</span>
          </>
        ) : null}
      </span>
    </a>
  );
});
