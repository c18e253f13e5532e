/**
 * A tiny MCP server for tests and the interop suite, built on the official SDK's server API:
 * `echo` returns its text, `env` returns an environment variable of the server process (so a
 * test can prove a secret reached the server it was meant for) and `add` adds two numbers.
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const TEST_MCP_SERVER_NAME = 'switchboard-test-mcp';
export const TEST_MCP_TOOLS = ['echo', 'env', 'add'] as const;

export function buildTestMcpServer(): McpServer {
  const server = new McpServer({ name: TEST_MCP_SERVER_NAME, version: '1.0.0' });
  server.registerTool('echo', { title: 'Echo', description: 'Returns the text it is given.', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    'env',
    { title: 'Environment variable', description: "Returns one of the server's environment variables.", inputSchema: { name: z.string() } },
    ({ name }) => ({ content: [{ type: 'text', text: process.env[name] ?? '(not set)' }] }),
  );
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  return server;
}

/** The stdio test server's entry file (src/main/test-support/mcp-test-server.ts). */
export const TEST_MCP_SERVER_ENTRY = fileURLToPath(new URL('./mcp-test-server.ts', import.meta.url));
/** Where `--import tsx` resolves from. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** How to start the stdio test server (`--hang`, `--crash` for the failures it plays). */
export function testMcpServerCommand(...flags: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', 'tsx', TEST_MCP_SERVER_ENTRY, ...flags] };
}

/**
 * The same, startable from any folder (a session's, a person's default): `--import` names tsx's
 * loader by its file address instead of a package name resolved from the working folder.
 */
export function portableTestMcpServerCommand(...flags: string[]): { command: string; args: string[] } {
  const loader = pathToFileURL(join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  return { command: process.execPath, args: ['--import', loader, TEST_MCP_SERVER_ENTRY, ...flags] };
}
