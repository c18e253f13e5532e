import { useState, type FormEvent } from 'react';
import type { AuthMethodView, SessionViewT } from '../../../shared/contract';
import { useAppStore } from '../store/context';
import { sessionsSelectors } from '../store/slices/sessions/selectors';

function EnvVarForm({ sessionId, method, busy }: { sessionId: string; method: AuthMethodView; busy: boolean }) {
  const authenticate = useAppStore((s) => s.authenticate);
  const [value, setValue] = useState(method.envVar === 'IS_SANDBOX' ? '1' : '');
  const inputId = `env-${sessionId}-${method.id}`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value) void authenticate(sessionId, method.id, value);
  };
  return (
    <form className="sign-in-env" onSubmit={submit}>
      <label htmlFor={inputId}>{method.envVar}</label>
      <input id={inputId} type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="submit" className="button-primary" disabled={busy || !value}>
        Save and restart the agent
      </button>
    </form>
  );
}

function TerminalCommand({ sessionId, method }: { sessionId: string; method: AuthMethodView }) {
  const [copied, setCopied] = useState(false);
  const canOpen = useAppStore((s) => s.hostInfo?.canOpenTerminal ?? false);
  const openLoginTerminal = useAppStore((s) => s.openLoginTerminal);
  const command = method.command ?? '';
  return (
    <div className="sign-in-terminal">
      <p className="small">Run this in a terminal, then press Retry:</p>
      <code className="sign-in-command">{command}</code>
      <button
        type="button"
        className="button-secondary"
        onClick={() => {
          void navigator.clipboard?.writeText(command).then(() => setCopied(true), () => setCopied(false));
        }}
      >
        {copied ? 'Copied' : 'Copy command'}
      </button>
      {canOpen ? (
        <button type="button" className="button-primary" onClick={() => void openLoginTerminal(sessionId, method.id)}>
          Run in a terminal
        </button>
      ) : null}
    </div>
  );
}

function MethodRow({ session, method, busy }: { session: SessionViewT; method: AuthMethodView; busy: boolean }) {
  const authenticate = useAppStore((s) => s.authenticate);
  return (
    <li className="sign-in-method">
      <strong>{method.name}</strong>
      {method.description ? <p className="small muted">{method.description}</p> : null}
      {method.kind === 'agent' ? (
        <button type="button" className="button-primary" disabled={busy} onClick={() => void authenticate(session.id, method.id)}>
          {method.name}
        </button>
      ) : method.kind === 'env_var' ? (
        <EnvVarForm sessionId={session.id} method={method} busy={busy} />
      ) : (
        <TerminalCommand sessionId={session.id} method={method} />
      )}
    </li>
  );
}

/**
 * Where the person is: the agent asked for sign-in (its own words, its methods) or never
 * started (what helps: Retry, or the agent's command). Hidden for a session that runs.
 */
export function SignInPanel() {
  const session = useAppStore(sessionsSelectors.currentSession);
  const attempt = useAppStore((s) => s.signIn);
  const retrySession = useAppStore((s) => s.retrySession);
  if (!session) return null;
  const failed = sessionsSelectors.failedStart(session);
  if (!session.auth && !failed) return null;
  const mine = attempt?.sessionId === session.id ? attempt : undefined;
  const busy = mine?.status === 'running';
  return (
    <section className="sign-in-panel" aria-label={session.auth ? 'Sign in' : 'The agent could not start'}>
      {session.auth ? (
        <>
          <h2>Sign in to continue</h2>
          <p className="sign-in-message">{session.auth.message}</p>
          {session.auth.hint ? <p className="sign-in-hint">{session.auth.hint}</p> : null}
          <ul className="sign-in-methods">
            {session.auth.methods.map((m) => (
              <MethodRow key={m.id} session={session} method={m} busy={busy} />
            ))}
          </ul>
        </>
      ) : (
        <>
          <h2>The agent could not start</h2>
          <p>{sessionsSelectors.reasonText(session.stateReason ?? 'start_failed')}.</p>
        </>
      )}
      <p role="status" className="sign-in-status">
        {busy ? 'Signing in…' : mine?.message ?? ''}
      </p>
      {failed ? (
        <button type="button" className="button-secondary" disabled={busy} onClick={() => void retrySession(session.id)}>
          Retry
        </button>
      ) : null}
    </section>
  );
}
