import { useEffect, useId, useState } from 'react';
import type { AgentTestResultT, AgentViewT, WireError } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { agentsSelectors } from '../../store/slices/catalogue/selectors';
import { AgentForm, availabilityLabel } from './agent-form';
import { AgentRegistry } from './agent-registry';
import { AgentSignIn } from './agent-sign-in';
import { FormError } from './form-error';
import { RegistryPanel } from './registry-panel';

const SOURCE_LABEL: Record<AgentViewT['source'], string> = {
  builtin: 'Built in',
  user: 'Added here',
  file: 'From agents.json',
};

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** What the agent said in its `initialize` answer, or why the test failed. */
function TestResult({ agentId, result }: { agentId: string; result: AgentTestResultT }) {
  if (!result.ok) {
    return (
      <div className="agent-test failed">
        <p>Test failed after {seconds(result.durationMs)}: {result.message}</p>
        {result.stderrTail.length ? <pre className="stderr">{result.stderrTail.join('\n')}</pre> : null}
      </div>
    );
  }
  const caps = Object.entries(result.capabilities ?? {}).filter(([, v]) => v !== false && v !== null);
  return (
    <dl className="agent-test">
      <dt>Agent</dt>
      <dd>{[result.agentTitle ?? result.agentName ?? 'unnamed', result.agentVersion].filter(Boolean).join(' ')}</dd>
      <dt>Protocol</dt>
      <dd>version {result.protocolVersion}</dd>
      <dt>Capabilities</dt>
      <dd>{caps.length ? caps.map(([k, v]) => (typeof v === 'object' ? `${k} ${JSON.stringify(v)}` : k)).join(', ') : 'none'}</dd>
      <dt>Sign-in methods</dt>
      <dd>
        {result.methods?.length ? (
          <AgentSignIn agentId={agentId} methods={result.methods} />
        ) : result.authMethods.length ? (
          <ul>
            {result.authMethods.map((m) => (
              <li key={m.id}>
                {m.name}
                {m.description ? <span className="muted"> — {m.description}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          'none needed'
        )}
      </dd>
      <dt>Answered in</dt>
      <dd>{seconds(result.durationMs)}</dd>
    </dl>
  );
}

function AgentEntry({ agent, onEdit }: { agent: AgentViewT; onEdit: () => void }) {
  const progress = useAppStore(agentsSelectors.testProgress(agent.id));
  const testAgent = useAppStore((s) => s.testAgent);
  const removeAgent = useAppStore((s) => s.removeAgent);
  const signOutAgent = useAppStore((s) => s.signOutAgent);
  const [error, setError] = useState<WireError | undefined>();
  const [signOut, setSignOut] = useState<'running' | { message: string } | undefined>();
  const nameId = useId();
  const run = async (action: () => Promise<WireError | undefined>) => setError(await action());

  return (
    <li className="agent-entry" aria-labelledby={nameId}>
      <div className="agent-head">
        <strong id={nameId}>{agent.name}</strong>
        <span className="badge">{SOURCE_LABEL[agent.source]}</span>
        <span className={`badge availability-${agent.availability.status}`} title={agent.availability.detail}>
          {availabilityLabel(agent.availability)}
        </span>
      </div>
      <code className="agent-command">{[agent.command, ...agent.args].join(' ')}</code>
      <p className="muted small">{agent.availability.detail}</p>
      {agent.env.length ? (
        <p className="muted small">
          Environment: {agent.env.map((e) => (e.secret ? `${e.name} (secret, ${e.set ? 'set' : 'not set'})` : e.name)).join(', ')}
        </p>
      ) : null}
      {agent.hints.map((h) => (
        <p key={h} className="hint small">
          {h}
        </p>
      ))}
      <div className="form-actions">
        <button type="button" className="button-secondary" onClick={onEdit} disabled={!agent.editable} title={agent.editable ? undefined : agent.source === 'file' ? 'Edit agents.json to change it' : 'Built in'}>
          Edit
        </button>
        <button type="button" className="button-secondary" onClick={() => void run(() => testAgent(agent.id))} disabled={progress !== undefined}>
          Test
        </button>
        {agent.canSignOut ? (
          <button
            type="button"
            className="button-secondary"
            disabled={signOut === 'running'}
            title="Ends the agent's sign-in (ACP logout), on a process of its own"
            onClick={() => {
              setSignOut('running');
              setError(undefined);
              void signOutAgent(agent.id).then((res) => {
                setSignOut(res.ok ? { message: res.message } : undefined);
                if (!res.ok) setError(res.error);
              });
            }}
          >
            Sign out
          </button>
        ) : null}
        <button
          type="button"
          className="button-secondary"
          onClick={() => void run(() => removeAgent(agent.id))}
          disabled={!agent.removable}
          title={agent.openSessions ? `${agent.openSessions} open session(s) use it` : undefined}
        >
          Remove
        </button>
      </div>
      {agent.registry ? <AgentRegistry agent={agent} info={agent.registry} /> : null}
      <div aria-live="polite">
        {progress ? (progress.step === 'spawning' ? 'Testing: starting the agent…' : `Testing: waiting for initialize (${seconds(progress.elapsedMs)})…`) : null}
        {signOut === 'running' ? 'Signing out: starting the agent…' : signOut ? signOut.message : null}
      </div>
      {error ? <FormError error={error} /> : null}
      {agent.lastTest && !progress ? <TestResult agentId={agent.id} result={agent.lastTest} /> : null}
    </li>
  );
}

/** The agent catalogue in Settings: add from a preset or by hand, edit, test, remove. */
export function AgentsSection() {
  const agents = useAppStore(agentsSelectors.agents);
  const fileError = useAppStore(agentsSelectors.fileError);
  const agentsFile = useAppStore(agentsSelectors.agentsFile);
  const loadAgents = useAppStore((s) => s.loadAgents);
  const loadPresets = useAppStore((s) => s.loadPresets);
  const [editing, setEditing] = useState<{ agent?: AgentViewT } | undefined>();
  const [adding, setAdding] = useState(false);
  const headingId = useId();

  useEffect(() => {
    void loadAgents();
    void loadPresets();
  }, [loadAgents, loadPresets]);

  return (
    <section aria-labelledby={headingId} className="agents-section">
      <h3 id={headingId}>Agents</h3>
      {fileError ? (
        <div className="form-error" role="alert">
          <p>{agentsFile || 'agents.json'} could not be imported:</p>
          <pre>{fileError}</pre>
        </div>
      ) : null}
      <ul aria-label="Agents" className="agent-list">
        {agents.map((a) => (
          <AgentEntry key={a.id} agent={a} onEdit={() => setEditing({ agent: a })} />
        ))}
      </ul>
      {editing ? (
        <AgentForm key={editing.agent?.id ?? 'new'} {...(editing.agent ? { agent: editing.agent } : {})} onDone={() => setEditing(undefined)} />
      ) : adding ? (
        <RegistryPanel onClose={() => setAdding(false)} />
      ) : (
        <div className="form-actions">
          <button type="button" className="button-primary" onClick={() => setEditing({})}>
            Add agent
          </button>
          <button type="button" className="button-secondary" onClick={() => setAdding(true)}>
            Add from registry
          </button>
          <button type="button" className="button-secondary" onClick={() => void Promise.all([loadAgents(true), loadPresets(true)])}>
            Check again
          </button>
        </div>
      )}
      <p className="muted small">
        &ldquo;Installed&rdquo;: the command is on PATH, or its pinned npm version is ready for npx offline. &ldquo;Downloads on first
        start&rdquo;: npx fetches it the first time (needs the network). Agents in {agentsFile || 'agents.json'} are imported at start.
      </p>
    </section>
  );
}
