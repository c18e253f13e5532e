import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useAppStore } from '../../store/context';
import { newSessionSelectors } from '../../store/slices/new-session/selectors';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { ListedSessions } from './listed-sessions';
import { WorktreeFields } from './worktree-fields';

/**
 * Directories the person may add besides the session's folder; each is checked by the host.
 * Named "directory", not "folder", so that nothing else in the dialog is called Folder.
 */
function AdditionalDirs() {
  const dialog = useAppStore(newSessionSelectors.dialog);
  const add = useAppStore((s) => s.addAdditionalDir);
  const remove = useAppStore((s) => s.removeAdditionalDir);
  const id = useId();
  const [text, setText] = useState('');
  if (!dialog) return null;
  const submit = async () => {
    if (text.trim() && (await add(text))) setText('');
  };
  return (
    <fieldset className="field additional-dirs">
      <legend className="field-label">Additional directories (optional)</legend>
      {dialog.additionalDirs.length ? (
        <ul aria-label="Additional directories">
          {dialog.additionalDirs.map((dir) => (
            <li key={dir}>
              <span>{dir}</span>{' '}
              <button type="button" className="button-link" aria-label={`Remove ${dir}`} onClick={() => remove(dir)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="row">
        <input
          type="text"
          aria-label="Additional directory"
          aria-describedby={`${id}-error`}
          placeholder="/path/to/another/folder"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            // Enter adds the folder here; it must not start the session.
            if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <button type="button" className="button-secondary" onClick={() => void submit()}>
          Add directory
        </button>
      </div>
      <span id={`${id}-error`} className="field-error" role={dialog.additionalDirError ? 'alert' : undefined}>
        {dialog.additionalDirError ?? ''}
      </span>
    </fieldset>
  );
}

/**
 * The recent folders, most recent first, one button each (a datalist would make the Folder box
 * a combobox, and browsers show it only on a matching prefix).
 */
function RecentFolders({ folders, current, onPick }: { folders: readonly string[]; current: string; onPick: (path: string) => void }) {
  const others = folders.filter((f) => f !== current.trim());
  if (others.length === 0) return null;
  return (
    <ul className="recent-folders" aria-label="Recent folders">
      {others.map((f) => (
        <li key={f}>
          <button type="button" className="button-link" title={f} onClick={() => onPick(f)}>
            {f}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * New session: the agent, the folder it works in (checked by the host as it is typed; recent
 * folders offered; Browse… where the host has a folder picker), optional additional folders,
 * and the agent's own sessions where it lists them. Start stays disabled, saying why, until the
 * folder is good; nothing typed is lost meanwhile.
 */
export function NewSessionDialog() {
  const dialog = useAppStore(newSessionSelectors.dialog);
  const agents = useAppStore(sessionsSelectors.agents);
  const agentId = useAppStore(newSessionSelectors.agentId);
  const recent = useAppStore(newSessionSelectors.recentFolders);
  const blocked = useAppStore(newSessionSelectors.startBlocked);
  const problem = useAppStore(newSessionSelectors.folderProblem);
  const canPick = useAppStore(newSessionSelectors.canPickFolder);
  const close = useAppStore((s) => s.closeNewSession);
  const setAgent = useAppStore((s) => s.setNewSessionAgent);
  const setFolder = useAppStore((s) => s.setNewSessionFolder);
  const pick = useAppStore((s) => s.pickNewSessionFolder);
  const submit = useAppStore((s) => s.submitNewSession);
  const id = useId();
  const folderRef = useRef<HTMLInputElement>(null);
  const open = dialog !== undefined;

  useEffect(() => {
    if (!open) return undefined;
    // Focus moves into the dialog and back to whatever opened it (the New session button).
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    folderRef.current?.focus();
    folderRef.current?.select();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.isComposing && !e.defaultPrevented) close();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      // Back to the opener only if nothing took the focus meanwhile: a started session's message
      // box has, and typing goes there next.
      const active = document.activeElement;
      if (active === null || active === document.body) opener?.focus();
    };
  }, [open, close]);

  if (!dialog) return null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit();
  };
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div role="dialog" aria-modal="true" aria-label="New session" className="settings new-session">
        <h2>New session</h2>
        <form onSubmit={onSubmit} noValidate>
          <label className="field">
            <span className="field-label">Agent</span>
            <select value={agentId ?? ''} onChange={(e) => setAgent(e.target.value)}>
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-folder`}>
              Folder
            </label>
            <div className="row">
              <input
                id={`${id}-folder`}
                ref={folderRef}
                type="text"
                autoComplete="off"
                spellCheck={false}
                aria-invalid={problem !== undefined}
                aria-describedby={`${id}-folder-status`}
                value={dialog.folder}
                onChange={(e) => setFolder(e.target.value)}
              />
              {canPick ? (
                <button type="button" className="button-secondary" onClick={() => void pick()}>
                  Browse…
                </button>
              ) : null}
            </div>
            <span id={`${id}-folder-status`} className={problem ? 'field-error' : 'field-hint'} role={problem ? 'alert' : undefined}>
              {problem ?? (dialog.check.state === 'checking' ? 'Checking…' : 'The agent works in this folder.')}
            </span>
            <RecentFolders folders={recent} current={dialog.folder} onPick={setFolder} />
          </div>
          <WorktreeFields />
          <AdditionalDirs />
          <div className="form-actions">
            <span className="muted small">{blocked && !problem ? blocked : ''}</span>
            <span className="spacer" />
            <button type="button" className="button-secondary" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="button-primary" disabled={blocked !== undefined} title={blocked}>
              Start
            </button>
          </div>
        </form>
        <ListedSessions />
      </div>
    </div>
  );
}
