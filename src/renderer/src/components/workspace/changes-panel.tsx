import { useId } from 'react';
import { useAppStore } from '../../store/context';
import { workspaceSelectors } from '../../store/slices/workspace/selectors';
import { shortCommit } from '../../store/slices/workspace/git-failure';
import { FileDiffView } from './file-diff';
import { GitFailureNote } from './git-failure-note';

const BUSY: Record<string, string> = {
  commit: 'Committing…',
  merge: 'Merging…',
  rebase: 'Rebasing…',
  revert: 'Reverting…',
  discard: 'Discarding…',
};

/**
 * The `Changes` region: every file that differs from the base (a worktree) or HEAD (a shared
 * folder) with its lines, the chosen file's diff, Revert per file and Discard all (confirmed),
 * and for a worktree Commit, Merge (optionally squashed) and Rebase on base. It lists again
 * whenever the host says the files changed.
 */
export function ChangesPanel() {
  const changes = useAppStore((s) => (s.changes?.sessionId === s.currentSessionId ? s.changes : undefined));
  const ws = useAppStore((s) => workspaceSelectors.workspaceOf(s, s.changes?.sessionId));
  const close = useAppStore((s) => s.closeChanges);
  const select = useAppStore((s) => s.selectChange);
  const askRevert = useAppStore((s) => s.askRevert);
  const askDiscardAll = useAppStore((s) => s.askDiscardAll);
  const setMessage = useAppStore((s) => s.setCommitMessage);
  const setSquash = useAppStore((s) => s.setMergeSquash);
  const commit = useAppStore((s) => s.commitChanges);
  const merge = useAppStore((s) => s.mergeBranch);
  const rebase = useAppStore((s) => s.rebaseOnBase);
  const id = useId();
  if (!changes) return null;
  const { list, busy } = changes;
  const worktree = ws?.kind === 'worktree';
  const files = list?.files ?? [];
  return (
    <section className="changes-panel" aria-label="Changes" aria-busy={changes.loading || busy !== undefined}>
      <div className="changes-head">
        <h2>Changes</h2>
        <span className="muted small" aria-live="polite">
          {list === undefined
            ? changes.loading
              ? 'Loading…'
              : ''
            : `${list.total} file${list.total === 1 ? '' : 's'} changed against ${worktree ? (ws?.baseBranch ?? 'the base') : 'HEAD'} (${shortCommit(list.base)})${changes.loading ? ' · updating…' : ''}`}
        </span>
        <span className="spacer" />
        <button type="button" className="button-secondary" onClick={close}>
          Close changes
        </button>
      </div>
      {changes.listError ? <p className="field-error">Could not list the changes: {[changes.listError.message, ...(changes.listError.details?.stderrTail ?? [])].join(' ')}</p> : null}
      {list && files.length === 0 ? <p className="muted">No changes.</p> : null}
      {files.length ? (
        <ul className="changes-files" aria-label="Changed files">
          {files.map((f) => (
            <li key={f.path} className={changes.selected?.path === f.path ? 'is-selected' : undefined}>
              <button type="button" className="button-link changes-file" aria-current={changes.selected?.path === f.path ? 'true' : undefined} onClick={() => void select(f)}>
                <code>{f.path}</code>
              </button>
              <span className={`change-status change-${f.status}`}>{workspaceSelectors.fileSummary(f)}</span>
              <button type="button" className="button-link" aria-label={`Revert ${f.path}`} disabled={busy !== undefined} onClick={() => askRevert(f.path)}>
                Revert
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {list?.truncated ? <p className="muted small">Showing {files.length} of {list.total} files.</p> : null}
      {changes.selected && changes.diff ? <FileDiffView path={changes.selected.path} diff={changes.diff} /> : null}
      <div className="changes-actions">
        <button type="button" className="button-danger" disabled={busy !== undefined || files.length === 0} onClick={askDiscardAll}>
          Discard all changes
        </button>
      </div>
      {worktree ? (
        <>
          <form
            className="changes-commit"
            onSubmit={(e) => {
              e.preventDefault();
              void commit();
            }}
          >
            <label className="field-label" htmlFor={`${id}-message`}>
              Commit message
            </label>
            <textarea id={`${id}-message`} rows={2} value={changes.commitMessage} onChange={(e) => setMessage(e.target.value)} />
            <button type="submit" className="button-primary" disabled={busy !== undefined || !changes.commitMessage.trim()}>
              Commit
            </button>
          </form>
          <div className="changes-merge">
            <label className="checkbox-field">
              <input type="checkbox" checked={changes.squash} onChange={(e) => setSquash(e.target.checked)} /> Squash into one commit
            </label>
            <button type="button" className="button-primary" disabled={busy !== undefined} onClick={() => void merge(changes.sessionId, changes.squash)}>
              Merge into {ws?.baseBranch ?? 'base'}
            </button>
            <button type="button" className="button-secondary" disabled={busy !== undefined} onClick={() => void rebase()}>
              Rebase on base
            </button>
          </div>
        </>
      ) : null}
      <p className="changes-progress" aria-live="polite">
        {busy ? BUSY[busy] : (changes.done ?? '')}
      </p>
      {changes.failure ? <GitFailureNote failure={changes.failure} /> : null}
    </section>
  );
}
