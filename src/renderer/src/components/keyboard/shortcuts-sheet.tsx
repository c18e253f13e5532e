import { useEffect, useRef } from 'react';
import { describeKeys, isMac, SHORTCUTS } from '../../lib/shortcuts';

/** `?` or the Keyboard shortcuts button: every shortcut, read from the same table the handlers use. */
export function ShortcutsSheet({ onClose }: { onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const mac = isMac(typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.isComposing) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [onClose]);
  return (
    <div className="overlay" onPointerDown={(e) => e.target === e.currentTarget && onClose()}>
      <div role="dialog" aria-modal="true" aria-labelledby="shortcuts-heading" className="shortcuts-sheet">
        <h2 id="shortcuts-heading">Keyboard shortcuts</h2>
        <table>
          <tbody>
            {SHORTCUTS.map((s) => (
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
        <p className="muted small">Shortcuts with Ctrl or ⌘ also work while you type; ? only outside text fields.</p>
        <button ref={closeButton} type="button" className="button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
