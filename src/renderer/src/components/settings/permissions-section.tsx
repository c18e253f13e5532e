import { useRef, useState, type FormEvent } from 'react';
import type { WireError } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { hostSelectors } from '../../store/slices/host/selectors';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { SpecDurationField } from './duration-field';
import { DURATIONS, useDurationFields } from './duration-form';
import { SaveActions } from './form-error';
import { RulesList } from './rules-list';

const SPECS = [DURATIONS.permissionTimeoutMs];

/** Settings → Permissions: how long an unseen request waits, and the current session's remembered answers. */
export function PermissionsSection() {
  const settings = useAppStore(hostSelectors.settings);
  const session = useAppStore(sessionsSelectors.currentSession);
  const saveSettings = useAppStore((s) => s.saveSettings);
  const form = useRef<HTMLFormElement>(null);
  const durations = useDurationFields(SPECS, settings, form);
  const [error, setError] = useState<WireError | undefined>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    setError(undefined);
    const values = durations.check();
    if (!values) return;
    setSaving(true);
    const result = await saveSettings(values);
    setSaving(false);
    if (result) setError(result);
    else setSaved(true);
  };

  const spec = DURATIONS.permissionTimeoutMs;
  return (
    <div className="settings-section">
      <h3>Permissions</h3>
      <form ref={form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Permission settings">
        <SpecDurationField spec={spec} durations={durations} onEdit={() => setSaved(false)} />
        <SaveActions error={error} saved={saved} saving={saving} />
      </form>
      {session ? (
        <RulesList sessionId={session.id} sessionTitle={session.title} />
      ) : (
        <p className="muted small">Answers remembered with “always” belong to one session: open it to see and revoke them here.</p>
      )}
    </div>
  );
}
