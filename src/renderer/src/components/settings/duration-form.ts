/**
 * The duration settings of a Settings section as a form: each field's text in a person's terms,
 * checked on leaving it and on Save; only what all checks pass goes to the host (in ms).
 */
import { useEffect, useState, type RefObject } from 'react';
import type { SettingsT } from '../../../../shared/contract';
import { formatDuration, parseDuration, type DurationRules } from '../../lib/duration';

export type DurationKey = 'idleTimeoutMs' | 'reapIntervalMs' | 'permissionTimeoutMs';

export interface DurationSpec {
  key: DurationKey;
  label: string;
  hint: string;
  rules: DurationRules;
}

/** Every duration setting: its name, what it changes, what it accepts. */
export const DURATIONS: Record<DurationKey, DurationSpec> = {
  idleTimeoutMs: {
    key: 'idleTimeoutMs',
    label: 'Idle timeout',
    hint: 'A session no window shows is put to sleep after this long without activity: its agent stops, and your next message wakes it. Off keeps such sessions running.',
    rules: { allowOff: true, minMs: 60_000 },
  },
  reapIntervalMs: {
    key: 'reapIntervalMs',
    label: 'Check for idle sessions every',
    hint: 'How often Switchboard looks for sessions to put to sleep. Off stops looking.',
    rules: { allowOff: true, minMs: 1_000 },
  },
  permissionTimeoutMs: {
    key: 'permissionTimeoutMs',
    label: 'Permission timeout',
    hint: 'When no window shows a session, an agent’s request for permission there is denied after this long (a window showing it keeps the request open).',
    rules: { minMs: 0 },
  },
};

/** The text a field starts with: the setting in minutes and seconds ("off" where 0 turns it off). */
export function durationText(spec: DurationSpec, ms: number | undefined): string {
  return ms === undefined ? '' : formatDuration(ms, spec.rules.allowOff ? 'off' : undefined);
}

/** Checks every field: the values in ms, or each refused field's reason. */
export function checkDurations(specs: readonly DurationSpec[], texts: Record<string, string>): { values: Partial<SettingsT>; errors: Partial<Record<DurationKey, string>> } {
  const values: Partial<SettingsT> = {};
  const errors: Partial<Record<DurationKey, string>> = {};
  for (const spec of specs) {
    const parsed = parseDuration(texts[spec.key] ?? '', spec.rules);
    if (parsed.ok) values[spec.key] = parsed.ms;
    else errors[spec.key] = parsed.message;
  }
  return { values, errors };
}

/**
 * A section's duration fields: text, per-field errors, a check on blur, and the values for Save.
 * `form` is the section's form: after a refused Save the first refused field in it takes the focus.
 */
export type DurationFields = ReturnType<typeof useDurationFields>;

export function useDurationFields(specs: readonly DurationSpec[], settings: SettingsT | undefined, form: RefObject<HTMLFormElement | null>) {
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(specs.map((s) => [s.key, durationText(s, settings?.[s.key])])));
  const [errors, setErrors] = useState<Partial<Record<DurationKey, string>>>({});
  // Each refused Save moves the focus to the first refused field, once its reason is shown.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals, form]);
  return {
    texts,
    errors,
    change(key: DurationKey, text: string) {
      setTexts((t) => ({ ...t, [key]: text }));
      setErrors(({ [key]: _dropped, ...rest }) => rest);
    },
    blur(key: DurationKey) {
      const spec = specs.find((s) => s.key === key);
      if (!spec) return;
      const parsed = parseDuration(texts[key] ?? '', spec.rules);
      if (!parsed.ok) setErrors((e) => ({ ...e, [key]: parsed.message }));
    },
    /** On Save: the values, or undefined (every refused field then says why, the first takes the focus). */
    check(): Partial<SettingsT> | undefined {
      const result = checkDurations(specs, texts);
      setErrors(result.errors);
      if (Object.keys(result.errors).length === 0) return result.values;
      setRefusals((n) => n + 1);
      return undefined;
    },
    /** After the host saved: the fields show what is stored, in the same words. */
    reset(saved: SettingsT) {
      setTexts(Object.fromEntries(specs.map((s) => [s.key, durationText(s, saved[s.key])])));
    },
  };
}
