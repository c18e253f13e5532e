import { useId, useState, type FormEvent } from 'react';
import type { AgentPresetViewT, AgentViewT, AvailabilityT, SaveAgentInput, WireError } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { agentsSelectors } from '../../store/slices/catalogue/selectors';
import { FormError } from './form-error';

interface EnvRow {
  key: number;
  name: string;
  value: string;
  secret: boolean;
  /** A stored secret: an empty value keeps it. */
  stored: boolean;
}

interface Draft {
  id: string;
  name: string;
  command: string;
  args: string;
  env: EnvRow[];
  presetId: string | undefined;
}

let rowKeys = 0;
const row = (over: Partial<EnvRow> = {}): EnvRow => ({ key: ++rowKeys, name: '', value: '', secret: false, stored: false, ...over });

export function availabilityLabel(a: AvailabilityT): string {
  switch (a.status) {
    case 'installed':
      return 'Installed';
    case 'download':
      return 'Downloads on first start';
    case 'missing':
      return 'Not found';
    case 'checking':
      return 'Checking';
  }
}

/** An id from a name: what a person would type, in the characters an id allows. */
const slug = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '');

function draftOf(agent: AgentViewT | undefined): Draft {
  if (!agent) return { id: '', name: '', command: '', args: '', env: [], presetId: undefined };
  return {
    id: agent.id,
    name: agent.name,
    command: agent.command,
    args: agent.args.join('\n'),
    env: agent.env.map((e) => row({ name: e.name, value: e.value ?? '', secret: e.secret, stored: e.secret && e.set })),
    presetId: agent.presetId,
  };
}

/** The request the host validates; empty rows are left out, an empty stored secret is kept. */
function requestOf(d: Draft, create: boolean): SaveAgentInput {
  const env = d.env
    .filter((r) => r.name.trim() !== '' && !(r.secret && r.value === '' && !r.stored))
    .map((r) => (r.secret && r.value === '' ? { name: r.name.trim(), secret: true } : { name: r.name.trim(), value: r.value, secret: r.secret }));
  return {
    id: d.id.trim() || slug(d.name),
    name: d.name,
    command: d.command,
    args: d.args.split('\n').filter((a) => a !== ''),
    env,
    ...(d.presetId ? { presetId: d.presetId } : {}),
    create,
  };
}

function fromPreset(p: AgentPresetViewT, launchIndex: number): Draft {
  const launch = p.launches[launchIndex] ?? p.launches[0];
  return {
    id: p.id,
    name: p.name,
    command: launch?.command ?? '',
    args: (launch?.args ?? []).join('\n'),
    env: p.envHints.map((e) => row({ name: e.name, secret: e.secret })),
    presetId: p.id,
  };
}

/** Add (from a preset or by hand) or edit one agent. */
export function AgentForm({ agent, onDone }: { agent?: AgentViewT; onDone: () => void }) {
  const presets = useAppStore(agentsSelectors.presets);
  const saveAgent = useAppStore((s) => s.saveAgent);
  const formId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(agent));
  const [error, setError] = useState<WireError | undefined>();
  const [saving, setSaving] = useState(false);
  const create = agent === undefined;
  const preset = presets.find((p) => p.id === draft.presetId);

  const change = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const changeRow = (key: number, patch: Partial<EnvRow>) =>
    setDraft((d) => ({ ...d, env: d.env.map((r) => (r.key === key ? { ...r, ...patch } : r)) }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setError(undefined);
    const result = await saveAgent(requestOf(draft, create));
    setSaving(false);
    if (result) setError(result);
    else onDone();
  };

  return (
    <form className="agent-form" aria-label={create ? 'Add agent' : `Edit ${agent.name}`} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h4>{create ? 'Add agent' : `Edit ${agent.name}`}</h4>
      {create ? (
        <label className="field">
          <span className="field-label">Start from</span>
          <select
            value=""
            onChange={(e) => {
              const [id, index] = e.target.value.split('#');
              const p = presets.find((x) => x.id === id);
              if (p) setDraft(fromPreset(p, Number(index)));
            }}
          >
            <option value="">{draft.presetId ? `Preset: ${preset?.name ?? draft.presetId}` : 'By hand'}</option>
            {presets.map((p) =>
              p.launches.map((l, i) => (
                <option key={`${p.id}#${i}`} value={`${p.id}#${i}`}>
                  {`${p.name}: ${[l.command, ...l.args].join(' ')} (${availabilityLabel(l.availability)})`}
                </option>
              )),
            )}
          </select>
        </label>
      ) : null}
      {preset ? (
        <div className="muted small">
          <p>{preset.description}</p>
          <p>Install: <code>{preset.install}</code></p>
          {preset.hints.map((h) => (
            <p key={h}>{h}</p>
          ))}
        </div>
      ) : null}
      <label className="field">
        <span className="field-label">Name</span>
        <input type="text" value={draft.name} onChange={(e) => change({ name: e.target.value })} />
      </label>
      {create ? (
        <label className="field">
          <span className="field-label">Id</span>
          <input type="text" value={draft.id} placeholder={slug(draft.name)} onChange={(e) => change({ id: e.target.value })} />
        </label>
      ) : null}
      <label className="field">
        <span className="field-label">Command</span>
        <input type="text" value={draft.command} spellCheck={false} onChange={(e) => change({ command: e.target.value })} />
      </label>
      <div className="field">
        <label className="field-label" htmlFor={`${formId}-args`}>
          Arguments
        </label>
        <textarea
          id={`${formId}-args`}
          aria-describedby={`${formId}-args-hint`}
          rows={3}
          spellCheck={false}
          value={draft.args}
          onChange={(e) => change({ args: e.target.value })}
        />
        <span className="field-hint" id={`${formId}-args-hint`}>
          One argument per line; no shell, so no quoting.
        </span>
      </div>
      <fieldset className="env-rows">
        <legend>Environment</legend>
        {draft.env.map((r, i) => (
          <div key={r.key} className="env-row">
            <input aria-label={`Variable ${i + 1} name`} type="text" spellCheck={false} value={r.name} onChange={(e) => changeRow(r.key, { name: e.target.value })} />
            <input
              aria-label={`Variable ${i + 1} value`}
              type={r.secret ? 'password' : 'text'}
              autoComplete="off"
              placeholder={r.stored ? 'set (leave empty to keep)' : ''}
              value={r.value}
              onChange={(e) => changeRow(r.key, { value: e.target.value })}
            />
            <label>
              <input type="checkbox" checked={r.secret} onChange={(e) => changeRow(r.key, { secret: e.target.checked, stored: false })} /> Secret
            </label>
            <button type="button" className="button-secondary" aria-label={`Remove variable ${i + 1}`} onClick={() => change({ env: draft.env.filter((x) => x.key !== r.key) })}>
              ×
            </button>
          </div>
        ))}
        <button type="button" className="button-secondary" onClick={() => change({ env: [...draft.env, row()] })}>
          Add variable
        </button>
        <span className="field-hint">Secret values are stored encrypted where the system allows, never shown again and never logged.</span>
      </fieldset>
      {error ? <FormError error={error} /> : null}
      <div className="form-actions">
        <span className="spacer" />
        <button type="button" className="button-secondary" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button-primary" disabled={saving}>
          Save agent
        </button>
      </div>
    </form>
  );
}
