import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { McpServerTypeT, McpServerViewT, WireError } from '../../../../shared/contract';
import { MCP_SERVER_TYPES } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { agentsSelectors } from '../../store/slices/catalogue/selectors';
import { FormError } from './form-error';
import { TYPE_LABELS, draftOf, fieldErrors, requestOf, varRow, type McpDraft, type VarRow } from './mcp-form-model';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span className="field-error" id={id}>
      {message}
    </span>
  ) : null;
}

/** Add or edit one MCP server: a local command (stdio) with its environment, or an HTTP / SSE address with headers. */
export function McpServerForm({ server, onDone }: { server?: McpServerViewT; onDone: () => void }) {
  const agents = useAppStore(agentsSelectors.agents);
  const saveMcpServer = useAppStore((s) => s.saveMcpServer);
  const id = useId();
  const [draft, setDraft] = useState<McpDraft>(() => draftOf(server, server ? [] : agents.map((a) => a.id)));
  const [shown, setShown] = useState<Record<string, string>>({});
  const [error, setError] = useState<WireError | undefined>();
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // Each refused Save moves the focus to the first field it refused (after the errors render).
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  const create = server === undefined;
  const title = create ? 'Add MCP server' : `Edit ${server.name}`;
  const stdio = draft.type === 'stdio';
  const varWord = stdio ? 'Variable' : 'Header';

  const change = (patch: Partial<McpDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const changeRow = (key: number, patch: Partial<VarRow>) => setDraft((d) => ({ ...d, vars: d.vars.map((r) => (r.key === key ? { ...r, ...patch } : r)) }));
  // A problem shown goes away as the field is changed; the next Save checks again.
  const forget = (...keys: string[]) => setShown(({ ...rest }) => (keys.forEach((k) => delete rest[k]), rest));
  const describedBy = (key: string, hint?: string) => [hint, shown[key] ? `${id}-${key}-error` : undefined].filter(Boolean).join(' ') || undefined;
  const invalid = (key: string) => (shown[key] ? true : undefined);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    const problems = fieldErrors(draft);
    setShown(problems);
    if (Object.keys(problems).length > 0) {
      setRefusals((n) => n + 1);
      return;
    }
    setSaving(true);
    const result = await saveMcpServer(requestOf(draft));
    setSaving(false);
    if (result) setError(result);
    else onDone();
  };

  return (
    <form ref={form} className="agent-form mcp-form" aria-label={title} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h4>{title}</h4>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-type`}>
          Kind
        </label>
        <select id={`${id}-type`} aria-describedby={`${id}-type-hint`} value={draft.type} onChange={(e) => change({ type: e.target.value as McpServerTypeT })}>
          {MCP_SERVER_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </select>
        <span className="field-hint" id={`${id}-type-hint`}>
          A local command is started by the agent on your machine; HTTP and SSE servers are reached at an address, and only agents that say they can are given them.
        </span>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          Name
        </label>
        <input
          id={`${id}-name`}
          type="text"
          spellCheck={false}
          aria-invalid={invalid('name')}
          aria-describedby={describedBy('name', `${id}-name-hint`)}
          value={draft.name}
          onChange={(e) => (change({ name: e.target.value }), forget('name'))}
        />
        <span className="field-hint" id={`${id}-name-hint`}>
          What agents call it; its tools are often named after it.
        </span>
        <FieldError id={`${id}-name-error`} message={shown.name} />
      </div>
      {stdio ? (
        <>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-command`}>
              Command
            </label>
            <input
              id={`${id}-command`}
              type="text"
              spellCheck={false}
              aria-invalid={invalid('command')}
              aria-describedby={describedBy('command')}
              value={draft.command}
              onChange={(e) => (change({ command: e.target.value }), forget('command'))}
            />
            <FieldError id={`${id}-command-error`} message={shown.command} />
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-args`}>
              Arguments
            </label>
            <textarea id={`${id}-args`} aria-describedby={`${id}-args-hint`} rows={3} spellCheck={false} value={draft.args} onChange={(e) => change({ args: e.target.value })} />
            <span className="field-hint" id={`${id}-args-hint`}>
              One argument per line; no shell, so no quoting.
            </span>
          </div>
        </>
      ) : (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-url`}>
            URL
          </label>
          <input
            id={`${id}-url`}
            type="url"
            spellCheck={false}
            aria-invalid={invalid('url')}
            aria-describedby={describedBy('url')}
            value={draft.url}
            placeholder="https://"
            onChange={(e) => (change({ url: e.target.value }), forget('url'))}
          />
          <FieldError id={`${id}-url-error`} message={shown.url} />
        </div>
      )}
      <fieldset className="env-rows">
        <legend>{stdio ? 'Environment' : 'Headers'}</legend>
        {draft.vars.map((r, i) => (
          <div key={r.key} className="env-row">
            <input
              aria-label={`${varWord} ${i + 1} name`}
              type="text"
              spellCheck={false}
              aria-invalid={invalid(`var-${r.key}-name`)}
              aria-describedby={describedBy(`var-${r.key}-name`)}
              value={r.name}
              onChange={(e) => (changeRow(r.key, { name: e.target.value }), forget(`var-${r.key}-name`))}
            />
            <input
              aria-label={`${varWord} ${i + 1} value`}
              type={r.secret ? 'password' : 'text'}
              autoComplete="off"
              aria-invalid={invalid(`var-${r.key}-value`)}
              aria-describedby={describedBy(`var-${r.key}-value`)}
              placeholder={r.stored ? 'set (leave empty to keep)' : ''}
              value={r.value}
              onChange={(e) => (changeRow(r.key, { value: e.target.value }), forget(`var-${r.key}-value`))}
            />
            <label>
              <input type="checkbox" checked={r.secret} onChange={(e) => changeRow(r.key, { secret: e.target.checked, stored: false, value: e.target.checked ? r.value : '' })} /> Secret
            </label>
            <button type="button" className="button-secondary" aria-label={`Remove ${varWord.toLowerCase()} ${i + 1}`} onClick={() => change({ vars: draft.vars.filter((x) => x.key !== r.key) })}>
              ×
            </button>
            <FieldError id={`${id}-var-${r.key}-name-error`} message={shown[`var-${r.key}-name`]} />
            <FieldError id={`${id}-var-${r.key}-value-error`} message={shown[`var-${r.key}-value`]} />
          </div>
        ))}
        <button type="button" className="button-secondary" onClick={() => change({ vars: [...draft.vars, varRow({ secret: !stdio })] })}>
          {stdio ? 'Add variable' : 'Add header'}
        </button>
        <span className="field-hint">Secret values (API keys, tokens) are kept in the secret box: never shown again, never logged, never in the database. Settings shows them as “set”.</span>
      </fieldset>
      <fieldset className="mcp-agents">
        <legend>Give it to</legend>
        {agents.map((a) => (
          <label key={a.id} className="theme-option">
            <input
              type="checkbox"
              checked={draft.agentIds.includes(a.id)}
              onChange={(e) => change({ agentIds: e.target.checked ? [...draft.agentIds, a.id] : draft.agentIds.filter((x) => x !== a.id) })}
            />{' '}
            {a.name}
          </label>
        ))}
        <span className="field-hint">New, loaded and resumed sessions of these agents get it.</span>
      </fieldset>
      {shown.form ? <p className="field-error">{shown.form}</p> : null}
      {error ? <FormError error={error} /> : null}
      <div className="form-actions">
        <span className="spacer" />
        <button type="button" className="button-secondary" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button-primary" disabled={saving}>
          Save server
        </button>
      </div>
    </form>
  );
}
