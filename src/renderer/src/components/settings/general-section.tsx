import { useId, useRef, useState, type FormEvent } from 'react';
import type { WireError } from '../../../../shared/contract';
import { THEMES, type ThemeChoice } from '../../lib/theme';
import { useAppStore } from '../../store/context';
import { hostSelectors } from '../../store/slices/host/selectors';
import { SpecDurationField } from './duration-field';
import { DURATIONS, useDurationFields } from './duration-form';
import { FormError, SaveActions } from './form-error';
import { NotificationsSetting } from '../notifications/notifications-setting';

const THEME_LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const SPECS = [DURATIONS.idleTimeoutMs, DURATIONS.reapIntervalMs];

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
      <span className="field-hint">Every window follows it; System follows your computer’s light or dark setting.</span>
      {error ? <FormError error={error} /> : null}
    </fieldset>
  );
}

/** Settings → General: the theme, when idle sessions sleep, where new sessions start, the protocol log. */
export function GeneralSection() {
  const settings = useAppStore(hostSelectors.settings);
  const saveSettings = useAppStore((s) => s.saveSettings);
  const form = useRef<HTMLFormElement>(null);
  const durations = useDurationFields(SPECS, settings, form);
  const [defaultCwd, setDefaultCwd] = useState(settings?.defaultCwd ?? '');
  const [logProtocol, setLogProtocol] = useState(settings?.logProtocol ?? false);
  const [error, setError] = useState<WireError | undefined>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const id = useId();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    setError(undefined);
    const values = durations.check();
    if (!values) return;
    setSaving(true);
    const result = await saveSettings({ ...values, defaultCwd, logProtocol });
    setSaving(false);
    if (result) setError(result);
    else setSaved(true);
  };

  return (
    <div className="settings-section">
      <h3>General</h3>
      <ThemePicker />
      <NotificationsSetting />
      <form ref={form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="General settings">
        {SPECS.map((spec) => (
          <SpecDurationField key={spec.key} spec={spec} durations={durations} onEdit={() => setSaved(false)} />
        ))}
        <div className="field">
          <label className="field-label" htmlFor={`${id}-cwd`}>
            Default working folder
          </label>
          <input id={`${id}-cwd`} type="text" aria-describedby={`${id}-cwd-hint`} value={defaultCwd} onChange={(e) => (setSaved(false), setDefaultCwd(e.target.value))} />
          <span className="field-hint" id={`${id}-cwd-hint`}>
            Where a new session starts when you do not choose a folder (Ctrl/Cmd+N, a first message).
          </span>
        </div>
        <div className="field">
          <label>
            <input type="checkbox" aria-describedby={`${id}-log-hint`} checked={logProtocol} onChange={(e) => (setSaved(false), setLogProtocol(e.target.checked))} /> Record the protocol
          </label>
          <span className="field-hint" id={`${id}-log-hint`}>
            For finding faults: every message to and from each agent goes to its Agent log, cut short and with secrets hidden.
          </span>
        </div>
        <SaveActions error={error} saved={saved} saving={saving} />
      </form>
    </div>
  );
}
