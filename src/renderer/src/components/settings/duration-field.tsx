import { useId } from 'react';
import type { DurationFields, DurationSpec } from './duration-form';

interface DurationFieldProps {
  label: string;
  /** What the setting changes, in a sentence. */
  hint: string;
  /** The text as the person typed it ("30 min"). */
  value: string;
  /** Why the text is refused, once checked. */
  error: string | undefined;
  onChange(value: string): void;
  /** Leaving the field checks it. */
  onBlur(): void;
}

/** A duration typed in a person's terms ("30 min", "1 h 30 min", "45 s"), with what it changes and why it is refused. */
export function DurationField({ label, hint, value, error, onChange, onBlur }: DurationFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="text"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
      />
      <span className="field-hint" id={`${id}-hint`}>
        {hint}
      </span>
      {/* Always there, so a reason appearing on leaving the field never moves what is below (a click on Save would miss it). */}
      <span className="field-error" id={`${id}-error`}>
        {error ?? ''}
      </span>
    </div>
  );
}

/** One of a section's duration fields (`useDurationFields`); `onEdit` is told of every keystroke (the section's "Saved" goes). */
export function SpecDurationField({ spec, durations, onEdit }: { spec: DurationSpec; durations: DurationFields; onEdit(): void }) {
  return (
    <DurationField
      label={spec.label}
      hint={spec.hint}
      value={durations.texts[spec.key] ?? ''}
      error={durations.errors[spec.key]}
      onChange={(text) => {
        onEdit();
        durations.change(spec.key, text);
      }}
      onBlur={() => durations.blur(spec.key)}
    />
  );
}
