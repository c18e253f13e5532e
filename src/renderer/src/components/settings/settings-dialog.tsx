import { useId, useRef, useState, type FormEvent } from 'react';
import type { SettingsT, WireError } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { hostSelectors } from '../../store/slices/host/selectors';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { AgentsSection } from './agents-section';
import { FormError } from './form-error';
import { THEMES, type ThemeChoice } from '../../lib/theme';
import { RulesList } from './rules-list';
import { RepositoriesSection } from './repositories-section';
import { ModalDialog } from '../overlay/modal-dialog';
import { NotificationsSetting } from '../notifications/notifications-setting';
import { StorageSection } from './storage-section';

type NumberField = 'idleTimeoutMs' | 'reapIntervalMs' | 'permissionTimeoutMs';

const NUMBER_FIELDS: readonly { key: NumberField; label: string; hint: string }[] = [
  { key: 'idleTimeoutMs', label: 'Idle timeout (ms)', hint: '0 keeps idle sessions awake.' },
  { key: 'reapIntervalMs', label: 'Reap interval (ms)', hint: 'How often idle sessions are checked.' },
  { key: 'permissionTimeoutMs', label: 'Permission timeout (ms)', hint: 'Unanswered requests are rejected after this.' },
];

type Draft = Record<NumberField, string> & { defaultCwd: string };

function draftOf(s: SettingsT | undefined): Draft {
  return {
    idleTimeoutMs: String(s?.idleTimeoutMs ?? ''),
    reapIntervalMs: String(s?.reapIntervalMs ?? ''),
    permissionTimeoutMs: String(s?.permissionTimeoutMs ?? ''),
    defaultCwd: s?.defaultCwd ?? '',
  };
}

const THEME_LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** System / Light / Dark, saved (for every window) as soon as it is picked. */
export function ThemePicker() {
  const theme = useAppStore((s) => s.settings?.theme ?? 'system');
  const saveSettings = useAppStore((s) => s.saveSettings);
  const [error, setError] = useState<WireError | undefined>();
  return (
    <fieldset className="field theme-choice">
      <legend className="field-label">Theme</legend>
      {THEMES.map((t) => (
        <label key={t} className="theme-option">
          <input
            type="radio"
            name="theme"
            value={t}
            checked={theme === t}
            onChange={() => {
              void saveSettings({ theme: t }).then(setError);
            }}
          />{' '}
          {THEME_LABELS[t]}
        </label>
      ))}
      {error ? <FormError error={error} /> : null}
    </fieldset>
  );
}

export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const settings = useAppStore(hostSelectors.settings);
  const session = useAppStore(sessionsSelectors.currentSession);
  const saveSettings = useAppStore((s) => s.saveSettings);
  const formId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [error, setError] = useState<WireError | undefined>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const firstField = useRef<HTMLInputElement>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setSaved(false);
    setError(undefined);
    // The host validates; an empty or odd number goes as NaN→null and comes back as its error.
    const result = await saveSettings({
      idleTimeoutMs: Number(draft.idleTimeoutMs.trim() === '' ? NaN : draft.idleTimeoutMs),
      reapIntervalMs: Number(draft.reapIntervalMs.trim() === '' ? NaN : draft.reapIntervalMs),
      permissionTimeoutMs: Number(draft.permissionTimeoutMs.trim() === '' ? NaN : draft.permissionTimeoutMs),
      defaultCwd: draft.defaultCwd,
    });
    setSaving(false);
    if (result) setError(result);
    else setSaved(true);
  };

  const change = (key: keyof Draft, value: string) => {
    setSaved(false);
    setDraft((d) => ({ ...d, [key]: value }));
  };

  return (
    <ModalDialog label="Settings" className="settings" onClose={onClose} initialFocus={firstField}>
        <h2>Settings</h2>
        <ThemePicker />
        <NotificationsSetting />
        <form onSubmit={(e) => void onSubmit(e)} noValidate>
          {NUMBER_FIELDS.map((f, i) => (
            <div key={f.key} className="field">
              <label className="field-label" htmlFor={`${formId}-${f.key}`}>
                {f.label}
              </label>
              <input
                id={`${formId}-${f.key}`}
                aria-describedby={`${formId}-${f.key}-hint`}
                ref={i === 0 ? firstField : undefined}
                type="number"
                inputMode="numeric"
                step={1}
                value={draft[f.key]}
                onChange={(e) => change(f.key, e.target.value)}
              />
              <span className="field-hint" id={`${formId}-${f.key}-hint`}>
                {f.hint}
              </span>
            </div>
          ))}
          <label className="field">
            <span className="field-label">Default working folder</span>
            <input type="text" value={draft.defaultCwd} onChange={(e) => change('defaultCwd', e.target.value)} />
          </label>
          {error ? <FormError error={error} /> : null}
          <div className="form-actions">
            <span className="muted small" aria-live="polite">
              {saved ? 'Saved' : ''}
            </span>
            <span className="spacer" />
            <button type="button" className="button-secondary" onClick={onClose}>
              Done
            </button>
            <button type="submit" className="button-primary" disabled={saving}>
              Save
            </button>
          </div>
        </form>
        {session ? <RulesList sessionId={session.id} sessionTitle={session.title} /> : null}
        <AgentsSection />
        <RepositoriesSection />
        <StorageSection />
    </ModalDialog>
  );
}
