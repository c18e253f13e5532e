import { describe, expect, it } from 'vitest';
import type { ResolvedMcpServer } from './mcp-servers';
import { sessionMcpServers, targetOf } from './session-mcp-servers';

const STDIO: ResolvedMcpServer = {
  id: 'a',
  name: 'files',
  type: 'stdio',
  command: 'npx',
  args: ['-y', 'server-files', '/home/me/my docs'],
  env: [{ name: 'TOKEN', value: 's3cret' }],
  missingSecrets: [],
};
const HTTP: ResolvedMcpServer = {
  id: 'b',
  name: 'docs',
  type: 'http',
  url: 'https://user:pw@mcp.example.com/v1/mcp?api_key=zzz#frag',
  headers: [{ name: 'Authorization', value: 'Bearer t' }],
  missingSecrets: [],
};
const SSE: ResolvedMcpServer = { id: 'c', name: 'events', type: 'sse', url: 'http://127.0.0.1:9000/sse', headers: [], missingSecrets: [] };

describe('sessionMcpServers', () => {
  it("gives every server in ACP's shapes when the agent takes HTTP and SSE", () => {
    const { mcpServers, summary } = sessionMcpServers([STDIO, HTTP, SSE], { http: true, sse: true });
    expect(mcpServers).toEqual([
      { name: 'files', command: 'npx', args: ['-y', 'server-files', '/home/me/my docs'], env: [{ name: 'TOKEN', value: 's3cret' }] },
      { type: 'http', name: 'docs', url: HTTP.type === 'http' ? HTTP.url : '', headers: [{ name: 'Authorization', value: 'Bearer t' }] },
      { type: 'sse', name: 'events', url: 'http://127.0.0.1:9000/sse', headers: [] },
    ]);
    expect(summary).toEqual([
      { name: 'files', type: 'stdio', target: "npx -y server-files '/home/me/my docs'" },
      { name: 'docs', type: 'http', target: 'https://mcp.example.com/v1/mcp' },
      { name: 'events', type: 'sse', target: 'http://127.0.0.1:9000/sse' },
    ]);
    // The summary is for windows and the transcript: no secret, no token in a query.
    expect(JSON.stringify(summary)).not.toMatch(/s3cret|Bearer|zzz|pw@/);
  });

  it('gives only stdio servers to an agent that advertises no MCP capabilities, and says why the others were left out', () => {
    for (const caps of [undefined, null, {}, { http: false, sse: false }]) {
      const { mcpServers, summary } = sessionMcpServers([STDIO, HTTP, SSE], caps);
      expect(mcpServers.map((s) => s.name)).toEqual(['files']);
      expect(summary.map((s) => s.skipped)).toEqual([undefined, 'The agent does not take MCP servers over HTTP.', 'The agent does not take MCP servers over SSE.']);
    }
  });

  it('honours each capability on its own', () => {
    expect(sessionMcpServers([HTTP, SSE], { http: true }).mcpServers.map((s) => s.name)).toEqual(['docs']);
    expect(sessionMcpServers([HTTP, SSE], { sse: true }).mcpServers.map((s) => s.name)).toEqual(['events']);
  });

  it('never gives two servers of one name', () => {
    const { mcpServers, summary } = sessionMcpServers([STDIO, { ...SSE, name: 'files' }], { sse: true });
    expect(mcpServers).toHaveLength(1);
    expect(summary[1]?.skipped).toBe('Another server is named "files".');
  });

  it('gives an empty list when nothing is enabled', () => {
    expect(sessionMcpServers([], { http: true })).toEqual({ mcpServers: [], summary: [] });
  });
});

describe('targetOf', () => {
  it('quotes arguments a shell would split, and hides what an invalid URL holds', () => {
    expect(targetOf({ type: 'stdio', command: 'uvx', args: ['mcp-server-git', '--repo', "it's here", ''] })).toBe("uvx mcp-server-git --repo 'it'\\''s here' ''");
    expect(targetOf({ type: 'http', url: 'not a url' })).toBe('(an invalid URL)');
  });
});
