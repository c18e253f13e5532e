import { useEffect, useId, useState } from 'react';
import type { McpServerViewT, McpTestResultT, WireError } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { agentsSelectors } from '../../store/slices/catalogue/selectors';
import { mcpSelectors } from '../../store/slices/mcp/selectors';
import { FormError } from './form-error';
import { McpImport } from './mcp-import';
import { TYPE_LABELS, varsText } from './mcp-form-model';
import { McpServerForm } from './mcp-server-form';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const REASONS: Record<Extract<McpTestResultT, { ok: false }>['reason'], string> = {
  spawn_failed: 'Could not start',
  exited: 'Stopped early',
  timeout: 'No answer',
  connect_failed: 'Could not connect',
  protocol: 'Not an MCP server',
  missing_secret: 'A secret is missing',
};

/** What the last Test found: the server's tools, or why it failed. */
function TestResult({ server, result }: { server: McpServerViewT; result: McpTestResultT }) {
  if (!result.ok) {
    return (
      <div className="agent-test failed">
        <p>
          {REASONS[result.reason]} after {seconds(result.durationMs)}: {result.message}
        </p>
        {result.stderrTail.length ? <pre className="stderr">{result.stderrTail.join('\n')}</pre> : null}
      </div>
    );
  }
  return (
    <div className="agent-test">
      <p className="small">
        {[result.server?.name, result.server?.version].filter(Boolean).join(' ') || server.name} answered in {seconds(result.durationMs)} with {result.tools.length} tool
        {result.tools.length === 1 ? '' : 's'}:
      </p>
      <ul aria-label={`Tools of ${server.name}`} className="mcp-tools">
        {result.tools.map((t) => (
          <li key={t.name}>
            <code>{t.name}</code>
            {t.description ? <span className="muted"> — {t.description}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function McpEntry({ server, onEdit }: { server: McpServerViewT; onEdit: () => void }) {
  const agents = useAppStore(agentsSelectors.agents);
  const progress = useAppStore(mcpSelectors.testProgress(server.id));
  const testMcpServer = useAppStore((s) => s.testMcpServer);
  const removeMcpServer = useAppStore((s) => s.removeMcpServer);
  const setMcpEnabled = useAppStore((s) => s.setMcpEnabled);
  const [error, setError] = useState<WireError | undefined>();
  const [confirming, setConfirming] = useState(false);
  const nameId = useId();
  const run = async (action: () => Promise<WireError | undefined>) => setError(await action());
  const target = server.type === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
  const vars = server.type === 'stdio' ? server.env : server.headers;

  return (
    <li className="agent-entry" aria-labelledby={nameId}>
      <div className="agent-head">
        <strong id={nameId}>{server.name}</strong>
        <span className="badge">{TYPE_LABELS[server.type]}</span>
      </div>
      <code className="agent-command">{target}</code>
      {vars.length ? (
        <p className="muted small">
          {server.type === 'stdio' ? 'Environment' : 'Headers'}: {varsText(vars)}
        </p>
      ) : null}
      <fieldset className="mcp-agents">
        <legend className="small">Given to</legend>
        {agents.map((a) => (
          <label key={a.id} className="theme-option">
            <input type="checkbox" checked={server.agentIds.includes(a.id)} onChange={(e) => void run(() => setMcpEnabled(server.id, a.id, e.target.checked))} /> {a.name}
          </label>
        ))}
      </fieldset>
      {confirming ? (
        <div className="delete-confirm" role="group" aria-label={`Remove ${server.name}?`}>
          <span>Remove {server.name}? Sessions already running keep it until their agent restarts.</span>
          <button type="button" className="button-primary" onClick={() => void run(() => removeMcpServer(server.id))}>
            Yes, remove
          </button>
          <button type="button" className="button-secondary" autoFocus onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <div className="form-actions">
          <button type="button" className="button-secondary" onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="button-secondary" onClick={() => void run(() => testMcpServer(server.id))} disabled={progress !== undefined}>
            Test
          </button>
          <button type="button" className="button-secondary" onClick={() => setConfirming(true)}>
            Remove
          </button>
        </div>
      )}
      <div aria-live="polite">
        {progress ? (progress.step === 'starting' ? `Testing: ${server.type === 'stdio' ? 'starting the server' : 'connecting'}…` : `Testing: listing its tools (${seconds(progress.elapsedMs)})…`) : null}
      </div>
      {error ? <FormError error={error} /> : null}
      {server.lastTest && !progress ? <TestResult server={server} result={server.lastTest} /> : null}
    </li>
  );
}

/** Settings → MCP servers: the tools agents may use, added by hand or imported, given per agent. */
export function McpSection() {
  const servers = useAppStore(mcpSelectors.servers);
  const report = useAppStore(mcpSelectors.importReport);
  const loadMcpServers = useAppStore((s) => s.loadMcpServers);
  const loadAgents = useAppStore((s) => s.loadAgents);
  const scanMcpImports = useAppStore((s) => s.scanMcpImports);
  const [editing, setEditing] = useState<{ server?: McpServerViewT } | undefined>();
  const [error, setError] = useState<WireError | undefined>();
  const [scanning, setScanning] = useState(false);
  const headingId = useId();

  useEffect(() => {
    void loadMcpServers();
    void loadAgents();
  }, [loadMcpServers, loadAgents]);

  const scan = async () => {
    setScanning(true);
    setError(await scanMcpImports());
    setScanning(false);
  };

  return (
    <section aria-labelledby={headingId} className="agents-section">
      <h3 id={headingId}>MCP servers</h3>
      <p className="muted small">
        MCP servers give agents tools: a database, an issue tracker, a browser. Each new, loaded or resumed session gets the servers given to its agent; the session’s header lists
        them, and any an agent could not take.
      </p>
      {servers.length ? (
        <ul aria-label="MCP servers" className="agent-list">
          {servers.map((s) => (
            <McpEntry key={s.id} server={s} onEdit={() => setEditing({ server: s })} />
          ))}
        </ul>
      ) : (
        <p className="muted small">No MCP servers yet.</p>
      )}
      {editing ? (
        <McpServerForm key={editing.server?.id ?? 'new'} {...(editing.server ? { server: editing.server } : {})} onDone={() => setEditing(undefined)} />
      ) : report ? (
        <McpImport report={report} />
      ) : (
        <div className="form-actions">
          <button type="button" className="button-primary" onClick={() => setEditing({})}>
            Add MCP server
          </button>
          <button type="button" className="button-secondary" onClick={() => void scan()} disabled={scanning}>
            Import
          </button>
          <span aria-live="polite" className="muted small">
            {scanning ? 'Looking for servers other tools use…' : ''}
          </span>
        </div>
      )}
      {error ? <FormError error={error} /> : null}
    </section>
  );
}
