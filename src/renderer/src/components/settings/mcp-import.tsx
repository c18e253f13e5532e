import { useId, useState } from 'react';
import type { McpImportCandidateT, McpImportReportT, McpImportSourceT } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { agentsSelectors } from '../../store/slices/catalogue/selectors';
import { FormError } from './form-error';
import { TYPE_LABELS, varsText } from './mcp-form-model';

const SOURCES: Record<McpImportSourceT, string> = { 'claude-desktop': 'Claude Desktop', 'claude-code': 'Claude Code', 'gemini-cli': 'Gemini CLI' };

function where(c: McpImportCandidateT): string {
  const source = SOURCES[c.source];
  if (c.scope === 'local') return `${source}, project ${c.project ?? ''} (your own file)`;
  if (c.scope === 'project') return `${source}, project ${c.project ?? ''}`;
  return source;
}

/** `Import`: what other tools configured (with the file each came from), chosen before anything is added. */
export function McpImport({ report }: { report: McpImportReportT }) {
  const agents = useAppStore(agentsSelectors.agents);
  const importMcpServers = useAppStore((s) => s.importMcpServers);
  const closeMcpImport = useAppStore((s) => s.closeMcpImport);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  const [agentIds, setAgentIds] = useState<string[]>(() => agents.map((a) => a.id));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ReturnType<typeof importMcpServers> extends Promise<infer R> ? R : never>();
  const headingId = useId();

  const toggle = (key: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(key);
    else next.delete(key);
    setChosen(next);
  };
  const add = async () => {
    setBusy(true);
    setResult(await importMcpServers([...chosen], agentIds));
    setBusy(false);
  };

  return (
    <section aria-labelledby={headingId} className="agent-form mcp-import">
      <h4 id={headingId}>Import MCP servers</h4>
      {report.candidates.length ? (
        <>
          <p className="muted small">Found in other tools’ settings. Choose the ones to add; secret values are copied into Switchboard’s secret box, never shown.</p>
          <ul aria-label="Servers found" className="agent-list">
            {report.candidates.map((c) => {
              const vars = c.server.type === 'stdio' ? c.server.env : c.server.headers;
              return (
                <li key={c.key} className="agent-entry">
                  <label>
                    <input type="checkbox" checked={chosen.has(c.key)} onChange={(e) => toggle(c.key, e.target.checked)} /> <strong>{c.server.name}</strong>{' '}
                    <span className="badge">{TYPE_LABELS[c.server.type]}</span>
                  </label>
                  <code className="agent-command">{c.server.type === 'stdio' ? [c.server.command, ...c.server.args].join(' ') : c.server.url}</code>
                  <p className="muted small">
                    From {where(c)}: <code>{c.file}</code>
                  </p>
                  {vars.length ? <p className="muted small">{varsText(vars)}</p> : null}
                  {c.warnings.map((w) => (
                    <p key={w} className="hint small">
                      {w}
                    </p>
                  ))}
                </li>
              );
            })}
          </ul>
          <fieldset className="mcp-agents">
            <legend>Give them to</legend>
            {agents.map((a) => (
              <label key={a.id} className="theme-option">
                <input type="checkbox" checked={agentIds.includes(a.id)} onChange={(e) => setAgentIds(e.target.checked ? [...agentIds, a.id] : agentIds.filter((x) => x !== a.id))} /> {a.name}
              </label>
            ))}
          </fieldset>
        </>
      ) : (
        <p>No MCP servers were found in the files Switchboard knows of.</p>
      )}
      {report.problems.length ? (
        <div className="hint small">
          <p>Some files could not be read:</p>
          <ul>
            {report.problems.map((p, i) => (
              <li key={i}>
                <code>{p.file}</code>: {p.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <details className="small muted">
        <summary>Files looked in ({report.searched.length})</summary>
        <ul>
          {report.searched.map((f) => (
            <li key={f}>
              <code>{f}</code>
            </li>
          ))}
        </ul>
      </details>
      {result && !result.ok ? <FormError error={result.error} /> : null}
      <div className="form-actions">
        <span className="spacer" />
        <button type="button" className="button-secondary" onClick={closeMcpImport}>
          Cancel
        </button>
        <button type="button" className="button-primary" disabled={busy || chosen.size === 0} onClick={() => void add()}>
          Add selected
        </button>
      </div>
    </section>
  );
}
