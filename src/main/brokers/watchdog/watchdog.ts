import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Disposable } from '../../util/lifecycle';
import type { Logger } from '../../util/log';
import { processStartTime } from '../../util/process-info';
import { encodeMessage, type WatchdogMessage, type WatchedAgent } from './protocol';
import { helperEnv, ownProcess } from '../../util/own-process';

/** Who hears of each agent process from its spawn until its group is gone (BrokerPool). */
export interface AgentWatch {
  track(agent: WatchedAgent): void;
  untrack(id: string): void;
}

export interface WatchdogOptions {
  log: Logger;
  /** The watchdog's script (tests); by default found by `watchdogEntry`. */
  script?: string;
  /** Where the watchdog's stderr goes; it writes only when it acts or fails. */
  logFile?: string;
  /** Restarts after the watchdog died while the host lives on (default 3). */
  maxRestarts?: number;
  /**
   * Start the process with the first agent it must watch, not at once: a host that runs no
   * agent yet (most of its start-up) does not pay for spawning it (ADR 0012: it still hears of
   * every agent, since `track` is what starts it).
   */
  onDemand?: boolean;
}

/**
 * How Node runs the watchdog (under Electron, `ownProcess` turns it into the app's binary in the watchdog role):
 * built next to this bundle (`out/main/watchdog.js`; every chunk sits there), or from source
 * through tsx in tests and development. Undefined when the script is missing.
 */
export function watchdogEntry(script?: string): string[] | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = script ? [script] : [join(here, 'watchdog.js'), join(here, 'main.ts')];
  const found = candidates.find((file) => existsSync(file));
  if (!found) return undefined;
  return found.endsWith('.ts') ? ['--import', 'tsx', found] : [found];
}

/**
 * The host's side of its watchdog (ADR 0012): one small process per host, in a session of its
 * own so a signal to the host's process group spares it, holding the read end of a pipe whose
 * write end only the host has. Every agent spawn and every agent gone is one line down the pipe.
 * However the host dies, the kernel closes the pipe, and the watchdog kills what is recorded.
 *
 * Never in the host's way: the pipe and the process are unref'd (the host exits when it would
 * anyway), and a watchdog that cannot start or keeps dying costs a warning, not the host: the
 * start-up sweep stays as the second line.
 */
export class Watchdog implements AgentWatch, Disposable {
  private child: ChildProcess | undefined;
  private readonly agents = new Map<string, WatchedAgent>();
  private restarts = 0;
  private disposed = false;
  private launched = false;

  private constructor(private readonly opts: WatchdogOptions) {}

  /** Starts the watchdog; never throws (a failure is logged and the host goes on without it). */
  static start(opts: WatchdogOptions): Watchdog {
    const watchdog = new Watchdog(opts);
    if (!opts.onDemand) watchdog.launch();
    // A missing script is said at start either way, not first when an agent starts.
    else if (!watchdogEntry(opts.script)) watchdog.missing();
    return watchdog;
  }

  /** The watchdog's pid while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  track(agent: WatchedAgent): void {
    this.agents.set(agent.id, agent);
    // The first agent starts an on-demand watchdog, which is told of every agent as it starts.
    if (!this.launched && !this.disposed) this.launch();
    else this.send({ op: 'track', ...agent });
  }

  untrack(id: string): void {
    if (this.agents.delete(id)) this.send({ op: 'untrack', id });
  }

  /**
   * Quit, once every agent is shut down: closing the pipe tells the watchdog the host is done.
   * It kills what is still recorded (an agent whose shutdown outlasted the budget), else nothing,
   * and exits.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const child = this.child;
    this.child = undefined;
    child?.stdin?.end();
  }

  private missing(): void {
    this.opts.log.warn('the watchdog is missing; agents would outlive a crash of this host until its next start', {
      script: this.opts.script ?? 'watchdog.js',
    });
  }

  private launch(): void {
    const firstTime = !this.launched;
    this.launched = true;
    const entry = watchdogEntry(this.opts.script);
    if (!entry) {
      // On demand, start() said so already.
      if (!(this.opts.onDemand && firstTime)) this.missing();
      return;
    }
    const hostStart = processStartTime(process.pid);
    let stderr: number | undefined;
    let child: ChildProcess;
    try {
      stderr = this.opts.logFile ? openSync(this.opts.logFile, 'a') : undefined;
      // Node runs the script; the packaged app (RunAsNode fuse off) runs its own binary in the watchdog role.
      const launch = ownProcess('watchdog', entry, ['--host-pid', String(process.pid), ...(hostStart ? ['--host-start', hostStart] : [])]);
      child = spawn(launch.command, launch.args, {
        stdio: ['pipe', 'ignore', stderr ?? 'ignore'],
        env: helperEnv(),
        // Its own session: a signal to the host's group (Ctrl-C, kill -9 -PGID) spares it.
        detached: true,
        windowsHide: true,
      });
    } catch (err) {
      this.opts.log.warn('the watchdog could not start; agents would outlive a crash of this host until its next start', { error: String(err) });
      return;
    } finally {
      if (stderr !== undefined) closeSync(stderr);
    }
    this.child = child;
    child.once('error', (err) => this.onGone(child, { error: err.message }));
    child.once('exit', (code, signal) => this.onGone(child, { code, signal }));
    // A write to a watchdog that died is answered by its 'exit', not by a crash of the host.
    child.stdin?.on('error', () => {});
    // Neither the process nor the pipe keeps the host's event loop alive.
    child.unref();
    (child.stdin as { unref?: () => void } | null)?.unref?.();
    // After a restart the new watchdog hears of every agent still running.
    for (const agent of this.agents.values()) this.send({ op: 'track', ...agent });
  }

  private onGone(child: ChildProcess, how: Record<string, unknown>): void {
    if (this.child !== child) return; // disposed, or already handled ('error' and 'exit')
    this.child = undefined;
    if (this.restarts >= (this.opts.maxRestarts ?? 3)) {
      this.opts.log.warn('the watchdog keeps exiting; agents would outlive a crash of this host until its next start', how);
      return;
    }
    this.restarts++;
    this.opts.log.warn('the watchdog exited; starting it again', how);
    this.launch();
  }

  private send(message: WatchdogMessage): void {
    this.child?.stdin?.write(encodeMessage(message));
  }
}
