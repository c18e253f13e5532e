import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpTestResult, type McpTestResultT } from '../../../shared/mcp';
import { captureLogger } from '../../test-support/capture-logger';
import { FakeClock } from '../../test-support/fake-clock';
import { startMcpHttpTestServer, type McpHttpTestServer } from '../../test-support/mcp-http-test-server';
import { REPO_ROOT, TEST_MCP_SERVER_NAME, TEST_MCP_TOOLS, testMcpServerCommand } from '../../test-support/mcp-test-tools';
import { groupMembers, isLive, killAll, waitUntil } from '../../test-support/processes';
import type { ResolvedMcpServer } from './mcp-servers';
import { testMcpServer, type McpTestOptions } from './mcp-tester';

const spawned: number[] = [];
const servers: McpHttpTestServer[] = [];
afterEach(async () => {
  // A failing test must not leave its server behind for the next one.
  killAll(groupMembers(spawned.splice(0)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function stdio(flags: string[] = [], extra: Partial<Extract<ResolvedMcpServer, { type: 'stdio' }>> = {}): ResolvedMcpServer {
  return { id: 'srv', name: 'test-mcp', type: 'stdio', ...testMcpServerCommand(...flags), env: [], missingSecrets: [], ...extra };
}

function options(clock = new FakeClock(), more: Partial<McpTestOptions> = {}): McpTestOptions {
  return { clock, log: captureLogger([]), timeoutMs: 10_000, cwd: REPO_ROOT, onSpawn: (pid) => spawned.push(pid), ...more };
}

function failure(result: McpTestResultT): Extract<McpTestResultT, { ok: false }> {
  if (result.ok) throw new Error('expected the test to fail');
  return result;
}

describe('testMcpServer over stdio', () => {
  it('starts the server, lists its tools and stops it', async () => {
    const result = McpTestResult.parse(await testMcpServer(stdio(), options()));
    expect(result).toMatchObject({ ok: true, server: { name: TEST_MCP_SERVER_NAME, version: '1.0.0' } });
    expect(result.ok && result.tools.map((t) => t.name)).toEqual([...TEST_MCP_TOOLS]);
    expect(result.ok && result.tools[0]).toEqual({ name: 'echo', title: 'Echo', description: 'Returns the text it is given.' });
    expect(spawned).toHaveLength(1);
    expect(isLive(spawned[0] ?? 0)).toBe(false);
  });

  it('stops a server that never answers at the deadline, with its whole process group', async () => {
    const clock = new FakeClock();
    let started!: (pid: number) => void;
    const pid = new Promise<number>((resolve) => (started = resolve));
    const testing = testMcpServer(stdio(['--hang']), options(clock, { timeoutMs: 5_000, onSpawn: (p) => (spawned.push(p), started(p)) }));
    const leader = await pid;
    // The server has started its own child, as an npx wrapper would.
    await waitUntil(() => groupMembers([leader]).length === 2, 'the hanging server and its child');
    await clock.advance(4_999);
    expect(groupMembers([leader])).toHaveLength(2);
    await clock.advance(1);
    const result = failure(await testing);
    expect(result).toMatchObject({ reason: 'timeout', message: 'test-mcp did not answer within 5 s; it was stopped.', durationMs: 5_000 });
    expect(result.stderrTail.join('\n')).toContain('test mcp server hanging');
    await waitUntil(() => groupMembers([leader]).length === 0, 'no process of the server left');
  });

  it('stops a server when the person cancels the test', async () => {
    const cancel = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const testing = testMcpServer(stdio(['--hang']), options(new FakeClock(), { signal: cancel.signal, onSpawn: (p) => (spawned.push(p), started()) }));
    await running;
    cancel.abort();
    expect(failure(await testing)).toMatchObject({ reason: 'timeout', message: 'The test of test-mcp was cancelled; it was stopped.' });
    await waitUntil(() => groupMembers(spawned).length === 0, 'no process of the server left');
  });

  it('says a command that does not exist could not start', async () => {
    const result = failure(await testMcpServer(stdio([], { command: '/nonexistent/mcp-server', args: [] }), options()));
    expect(result).toMatchObject({ reason: 'spawn_failed', message: 'Could not start `/nonexistent/mcp-server`: the command was not found.' });
  });

  it('says a server that exits early exited, with its last stderr lines', async () => {
    const result = failure(await testMcpServer(stdio(['--crash']), options()));
    expect(result).toMatchObject({ reason: 'exited', message: 'test-mcp exited with code 3 before it listed its tools.' });
    expect(result.stderrTail).toContain('test mcp server: missing TEST_TOKEN, giving up');
  });

  it('says a program that answers with an error is not a working MCP server', async () => {
    const refuser = `process.stdin.on('data', (d) => { for (const l of String(d).split('\\n').filter(Boolean)) { const m = JSON.parse(l); if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'not here' } }) + '\\n'); } });`;
    const result = failure(await testMcpServer(stdio([], { command: process.execPath, args: ['-e', refuser] }), options()));
    expect(result.reason).toBe('protocol');
    expect(result.message).toContain('not here');
  });

  it('refuses to start a server whose secret is missing', async () => {
    const result = failure(await testMcpServer(stdio([], { missingSecrets: ['API_KEY'] }), options()));
    expect(result).toMatchObject({ reason: 'missing_secret' });
    expect(spawned).toEqual([]);
  });

  it("passes the server its variables and the SDK's safe few of the host's, not the host's secrets", async () => {
    // The test server's `env` tool is not called here; that the variables arrive is proven by
    // the process environment, read while it runs.
    process.env.SWITCHBOARD_TEST_HOST_SECRET = 'host-only';
    try {
      let environ = '';
      const result = await testMcpServer(
        stdio([], { env: [{ name: 'MCP_TOKEN', value: 'for-the-server' }] }),
        options(new FakeClock(), {
          onSpawn: (pid) => {
            spawned.push(pid);
            environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
          },
        }),
      );
      expect(result.ok).toBe(true);
      const vars = environ.split('\0');
      expect(vars).toContain('MCP_TOKEN=for-the-server');
      expect(vars.some((v) => v.startsWith('PATH='))).toBe(true);
      expect(environ).not.toContain('host-only');
    } finally {
      delete process.env.SWITCHBOARD_TEST_HOST_SECRET;
    }
  });
});

describe('testMcpServer over HTTP and SSE', () => {
  it('lists the tools of a streamable HTTP server, sending its headers', async () => {
    const server = await startMcpHttpTestServer();
    servers.push(server);
    const result = await testMcpServer(
      { id: 'h', name: 'http-mcp', type: 'http', url: server.httpUrl, headers: [{ name: 'Authorization', value: 'Bearer tok-1' }], missingSecrets: [] },
      options(),
    );
    expect(result.ok && result.tools.map((t) => t.name)).toEqual([...TEST_MCP_TOOLS]);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((h) => h.authorization === 'Bearer tok-1')).toBe(true);
  });

  it('lists the tools of an SSE server, sending its headers on the stream and the posts', async () => {
    const server = await startMcpHttpTestServer();
    servers.push(server);
    const result = await testMcpServer({ id: 's', name: 'sse-mcp', type: 'sse', url: server.sseUrl, headers: [{ name: 'X-Team', value: 'core' }], missingSecrets: [] }, options());
    expect(result.ok && result.tools.map((t) => t.name)).toEqual([...TEST_MCP_TOOLS]);
    expect(server.requests.map((h) => h['x-team'])).toEqual(server.requests.map(() => 'core'));
  });

  it('says a URL nobody answers could not be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const result = failure(await testMcpServer({ id: 'x', name: 'gone', type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: [], missingSecrets: [] }, options()));
    expect(result.reason).toBe('connect_failed');
    expect(result.message).toMatch(/^Could not reach gone: /);
  });
});
