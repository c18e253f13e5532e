import * as acp from '@agentclientprotocol/sdk';
import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { AppError } from '../../shared/errors';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import type { AgentDefinition } from './agent-definition';
import { fastPathStream } from './ingest-fast-path';
import { BROKER_ENV, groupAlive, killMarked, processesMarkedWith, processStartTime, signalGroup, signalProcessTree } from './process-info';

export type SpawnFn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;
export const defaultSpawn: SpawnFn = (command, args, options) => nodeSpawn(command, [...args], options);

/** Where a live agent session's traffic goes. `onUpdate` must work synchronously. */
export interface SessionSink {
  readonly cwd: string;
  onUpdate(notification: acp.SessionNotification): void;
  onPermission(request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
}

export interface BrokerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when we asked it to stop (last owner out, host quit). */
  expected: boolean;
  /** The command could not be started at all (not counted as a crash). */
  spawnFailed?: boolean;
  error?: string;
  stderrTail: string[];
}

export interface BrokerOptions {
  id: string;
  agent: AgentDefinition;
  spawn: SpawnFn;
  clock: Clock;
  log: Logger;
  logFile?: string;
  initTimeoutMs: number;
}

const STDERR_TAIL_LINES = 20;
/** Updates for an ACP session id not bound yet are held this long, then dropped. */
const UNCLAIMED_TTL_MS = 120_000;
/** Closed ACP session ids remembered so late output for them is dropped, not held. */
const MAX_CLOSED_IDS = 256;
const UNCLAIMED_MAX = 1_000;
/** An agent whose ACP stream ended gets this long to exit by itself before it is killed. */
const CONNECTION_LOSS_GRACE_MS = 1_000;
/** After the process exits, its last stderr lines get this long to arrive. */
const STDERR_DRAIN_MS = 250;

/**
 * One agent process and its one long-lived ACP connection. Many sessions (ACP session ids)
 * share it; updates are routed to the sink bound to their session id. Updates for an id that
 * is not bound yet (sent while `session/new` is in flight) are held and handed over on bind.
 */
export class Broker {
  readonly id: string;
  readonly agent: AgentDefinition;
  readonly child: ChildProcess;
  readonly pid: number | undefined;
  readonly pidStartTime: string | undefined;
  readonly ready: Promise<void>;
  readonly exited: Promise<BrokerExit>;
  capabilities: acp.AgentCapabilities = {};
  status: 'starting' | 'ready' | 'closing' | 'exited' = 'starting';

  private readonly conn: acp.ClientConnection;
  private readonly sinks = new Map<string, SessionSink>();
  private readonly closedIds = new Set<string>();
  private spawnError: string | undefined;
  private readonly unclaimed = new Map<string, { at: number; updates: acp.SessionNotification[] }>();
  private readonly stderrLines: string[] = [];
  private stderrPartial = '';
  private readonly logStream: WriteStream | undefined;
  private shutdownPromise: Promise<void> | undefined;
  private exitInfo: BrokerExit | undefined;
  /** The process is gone (its exit info follows once its stderr is drained). */
  private exitSeen = false;
  private stderrEnded = false;
  private resolveExit!: (exit: BrokerExit) => void;

  constructor(private readonly opts: BrokerOptions) {
    this.id = opts.id;
    this.agent = opts.agent;
    this.exited = new Promise((r) => (this.resolveExit = r));
    this.logStream = opts.logFile ? createWriteStream(opts.logFile, { flags: 'a' }) : undefined;
    this.logStream?.on('error', () => {});

    this.child = opts.spawn(opts.agent.command, opts.agent.args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so shutdown can signal wrappers and their children together.
      detached: process.platform !== 'win32',
      // The marker is inherited by everything the agent starts: see BROKER_ENV.
      env: { ...process.env, ...opts.agent.env, [BROKER_ENV]: opts.id },
      windowsHide: true,
    });
    this.pid = this.child.pid;
    this.pidStartTime = this.pid ? processStartTime(this.pid) : undefined;
    this.child.stderr?.on('data', (chunk: Buffer) => this.onStderr(chunk));
    this.child.stderr?.on('close', () => (this.stderrEnded = true));
    this.child.on('error', (err) => {
      // A command that can't be started (ENOENT, EACCES) is a setup problem, not a crash.
      if (this.child.pid === undefined) this.spawnError = err.message;
      this.onExit(null, null, err.message);
    });
    this.child.on('exit', (code, signal) => this.onExit(code, signal));
    // Writes to a dead agent's stdin must not crash the host.
    this.child.stdin?.on('error', () => {});

