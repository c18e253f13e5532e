/**
 * The test MCP server over streamable HTTP (`/mcp`) and SSE (`/sse` + `/messages`) on
 * 127.0.0.1, in the test's process. It records the headers each request carried, so a test can
 * prove a header (a bearer token) reached the server.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildTestMcpServer } from './mcp-test-tools';

export interface McpHttpTestServer {
  httpUrl: string;
  sseUrl: string;
  /** Headers of every request received, in order. */
  readonly requests: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startMcpHttpTestServer(): Promise<McpHttpTestServer> {
  const requests: IncomingHttpHeaders[] = [];
  const sse = new Map<string, SSEServerTransport>();
  const closers: (() => Promise<void>)[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    void (async () => {
      if (url.pathname === '/mcp') {
        // Stateless: one server and transport per request, as the SDK's examples do.
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        const mcp = buildTestMcpServer();
        res.on('close', () => void transport.close().then(() => mcp.close()));
        await mcp.connect(transport);
        await transport.handleRequest(req, res);
      } else if (url.pathname === '/sse' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        sse.set(transport.sessionId, transport);
        const mcp = buildTestMcpServer();
        closers.push(() => mcp.close());
        res.on('close', () => sse.delete(transport.sessionId));
        await mcp.connect(transport);
      } else if (url.pathname === '/messages' && req.method === 'POST') {
        const transport = sse.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) res.writeHead(404).end('no such session');
        else await transport.handlePostMessage(req, res);
      } else res.writeHead(404).end();
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    httpUrl: `http://127.0.0.1:${port}/mcp`,
    sseUrl: `http://127.0.0.1:${port}/sse`,
    requests,
    close: async () => {
      await Promise.all(closers.map((c) => c()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
