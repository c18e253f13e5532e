import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { SETTINGS_SECTIONS, tabAfterKey } from './settings-sections';

/** What can take focus inside the dialog, in order (for keeping Tab inside it). */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Settings: a list of sections at the side (a vertical tab list, arrow keys between them) and
 * the chosen section's panel. Focus moves to the chosen tab when it opens, stays inside while
 * it is open (Tab wraps), and returns to what opened it; Escape or Done closes it.
 */
export function SettingsDialog({ onClose, initialSection }: { onClose: () => void; initialSection?: string }) {
  const [current, setCurrent] = useState(() => Math.max(0, SETTINGS_SECTIONS.findIndex((s) => s.id === initialSection)));
  const baseId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    // Focus moves into the dialog and back to whatever opened it (the Settings button).
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    tabs.current[current]?.focus();
    return () => opener?.focus();
    // Only when the dialog opens: later choices move the focus themselves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      // Not while an IME is composing (Escape cancels the candidate), nor if handled already.
      if (e.key === 'Escape' && !e.isComposing && !e.defaultPrevented) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const choose = (index: number) => {
    setCurrent(index);
    tabs.current[index]?.focus();
  };
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = tabAfterKey(e.key, index, SETTINGS_SECTIONS.length);
    if (next === undefined) return;
    e.preventDefault();
    choose(next);
  };
  const trapTab = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const section = SETTINGS_SECTIONS[current] ?? SETTINGS_SECTIONS[0]!;
  const tabId = (id: string) => `${baseId}-tab-${id}`;
  const panelId = (id: string) => `${baseId}-panel-${id}`;
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={dialog} role="dialog" aria-modal="true" aria-labelledby={`${baseId}-title`} className="settings" onKeyDown={trapTab}>
        <div className="settings-top">
          <h2 id={`${baseId}-title`}>Settings</h2>
          <span className="spacer" />
          <button type="button" className="button-secondary" onClick={onClose}>
            Done
          </button>
        </div>
        <div className="settings-body">
          <div role="tablist" aria-orientation="vertical" aria-label="Settings sections" className="settings-tabs">
            {SETTINGS_SECTIONS.map((s, i) => (
              <button
                key={s.id}
                ref={(el) => {
                  tabs.current[i] = el;
                }}
                type="button"
                role="tab"
                id={tabId(s.id)}
                aria-selected={i === current}
                aria-controls={panelId(s.id)}
                tabIndex={i === current ? 0 : -1}
                className="settings-tab"
                onClick={() => choose(i)}
                onKeyDown={(e) => onTabKey(e, i)}
              >
                {s.label}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={panelId(section.id)} aria-labelledby={tabId(section.id)} className="settings-panel" tabIndex={0}>
            <section.Component key={section.id} />
          </div>
        </div>
      </div>
    </div>
  );
}
