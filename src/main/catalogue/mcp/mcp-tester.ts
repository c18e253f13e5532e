/**
 * `Test` in Settings → MCP servers: start or reach the server with the official MCP SDK
 * client, list its tools, and always end it. A server that never answers is stopped at the
 * deadline (on the host's clock) and its whole process group killed, so a test leaves no
 * process behind whatever the server does.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../../../shared/version';
import type { McpTestResultT } from '../../../shared/mcp';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/log';
import { GroupStdioTransport } from './group-stdio-transport';
import type { ResolvedMcpServer } from './mcp-servers';

export const DEFAULT_MCP_TEST_TIMEOUT_MS = 20_000;
/** A server listing more than this is summarised: the window shows a list, not a catalogue. */
const MAX_TOOLS = 500;
const MAX_PAGES = 20;
const MAX_DESCRIPTION = 500;

export interface McpTestOptions {
  clock: Clock;
  log: Logger;
  timeoutMs?: number;
  /** The person gave up waiting (`Cancel`, the window closed): stop like a timeout. */
  signal?: AbortSignal;
  /** A stdio server's working folder (ACP cannot pass one to agents, so the default is fine). */
  cwd?: string;
  /** Told the stdio server's pid once it runs (tests prove it is gone afterwards). */
  onSpawn?(pid: number): void;
  /** Told each step as it begins (Settings shows the test's progress). */
  onStep?(step: 'starting' | 'listing', elapsedMs: number): void;
}

type Failure = Extract<McpTestResultT, { ok: false }>;

class Stopped extends Error {
  constructor(readonly why: 'timeout' | 'cancelled') {
    super(why);
  }
}

export async function testMcpServer(server: ResolvedMcpServer, opts: McpTestOptions): Promise<McpTestResultT> {
  const startedAt = opts.clock.now();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_MCP_TEST_TIMEOUT_MS;
  const elapsed = (): number => opts.clock.now() - startedAt;
  const fail = (reason: Failure['reason'], message: string, stderrTail: string[] = []): Failure => ({
    ok: false,
    at: startedAt,
    durationMs: elapsed(),
    reason,
    message,
    stderrTail,
  });
  if (server.missingSecrets.length > 0) {
    return fail('missing_secret', `${server.name} needs ${server.missingSecrets.join(', ')}, which could not be read from the secret box; set it again.`);
  }

  const transport = makeTransport(server, opts);
  const stdio = transport instanceof GroupStdioTransport ? transport : undefined;
  const client = new Client({ name: 'switchboard', version: VERSION }, { capabilities: {} });
  const stop = new AbortController();
  const timer = opts.clock.setTimeout(() => stop.abort(new Stopped('timeout')), timeoutMs);
  const onCancel = (): void => stop.abort(new Stopped('cancelled'));
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  // Cancelled while this module was still loading (it is loaded on the first Test): no event comes.
  if (opts.signal?.aborted) onCancel();
  const stopped = new Promise<never>((_, reject) => {
    const rejectWithReason = (): void => reject(stop.signal.reason);
    if (stop.signal.aborted) rejectWithReason();
    else stop.signal.addEventListener('abort', rejectWithReason, { once: true });
  });
  // Rejections of `stopped` are read by the race below; the one after success is not an error.
  stopped.catch(() => undefined);
  // The SDK's own per-request timer must not fire before ours.
  const requestOptions = { signal: stop.signal, timeout: timeoutMs + 60_000 };

  try {
    const run = async (): Promise<McpTestResultT> => {
      opts.onStep?.('starting', elapsed());
      await client.connect(transport, requestOptions);
      opts.onStep?.('listing', elapsed());
      const tools: Extract<McpTestResultT, { ok: true }>['tools'] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES && tools.length < MAX_TOOLS; page++) {
        const listed = await client.listTools(cursor === undefined ? undefined : { cursor }, requestOptions);
        for (const tool of listed.tools) {
          if (tools.length >= MAX_TOOLS) break;
          tools.push({
            name: tool.name,
            ...(tool.title ? { title: tool.title } : {}),
            ...(tool.description ? { description: tool.description.slice(0, MAX_DESCRIPTION) } : {}),
          });
        }
        cursor = listed.nextCursor;
        if (!cursor) break;
      }
      const info = client.getServerVersion();
      return { ok: true, at: startedAt, durationMs: elapsed(), ...(info ? { server: { name: info.name, version: info.version } } : {}), tools };
    };
    const result = await Promise.race([run(), stopped]);
    opts.log.info('mcp server tested', { server: server.id, ok: true, tools: result.ok ? result.tools.length : 0, ms: elapsed() });
    return result;
  } catch (error) {
    const failure = classify(error, server, timeoutMs, stdio);
    opts.log.info('mcp server test failed', { server: server.id, reason: failure.reason, ms: elapsed() });
    // Stopped before its stderr is read: what it wrote just before the deadline may still be in
    // the pipe, and the close waits for the pipe to be drained (found on a loaded machine).
    await closeQuietly(client, transport, opts.log, server.id);
    return fail(failure.reason, failure.message, stdio?.stderrTail ?? []);
  } finally {
    opts.clock.clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCancel);
    // Idempotent: a failed test is already closed.
    await closeQuietly(client, transport, opts.log, server.id);
  }
}

