import { useState } from 'react';
import type { AuthMethodView } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { SignInMethods } from '../sign-in/sign-in-methods';

type Attempt = { status: 'running' } | { status: 'done' | 'failed'; message: string };

/**
 * The agent's sign-in methods on its Settings entry (issue 11: shown where the person is),
 * with the same controls as a session's sign-in panel; the host runs each on a probe of the
 * agent that it tears down after.
 */
export function AgentSignIn({ agentId, methods }: { agentId: string; methods: readonly AuthMethodView[] }) {
  const signInAgent = useAppStore((s) => s.signInAgent);
  const signInAgentInTerminal = useAppStore((s) => s.signInAgentInTerminal);
  const canOpenTerminal = useAppStore((s) => s.hostInfo?.canOpenTerminal ?? false);
  const [attempt, setAttempt] = useState<Attempt | undefined>();
  const busy = attempt?.status === 'running';
  const run = async (methodId: string, value?: string) => {
    setAttempt({ status: 'running' });
    const res = await signInAgent(agentId, methodId, value);
    setAttempt(res.ok ? { status: 'done', message: res.message } : { status: 'failed', message: res.error.message });
  };
  return (
    <div className="agent-sign-in">
      <SignInMethods
        methods={methods}
        busy={busy}
        idPrefix={agentId}
        envSubmitLabel="Save for this agent"
        terminalNote="Run this in a terminal, then press Test:"
        onSignIn={(methodId, value) => void run(methodId, value)}
        {...(canOpenTerminal
          ? {
              onRunInTerminal: (methodId: string) => {
                setAttempt({ status: 'running' });
                void signInAgentInTerminal(agentId, methodId).then((error) =>
                  setAttempt(error ? { status: 'failed', message: error.message } : { status: 'done', message: 'Opened in a terminal: sign in there, then press Test.' }),
                );
              },
            }
          : {})}
      />
      <p role="status" className={`sign-in-status${attempt?.status === 'failed' ? ' failed' : ''}`}>
        {attempt?.status === 'running' ? 'Signing in: starting the agent…' : (attempt?.message ?? '')}
      </p>
    </div>
  );
}
