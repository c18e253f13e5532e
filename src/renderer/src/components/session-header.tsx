import { useAppStore } from '../store/context';
import { sessionsSelectors } from '../store/slices/sessions/selectors';

export function SessionHeader() {
  const session = useAppStore(sessionsSelectors.currentSession);
  const agent = useAppStore((s) => (session ? sessionsSelectors.agentName(s, session.agentId) : ''));
  const closeSession = useAppStore((s) => s.closeSession);
  const creating = useAppStore(sessionsSelectors.isCreatingCurrent);
  const logOpen = useAppStore((s) => s.agentLog !== undefined && s.agentLog.sessionId === s.currentSessionId);
  const openAgentLog = useAppStore((s) => s.openAgentLog);
  const closeAgentLog = useAppStore((s) => s.closeAgentLog);
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
  const closable = session.state !== 'ENDED' && session.state !== 'CLOSING';
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
      </div>
      <button
        type="button"
        className="button-secondary"
        aria-pressed={logOpen}
        onClick={() => (logOpen ? closeAgentLog(session.id) : void openAgentLog(session.id))}
      >
        Agent log
      </button>
      <button
        type="button"
        className="button-secondary"
        disabled={!closable}
        onClick={() => void closeSession(session.id)}
      >
        Close session
      </button>
    </header>
  );
}
