import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { AppError } from '../../shared/errors';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import type { AgentDefinition } from './agent-definition';
import { BROKER_ENV, groupAlive, killMarked, processesMarkedWith, processStartTime, signalGroup, signalProcessTree } from '../util/process-info';

export type SpawnFn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;
export const defaultSpawn: SpawnFn = (command, args, options) => nodeSpawn(command, [...args], options);

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

export interface AgentProcessOptions {
  /** The broker id: logged, and set as BROKER_ENV in the agent's environment. */
  id: string;
  agent: AgentDefinition;
  /**
   * What the agent inherits of Switchboard's environment, already stripped of what is not its
   * own (`agentEnvironment`); its definition's variables are added on top. Default: all of it.
   */
  inheritedEnv?: NodeJS.ProcessEnv;
  spawn: SpawnFn;
  clock: Clock;
  log: Logger;
  /** Complete lines the agent wrote to stderr, as they arrive (the last partial one at exit). */
  onStderrLines?(lines: string[]): void;
  /**
   * Runs synchronously once the exit is known, before `exited` resolves: whoever talks to the
   * process (the ACP connection) fails its pending work before anyone hears of the exit.
   */
  onDidExit(exit: BrokerExit): void;
}

/** `running` until shutdown begins (`closing`) or the process is gone (`exited`). */
export type AgentProcessState = 'running' | 'closing' | 'exited';

const STDERR_TAIL_LINES = 20;
/** After the process exits, its last stderr lines get this long to arrive. */
const STDERR_DRAIN_MS = 250;

/**
 * One agent process in its own process group: its stderr tail, how it exited, and the
 * shutdown ladder (end stdin, wait, SIGTERM the group, wait, SIGKILL, then the leftovers).
 * It knows nothing of ACP; the broker speaks ACP over its stdio.
 */
export class AgentProcess {
  readonly child: ChildProcess;
  readonly pid: number | undefined;
  readonly pidStartTime: string | undefined;
  readonly exited: Promise<BrokerExit>;
  private current: AgentProcessState = 'running';
  private spawnError: string | undefined;
  private readonly stderrLines: string[] = [];
  private stderrPartial = '';
  private stderrEnded = false;
  private shutdownPromise: Promise<void> | undefined;
  private exitInfo: BrokerExit | undefined;
  private resolveExit!: (exit: BrokerExit) => void;

  constructor(private readonly opts: AgentProcessOptions) {
    this.exited = new Promise((r) => (this.resolveExit = r));

    this.child = opts.spawn(opts.agent.command, opts.agent.args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so shutdown can signal wrappers and their children together.
      detached: process.platform !== 'win32',
      // The marker is inherited by everything the agent starts: see BROKER_ENV.
      env: { ...(opts.inheritedEnv ?? process.env), ...opts.agent.env, [BROKER_ENV]: opts.id },
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
  }

  get state(): AgentProcessState {
    return this.current;
  }

  /** Exited, or being shut down on purpose. */
  get ending(): boolean {
    return this.current !== 'running';
  }

  get stderrTail(): string[] {
    return [...this.stderrLines, ...(this.stderrPartial ? [this.stderrPartial] : [])].slice(-STDERR_TAIL_LINES);
  }

  /** An error describing why this process is gone (for in-flight requests). */
  exitError(): AppError {
    const { agent } = this.opts;
    if (this.spawnError) {
      return new AppError('agent_unavailable', `Could not start ${agent.name} (\`${agent.command}\`): ${this.spawnError}`, {
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
          : this.current === 'exited'
            ? 'exited'
            : 'is shutting down';
    return new AppError('agent_exited', `${agent.name} ${how}`, { stderrTail: this.stderrTail });
  }

  /** Ends the process: close stdin, wait, SIGTERM the group, wait, SIGKILL. Idempotent. */
  shutdown(graceMs: number): Promise<void> {
    this.shutdownPromise ??= this.doShutdown(graceMs);
    return this.shutdownPromise;
  }

  /** Signals the agent's whole process group; the agent alone if it leads none (a custom spawn). */
  signal(signal: NodeJS.Signals): void {
    const pid = this.pid;
    if (!pid) return;
    if (process.platform === 'win32') return signalProcessTree(pid, signal);
    if (!signalGroup(pid, signal) && this.current !== 'exited') this.child.kill(signal);
  }

  /** True once the exit is known (within `ms` of the host's clock), else false. */
  async waitForExit(ms: number): Promise<boolean> {
    if (this.exitInfo) return true;
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    const timeout = new Promise<false>((r) => (timer = this.opts.clock.setTimeout(() => r(false), ms)));
    const result = await Promise.race([this.exited.then(() => true as const), timeout]);
    if (timer) this.opts.clock.clearTimeout(timer);
    return result;
  }

  private onStderr(chunk: Buffer): void {
    const text = this.stderrPartial + chunk.toString('utf8');
    const lines = text.split('\n');
    this.stderrPartial = lines.pop() ?? '';
    for (const line of lines) {
      this.stderrLines.push(line);
      if (this.stderrLines.length > STDERR_TAIL_LINES) this.stderrLines.shift();
    }
    if (lines.length > 0) this.opts.onStderrLines?.(lines);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null, error?: string): void {
    if (this.current === 'exited') return;
    const expected = this.current === 'closing';
    this.current = 'exited';
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
      // A last line without its newline (a crash message) is still part of the log.
      if (this.stderrPartial) this.opts.onStderrLines?.([this.stderrPartial]);
      this.opts.onDidExit(this.exitInfo);
      this.opts.log.info('agent exited', { broker: this.opts.id, agent: this.opts.agent.id, code, signal, expected });
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

  private async doShutdown(graceMs: number): Promise<void> {
    if (this.current === 'exited') {
      await this.exited;
    } else {
      this.current = 'closing';
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
    if (killMarked([this.opts.id]) > 0) {
      this.opts.log.warn('killed processes the agent left behind', { broker: this.opts.id, agent: this.opts.agent.id });
      await this.waitFor(() => processesMarkedWith([this.opts.id]).size === 0, 2000);
    }
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
