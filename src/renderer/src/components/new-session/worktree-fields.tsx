import { useId, useState } from 'react';
import { useAppStore } from '../../store/context';
import { newSessionSelectors } from '../../store/slices/new-session/selectors';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';

/**
 * What the dialog offers when the folder is in a git repository: `Separate worktree` (the
 * repository's remembered choice), the new `Branch` (checked by the host as it is typed), and
 * `Also run on` (more agents on the same first prompt, each in a worktree of its own). Outside
 * a repository it shows nothing, or why git could not be used.
 */
export function WorktreeFields() {
  const dialog = useAppStore(newSessionSelectors.dialog);
  const on = useAppStore(newSessionSelectors.worktreeOn);
  const cannot = useAppStore(newSessionSelectors.worktreeProblem);
  const branchProblem = useAppStore(newSessionSelectors.branchProblem);
  const agents = useAppStore(sessionsSelectors.agents);
  const setWorktree = useAppStore((s) => s.setNewSessionWorktree);
  const setBranch = useAppStore((s) => s.setNewSessionBranch);
  const addAlso = useAppStore((s) => s.addAlsoRunOn);
  const removeAlso = useAppStore((s) => s.removeAlsoRunOn);
  const id = useId();
  const [adding, setAdding] = useState('');
  if (!dialog || dialog.workspace.state !== 'done') return null;
  const probe = dialog.workspace.probe;
  if (probe.kind === 'no_git') return <p className="field-hint">{probe.message}</p>;
  if (probe.kind !== 'repository') return null;
  const nameOf = (a: string) => agents.find((x) => x.id === a)?.name ?? a;
  const branchStatus =
    branchProblem ??
    (dialog.branchCheck.state === 'checking'
      ? 'Checking…'
      : `A new branch from ${probe.branch ?? 'HEAD'}; the agent works in a worktree of its own, your checkout stays as it is.`);
  return (
    <fieldset className="field worktree-fields">
      <legend className="field-label">Git repository {probe.topLevel}</legend>
      <label className="checkbox-field">
        <input type="checkbox" checked={on} disabled={cannot !== undefined} onChange={(e) => setWorktree(e.target.checked)} /> Separate worktree
      </label>
      {cannot ? <span className="field-hint">{cannot}</span> : null}
      {on ? (
        <>
          <label className="field-label" htmlFor={`${id}-branch`}>
            Branch
          </label>
          <input
            id={`${id}-branch`}
            type="text"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={branchProblem !== undefined}
            aria-describedby={`${id}-branch-status`}
            value={dialog.branch}
            onChange={(e) => setBranch(e.target.value)}
          />
          <span id={`${id}-branch-status`} className={branchProblem ? 'field-error' : 'field-hint'} role={branchProblem ? 'alert' : undefined}>
            {branchStatus}
          </span>
          {probe.setupCommand ? <span className="field-hint">Runs first in the new worktree: {probe.setupCommand}</span> : null}
          <div className="also-run-on">
            <label className="field-label" htmlFor={`${id}-also`}>
              Also run on
            </label>
            {dialog.alsoRunOn.length ? (
              <ul aria-label="Also run on agents">
                {dialog.alsoRunOn.map((a, i) => (
                  <li key={`${a}-${i}`}>
                    <span>{nameOf(a)}</span>{' '}
                    <button type="button" className="button-link" aria-label={`Remove ${nameOf(a)} (${i + 2})`} onClick={() => removeAlso(i)}>
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            <div className="row">
              <select id={`${id}-also`} value={adding} onChange={(e) => setAdding(e.target.value)}>
                <option value="">Choose an agent…</option>
                {agents.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="button-secondary"
                disabled={adding === ''}
                onClick={() => {
                  addAlso(adding);
                  setAdding('');
                }}
              >
                Add agent
              </button>
            </div>
            <span className="field-hint">The same first message goes to each, in a worktree of its own; Compare shows them side by side.</span>
          </div>
        </>
      ) : null}
    </fieldset>
  );
}
