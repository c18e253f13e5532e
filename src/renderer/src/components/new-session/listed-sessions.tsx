import type { AgentSessionInfoT } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { newSessionSelectors } from '../../store/slices/new-session/selectors';
import { shortFolder } from './shortcut';

function when(ms: number | undefined): string {
  return ms === undefined ? '' : new Date(ms).toLocaleString();
}

/** "Open an existing session of this agent": the agent's own `session/list`, one button each. */
export function ListedSessions() {
  const dialog = useAppStore(newSessionSelectors.dialog);
  const agentId = useAppStore(newSessionSelectors.agentId);
  const lists = useAppStore((s) => newSessionSelectors.agentListsSessions(s, agentId));
  const listAgentSessions = useAppStore((s) => s.listAgentSessions);
  const openListedSession = useAppStore((s) => s.openListedSession);
  // Known from the agent's last test not to list them: nothing to offer.
  if (!dialog || agentId === undefined || lists === false) return null;
  const listed = dialog.listed;
  const rows: readonly AgentSessionInfoT[] = listed.state === 'done' ? listed.sessions : [];
  return (
    <section className="listed-sessions" aria-label="Existing sessions of this agent">
      <button type="button" className="button-link" disabled={listed.state === 'loading'} onClick={() => void listAgentSessions()}>
        Open an existing session of this agent
      </button>
      {listed.state === 'loading' ? <p className="muted small">Asking the agent for its sessions…</p> : null}
      {listed.state === 'error' ? <p className="muted small" role="status">{listed.error.message}</p> : null}
      {listed.state === 'done' && rows.length === 0 ? <p className="muted small">This agent has no sessions to open.</p> : null}
      {rows.length ? (
        <ul aria-label="Sessions of this agent">
          {rows.map((s) => (
            <li key={s.acpSessionId}>
              <button type="button" className="button-secondary listed-session" onClick={() => openListedSession(s)}>
                <span className="session-title">{s.title || 'Untitled session'}</span>{' '}
                <span className="muted small" title={s.cwd}>
                  {shortFolder(s.cwd)}
                </span>{' '}
                <span className="muted small">{when(s.updatedAt)}</span>
                {s.openAs !== undefined ? <span className="muted small"> (open here)</span> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