function makeTransport(server: ResolvedMcpServer, { cwd, onSpawn }: Pick<McpTestOptions, 'cwd' | 'onSpawn'>): Transport {
  switch (server.type) {
    case 'stdio':
      // What the SDK's own stdio transport passes (PATH, HOME, USER…) and the server's
      // variables: never the host's environment, which holds Switchboard's own secrets.
      return new GroupStdioTransport({
        command: server.command,
        args: server.args,
        env: { ...getDefaultEnvironment(), ...Object.fromEntries(server.env.map((v) => [v.name, v.value])) },
        ...(cwd === undefined ? {} : { cwd }),
        ...(onSpawn === undefined ? {} : { onSpawn }),
      });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: headersOf(server.headers) } });
    case 'sse':
      return new SSEClientTransport(new URL(server.url), { requestInit: { headers: headersOf(server.headers) } });
  }
}

const headersOf = (headers: readonly { name: string; value: string }[]): Record<string, string> => Object.fromEntries(headers.map((h) => [h.name, h.value]));

function classify(error: unknown, server: ResolvedMcpServer, timeoutMs: number, stdio: GroupStdioTransport | undefined): { reason: Failure['reason']; message: string } {
  if (error instanceof Stopped) {
    return error.why === 'timeout'
      ? { reason: 'timeout', message: `${server.name} did not answer within ${Math.round(timeoutMs / 1000)} s; it was stopped.` }
      : { reason: 'timeout', message: `The test of ${server.name} was cancelled; it was stopped.` };
  }
  const text = error instanceof Error ? error.message : String(error);
  if (stdio) {
    if (stdio.pid === undefined) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'the command was not found' : code === 'EACCES' ? 'the command may not be run' : text;
      return { reason: 'spawn_failed', message: `Could not start \`${server.type === 'stdio' ? server.command : ''}\`: ${why}.` };
    }
    const exit = stdio.exit;
    if (exit) {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      return { reason: 'exited', message: `${server.name} ${how} before it listed its tools.` };
    }
  }
  if (error instanceof McpError) return { reason: 'protocol', message: `${server.name} answered with an error: ${text}` };
  if (server.type !== 'stdio') {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { reason: 'connect_failed', message: `Could not reach ${server.name}: ${cause?.code ?? cause?.message ?? text}` };
  }
  return { reason: 'protocol', message: `${server.name} did not speak MCP: ${text}` };
}

async function closeQuietly(client: Client, transport: Transport, log: Logger, serverId: string): Promise<void> {
  try {
    await client.close();
  } catch (error) {
    log.warn('closing the mcp test client failed', { server: serverId, error: String(error) });
  }
  // `client.close` closes the transport it connected; one that never connected is closed here.
  try {
    await transport.close();
  } catch (error) {
    log.warn('closing the mcp test transport failed', { server: serverId, error: String(error) });
  }
}
