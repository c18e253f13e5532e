import { useNow } from '../../lib/ticker';
import { currentToolTitle, formatDuration, lastAgentEventAt, turnProgress } from '../../lib/turn-progress';
import { useAppStore } from '../../store/context';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';

/**
 * "Running · 12 s · Run npm test" (the tool call under way), "Starting the agent · 3 s" while
 * the session's agent starts for the turn, and once the agent has been quiet for a while, "The agent has said nothing
 * for 35 s". Ticks on the window's one ticker, only while a turn runs.
 */
export function RunStatus() {
  const running = useAppStore(sessionsSelectors.isCurrentRunning);
  const view = useAppStore(sessionsSelectors.currentSession);
  const lastEventAt = useAppStore((s) => (s.transcript.sessionId === s.currentSessionId ? lastAgentEventAt(s.transcript.events) : undefined));
  const silenceAfterMs = useAppStore((s) => s.silenceAfterMs);
  const tool = useAppStore((s) => (running && s.transcript.sessionId === s.currentSessionId ? currentToolTitle(s.transcript.rows) : undefined));
  const now = useNow(running);
  const progress = running ? turnProgress(view, lastEventAt, now, silenceAfterMs) : undefined;
  const starting = running && (view?.state === 'STARTING' || view?.state === 'CREATED');
  return (
    <span className="run-status-group">
      <span role="status" className="run-status">
        {starting ? 'Starting the agent' : running ? 'Running' : ''}
      </span>
      {progress ? (
        // A timer is not read out on every tick; the status above is.
        <span role="timer" className="run-elapsed">
          {' · '}
          {formatDuration(progress.elapsedMs)}
        </span>
      ) : null}
      {tool && !starting ? (
        <span className="run-tool" title={tool}>
          {' · '}
          {tool}
        </span>
      ) : null}
      {progress?.silentMs !== undefined ? (
        <span className="run-silence" role="note">
          The agent has said nothing for {formatDuration(progress.silentMs)}
        </span>
      ) : null}
    </span>
  );
}
