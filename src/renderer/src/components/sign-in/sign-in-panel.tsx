import { useAppStore } from '../../store/context';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';
import { SignInMethods } from './sign-in-methods';

/**
 * Where the person is: the agent asked for sign-in (its own words, its methods) or never
 * started (what helps: Retry, or the agent's command). Hidden for a session that runs.
 */
export function SignInPanel() {
  const session = useAppStore(sessionsSelectors.currentSession);
  const attempt = useAppStore((s) => s.signIn);
  const retrySession = useAppStore((s) => s.retrySession);
  const authenticate = useAppStore((s) => s.authenticate);
  const canOpenTerminal = useAppStore((s) => s.hostInfo?.canOpenTerminal ?? false);
  const openLoginTerminal = useAppStore((s) => s.openLoginTerminal);
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
          <SignInMethods
            methods={session.auth.methods}
            busy={busy}
            idPrefix={session.id}
            envSubmitLabel="Save and restart the agent"
            terminalNote="Run this in a terminal, then press Retry:"
            onSignIn={(methodId, value) => void authenticate(session.id, methodId, value)}
            {...(canOpenTerminal ? { onRunInTerminal: (methodId: string) => void openLoginTerminal(session.id, methodId) } : {})}
          />
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
