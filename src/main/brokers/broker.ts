import * as acp from '@agentclientprotocol/sdk';
import type { ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { AppError } from '../../shared/errors';
import type { AgentDefinition } from './agent-definition';
import { AgentProcess, type AgentProcessOptions, type BrokerExit } from './agent-process';
import { clientCapabilities, type ClientRequestHandlers } from './client-handlers';
import { fsHandlers } from './fs-handlers';
import { SessionRouter, type SessionSink } from './session-router';

export { defaultSpawn, type BrokerExit, type SpawnFn } from './agent-process';
export type { SessionSink } from './session-router';

export interface BrokerOptions extends Omit<AgentProcessOptions, 'onDidExit'> {
  initTimeoutMs: number;
}

export type BrokerStatus = 'starting' | 'ready' | 'closing' | 'exited';

/** An agent whose ACP stream ended gets this long to exit by itself before it is killed. */
const CONNECTION_LOSS_GRACE_MS = 1_000;

/**
 * One agent process and its one long-lived ACP connection, shared by many sessions (ACP
 * session ids). It composes the process and its shutdown ladder (`AgentProcess`), routing by
 * ACP session id (`SessionRouter`) and the client-side request handlers (`fs-handlers.ts`).
 */
export class Broker {
  readonly id: string;
  readonly agent: AgentDefinition;
  readonly ready: Promise<void>;
  readonly exited: Promise<BrokerExit>;
  capabilities: acp.AgentCapabilities = {};
  /** How the agent says a person can sign in (`initialize`'s `authMethods`), as sent. */
  authMethods: readonly unknown[] = [];

  private readonly process: AgentProcess;
  private readonly router: SessionRouter;
  private readonly handlers: readonly ClientRequestHandlers[];
  private readonly conn: acp.ClientConnection;
  private initialized = false;

  constructor(private readonly opts: BrokerOptions) {
    this.id = opts.id;
    this.agent = opts.agent;
    this.router = new SessionRouter(opts.clock);
    this.process = new AgentProcess({
      ...opts,
      onDidExit: () => {
        this.conn.close(this.exitError());
        this.router.clear();
      },
    });
    this.exited = this.process.exited;
    this.handlers = [fsHandlers((acpSessionId) => this.router.sinkFor(acpSessionId))];

    const app = acp
      .client({ name: 'switchboard' })
      .onNotification(acp.methods.client.session.update, ({ params }) => this.router.route(params))
      .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => {
        const sink = this.router.sinkFor(params.sessionId);
        // A request for a session nobody holds is answered at once, never left hanging.
        if (!sink || this.status === 'closing') return { outcome: { outcome: 'cancelled' } };
        return sink.onPermission(params, signal);
      });
    for (const group of this.handlers) group.register(app);
    // Some agents send non-standard `_`-prefixed notifications: tolerate them.
    this.conn = app.onNotification('*', () => {}).connect(
      acp.ndJsonStream(
        Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>,
        Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>,
      ),
    );

    this.ready = this.initialize();
    this.ready.catch(() => {});
    void this.conn.closed.then(() => this.onConnectionClosed());
  }

  get child(): ChildProcess {
    return this.process.child;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get pidStartTime(): string | undefined {
    return this.process.pidStartTime;
  }

  get status(): BrokerStatus {
    const state = this.process.state;
    if (state !== 'running') return state;
    return this.initialized ? 'ready' : 'starting';
  }

  get isAlive(): boolean {
    return this.process.state === 'running';
  }

  get stderrTail(): string[] {
    return this.process.stderrTail;
  }

  get boundSessions(): number {
    return this.router.size;
  }

  /** Routes updates for `acpSessionId` to `sink`, first handing over any held ones, in order. */
  bind(acpSessionId: string, sink: SessionSink): void {
    this.router.bind(acpSessionId, sink);
  }

  unbind(acpSessionId: string, sink?: SessionSink): void {
    this.router.unbind(acpSessionId, sink);
  }

  /** A session closed on our side: late output for it is dropped (see SessionRouter). */
  closeSession(acpSessionId: string, sink: SessionSink): void {
    this.router.closeSession(acpSessionId, sink);
  }

  /** Drops updates held for an id that will never be bound (a failed session/new). */
  dropUnclaimed(acpSessionId: string): void {
    this.router.dropUnclaimed(acpSessionId);
  }

  request<M extends acp.AgentRequestMethod>(
    method: M,
    params: acp.AgentRequestParamsByMethod[M],
    timeoutMs?: number,
  ): Promise<acp.AgentRequestResponsesByMethod[M]> {
    if (!this.isAlive) return Promise.reject(this.exitError());
    if (!timeoutMs) return this.conn.agent.request(method, params).catch((err: unknown) => this.failure(err));
    const abort = new AbortController();
    const timer = this.opts.clock.setTimeout(() => abort.abort(), timeoutMs);
    timer.unref?.();
    return this.conn.agent
      .request(method, params, { cancellationSignal: abort.signal, stopWaitingOnCancel: true })
      .catch((err: unknown) => {
        if (abort.signal.aborted) {
          throw new AppError('agent_error', `${this.agent.name} did not answer ${method} within ${timeoutMs} ms`);
        }
        return this.failure(err);
      })
      .finally(() => this.opts.clock.clearTimeout(timer));
  }

  cancel(acpSessionId: string): void {
    if (!this.isAlive) return;
    this.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId: acpSessionId }).catch(() => {});
  }

  /** Ends the process: close stdin, wait, SIGTERM the group, wait, SIGKILL. Idempotent. */
  shutdown(graceMs = 1500): Promise<void> {
    return this.process.shutdown(graceMs);
  }

  /** An error describing why this broker is gone (for in-flight prompts). */
  exitError(): AppError {
    return this.process.exitError();
  }

  /**
   * A request failed. When the connection died with the agent (its stdout closes a moment
   * before its exit is seen), the failure is the agent's exit, with its code and stderr.
   */
  private async failure(err: unknown): Promise<never> {
    if (err instanceof acp.RequestError || err instanceof AppError) throw err;
    if (this.conn.signal.aborted && (await this.process.waitForExit(CONNECTION_LOSS_GRACE_MS))) throw this.exitError();
    throw err;
  }

  private async initialize(): Promise<void> {
    try {
      const res = await Promise.race([
        this.request(
          acp.methods.agent.initialize,
          {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: clientCapabilities(this.handlers),
            clientInfo: { name: 'switchboard', version: '0.1.0' },
          },
          this.opts.initTimeoutMs,
        ),
        this.exited.then(() => Promise.reject(this.exitError())),
      ]);
      this.capabilities = res.agentCapabilities ?? {};
      this.authMethods = res.authMethods ?? [];
      this.initialized = true;
    } catch (err) {
      const error =
        err instanceof AppError
          ? err
          : new AppError('agent_unavailable', `${this.agent.name} failed to start: ${(err as Error).message}`, {
              stderrTail: this.stderrTail,
            });
      void this.shutdown(200);
      throw error;
    }
  }

  /**
   * The ACP stream ended. Normally the agent is exiting; one that stays up without its
   * connection is useless (and would be reused dead), so it is killed: a crash, not a close.
   */
  private async onConnectionClosed(): Promise<void> {
    if (this.process.ending) return;
    if ((await this.process.waitForExit(CONNECTION_LOSS_GRACE_MS)) || this.process.ending) return;
    this.opts.log.warn('agent closed its connection but kept running; killing it', { broker: this.id, agent: this.agent.id });
    this.process.signal('SIGKILL');
  }
}
