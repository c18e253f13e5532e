import { memo, type KeyboardEvent, type MouseEvent } from 'react';
import { relativeTime, useNow } from '../../lib/relative-time';
import { isMac, isShortcut } from '../../lib/shortcuts';
import { useAppStore } from '../../store/context';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { shortFolder } from '../new-session/shortcut';

/** Where a context menu opens: at the pointer, or under the entry when asked from the keyboard. */
export interface MenuRequest {
  sessionId: string;
  x: number;
  y: number;
  /** Asked from the keyboard: the first item takes the focus. */
  keyboard: boolean;
}

/**
 * A sidebar entry. A link, not a button, so that no session title (the host may name a
 * session "New session") can collide with the toolbar buttons' names; aria-current marks the
 * one being looked at. The spaces between the parts keep the accessible name readable. The
 * meta line (agent, state, time) is one line of its own, so a folder line can join it below.
 */
export const SessionEntry = memo(function SessionEntry({
  sessionId,
  tabbable = true,
  onMenu,
}: {
  sessionId: string;
  /** The list's one Tab stop (roving focus: arrow keys move between entries). */
  tabbable?: boolean;
  /** Right click, Shift+F10 or the Menu key. */
  onMenu?: (request: MenuRequest) => void;
}) {
  const view = useAppStore(sessionsSelectors.byId(sessionId));
  const current = useAppStore((s) => s.currentSessionId === sessionId);
  const agent = useAppStore((s) => (view ? sessionsSelectors.agentName(s, view.agentId) : ''));
  const switchSession = useAppStore((s) => s.switchSession);
  const now = useNow();
  if (!view) return null;
  const state = sessionsSelectors.entryState(view, current ? sessionId : undefined);
  // The session on screen is being read: its activity is not news.
  const unread = view.unread === true && !current;
  const onClick = (e: MouseEvent) => {
    e.preventDefault();
    void switchSession(sessionId);
  };
  const onContextMenu = (e: MouseEvent) => {
    if (!onMenu) return;
    e.preventDefault();
    onMenu({ sessionId, x: e.clientX, y: e.clientY, keyboard: false });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLAnchorElement>) => {
    if (!onMenu || !isShortcut('entryMenu', e, isMac(navigator.platform || navigator.userAgent))) return;
    e.preventDefault();
    const box = e.currentTarget.getBoundingClientRect();
    onMenu({ sessionId, x: box.left + 16, y: box.bottom, keyboard: true });
  };
  return (
    <a
      href={`#/session/${sessionId}`}
      className={`session-entry${current ? ' is-current' : ''}${unread ? ' is-unread' : ''}`}
      aria-current={current ? 'page' : undefined}
      aria-haspopup={onMenu ? 'menu' : undefined}
      data-session-id={sessionId}
      tabIndex={tabbable ? undefined : -1}
      onClick={onClick}
      onContextMenu={onContextMenu}
      onKeyDown={onKeyDown}
    >
      <span className="session-title">{view.title || 'Untitled session'}</span>{' '}
      <span className="session-meta-line">
        <span className="entry-agent">{agent}</span>
        <span aria-hidden="true"> · </span>{' '}
        <span className={`badge badge-${view.state.toLowerCase()} tone-${state.tone}`} title={sessionsSelectors.badgeTitle(view)}>
          {view.running ? <span className="running-dot" aria-hidden="true" /> : null}
          {state.label}
        </span>
        <span aria-hidden="true"> · </span>{' '}
        <time className="entry-time" dateTime={new Date(view.lastActivityAt).toISOString()} title={new Date(view.lastActivityAt).toLocaleString()}>
          {relativeTime(view.lastActivityAt, now)}
        </time>
        {unread ? (
          <>
            {' '}
            <span className="unread-mark">
              <span aria-hidden="true">●</span>
              <span className="visually-hidden">unread activity</span>
            </span>
          </>
        ) : null}
      </span>{' '}
      {/* The folder's short form; the whole path in the tooltip. */}
      <span className="session-folder" title={view.cwd}>
        {shortFolder(view.workspace?.folder ?? view.cwd)}
        {view.workspace?.branch ? ` · ${view.workspace.branch}` : ''}
      </span>
    </a>
  );
});
