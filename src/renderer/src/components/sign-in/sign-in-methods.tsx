/**
 * The controls for an agent's sign-in methods, shared by the session's sign-in panel and the
 * agent's entry in Settings: `agent` → a button (the caller runs `authenticate`), `env_var` →
 * a password input named after the variable, `terminal` → the exact command with Copy (and, in
 * the desktop app, Run in a terminal).
 */
import { useState, type FormEvent } from 'react';
import type { AuthMethodView } from '../../../../shared/contract';

interface SignInMethodsProps {
  methods: readonly AuthMethodView[];
  /** A sign-in runs: every control waits. */
  busy: boolean;
  /** Makes the inputs' ids unique on the page (a session or an agent id). */
  idPrefix: string;
  /** What saving a variable does where the list is shown. */
  envSubmitLabel: string;
  /** What to do after running a terminal login there. */
  terminalNote: string;
  onSignIn(methodId: string, value?: string): void;
  /** Where the host can open a terminal (the desktop app): runs a terminal login there. */
  onRunInTerminal?: (methodId: string) => void;
}

type ControlProps = Omit<SignInMethodsProps, 'methods'> & { method: AuthMethodView };

function EnvVarForm({ idPrefix, method, busy, envSubmitLabel, onSignIn }: ControlProps) {
  const [value, setValue] = useState(method.envVar === 'IS_SANDBOX' ? '1' : '');
  const inputId = `env-${idPrefix}-${method.id}`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value) onSignIn(method.id, value);
  };
  return (
    <form className="sign-in-env" onSubmit={submit}>
      <label htmlFor={inputId}>{method.envVar}</label>
      <input id={inputId} type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="submit" className="button-primary" disabled={busy || !value}>
        {envSubmitLabel}
      </button>
    </form>
  );
}

function TerminalCommand({ method, terminalNote, onRunInTerminal }: ControlProps) {
  const [copied, setCopied] = useState(false);
  const command = method.command ?? '';
  return (
    <div className="sign-in-terminal">
      <p className="small">{terminalNote}</p>
      <code className="sign-in-command">{command}</code>
      <button
        type="button"
        className="button-secondary"
        onClick={() => {
          void navigator.clipboard?.writeText(command).then(() => setCopied(true), () => setCopied(false));
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      {onRunInTerminal ? (
        <button type="button" className="button-primary" onClick={() => onRunInTerminal(method.id)}>
          Run in a terminal
        </button>
      ) : null}
    </div>
  );
}

function MethodRow(props: ControlProps) {
  const { method, busy, onSignIn } = props;
  return (
    <li className="sign-in-method">
      <strong>{method.name}</strong>
      {method.description ? <p className="small muted">{method.description}</p> : null}
      {method.kind === 'agent' ? (
        <button type="button" className="button-primary" disabled={busy} onClick={() => onSignIn(method.id)}>
          {method.name}
        </button>
      ) : method.kind === 'env_var' ? (
        <EnvVarForm {...props} />
      ) : (
        <TerminalCommand {...props} />
      )}
    </li>
  );
}

export function SignInMethods({ methods, ...rest }: SignInMethodsProps) {
  return (
    <ul className="sign-in-methods">
      {methods.map((m) => (
        <MethodRow key={m.id} method={m} {...rest} />
      ))}
    </ul>
  );
}