    this.conn = acp
      .client({ name: 'switchboard' })
      .onNotification(acp.methods.client.session.update, ({ params }) => this.route(params))
      .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => {
        const sink = this.sinks.get(params.sessionId);
        // A request for a session nobody holds is answered at once, never left hanging.
        if (!sink || this.status === 'closing') return { outcome: { outcome: 'cancelled' } };
        return sink.onPermission(params, signal);
      })
      .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
        const path = this.checkPath(params.sessionId, params.path);
        const text = await readFile(path, 'utf8');
        if (params.line == null && params.limit == null) return { content: text };
        const lines = text.split('\n');
        const start = Math.max(0, (params.line ?? 1) - 1);
        return { content: lines.slice(start, params.limit == null ? undefined : start + params.limit).join('\n') };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
        const path = this.checkPath(params.sessionId, params.path);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, params.content, 'utf8');
        return {};
      })
      // Some agents send non-standard `_`-prefixed notifications: tolerate them.
      .onNotification('*', () => {})
      // session/update takes the validated-once fast path; every other message the SDK's.
      .connect(
        fastPathStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, this.child.stdout!, {
          onUpdate: (notification) => this.route(notification),
          log: opts.log,
        }),
      );

    this.ready = this.initialize();
    this.ready.catch(() => {});
    void this.conn.closed.then(() => this.onConnectionClosed());
  }

  get isAlive(): boolean {
    return this.status === 'starting' || this.status === 'ready';
  }

  get stderrTail(): string[] {
    return [...this.stderrLines, ...(this.stderrPartial ? [this.stderrPartial] : [])].slice(-STDERR_TAIL_LINES);
  }

  get boundSessions(): number {
    return this.sinks.size;
  }

  /** Routes updates for `acpSessionId` to `sink`, first handing over any held ones, in order. */
  bind(acpSessionId: string, sink: SessionSink): void {
    this.closedIds.delete(acpSessionId);
    this.sinks.set(acpSessionId, sink);
    const held = this.unclaimed.get(acpSessionId);
    if (!held) return;
    this.unclaimed.delete(acpSessionId);
    for (const update of held.updates) sink.onUpdate(update);
  }

  unbind(acpSessionId: string, sink?: SessionSink): void {
    if (sink && this.sinks.get(acpSessionId) !== sink) return;
    this.sinks.delete(acpSessionId);
  }

  /**
   * A session closed on our side: what the agent still sends for it (the rest of a cancelled
   * stream) is dropped, never held for a later resume of the same id to pick up.
   */
  closeSession(acpSessionId: string, sink: SessionSink): void {
    this.unbind(acpSessionId, sink);
    this.unclaimed.delete(acpSessionId);
    this.closedIds.add(acpSessionId);
    if (this.closedIds.size > MAX_CLOSED_IDS) this.closedIds.delete(this.closedIds.values().next().value as string);
  }

  /** Drops updates held for an id that will never be bound (a failed session/new). */
  dropUnclaimed(acpSessionId: string): void {
    this.unclaimed.delete(acpSessionId);
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

  /**
   * A request failed. When the connection died with the agent (its stdout closes a moment
   * before its exit is seen), the failure is the agent's exit, with its code and stderr.
   */
  private async failure(err: unknown): Promise<never> {
    if (err instanceof acp.RequestError || err instanceof AppError) throw err;
    if (this.conn.signal.aborted && (await this.waitForExit(CONNECTION_LOSS_GRACE_MS))) throw this.exitError();
    throw err;
  }

  cancel(acpSessionId: string): void {
    if (!this.isAlive) return;
    this.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId: acpSessionId }).catch(() => {});
  }

  /** Ends the process: close stdin, wait, SIGTERM the group, wait, SIGKILL. Idempotent. */
  shutdown(graceMs = 1500): Promise<void> {
    this.shutdownPromise ??= this.doShutdown(graceMs);
    return this.shutdownPromise;
  }

  /** An error describing why this broker is gone (for in-flight prompts). */
  exitError(): AppError {
    if (this.spawnError) {
      return new AppError('agent_unavailable', `Could not start ${this.agent.name} (\`${this.agent.command}\`): ${this.spawnError}`, {
        stderrTail: this.stderrTail,
      });
    }
    const exit = this.exitInfo;
    const how = exit?.error
      ? exit.error
      : exit?.signal
        ? `was killed by ${exit.signal}`
        : exit
          ? `exited with code ${exit.code}`
          : this.exitSeen
            ? 'exited'
            : 'is shutting down';
    return new AppError('agent_exited', `${this.agent.name} ${how}`, { stderrTail: this.stderrTail });
  }

  private async initialize(): Promise<void> {
    try {
      const res = await Promise.race([
        this.request(
          acp.methods.agent.initialize,
          {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
            clientInfo: { name: 'switchboard', version: '0.1.0' },
          },
          this.opts.initTimeoutMs,
        ),
        this.exited.then(() => Promise.reject(this.exitError())),
      ]);
      this.capabilities = res.agentCapabilities ?? {};
      if (this.status === 'starting') this.status = 'ready';
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

  private route(notification: acp.SessionNotification): void {
    const sink = this.sinks.get(notification.sessionId);
    if (sink) return sink.onUpdate(notification);
    if (this.closedIds.has(notification.sessionId)) return;
    const now = this.opts.clock.now();
    // Age counts from the latest update: a slow session/new keeps what it sent first.
    for (const [id, held] of this.unclaimed) if (now - held.at > UNCLAIMED_TTL_MS) this.unclaimed.delete(id);
    const held = this.unclaimed.get(notification.sessionId) ?? { at: now, updates: [] };
    if (held.updates.length >= UNCLAIMED_MAX) return;
    held.at = now;
    held.updates.push(notification);
    this.unclaimed.set(notification.sessionId, held);
  }

  /** File requests stay inside the session's working folder. */
  private checkPath(acpSessionId: string, path: string): string {
    const sink = this.sinks.get(acpSessionId);
    if (!sink) throw acp.RequestError.sessionNotFound(acpSessionId);
    const abs = resolve(sink.cwd, path);
    const rel = relative(sink.cwd, abs);
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw acp.RequestError.invalidParams(undefined, `${path} is outside the session folder ${sink.cwd}`);
    }
    return abs;
  }

  private onStderr(chunk: Buffer): void {
    this.logStream?.write(chunk);
    const text = this.stderrPartial + chunk.toString('utf8');
    const lines = text.split('\n');
    this.stderrPartial = lines.pop() ?? '';
    for (const line of lines) {
      this.stderrLines.push(line);
      if (this.stderrLines.length > STDERR_TAIL_LINES) this.stderrLines.shift();
    }
  }

  /** Exited, or being shut down on purpose. */
  private get ending(): boolean {
    return this.exitSeen || this.status === 'closing';
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null, error?: string): void {
    if (this.exitSeen) return;
    this.exitSeen = true;
    const expected = this.status === 'closing';
    this.status = 'exited';
    // 'exit' can come before the last stderr lines (the crash message) are read. A real timer:
    // this waits on the operating system, not on the host's (possibly fake) time.
    const finish = (): void => {
      this.exitInfo = {
        code,
        signal,
        expected,
        stderrTail: this.stderrTail,
        ...(error ? { error } : {}),
        ...(this.spawnError ? { spawnFailed: true } : {}),
      };
      this.conn.close(this.exitError());
      this.sinks.clear();
      this.unclaimed.clear();
      this.logStream?.end();
      this.opts.log.info('agent exited', { broker: this.id, agent: this.agent.id, code, signal, expected });
      this.resolveExit(this.exitInfo);
    };
    if (this.stderrEnded || !this.child.stderr) return finish();
    const timer = setTimeout(finish, STDERR_DRAIN_MS);
    timer.unref();
    this.child.stderr.once('close', () => {
      clearTimeout(timer);
      finish();
    });
  }

  /**
   * The ACP stream ended. Normally the agent is exiting; one that stays up without its
   * connection is useless (and would be reused dead), so it is killed: a crash, not a close.
   */
  private async onConnectionClosed(): Promise<void> {
    if (this.ending) return;
    if ((await this.waitForExit(CONNECTION_LOSS_GRACE_MS)) || this.ending) return;
    this.opts.log.warn('agent closed its connection but kept running; killing it', { broker: this.id, agent: this.agent.id });
    this.signal('SIGKILL');
  }

  private async doShutdown(graceMs: number): Promise<void> {
    if (this.status !== 'exited') this.status = 'closing';
    if (this.exitSeen) {
      await this.exited;
    } else {
      this.child.stdin?.end();
      if (!(await this.waitForExit(graceMs))) {
        this.signal('SIGTERM');
        if (!(await this.waitForExit(graceMs))) {
          this.signal('SIGKILL');
          await this.waitForExit(2000);
        }
      }
    }
    await this.killLeftovers(graceMs);
  }

  /** Signals the agent's whole process group; the agent alone if it leads none (a custom spawn). */
  private signal(signal: NodeJS.Signals): void {
    const pid = this.pid;
    if (!pid) return;
    if (process.platform === 'win32') return signalProcessTree(pid, signal);
    if (!signalGroup(pid, signal) && !this.exitSeen) this.child.kill(signal);
  }

  /**
   * Wrappers (npx, shells) and crashed agents leave helpers behind: first the rest of the
   * process group, then (Linux) anything still carrying this broker's id, e.g. a helper
   * that started its own session.
   */
  private async killLeftovers(graceMs: number): Promise<void> {
    const pid = this.pid;
    if (!pid || process.platform === 'win32') return;
    if (groupAlive(pid)) {
      signalGroup(pid, 'SIGTERM');
      if (!(await this.waitFor(() => !groupAlive(pid), graceMs))) {
        signalGroup(pid, 'SIGKILL');
        await this.waitFor(() => !groupAlive(pid), 2000);
      }
    }
    if (killMarked([this.id]) > 0) {
      this.opts.log.warn('killed processes the agent left behind', { broker: this.id, agent: this.agent.id });
      await this.waitFor(() => processesMarkedWith([this.id]).size === 0, 2000);
    }
  }

  private async waitForExit(ms: number): Promise<boolean> {
    if (this.exitInfo) return true;
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    const timeout = new Promise<false>((r) => (timer = this.opts.clock.setTimeout(() => r(false), ms)));
    const result = await Promise.race([this.exited.then(() => true as const), timeout]);
    if (timer) this.opts.clock.clearTimeout(timer);
    return result;
  }

  private async waitFor(done: () => boolean, ms: number): Promise<boolean> {
    const end = this.opts.clock.now() + ms;
    while (!done()) {
      if (this.opts.clock.now() >= end) return false;
      await new Promise<void>((r) => this.opts.clock.setTimeout(r, 25));
    }
    return true;
  }
}
