/**
 * The test MCP server over stdio, as agents start one:
 *
 *   node --import tsx src/main/test-support/mcp-test-server.ts
 *
 * `--hang`: never answers (a server that never starts), and keeps a child process in its
 * process group, as an `npx` wrapper would. `--crash`: exits with code 3 at once, after a line
 * on stderr.
 */
import { spawn } from 'node:child_process';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildTestMcpServer } from './mcp-test-tools';

const args = process.argv.slice(2);
if (args.includes('--crash')) {
  process.stderr.write('test mcp server: missing TEST_TOKEN, giving up\n');
  process.exit(3);
} else if (args.includes('--hang')) {
  // Said before the child starts: a test that sees the child knows the line is in the pipe (said
  // after, a deadline could stop the server between the two on a loaded machine, and the line
  // never came).
  process.stderr.write('test mcp server hanging\n');
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  process.stderr.write(`test mcp server's child ${child.pid}\n`);
  process.on('SIGTERM', () => process.stderr.write('test mcp server ignores SIGTERM\n'));
  setInterval(() => {}, 1 << 30);
} else {
  await buildTestMcpServer().connect(new StdioServerTransport());
}
