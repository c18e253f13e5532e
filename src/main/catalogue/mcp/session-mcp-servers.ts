/**
 * What a session's `session/new`, `session/load` and `session/resume` carry as `mcpServers`:
 * the servers turned on for its agent, in ACP's shape, HTTP and SSE only where the agent's
 * `initialize` said it takes them (`agentCapabilities.mcpCapabilities.http / .sse`; ACP says
 * a client must not send them otherwise). Each server left out is listed with the reason, for
 * the session's details, and the summary never holds a secret.
 */
import type { McpCapabilities, McpServer } from '@agentclientprotocol/sdk';
import type { McpSessionServerT } from '../../../shared/mcp';
import type { ResolvedMcpServer } from './mcp-servers';

export type SessionMcpServers = {
  /** For the ACP request. Holds secret values: never log it or send it to a window. */
  mcpServers: McpServer[];
  /** For the session's details: every server enabled for the agent, given or skipped. */
  summary: McpSessionServerT[];
};

export function sessionMcpServers(servers: readonly ResolvedMcpServer[], capabilities: McpCapabilities | null | undefined): SessionMcpServers {
  const mcpServers: McpServer[] = [];
  const summary: McpSessionServerT[] = [];
  const names = new Set<string>();
  for (const server of servers) {
    const entry: McpSessionServerT = { name: server.name, type: server.type, target: targetOf(server) };
    const skipped = skipReason(server, capabilities, names);
    if (skipped) {
      summary.push({ ...entry, skipped });
      continue;
    }
    names.add(server.name);
    mcpServers.push(toAcp(server));
    summary.push(entry);
  }
  return { mcpServers, summary };
}

function skipReason(server: ResolvedMcpServer, capabilities: McpCapabilities | null | undefined, names: ReadonlySet<string>): string | undefined {
  if (server.type === 'http' && capabilities?.http !== true) return 'The agent does not take MCP servers over HTTP.';
  if (server.type === 'sse' && capabilities?.sse !== true) return 'The agent does not take MCP servers over SSE.';
  if (server.missingSecrets.length > 0) {
    return `Its secret${server.missingSecrets.length > 1 ? 's' : ''} ${server.missingSecrets.join(', ')} could not be read; set ${server.missingSecrets.length > 1 ? 'them' : 'it'} again in Settings.`;
  }
  // Names are unique in Settings; an agent told two servers of one name would keep only one.
  if (names.has(server.name)) return `Another server is named "${server.name}".`;
  return undefined;
}

export function toAcp(server: ResolvedMcpServer): McpServer {
  switch (server.type) {
    case 'stdio':
      return { name: server.name, command: server.command, args: [...server.args], env: server.env.map(({ name, value }) => ({ name, value })) };
    case 'http':
      return { type: 'http', name: server.name, url: server.url, headers: server.headers.map(({ name, value }) => ({ name, value })) };
    case 'sse':
      return { type: 'sse', name: server.name, url: server.url, headers: server.headers.map(({ name, value }) => ({ name, value })) };
  }
}

/** The command line, or the URL without user name, query or fragment (they may carry a token). */
export function targetOf(server: ResolvedMcpServer | { type: 'stdio'; command: string; args: readonly string[] } | { type: 'http' | 'sse'; url: string }): string {
  if (server.type === 'stdio') return [server.command, ...server.args].map(quoteArg).join(' ');
  try {
    const url = new URL(server.url);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}

function quoteArg(arg: string): string {
  return arg === '' || /[\s"'\\$`]/.test(arg) ? `'${arg.replace(/'/g, `'\\''`)}'` : arg;
}
