import { useRef } from 'react';
import { describeKeys, isMac, SCOPE_TITLES, SHORTCUTS, type ShortcutScope } from '../../lib/shortcuts';
import { ModalDialog } from '../overlay/modal-dialog';

const SCOPES = Object.keys(SCOPE_TITLES) as ShortcutScope[];

/**
 * `?` or the Keyboard shortcuts button: every shortcut, read from the same table the handlers
 * use, one table per place where the keys work.
 */
export function ShortcutsSheet({ onClose }: { onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const mac = isMac(typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent);
  return (
    <ModalDialog labelledBy="shortcuts-heading" className="shortcuts-sheet" onClose={onClose} initialFocus={closeButton}>
      <h2 id="shortcuts-heading">Keyboard shortcuts</h2>
      {SCOPES.map((scope) => (
        <table key={scope}>
          <caption>{SCOPE_TITLES[scope]}</caption>
          <tbody>
            {SHORTCUTS.filter((s) => s.scope === scope).map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.description}</th>
                <td>
                  {describeKeys(s, mac).map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      <p className="muted small">Shortcuts with Ctrl or ⌘ also work while you type; ? only outside text fields. Tab and Shift+Tab reach every control.</p>
      <button ref={closeButton} type="button" className="button-secondary" onClick={onClose}>
        Close
      </button>
    </ModalDialog>
  );
}
