import type * as acp from '@agentclientprotocol/sdk';
import type { ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { AppError } from '../../shared/errors';
import type { AgentDefinition } from './agent-definition';
import { AgentLogFeed } from './agent-log-feed';
import { AgentProcess, type AgentProcessOptions, type BrokerExit } from './agent-process';
import { clientCapabilities, type ClientRequestHandlers } from './client-handlers';
import { terminalAuthHandlers } from './auth-capability';
import { configOptionHandlers } from './config-options';
import { elicitationHandlers } from './elicitation-handlers';
import { fsHandlers } from './fs-handlers';
import { BROKER_ENV } from '../util/process-info';
import { terminalHandlers } from './terminal-handlers';
import { TerminalManager } from './terminals/terminal-manager';
import { UpdateRouter, type SessionSink } from './update-router';
import { fastPathStream } from './ingest-fast-path';
import type { ProtocolHistory } from './protocol-history';
import { acpSdk } from '../util/acp-sdk';
import type { TimerHandle } from '../util/clock';

export { defaultSpawn, type BrokerExit, type SpawnFn } from './agent-process';

/**
 * `inner`, with each chunk handed to `onChunk` before it is written. Outgoing messages are few
 * (requests, answers); a wrapper costs one call each.
 */
function tapped(inner: WritableStream<Uint8Array>, onChunk: (chunk: Uint8Array) => void): WritableStream<Uint8Array> {
  const writer = inner.getWriter();
  return new WritableStream<Uint8Array>({
    write: (chunk) => {
      onChunk(chunk);
      return writer.write(chunk);
    },
    close: () => writer.close(),
    abort: (reason: unknown) => writer.abort(reason),
  });
}

function describeExit(exit: BrokerExit): string {
  if (exit.error) return `The agent process ended: ${exit.error}`;
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  return `The agent process ${how}${exit.expected ? ' (stopped by Switchboard)' : ''}`;
}
export type { SessionSink } from './update-router';

export interface BrokerOptions extends Omit<AgentProcessOptions, 'onDidExit' | 'onStderrLines'> {
  initTimeoutMs: number;
  /** Where the agent's stderr (and Switchboard's lines about it) are written. */
  logFile?: string;
  /** Start with the protocol tap on (the `logProtocol` setting). */
  logProtocol?: boolean;
  /** Keeps the last traffic of every agent for the crash log, whatever the tap says. */
  history?: ProtocolHistory;
}

export type BrokerStatus = 'starting' | 'ready' | 'closing' | 'exited';

/**
 * How long a request may wait: a deadline in ms, or a deadline and/or a signal of the caller's.
 * Either cancels the request on the wire (`$/cancel_request`); `keepWaitingOnCancel` still
 * waits for the agent's answer after that (a `session/new` whose late session must be closed).
 */
export type RequestLimit = number | { timeoutMs?: number; signal?: AbortSignal; keepWaitingOnCancel?: boolean };

/** An agent whose ACP stream ended gets this long to exit by itself before it is killed. */
const CONNECTION_LOSS_GRACE_MS = 1_000;

/**
 * One agent process and its one long-lived ACP connection, shared by many sessions (ACP
 * session ids). It composes the process and its shutdown ladder (`AgentProcess`), routing by
 * ACP session id (`UpdateRouter`) and the client-side request handlers (`fs-handlers.ts`).
 */
export class Broker {
  readonly id: string;
  readonly agent: AgentDefinition;
  readonly ready: Promise<void>;
  readonly exited: Promise<BrokerExit>;
  capabilities: acp.AgentCapabilities = {};
  /** The agent's whole `initialize` answer (agentInfo, protocolVersion, authMethods), once ready. */
  initializeResponse: acp.InitializeResponse | undefined;
  /** Its stderr and, while the tap is on, its ACP messages: the session's Agent log. */
  readonly logFeed: AgentLogFeed;
  /** How the agent says a person can sign in (`initialize`'s `authMethods`), as sent. */
  authMethods: readonly unknown[] = [];

  private readonly process: AgentProcess;
  private readonly router: UpdateRouter;
  private readonly handlers: readonly ClientRequestHandlers[];
  /** Commands the agent runs through `terminal/*`; each dies with its session or this agent. */
  readonly terminals: TerminalManager;
  private readonly conn: acp.ClientConnection;
  private initialized = false;
  /** How to give up on each request still waiting for the agent (see `send`). */
  private readonly inFlight = new Set<(reason: 'timeout' | 'caller' | 'abandoned') => void>();
  /** `session/close` requests the agent has not answered yet, by ACP session id (`closeAgentSession`). */
  private readonly unansweredCloses = new Map<string, Promise<void>>();

  constructor(private readonly opts: BrokerOptions) {
    this.id = opts.id;
    this.agent = opts.agent;
    this.router = new UpdateRouter(opts.clock);
    this.logFeed = new AgentLogFeed(opts.clock, opts.logFile);
    this.logFeed.setProtocol(opts.logProtocol ?? false);
    this.process = new AgentProcess({
      ...opts,
      onStderrLines: (lines) => this.logFeed.stderr(lines),
      onDidExit: (exit) => {
        this.terminals.dispose();
        this.conn.close(this.exitError());
        this.router.clear();
        this.logFeed.note(describeExit(exit));
        this.logFeed.dispose();
      },
    });
    this.exited = this.process.exited;
    this.terminals = new TerminalManager(opts.clock);
    const scopeOf = (acpSessionId: string) => this.router.sinkFor(acpSessionId);
    // Terminals carry the broker id like the agent's own helpers: the watchdog and the orphan
    // sweep find them even if the host dies without a chance to kill them.
    this.handlers = [
      fsHandlers(scopeOf),
      terminalHandlers(scopeOf, {
        terminals: this.terminals,
        fixedEnv: { [BROKER_ENV]: opts.id },
        // What the agent itself was given: a terminal never sees more than its agent.
        baseEnv: { ...(opts.inheritedEnv ?? process.env), ...opts.agent.env },
      }),
      configOptionHandlers,
      terminalAuthHandlers,
      elicitationHandlers({
        sinkFor: scopeOf,
        sinks: () => this.router.allSinks(),
        closing: () => this.status === 'closing',
        unscoped: (message) => this.logFeed.note(message),
      }),
    ];

    const app = acpSdk()
      .client({ name: 'switchboard' })
      .onNotification(acpSdk().methods.client.session.update, ({ params }) => this.router.route(params))
      .onRequest(acpSdk().methods.client.session.requestPermission, ({ params, signal }) => {
        const sink = this.router.sinkFor(params.sessionId);
        // A request for a session nobody holds is answered at once, never left hanging.
        if (!sink || this.status === 'closing') return { outcome: { outcome: 'cancelled' } };
        return sink.onPermission(params, signal);
      });
    for (const group of this.handlers) group.register(app);
    // Some agents send non-standard `_`-prefixed notifications (tolerated), and requests we
    // have no handler for (answered method-not-found, as the SDK would): both are logged by name.
    // session/update takes the validated-once fast path; every other message the SDK's.
    this.conn = app
      .onNotification('*', ({ method }) => this.unknownMethod('notification', method))
      .onRequest('*', ({ method }) => {
        this.unknownMethod('request', method);
        throw acpSdk().RequestError.methodNotFound(method);
      })
      .connect(
        fastPathStream(
          tapped(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, (chunk) => this.onChunk('out', chunk)),
          this.child.stdout!,
          {
            onUpdate: (notification) => this.router.route(notification),
            onBytes: (chunk) => this.onChunk('in', chunk),
            log: opts.log,
          },
        ),
      );

    this.ready = this.initialize();
    // Whoever waits on `ready` gets its failure; this only keeps a failure nobody waited for yet
    // from being reported as unhandled (the exit and its reason are recorded by `onDidExit`).
    this.ready.catch(() => {});
    void this.conn.closed.then(() => this.onConnectionClosed());
  }

  get child(): ChildProcess {
    return this.process.child;
  }

  private onChunk(direction: 'in' | 'out', chunk: Uint8Array): void {
    this.opts.history?.record(this.id, this.agent.id, direction, chunk);
    this.logFeed.tap(direction, chunk);
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

  /** A session closed on our side: late output for it is dropped (see UpdateRouter). */
  closeSession(acpSessionId: string, sink: SessionSink): void {
    if (this.router.sinkFor(acpSessionId) === sink) this.terminals.killSession(acpSessionId);
    this.router.closeSession(acpSessionId, sink);
  }

  /** Drops updates held for an id that will never be bound (a failed session/new). */
  dropUnclaimed(acpSessionId: string): void {
    this.router.dropUnclaimed(acpSessionId);
  }

  /**
   * A request to the agent. `session/close` is never cancelled on the wire: past its deadline
   * the caller stops waiting, but the request stays, and `closeAnswered` waits for its answer
   * before the session is opened again on this process (`closeAgentSession`).
   */
  request<M extends acp.AgentRequestMethod>(
    method: M,
    params: acp.AgentRequestParamsByMethod[M],
    limit?: RequestLimit,
  ): Promise<acp.AgentRequestResponsesByMethod[M]> {
    if (method === acpSdk().methods.agent.session.close) {
      return this.closeAgentSession((params as acp.CloseSessionRequest).sessionId, limit) as Promise<acp.AgentRequestResponsesByMethod[M]>;
    }
    return this.send(method, params, limit) as Promise<acp.AgentRequestResponsesByMethod[M]>;
  }

  /**
   * Tells the agent `acpSessionId` is closed (`session/close`). Resolves when it answers; rejects
   * after `timeoutMs`, without cancelling the request: an agent may finish a close it began
   * whatever it is told, so the request stays on the wire, and `closeAnswered` waits for its
   * answer before the session is opened again on this process. (Opened at once, the late close
   * could land after the resume and drop the session the next prompt goes to.)
   */
  private closeAgentSession(acpSessionId: string, limit: RequestLimit | undefined): Promise<acp.CloseSessionResponse> {
    const timeoutMs = typeof limit === 'number' ? limit : limit?.timeoutMs;
    const wire = this.send(acpSdk().methods.agent.session.close, { sessionId: acpSessionId }, { keepWaitingOnCancel: true }) as Promise<acp.CloseSessionResponse>;
    const answered: Promise<void> = wire
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (this.unansweredCloses.get(acpSessionId) === answered) this.unansweredCloses.delete(acpSessionId);
      });
    this.unansweredCloses.set(acpSessionId, answered);
    if (!timeoutMs) return wire;
    return new Promise<acp.CloseSessionResponse>((resolve, reject) => {
      const timer = this.opts.clock.setTimeout(() => reject(new AppError('agent_error', `${this.agent.name} did not answer session/close within ${timeoutMs} ms`)), timeoutMs);
      timer?.unref?.();
      wire.then(resolve, reject).finally(() => this.opts.clock.clearTimeout(timer));
    });
  }

  /**
   * True once no `session/close` of `acpSessionId` waits for the agent's answer (at once when
   * none does); false when one still waits after `maxMs` (an agent that never answers it).
   */
  async closeAnswered(acpSessionId: string, maxMs: number): Promise<boolean> {
    const waiting = this.unansweredCloses.get(acpSessionId);
    if (!waiting) return true;
    let timer: TimerHandle | undefined;
    const gaveUp = new Promise<false>((resolve) => {
      timer = this.opts.clock.setTimeout(() => resolve(false), maxMs);
      timer?.unref?.();
    });
    try {
      return await Promise.race([waiting.then(() => true as const), gaveUp]);
    } finally {
      if (timer !== undefined) this.opts.clock.clearTimeout(timer);
    }
  }

  /**
   * A request by a method name the SDK does not list (an unstable one such as
   * `session/set_model`): sent as is, its answer unchecked (the caller parses it).
   */
  requestUnlisted(method: string, params: Record<string, unknown>, limit?: RequestLimit): Promise<unknown> {
    return this.send(method, params, limit);
  }

  /**
   * Every request still waiting for the agent is cancelled on the wire (`$/cancel_request`):
   * the broker is being torn down, so nobody will read their answers. Returns how many.
   */
  abandonRequests(): number {
    const waiting = [...this.inFlight];
    for (const stop of waiting) stop('abandoned');
    return waiting.length;
  }

  /**
   * Each request can be given up on (a deadline, the caller's signal, the broker's teardown):
   * then the agent is sent `$/cancel_request` for it, so it need not finish work nobody reads.
   * The caller stops waiting at once, unless `keepWaitingOnCancel` (it still wants the answer).
   */
  private send(method: string, params: unknown, limit: RequestLimit | undefined): Promise<unknown> {
    if (!this.isAlive) return Promise.reject(this.exitError());
    const { timeoutMs, signal, keepWaitingOnCancel } = typeof limit === 'number' ? { timeoutMs: limit } : (limit ?? {});
    const abort = new AbortController();
    let why: 'timeout' | 'caller' | 'abandoned' | undefined;
    const stop = (reason: 'timeout' | 'caller' | 'abandoned'): void => {
      if (abort.signal.aborted) return;
      why = reason;
      abort.abort();
    };
    const timer = timeoutMs ? this.opts.clock.setTimeout(() => stop('timeout'), timeoutMs) : undefined;
    timer?.unref?.();
    const onCaller = (): void => stop('caller');
    signal?.addEventListener('abort', onCaller, { once: true });
    this.inFlight.add(stop);
    const request = this.conn.agent.request(method, params, { cancellationSignal: abort.signal, stopWaitingOnCancel: !keepWaitingOnCancel });
    // An already-aborted signal: the SDK sends the request and its cancel at once.
    if (signal?.aborted) stop('caller');
    return request
      .catch((err: unknown) => {
        if (why === 'timeout') throw new AppError('agent_error', `${this.agent.name} did not answer ${method} within ${timeoutMs} ms`);
        if (why === 'abandoned' && !keepWaitingOnCancel) throw new AppError('agent_exited', `${this.agent.name} was stopped before it answered ${method}`);
        if (why === 'caller' && !keepWaitingOnCancel) throw new AppError('invalid_state', `Switchboard stopped waiting for ${method}`);
        return this.failure(err);
      })
      .finally(() => {
        this.inFlight.delete(stop);
        if (timer) this.opts.clock.clearTimeout(timer);
        signal?.removeEventListener('abort', onCaller);
      });
  }

  cancel(acpSessionId: string): void {
    if (!this.isAlive) return;
    this.conn.agent.notify(acpSdk().methods.agent.session.cancel, { sessionId: acpSessionId }).catch((err: unknown) => {
      // The connection closed meanwhile: the turn ends with the agent's exit instead.
      this.opts.log.debug('session/cancel not delivered', { agent: this.agent.id, acpSession: acpSessionId, error: String(err) });
    });
  }

  /**
   * Ends the process: close stdin, wait, SIGTERM the group, wait, SIGKILL. Idempotent. Requests
   * still waiting are cancelled on the wire first; the connection queues their `$/cancel_request`
   * behind a promise, so they are given one turn of the event loop to reach the pipe before it ends.
   */
  shutdown(graceMs = 1500): Promise<void> {
    this.terminals.dispose();
    if (this.process.ending || this.abandonRequests() === 0) return this.process.shutdown(graceMs);
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.process.shutdown(graceMs));
  }

  /** An error describing why this broker is gone (for in-flight prompts). */
  exitError(): AppError {
    return this.process.exitError();
  }

  /** Turns recording of every ACP message to and from this agent on or off. */
  setProtocolLog(on: boolean): void {
    this.logFeed.setProtocol(on);
  }

  private unknownMethod(message: 'request' | 'notification', method: string): void {
    if (!this.logFeed.unknownMethod(message, method)) return;
    // Once per name and process: an agent repeats its extensions on every turn.
    const fields = { broker: this.id, agent: this.agent.id, method };
    if (message === 'notification' && method.startsWith('_')) this.opts.log.info('agent sent an extension notification we do not handle', fields);
    else this.opts.log.warn(`agent sent an unknown ${message}`, fields);
  }

  /**
   * A request failed. When the connection died with the agent (its stdout closes a moment
   * before its exit is seen), the failure is the agent's exit, with its code and stderr.
   */
  private async failure(err: unknown): Promise<never> {
    if (err instanceof acpSdk().RequestError || err instanceof AppError) throw err;
    if (this.conn.signal.aborted && (await this.process.waitForExit(CONNECTION_LOSS_GRACE_MS))) throw this.exitError();
    throw err;
  }

  private async initialize(): Promise<void> {
    try {
      const res = await Promise.race([
        this.request(
          acpSdk().methods.agent.initialize,
          {
            protocolVersion: acpSdk().PROTOCOL_VERSION,
            clientCapabilities: clientCapabilities(this.handlers),
            clientInfo: { name: 'switchboard', version: '0.1.0' },
          },
          this.opts.initTimeoutMs,
        ),
        this.exited.then(() => Promise.reject(this.exitError())),
      ]);
      this.capabilities = res.agentCapabilities ?? {};
      this.initializeResponse = res;
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
