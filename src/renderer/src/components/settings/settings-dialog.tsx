import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { ModalDialog } from '../overlay/modal-dialog';
import { SETTINGS_SECTIONS, tabAfterKey } from './settings-sections';

/**
 * Settings: a list of sections at the side (a vertical tab list, arrow keys between them) and
 * the chosen section's panel, in the shared modal dialog: focus moves to the chosen tab when it
 * opens, stays inside while it is open (Tab wraps), and returns to what opened it; Escape or
 * Done closes it.
 */
export function SettingsDialog({ onClose, initialSection }: { onClose: () => void; initialSection?: string }) {
  const [current, setCurrent] = useState(() => Math.max(0, SETTINGS_SECTIONS.findIndex((s) => s.id === initialSection)));
  const baseId = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const firstTab = useRef<HTMLButtonElement | null>(null);

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
  const section = SETTINGS_SECTIONS[current] ?? SETTINGS_SECTIONS[0]!;
  const tabId = (id: string) => `${baseId}-tab-${id}`;
  const panelId = (id: string) => `${baseId}-panel-${id}`;
  return (
    <ModalDialog labelledBy={`${baseId}-title`} className="settings" onClose={onClose} initialFocus={firstTab}>
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
                  if (i === current) firstTab.current = el;
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
    </ModalDialog>
  );
}
