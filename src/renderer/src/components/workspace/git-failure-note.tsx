import type { GitFailure } from '../../store/slices/workspace/initial-state';

const WHAT: Record<GitFailure['op'], string> = {
  commit: 'Commit failed',
  merge: 'Merge failed',
  rebase: 'Rebase failed',
  revert: 'Revert failed',
  discard: 'Discard failed',
  restore: 'Restore failed',
  recreate: 'Could not make the worktree again',
};

/** A refused git operation: what failed, the conflict's (or the blocking) files by name, and git's own words. */
export function GitFailureNote({ failure }: { failure: GitFailure }) {
  const conflict = failure.problem === 'conflict';
  return (
    <div className="git-failure" role="alert">
      <strong>{conflict ? `${failure.op === 'rebase' ? 'Rebase' : 'Merge'} conflict: nothing was changed` : WHAT[failure.op]}</strong>
      <p>{failure.message}</p>
      {failure.files.length ? (
        <ul aria-label={conflict ? 'Conflicting files' : 'Files in the way'}>
          {failure.files.map((f) => (
            <li key={f}>
              <code>{f}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {failure.words.length ? (
        <pre className="stderr" aria-label="git said">
          {failure.words.join('\n')}
        </pre>
      ) : null}
    </div>
  );
}
