import type { McpSessionServerT } from '../../../../shared/contract';

/** "2 MCP servers", "1 MCP server, 1 skipped": what the running agent was given. */
export function mcpSummaryText(servers: readonly McpSessionServerT[]): string {
  const given = servers.filter((s) => !s.skipped).length;
  const skipped = servers.length - given;
  return `${given} MCP server${given === 1 ? '' : 's'}${skipped ? `, ${skipped} skipped` : ''}`;
}

/**
 * The session's MCP servers in its header, while its agent runs: each one given (name, kind,
 * command or address) and each skipped with the reason. Nothing when none is turned on.
 */
export function McpServersSummary({ servers }: { servers: readonly McpSessionServerT[] | undefined }) {
  if (!servers?.length) return null;
  return (
    <details className="mcp-summary">
      <summary>{mcpSummaryText(servers)}</summary>
      <ul aria-label="MCP servers of this session">
        {servers.map((s) => (
          <li key={s.name + s.type}>
            <strong>{s.name}</strong> ({s.type}) <code>{s.target}</code>
            {s.skipped ? <span className="hint"> — skipped: {s.skipped}</span> : <span className="muted"> — given</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}
