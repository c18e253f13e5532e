import { useRef, useState } from 'react';
import { useAppStore } from '../../store/context';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { McpServersSummary } from './mcp-servers-summary';
import { SessionControlsBar } from './session-controls';
import { WorkspaceBar } from '../workspace/workspace-bar';
import { MenuButton, type MenuItem } from '../overlay/menu';
import { useNarrow } from '../app-frame/use-narrow';

/**
 * The session's name, editable in place (Rename): Enter saves, Escape cancels, leaving the
 * field saves too (like a spreadsheet cell). An empty name gives the title back to the agent.
 */
function TitleEditor({ sessionId, title, onDone }: { sessionId: string; title: string; onDone: () => void }) {
  const renameSession = useAppStore((s) => s.renameSession);
  const [value, setValue] = useState(title);
  const done = useRef(false);
  const finish = (save: boolean) => {
    if (done.current) return;
    done.current = true;
    if (save && value.trim() !== title) void renameSession(sessionId, value);
    onDone();
  };
  return (
    <input
      className="session-heading-input"
      aria-label="Session name"
      value={value}
      maxLength={200}
      autoFocus
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => finish(true)}
      onKeyDown={(e) => {
        if (e.nativeEvent.isComposing) return;
        if (e.key === 'Enter') {
          e.preventDefault();
          finish(true);
        } else if (e.key === 'Escape') {
          e.preventDefault();
          // The composer's Escape stops a turn; this one only cancels the edit.
          e.stopPropagation();
          finish(false);
        }
      }}
    />
  );
}

export function SessionHeader() {
  const session = useAppStore(sessionsSelectors.currentSession);
  const agent = useAppStore((s) => (session ? sessionsSelectors.agentName(s, session.agentId) : ''));
  const closeSession = useAppStore((s) => s.closeSession);
  const archiveSession = useAppStore((s) => s.archiveSession);
  const restoreSession = useAppStore((s) => s.restoreSession);
  const askDelete = useAppStore((s) => s.askDelete);
  const renaming = useAppStore((s) => s.renamingSessionId !== undefined && s.renamingSessionId === s.currentSessionId);
  const beginRename = useAppStore((s) => s.beginRename);
  const endRename = useAppStore((s) => s.endRename);
  const renameButton = useRef<HTMLButtonElement>(null);
  const actionsButton = useRef<HTMLButtonElement>(null);
  const narrow = useNarrow();
  const creating = useAppStore(sessionsSelectors.isCreatingCurrent);
  const logOpen = useAppStore((s) => s.agentLog !== undefined && s.agentLog.sessionId === s.currentSessionId);
  const openAgentLog = useAppStore((s) => s.openAgentLog);
  const closeAgentLog = useAppStore((s) => s.closeAgentLog);
  const forkSession = useAppStore((s) => s.forkSession);
  const askExport = useAppStore((s) => s.askExport);
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
  const toggleLog = () => (logOpen ? closeAgentLog(session.id) : void openAgentLog(session.id));
  // On a phone the actions fold into one menu (the same actions, the same order).
  const actions: MenuItem[] = [
    { id: 'rename', label: 'Rename', onSelect: () => beginRename(session.id) },
    ...(session.canFork ? [{ id: 'fork', label: 'Fork', onSelect: () => void forkSession(session.id) }] : []),
    { id: 'export', label: 'Export…', onSelect: () => askExport(session.id) },
    { id: 'log', label: logOpen ? 'Hide agent log' : 'Agent log', onSelect: toggleLog },
    ...(closable ? [{ id: 'close', label: 'Close session', onSelect: () => void closeSession(session.id) }] : []),
    session.archivedAt === undefined
      ? { id: 'archive', label: 'Archive', onSelect: () => void archiveSession(session.id) }
      : { id: 'restore', label: 'Restore', onSelect: () => void restoreSession(session.id) },
    { id: 'delete', label: 'Delete…', onSelect: () => askDelete(session.id) },
  ];
  return (
    <header className="session-header">
      <div className="session-header-text">
        {renaming ? (
          <TitleEditor
            key={session.id}
            sessionId={session.id}
            title={session.title}
            onDone={() => {
              endRename();
              (renameButton.current ?? actionsButton.current)?.focus();
            }}
          />
        ) : (
          <h1 className="session-heading">{session.title || 'Untitled session'}</h1>
        )}
        <p className="session-meta">
          <span className="agent-name">{agent}</span>
          <span aria-hidden="true"> · </span>
          <span className="cwd" title={session.cwd}>
            {session.cwd}
          </span>
        </p>
        <WorkspaceBar session={session} />
        <McpServersSummary servers={session.mcpServers} />
        <SessionControlsBar sessionId={session.id} agentName={agent} />
      </div>
      {narrow ? (
        <MenuButton label="Session actions" items={actions} className="button-secondary" buttonRef={actionsButton}>
          Actions
        </MenuButton>
      ) : (
        <div className="session-header-actions">
          <button ref={renameButton} type="button" className="button-secondary" onClick={() => beginRename(session.id)}>
            Rename
          </button>
          {session.canFork ? (
            <button type="button" className="button-secondary" title="A new session with this conversation so far" onClick={() => void forkSession(session.id)}>
              Fork
            </button>
          ) : null}
          <button type="button" className="button-secondary" onClick={() => askExport(session.id)}>
            Export…
          </button>
          <button type="button" className="button-secondary" aria-pressed={logOpen} onClick={toggleLog}>
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
          <button type="button" className="button-secondary" onClick={() => askDelete(session.id)}>
            Delete
          </button>
        </div>
      )}
    </header>
  );
}
