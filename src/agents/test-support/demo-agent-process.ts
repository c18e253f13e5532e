/**
 * Test helper: spawns the demo agent as a real child process (from source,
 * through tsx) and drives it with the SDK's client side. Used by the demo
 * agent's own tests; other integration tests may reuse it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { onAbort } from '../demo/abortable';
import type {
  ClientCapabilities,
  CreateElicitationRequest,
  CreateElicitationResponse,
  InitializeResponse,
  McpServer,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionNotification,
} from '@agentclientprotocol/sdk';

export const DEMO_AGENT_ENTRY = fileURLToPath(new URL('../demo/demo-agent.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type ExitInfo = { code: number | null; signal: NodeJS.Signals | null };

export type ElicitationHandler = (params: CreateElicitationRequest, signal: AbortSignal) => Promise<CreateElicitationResponse> | CreateElicitationResponse;

/** Answers the agent's `terminal/*` requests (by method name); by default the client has no terminals. */
export type TerminalHandler = (method: string, params: unknown, signal: AbortSignal) => Promise<unknown> | unknown;

export type PermissionHandler = (
  params: RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<RequestPermissionResponse> | RequestPermissionResponse;

/**
 * For a handler that answers only when the agent withdraws its request: rejects with the
 * signal's reason (the SDK's -32800) once it aborts, at once if the withdrawal came before the
 * handler ran (an agent that changes its mind quickly sends the request and its cancel together).
 */
export function untilWithdrawn(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => onAbort(signal, () => reject(signal.reason as Error)));
}

type Waiter = {
  match: (n: SessionNotification) => boolean;
  resolve: (n: SessionNotification) => void;
  reject: (e: Error) => void;
};

export class DemoAgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: acp.ClientConnection;
  /** Every `session/update` received, in arrival order. */
  readonly updates: SessionNotification[] = [];
  readonly permissionRequests: RequestPermissionRequest[] = [];
  readonly elicitations: CreateElicitationRequest[] = [];
  /** `elicitationId`s of every `elicitation/complete` received. */
  readonly completedElicitations: string[] = [];
  readonly exited: Promise<ExitInfo>;
  permissionHandler: PermissionHandler = () => ({ outcome: { outcome: 'cancelled' } });
  elicitationHandler: ElicitationHandler = () => ({ action: 'cancel' });
  terminalHandler: TerminalHandler = (method) => {
    throw acp.RequestError.methodNotFound(method);
  };
  private stderrText = '';
  private waiters: Waiter[] = [];
  private readonly completionWaiters = new Map<string, () => void>();
  private exitInfo: ExitInfo | undefined;

  constructor(dataDir: string, extraArgs: readonly string[] = [], env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(process.execPath, ['--import', 'tsx', DEMO_AGENT_ENTRY, '--data-dir', dataDir, ...extraArgs], {
      cwd: REPO_ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderrText += chunk;
    });
    // Writing to a dead agent must fail the test through the connection, not crash the runner.
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        this.failWaiters(new Error(`demo agent exited (${code ?? signal}); stderr:\n${this.stderrText}`));
        resolve({ code, signal });
      });
    });
    this.connection = acp
      .client({ name: 'demo-agent-test' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        // Synchronous on purpose: an await here would reorder updates around responses.
        this.updates.push(params);
        this.waiters = this.waiters.filter((w) => {
          if (!w.match(params)) return true;
          w.resolve(params);
          return false;
        });
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => {
        this.permissionRequests.push(params);
        return this.permissionHandler(params, signal);
      })
      .onRequest(acp.methods.client.elicitation.create, ({ params, signal }) => {
        this.elicitations.push(params);
        return this.elicitationHandler(params, signal);
      })
      .onRequest(acp.methods.client.terminal.create, async ({ params, signal }) => (await this.terminalHandler('terminal/create', params, signal)) as acp.CreateTerminalResponse)
      .onRequest(acp.methods.client.terminal.output, async ({ params, signal }) => (await this.terminalHandler('terminal/output', params, signal)) as acp.TerminalOutputResponse)
      .onRequest(acp.methods.client.terminal.waitForExit, async ({ params, signal }) => (await this.terminalHandler('terminal/wait_for_exit', params, signal)) as acp.WaitForTerminalExitResponse)
      .onRequest(acp.methods.client.terminal.kill, async ({ params, signal }) => (await this.terminalHandler('terminal/kill', params, signal)) as acp.KillTerminalResponse)
      .onRequest(acp.methods.client.terminal.release, async ({ params, signal }) => (await this.terminalHandler('terminal/release', params, signal)) as acp.ReleaseTerminalResponse)
      .onNotification(acp.methods.client.elicitation.complete, ({ params }) => {
        this.completedElicitations.push(params.elicitationId);
        this.completionWaiters.get(params.elicitationId)?.();
      })
      .connect(
        acp.ndJsonStream(
          Writable.toWeb(this.child.stdin) as WritableStream<Uint8Array>,
          Readable.toWeb(this.child.stdout) as ReadableStream<Uint8Array>,
        ),
      );
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** `capabilities` are added to a client that offers neither files nor a terminal. */
  initialize(capabilities: ClientCapabilities = {}): Promise<InitializeResponse> {
    return this.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, ...capabilities },
      clientInfo: { name: 'demo-agent-test', version: '0.0.0' },
    });
  }

  async newSession(cwd: string, mcpServers: McpServer[] = []): Promise<string> {
    const { sessionId } = await this.agent.request(acp.methods.agent.session.new, { cwd, mcpServers });
    return sessionId;
  }

  prompt(sessionId: string, text: string): Promise<acp.PromptResponse> {
    return this.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
  }

  cancel(sessionId: string): Promise<void> {
    return this.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  /** Resolves with the first update (already received or future) that matches. */
  waitForUpdate(match: (n: SessionNotification) => boolean): Promise<SessionNotification> {
    const seen = this.updates.find(match);
    if (seen) return Promise.resolve(seen);
    if (this.exitInfo) return Promise.reject(new Error('demo agent already exited'));
    return new Promise((resolve, reject) => this.waiters.push({ match, resolve, reject }));
  }

  /**
   * Resolves once `elicitation/complete` for `elicitationId` arrived. The SDK runs notification
   * handlers after it has parsed them, so one sent before a prompt's answer may be handled after it.
   */
  waitForCompletion(elicitationId: string): Promise<void> {
    if (this.completedElicitations.includes(elicitationId)) return Promise.resolve();
    return new Promise((resolve) => this.completionWaiters.set(elicitationId, resolve));
  }

  updatesFor(sessionId: string): SessionNotification[] {
    return this.updates.filter((u) => u.sessionId === sessionId);
  }

  /** Concatenated text of one kind of chunk for a session, e.g. everything the agent said. */
  textOf(sessionId: string, kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
    return this.updatesFor(sessionId)
      .map((u) => u.update)
      .flatMap((u) => (u.sessionUpdate === kind && u.content.type === 'text' ? [u.content.text] : []))
      .join('');
  }

  /** Idempotent; resolves once the process is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<ExitInfo> {
    if (!this.exitInfo) this.child.kill(signal);
    const info = await this.exited;
    this.connection.close();
    return info;
  }

  private failWaiters(error: Error): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(error);
  }
}

export function isText(n: SessionNotification, kind: string, text: string | RegExp): boolean {
  const u = n.update;
  if (u.sessionUpdate !== kind || !('content' in u) || Array.isArray(u.content) || !u.content) return false;
  if (u.content.type !== 'text') return false;
  return typeof text === 'string' ? u.content.text.includes(text) : text.test(u.content.text);
}
