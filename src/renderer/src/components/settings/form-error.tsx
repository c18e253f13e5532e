import type { WireError } from '../../../../shared/contract';

/** The fields the host refused, if it named them. */
function issuesOf(error: WireError): string[] {
  return (error.details?.issues ?? []).map((d) => {
    const path = d.path.join('.');
    return path ? `${path}: ${d.message}` : d.message;
  });
}

/** A refused request, with the fields the host named. */
export function FormError({ error }: { error: WireError }) {
  const issues = issuesOf(error);
  return (
    <div className="form-error" role="alert">
      <p>{error.message}</p>
      {issues.length > 0 ? (
        <ul>
          {issues.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A settings form's end: its refusal, if any, "Saved" once saved, and its Save button (`label`, a secondary one for a form inside a section). */
export function SaveActions({
  error,
  saved,
  saving,
  label = 'Save',
  secondary = false,
}: {
  error: WireError | undefined;
  saved: boolean;
  saving: boolean;
  label?: string;
  secondary?: boolean;
}) {
  return (
    <>
      {error ? <FormError error={error} /> : null}
      <div className="form-actions">
        <span className="muted small" aria-live="polite">
          {saved ? 'Saved' : ''}
        </span>
        <span className="spacer" />
        <button type="submit" className={secondary ? 'button-secondary' : 'button-primary'} disabled={saving}>
          {label}
        </button>
      </div>
    </>
  );
}
