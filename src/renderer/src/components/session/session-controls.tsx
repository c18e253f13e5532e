import { currentSkip, headerControls, type ControlChoice, type HeaderControl, type PermissionSkip } from '../../../../shared/contract';
import { sessionUsageText } from '../../lib/usage-format';
import { useAppStore } from '../../store/context';

/** How a choice that lets the agent act without asking is marked, in the list and beside it. */
const SKIP_LABEL: Record<PermissionSkip, string> = {
  all: 'skips all permission prompts',
  some: 'approves some actions without asking',
};

function choiceText(choice: ControlChoice): string {
  return choice.skip ? `⚠ ${choice.name} (${SKIP_LABEL[choice.skip]})` : choice.name;
}

function SelectControl({ control, value, busy, onChange }: { control: Extract<HeaderControl, { kind: 'select' }>; value: string; busy: boolean; onChange: (v: string) => void }) {
  const groups = new Map<string | undefined, ControlChoice[]>();
  for (const choice of control.choices) groups.set(choice.group, [...(groups.get(choice.group) ?? []), choice]);
  // An agent may report a current value it does not list: shown, not silently replaced.
  const listed = control.choices.some((c) => c.value === value);
  const options = (choices: ControlChoice[]) =>
    choices.map((c) => (
      <option key={c.value} value={c.value} title={c.description}>
        {choiceText(c)}
      </option>
    ));
  const current = control.choices.find((c) => c.value === value);
  return (
    <label className="session-control">
      <span className="session-control-label">{control.label}</span>
      {/* Sized to its label; the title says it whole where the header is narrower still. */}
      <select aria-label={control.label} title={current ? choiceText(current) : value} value={value} disabled={busy} aria-busy={busy} onChange={(e) => onChange(e.target.value)}>
        {listed ? null : <option value={value}>{value}</option>}
        {[...groups.entries()].map(([group, choices]) =>
          group === undefined ? (
            options(choices)
          ) : (
            <optgroup key={group} label={group}>
              {options(choices)}
            </optgroup>
          ),
        )}
      </select>
    </label>
  );
}

/**
 * The session's modes, models and options as the agent named them, its usage, and a warning
 * while it runs in a mode that acts without asking. Rendered inside the session header.
 */
export function SessionControlsBar({ sessionId, agentName }: { sessionId: string; agentName: string }) {
  const controls = useAppStore((s) => s.controlsById.get(sessionId));
  const pending = useAppStore((s) => s.pendingControls);
  const error = useAppStore((s) => (s.controlError?.sessionId === sessionId ? s.controlError : undefined));
  const configure = useAppStore((s) => s.configureSession);
  const dismiss = useAppStore((s) => s.dismissControlError);
  const list = headerControls(controls);
  const skip = currentSkip(controls);
  const usage = sessionUsageText(controls?.usage);
  if (list.length === 0 && !usage && !error) return null;
  return (
    <div className="session-controls">
      {list.map((control) => {
        const change = pending.find((p) => p.sessionId === sessionId && p.key === control.key);
        if (control.kind === 'boolean') {
          const checked = typeof change?.value === 'boolean' ? change.value : control.value;
          return (
            <label key={control.key} className="session-control">
              <input
                type="checkbox"
                checked={checked}
                disabled={change !== undefined}
                onChange={(e) => void configure(sessionId, control, e.target.checked)}
              />
              <span className="session-control-label">{control.label}</span>
            </label>
          );
        }
        const value = typeof change?.value === 'string' ? change.value : control.value;
        return <SelectControl key={control.key} control={control} value={value} busy={change !== undefined} onChange={(v) => void configure(sessionId, control, v)} />;
      })}
      {skip ? (
        <p className={`mode-warning mode-warning-${skip.skip}`} role="status">
          ⚠ {skip.name}: {agentName} {skip.skip === 'all' ? 'runs every tool without asking you' : 'approves some actions without asking you'}
        </p>
      ) : null}
      {usage ? (
        <p className="session-usage" aria-label="Session usage">
          {usage}
        </p>
      ) : null}
      {error ? (
        <p className="control-error" role="alert">
          Could not change {error.label}: {error.message}{' '}
          <button type="button" className="link-button" onClick={dismiss}>
            Dismiss
          </button>
        </p>
      ) : null}
    </div>
  );
}
