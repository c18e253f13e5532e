import { useState } from 'react';
import { useAppStore } from '../store/context';
import { sessionsSelectors } from '../store/slices/sessions/selectors';
import { SessionControlsBar } from './session-controls';

/** Delete asks first: it removes the transcript for good. */
function DeleteConfirm({ onDelete, onCancel }: { onDelete: () => void; onCancel: () => void }) {
  return (
    <div role="alertdialog" aria-modal="false" aria-labelledby="delete-confirm-text" className="delete-confirm">
      <p id="delete-confirm-text">Delete this session, its transcript and its permission records? This cannot be undone.</p>
      <button type="button" className="button-danger" onClick={onDelete}>
        Delete for good
      </button>
      <button type="button" className="button-secondary" onClick={onCancel} autoFocus>
        Cancel
      </button>
    </div>
  );
}

export function SessionHeader() {
  const session = useAppStore(sessionsSelectors.currentSession);
  const agent = useAppStore((s) => (session ? sessionsSelectors.agentName(s, session.agentId) : ''));
  const closeSession = useAppStore((s) => s.closeSession);
  const archiveSession = useAppStore((s) => s.archiveSession);
  const restoreSession = useAppStore((s) => s.restoreSession);
  const deleteSession = useAppStore((s) => s.deleteSession);
  const creating = useAppStore(sessionsSelectors.isCreatingCurrent);
  const logOpen = useAppStore((s) => s.agentLog !== undefined && s.agentLog.sessionId === s.currentSessionId);
  const openAgentLog = useAppStore((s) => s.openAgentLog);
  const closeAgentLog = useAppStore((s) => s.closeAgentLog);
  const [confirming, setConfirming] = useState(false);
  if (!session) {
    // New session was clicked and the host has not answered yet.
    return creating ? (
      <header className="session-header">
        <div className="session-header-text">
          <h1 className="session-heading">Untitled session</h1>
          <p className="session-meta">Starting…</p>
        </div>
      </header>
    ) : null;
  }
  // Every session can be closed, archived or deleted whatever its state (a failed one too).
  const closable = session.state !== 'CLOSING';
  return (
    <header className="session-header">
      <div className="session-header-text">
        <h1 className="session-heading">{session.title || 'Untitled session'}</h1>
        <p className="session-meta">
          <span className="agent-name">{agent}</span>
          <span aria-hidden="true"> · </span>
          <span className="cwd" title={session.cwd}>
            {session.cwd}
          </span>
        </p>
        <SessionControlsBar sessionId={session.id} agentName={agent} />
      </div>
      <div className="session-header-actions">
        <button
          type="button"
          className="button-secondary"
          aria-pressed={logOpen}
          onClick={() => (logOpen ? closeAgentLog(session.id) : void openAgentLog(session.id))}
        >
          Agent log
        </button>
        {closable ? (
          <button type="button" className="button-secondary" onClick={() => void closeSession(session.id)}>
            Close session
          </button>
        ) : null}
        {session.archivedAt === undefined ? (
          <button type="button" className="button-secondary" onClick={() => void archiveSession(session.id)}>
            Archive
          </button>
        ) : (
          <button type="button" className="button-secondary" onClick={() => void restoreSession(session.id)}>
            Restore
          </button>
        )}
        <button type="button" className="button-secondary" onClick={() => setConfirming(true)}>
          Delete
        </button>
      </div>
      {confirming ? (
        <DeleteConfirm
          onCancel={() => setConfirming(false)}
          onDelete={() => {
            setConfirming(false);
            void deleteSession(session.id);
          }}
        />
      ) : null}
    </header>
  );
}
