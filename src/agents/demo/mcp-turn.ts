/**
 * `/mcp`: the MCP servers the client gave this session (`mcpServers` of its `session/new`,
 * `load`, `resume` or `fork`), by name, kind and command or address; environment variables and
 * headers by name only, never their values (they hold API keys). `/mcp tools [NAME]` connects
 * to one (the first when no name is given) with the official MCP SDK client, as a real agent
 * would, lists its tools and disconnects, stopping a stdio server it started.
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { TurnContext } from './turns';

/** How long `/mcp tools` waits for a server to start and list its tools. */
export const MCP_TOOLS_TIMEOUT_MS = 15_000;

function say(ctx: TurnContext, text: string): Promise<void> {
  return ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

const kindOf = (s: McpServer): 'stdio' | 'http' | 'sse' => ('type' in s && (s.type === 'http' || s.type === 'sse') ? s.type : 'stdio');

/** The address without user name, query or fragment, which may carry a token. */
function address(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}

export function describeServer(s: McpServer): string {
  if ('command' in s) {
    const env = s.env.length ? `; environment: ${s.env.map((e) => e.name).join(', ')}` : '';
    return `- ${s.name} (stdio): ${[s.command, ...s.args].join(' ')}${env}`;
  }
  const headers = s.headers.length ? `; headers: ${s.headers.map((h) => h.name).join(', ')}` : '';
  return `- ${s.name} (${kindOf(s)}): ${address(s.url)}${headers}`;
}

export async function mcp(ctx: TurnContext, arg: string): Promise<void> {
  const [sub = '', name] = arg.split(/\s+/).filter(Boolean);
  const servers = ctx.mcpServers();
  if (sub === '') {
    if (servers.length === 0) return say(ctx, 'This session was given no MCP servers.');
    return say(ctx, `This session was given ${servers.length} MCP server${servers.length === 1 ? '' : 's'} (values not shown):\n${servers.map(describeServer).join('\n')}`);
  }
  if (sub !== 'tools') return say(ctx, 'Usage: /mcp [tools [NAME]]');
  const server = name === undefined ? servers[0] : servers.find((s) => s.name === name);
  if (!server) return say(ctx, name === undefined ? 'This session was given no MCP servers.' : `This session was given no MCP server named ${name}.`);
  await listTools(ctx, server);
}

async function listTools(ctx: TurnContext, server: McpServer): Promise<void> {
  const toolCallId = `mcp-${randomUUID()}`;
  await ctx.send({ sessionUpdate: 'tool_call', toolCallId, title: `List the tools of ${server.name}`, kind: 'fetch', status: 'in_progress', rawInput: { server: server.name } });
  // Loaded on first use: most runs of the demo agent never talk MCP.
  const [{ Client }, { StdioClientTransport, getDefaultEnvironment }, { StreamableHTTPClientTransport }, { SSEClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
  ]);
  const headers = (list: { name: string; value: string }[]): Record<string, string> => Object.fromEntries(list.map((h) => [h.name, h.value]));
  const transport =
    'command' in server
      ? new StdioClientTransport({
          command: server.command,
          args: server.args,
          env: { ...getDefaultEnvironment(), ...Object.fromEntries(server.env.map((e) => [e.name, e.value])) },
          cwd: ctx.cwd,
          stderr: 'ignore',
        })
      : server.type === 'http'
        ? new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: headers(server.headers) } })
        : new SSEClientTransport(new URL(server.url), { requestInit: { headers: headers(server.headers) } });
  const client = new Client({ name: 'demo-agent', version: '0.1.0' });
  const options = { signal: ctx.signal, timeout: MCP_TOOLS_TIMEOUT_MS };
  try {
    await client.connect(transport, options);
    const { tools } = await client.listTools(undefined, options);
    const lines = tools.map((t) => `- ${t.name}${t.description ? `: ${t.description}` : ''}`);
    await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: lines.join('\n') } }] });
    await say(ctx, `${server.name} has ${tools.length} tool${tools.length === 1 ? '' : 's'}: ${tools.map((t) => t.name).join(', ')}`);
  } catch (error) {
    await ctx.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    await say(ctx, `Could not list the tools of ${server.name}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    // Ends the connection and, for stdio, the server process.
    await client.close().catch(() => transport.close());
  }
}
