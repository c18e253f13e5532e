import { useEffect } from 'react';
import type { Row } from '../../store/slices/transcript/rows';
import { useAppStore } from '../../store/context';
import { workspaceSelectors } from '../../store/slices/workspace/selectors';

/** A turn's end line with its checkpoint: `Restore to before this turn` (confirmed). */
export function TurnEndRow({ row }: { row: Extract<Row, { type: 'turn-end' }> }) {
  const sessionId = useAppStore((s) => s.currentSessionId);
  const canRestore = useAppStore((s) => (s.currentSessionId === undefined ? false : workspaceSelectors.canRestore(s, s.currentSessionId)));
  const ask = useAppStore((s) => s.askRestoreCheckpoint);
  return (
    <p className="turn-end">
      <span>Turn ended · checkpointed{row.partial ? ' (the agent had started a tool first, so it may hold its first changes)' : ''}</span>
      {sessionId !== undefined ? (
        <button
          type="button"
          className="link-button"
          disabled={!canRestore}
          title={canRestore ? undefined : 'Another live session works in this folder'}
          onClick={() => ask(sessionId, row.checkpointId)}
        >
          Restore to before this turn
        </button>
      ) : null}
    </p>
  );
}

const ACTION: Record<Extract<Row, { type: 'restored' }>['restored']['action'], string> = {
  restore: 'Files restored',
  revert: 'Files reverted',
  discard: 'Changes discarded',
};

/** What a restore, revert or discard did, with the files it touched and its Undo. */
export function RestoredRow({ row }: { row: Extract<Row, { type: 'restored' }> }) {
  const sessionId = useAppStore((s) => s.currentSessionId);
  const ask = useAppStore((s) => s.askRestoreCheckpoint);
  const r = row.restored;
  return (
    <div className="row-note row-restored" role="note">
      <strong>{ACTION[r.action]}</strong> {r.text}{' '}
      <span className="muted small">
        ({r.written} written, {r.removed} removed)
      </span>
      {r.paths.length ? (
        <ul aria-label="Files changed by the restore">
          {r.paths.map((p) => (
            <li key={p}>
              <code>{p}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {sessionId !== undefined ? (
        <button type="button" className="link-button" onClick={() => ask(sessionId, r.undo, 'undo')}>
          Undo
        </button>
      ) : null}
    </div>
  );
}

/** The setup command's run in the new worktree: how it ended and its last output. */
export function SetupRow({ row }: { row: Extract<Row, { type: 'setup' }> }) {
  const p = row.setup;
  const how = p.failed
    ? `failed${p.exit.exitCode !== null && p.exit.exitCode !== undefined ? ` (exit ${p.exit.exitCode})` : p.exit.signal ? ` (${p.exit.signal})` : ''}`
    : `finished in ${(p.durationMs / 1000).toFixed(1)} s`;
  return (
    <section className={`setup-output${p.failed ? ' is-failed' : ''}`} aria-label={`Setup command: ${p.command}`}>
      <p className="row-note">
        Setup command <code>{p.command}</code> {how}.{p.message ? ` ${p.message}` : ''}
        {p.failed ? ' The session is usable; fix the command in Settings → Repositories.' : ''}
      </p>
      {p.output ? (
        <pre className="terminal-output">
          {p.truncated ? '…\n' : ''}
          {p.output}
        </pre>
      ) : null}
    </section>
  );
}

/** A setup command still running in this session's new worktree: its output as it comes. */
export function SetupLive({ sessionId }: { sessionId: string }) {
  const running = useAppStore((s) => s.sessionsById.get(sessionId)?.workspace?.setup?.state === 'running');
  const command = useAppStore((s) => s.sessionsById.get(sessionId)?.workspace?.setup?.command);
  const live = useAppStore((s) => s.setupOutput.get(sessionId));
  const load = useAppStore((s) => s.loadSetupOutput);
  useEffect(() => {
    if (running) void load(sessionId);
  }, [running, sessionId, load]);
  if (!running) return null;
  return (
    <section className="setup-output setup-live" aria-label={`Setup command: ${command ?? ''}`} aria-busy="true">
      <p className="row-note">
        Running the setup command <code>{command}</code> in the new worktree…
      </p>
      <pre className="terminal-output" aria-live="off">
        {live?.truncated ? '…\n' : ''}
        {live?.text ?? ''}
      </pre>
    </section>
  );
}
