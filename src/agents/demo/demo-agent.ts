/**
 * Entry point of the built-in demo ACP agent: a real agent process that needs
 * no account or network, for development, demos and tests of Switchboard.
 *
 *   node --import tsx src/agents/demo/demo-agent.ts [--data-dir DIR] [--log-level LEVEL]
 *   node out/main/demo-agent.js [--data-dir DIR]
 *
 * `--stubborn` (tests): ignores stdin EOF and SIGTERM and keeps a helper process.
 * `--auth required|status` (tests): asks for sign-in like real agents without an account (auth.ts).
 * `--mode ID` (tests): new sessions start in that mode (`bypass` runs tools without asking).
 * `--mcp stdio` (tests): takes stdio MCP servers only (no `mcpCapabilities.http` / `.sse`).
 * `--login`: what ACP's terminal sign-in method runs (the agent's command with the method's
 * arguments, in a terminal): says it signed in and exits 0, without speaking ACP.
 * `--slow METHOD=MS,…` (tests): answers those requests late (slow-requests.ts); cancelled requests are reported on stderr.
 * stdout is the ACP stream (NDJSON); logs go to stderr.
 */
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { createDemoAgent } from './agent-app';
import { batchedOutput } from './batched-output';
import { DemoAuth, LOGIN_FLAG } from './auth';
import { HistoryStore } from './history-store';
import { createDemoLogger } from './log';
import { parseOptions } from './options';

if (process.argv.includes(LOGIN_FLAG)) {
  process.stdout.write('Signed in to the Switchboard demo agent.\n');
  process.exit(0);
}

const options = parseOptions(process.argv.slice(2), process.env);
const log = createDemoLogger(options.logLevel);
const store = new HistoryStore(options.dataDir);

let exiting = false;
const output = batchedOutput(process.stdout);
const exit = (code: number, reason: string): never => {
  if (!exiting) {
    exiting = true;
    output.flush();
    try {
      agent.flush();
    } catch (error) {
      log.error('history flush failed', { error: String(error) });
    }
    log.info('exit', { code, reason });
  }
  process.exit(code);
};

// What was sent before the crash has left, as it would have with unbuffered writes.
const agent = createDemoAgent({
  store,
  log,
  crash: () => {
    output.flush();
    return process.exit(1);
  },
  auth: new DemoAuth(options.auth, process.env),
  env: process.env,
  writeLine: output.writeLine,
  startMode: options.startMode,
  mcp: options.mcp,
  slow: options.slow,
  stderr: (line) => process.stderr.write(`${line}\n`),
});

const connection = agent.app.connect(acp.ndJsonStream(output.stream, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
log.info('started', { dataDir: options.dataDir });
// Whatever the log level, one line says the agent is up, as real agents print a banner: the
// Agent log view always has something to show.
process.stderr.write(`demo-agent ready (pid ${process.pid}, ACP protocol ${acp.PROTOCOL_VERSION})\n`);

if (options.stubborn) {
  // Like agents that ignore EOF and wrappers that don't forward signals: only a signal to
  // the whole process group (or SIGKILL) ends this one and its helper.
  const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  process.stderr.write(`demo-agent helper pid ${helper.pid}\n`);
  process.on('SIGTERM', () => log.info('ignoring SIGTERM'));
  // Stays up even when its helper dies and stdin is closed: only SIGKILL ends it.
  setInterval(() => {}, 1 << 30);
} else {
  // The connection closes when stdin ends: the host went away, so must we,
  // or the host's restarts would leave orphans behind.
  void connection.closed.then(() => exit(0, 'connection closed'));
  process.on('SIGTERM', () => exit(0, 'SIGTERM'));
}
process.on('SIGINT', () => exit(0, 'SIGINT'));
// A reader that vanished makes stdout fail with EPIPE; without a listener
// that would be an uncaught exception with a stack trace instead of a quiet exit.
process.stdout.on('error', (error) => exit(0, `stdout: ${String(error)}`));
