import type { ReactNode } from 'react';
import type { ElicitationFieldT, ElicitationFormT } from '../../../../shared/elicitation';

/** What the form's inputs hold: text boxes text, check boxes booleans, multi-selects lists. */
export type FormInputs = Record<string, string | boolean | string[]>;

/** Radio buttons for a few choices, a select for more. */
const RADIO_MAX = 5;

const TEXT_INPUT_TYPE = { email: 'email', uri: 'url', date: 'date', 'date-time': 'text' } as const;
const PLACEHOLDER: Partial<Record<string, string>> = { 'date-time': 'YYYY-MM-DDTHH:MM:SSZ', uri: 'https://…' };

interface FieldProps<F extends ElicitationFieldT> {
  field: F;
  id: string;
  value: string | boolean | string[] | undefined;
  onChange(value: string | boolean | string[]): void;
  disabled: boolean;
  /** Ids of the description and error, for `aria-describedby`. */
  describedBy: string | undefined;
  invalid: boolean;
}

function Required({ field }: { field: ElicitationFieldT }) {
  // The star is for the eye; `required` on the input says it to a screen reader.
  return field.required ? (
    <span className="required-mark" aria-hidden="true">
      {' '}
      *
    </span>
  ) : null;
}

function TextInput({ field, id, value, onChange, disabled, describedBy, invalid }: FieldProps<Extract<ElicitationFieldT, { kind: 'text' | 'number' }>>) {
  const type = field.kind === 'number' ? 'number' : field.secret ? 'password' : field.format ? TEXT_INPUT_TYPE[field.format] : 'text';
  return (
    <>
      <label htmlFor={id}>
        {field.label}
        <Required field={field} />
      </label>
      <input
        id={id}
        name={field.name}
        type={type}
        value={typeof value === 'string' ? value : ''}
        required={field.required}
        aria-required={field.required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        disabled={disabled}
        autoComplete={field.kind === 'text' && field.secret ? 'off' : undefined}
        placeholder={field.kind === 'text' && field.format ? PLACEHOLDER[field.format] : undefined}
        {...(field.kind === 'number'
          ? { min: field.minimum, max: field.maximum, step: field.integer ? 1 : 'any', inputMode: field.integer ? ('numeric' as const) : ('decimal' as const) }
          : { minLength: field.minLength, maxLength: field.maxLength })}
        onChange={(e) => onChange(e.target.value)}
      />
    </>
  );
}

function ChoiceInput({ field, id, value, onChange, disabled, describedBy, invalid }: FieldProps<Extract<ElicitationFieldT, { kind: 'choice' }>>) {
  const chosen = typeof value === 'string' ? value : '';
  if (field.options.length > RADIO_MAX) {
    return (
      <>
        <label htmlFor={id}>
          {field.label}
          <Required field={field} />
        </label>
        <select id={id} name={field.name} value={chosen} required={field.required} aria-invalid={invalid || undefined} aria-describedby={describedBy} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose…</option>
          {field.options.map((o) => (
            <option key={o.value} value={o.value} title={o.description}>
              {o.label}
            </option>
          ))}
        </select>
      </>
    );
  }
  return (
    <fieldset id={id} aria-invalid={invalid || undefined} aria-describedby={describedBy} disabled={disabled}>
      <legend>
        {field.label}
        <Required field={field} />
      </legend>
      {field.options.map((o) => (
        <label key={o.value} className="question-option">
          <input type="radio" name={`${id}-${field.name}`} value={o.value} checked={chosen === o.value} required={field.required} onChange={() => onChange(o.value)} />
          {o.label}
          {o.description ? <span className="muted small"> — {o.description}</span> : null}
        </label>
      ))}
    </fieldset>
  );
}

function MultiChoiceInput({ field, id, value, onChange, disabled, describedBy, invalid }: FieldProps<Extract<ElicitationFieldT, { kind: 'multi_choice' }>>) {
  const chosen = Array.isArray(value) ? value : [];
  const toggle = (option: string, on: boolean) => onChange(on ? field.options.map((o) => o.value).filter((v) => v === option || chosen.includes(v)) : chosen.filter((v) => v !== option));
  return (
    <fieldset id={id} aria-invalid={invalid || undefined} aria-describedby={describedBy} disabled={disabled}>
      <legend>
        {field.label}
        <Required field={field} />
      </legend>
      {field.options.map((o) => (
        <label key={o.value} className="question-option">
          <input type="checkbox" name={field.name} value={o.value} checked={chosen.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} />
          {o.label}
          {o.description ? <span className="muted small"> — {o.description}</span> : null}
        </label>
      ))}
    </fieldset>
  );
}

function BooleanInput({ field, id, value, onChange, disabled, describedBy, invalid }: FieldProps<Extract<ElicitationFieldT, { kind: 'boolean' }>>) {
  return (
    <label className="question-option" htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        name={field.name}
        checked={value === true}
        required={field.required}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      {field.label}
      <Required field={field} />
    </label>
  );
}

function Input(props: FieldProps<ElicitationFieldT>): ReactNode {
  const { field } = props;
  switch (field.kind) {
    case 'text':
    case 'number':
      return <TextInput {...props} field={field} />;
    case 'choice':
      return <ChoiceInput {...props} field={field} />;
    case 'multi_choice':
      return <MultiChoiceInput {...props} field={field} />;
    case 'boolean':
      return <BooleanInput {...props} field={field} />;
  }
}

/** The id of a field's input (its first control), so a refused answer can move the focus there. */
export const fieldId = (prefix: string, name: string): string => `${prefix}-field-${name}`;

/**
 * A question's form, one control per field, each labelled by the field's title, its
 * description and (once refused) the reason beside it, both read out with the control. The
 * checking is the caller's (`validateAnswer`), so the host and the window say the same.
 */
export function QuestionForm({
  form,
  idPrefix,
  values,
  errors,
  disabled,
  onChange,
}: {
  form: ElicitationFormT;
  idPrefix: string;
  values: FormInputs;
  errors: Readonly<Record<string, string>>;
  disabled: boolean;
  onChange(name: string, value: string | boolean | string[]): void;
}) {
  return (
    <div className="question-fields">
      {form.fields.map((field) => {
        const id = fieldId(idPrefix, field.name);
        const descId = field.description ? `${id}-desc` : undefined;
        const error = errors[field.name];
        const errorId = error ? `${id}-error` : undefined;
        const describedBy = [descId, errorId].filter(Boolean).join(' ') || undefined;
        return (
          <div key={field.name} className={`question-field question-field-${field.kind}`}>
            <Input field={field} id={id} value={values[field.name]} onChange={(v) => onChange(field.name, v)} disabled={disabled} describedBy={describedBy} invalid={error !== undefined} />
            {field.description ? (
              <p id={descId} className="muted small question-field-desc">
                {field.description}
              </p>
            ) : null}
            {error ? (
              <p id={errorId} className="field-error">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
