import { useEffect, useLayoutEffect, useRef } from 'react';
import type { AgentLogEntryT } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';

function time(at: number | undefined): string {
  return at === undefined ? '' : new Date(at).toLocaleTimeString();
}

function LogLine({ entry }: { entry: AgentLogEntryT }) {
  switch (entry.kind) {
    case 'stderr':
      return <div className="log-line log-stderr">{entry.text}</div>;
    case 'protocol':
      return (
        <div className={`log-line log-protocol log-${entry.direction}`}>
          <span className="log-meta">
            {time(entry.at)} {entry.direction === 'in' ? '← agent' : '→ agent'}
            {entry.method ? ` ${entry.method}` : ''}
          </span>{' '}
          {entry.text}
        </div>
      );
    case 'unknown_method':
      return (
        <div className="log-line log-unknown">
          <span className="log-meta">{time(entry.at)}</span> The agent sent an unknown {entry.message}: {entry.method}
        </div>
      );
    case 'note':
      return (
        <div className="log-line log-note">
          <span className="log-meta">{time(entry.at)}</span> {entry.text}
        </div>
      );
  }
}

/**
 * A session's Agent log: the agent process's stderr (the end of its log file, then live), and
 * while "Show protocol messages" is on, every ACP message both ways. Closing it (or leaving
 * the session) tells the host to stop sending lines to this window.
 */
export function AgentLogPanel({ sessionId }: { sessionId: string }) {
  const log = useAppStore((s) => (s.agentLog?.sessionId === sessionId ? s.agentLog : undefined));
  const protocol = useAppStore((s) => s.settings?.logProtocol ?? false);
  const closeAgentLog = useAppStore((s) => s.closeAgentLog);
  const setProtocolLog = useAppStore((s) => s.setProtocolLog);
  const body = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const open = log !== undefined;

  // Leaving the session (the pane is keyed by it) closes its log on the host too.
  useEffect(() => () => closeAgentLog(sessionId), [closeAgentLog, sessionId]);

  // Stays at the newest line unless the person scrolled up to read.
  useLayoutEffect(() => {
    const el = body.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [log?.entries]);

  if (!open) return null;
  const hidden = log.dropped > 0 ? `${log.dropped} lines were not sent to this window; ` : '';
  return (
    <section className="agent-log" aria-label="Agent log">
      <header className="agent-log-header">
        <h2>Agent log</h2>
        <span className="muted small">
          {log.agentName}
          {log.loaded ? (log.live ? ' · running' : ' · not running') : ''}
        </span>
        <span className="spacer" />
        <label className="small">
          <input type="checkbox" checked={protocol} onChange={(e) => void setProtocolLog(e.target.checked)} /> Show protocol messages
        </label>
        <button type="button" className="button-secondary" onClick={() => closeAgentLog(sessionId)}>
          Close
        </button>
      </header>
      {log.error ? <p role="alert">Could not open the agent log: {log.error.message}</p> : null}
      <div
        ref={body}
        className="agent-log-body"
        role="log"
        aria-label="Agent output"
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {log.truncated || hidden ? (
          <div className="log-line log-note">
            {hidden}Earlier lines are in {log.logFile ?? 'the log file'}.
          </div>
        ) : null}
        {log.loaded && log.entries.length === 0 && !log.error ? (
          <div className="log-line log-note">{log.logFile ? 'The agent has written nothing yet.' : 'The agent of this session has not run yet.'}</div>
        ) : null}
        {log.entries.map((entry, i) => (
          <LogLine key={i} entry={entry} />
        ))}
      </div>
      {log.logFile ? <p className="muted small agent-log-file">Log file: {log.logFile}</p> : null}
    </section>
  );
}
