import { useEffect, useId, useState } from 'react';
import type { RepositorySettingsT, WireError } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { FormError } from './form-error';

/** One repository: its setup command, saved on its own. */
function RepositoryRow({ repo }: { repo: RepositorySettingsT }) {
  const save = useAppStore((s) => s.saveRepository);
  const id = useId();
  const [command, setCommand] = useState(repo.setupCommand ?? '');
  const [error, setError] = useState<WireError | undefined>();
  const [saved, setSaved] = useState(false);
  return (
    <li className="repository">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          void save({ path: repo.repository, setupCommand: command.trim() === '' ? null : command }).then((err) => {
            setError(err);
            setSaved(err === undefined);
          });
        }}
      >
        <code>{repo.repository}</code>
        <label className="field-label" htmlFor={`${id}-setup`}>
          Setup command for {repo.repository}
        </label>
        <div className="row">
          <input id={`${id}-setup`} type="text" spellCheck={false} placeholder="e.g. npm ci" value={command} onChange={(e) => setCommand(e.target.value)} />
          <button type="submit" className="button-secondary" aria-label={`Save setup command for ${repo.repository}`}>
            Save
          </button>
        </div>
        <span className="field-hint" aria-live="polite">
          {saved ? 'Saved' : `Runs in each new worktree before the first message. Separate worktree is ${repo.worktreeDefault ? 'on' : 'off'} by default here.`}
        </span>
        {error ? <FormError error={error} /> : null}
      </form>
    </li>
  );
}

/** Where new worktrees go (absolute; empty: the data folder's `worktrees`). */
function WorktreeRoot() {
  const root = useAppStore((s) => s.settings?.worktreeRoot ?? '');
  const saveSettings = useAppStore((s) => s.saveSettings);
  const id = useId();
  const [value, setValue] = useState(root);
  const [error, setError] = useState<WireError | undefined>();
  const [saved, setSaved] = useState(false);
  return (
    <form
      className="field"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        void saveSettings({ worktreeRoot: value.trim() }).then((err) => {
          setError(err);
          setSaved(err === undefined);
        });
      }}
    >
      <label className="field-label" htmlFor={`${id}-root`}>
        Worktree folder
      </label>
      <div className="row">
        <input id={`${id}-root`} type="text" spellCheck={false} placeholder="Default: worktrees in the data folder" value={value} onChange={(e) => setValue(e.target.value)} />
        <button type="submit" className="button-secondary" aria-label="Save worktree folder">
          Save
        </button>
      </div>
      <span className="field-hint" aria-live="polite">
        {saved ? 'Saved' : 'New worktree sessions get a folder here; existing ones stay where they are.'}
      </span>
      {error ? <FormError error={error} /> : null}
    </form>
  );
}

/** Settings → Repositories: every repository sessions started in, each with its setup command; and where worktrees go. */
export function RepositoriesSection() {
  const repositories = useAppStore((s) => s.repositories);
  const load = useAppStore((s) => s.loadRepositories);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="settings-section" aria-label="Repositories">
      <h3>Repositories</h3>
      <WorktreeRoot />
      {repositories.error ? <FormError error={repositories.error} /> : null}
      {repositories.list.length ? (
        <ul className="repositories">
          {repositories.list.map((r) => (
            <RepositoryRow key={r.repository} repo={r} />
          ))}
        </ul>
      ) : (
        <p className="muted">{repositories.loading ? 'Loading…' : 'No repository yet: start a session in a folder of a git repository.'}</p>
      )}
    </section>
  );
}
