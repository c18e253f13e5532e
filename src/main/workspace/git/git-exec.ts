/**
 * git's processes are started by a small helper process (`git-runner.mjs`), not by the host.
 * Starting a process from the host blocks the host: libuv forks the whole host, its event loop
 * waits until the child has exec'd, and afterwards every page the host writes faults once, the
 * kernel having marked them all copy-on-write. A worktree session checkpointed, reviewed and
 * merged made its event loop wait 50–80 ms at a time (`host_loop_*_git`, ADR 0033); a worker
 * thread starting them cut that only to 45–65 ms (a fork stalls every thread of the process).
 * The helper is small, so forking it is cheap, and it is another process: the host only writes
 * a line and reads one.
 *
 * One helper serves every `Git` of the process: started on the first call; holding the host's
 * event loop up only while calls are in flight; retired after `IDLE_MS` without a call (its
 * stdin is closed, so it exits; the next call starts another), so a host left open for days
 * keeps no process it is not using, and closing every session leaves none behind; gone with
 * the host (it exits when its stdin closes, and stops what it runs); a helper that died fails
 * its calls in flight and the next call starts another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NdJsonSplitter } from '../../util/ndjson-splitter';
import { helperEnv, ownProcess } from '../../util/own-process';

export interface ExecRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxBytes: number;
  /** Written to the child's stdin, which is then closed (at once without it). */
  stdin?: string | Buffer;
}

/** What `execFile`'s callback got, as data: the error's fields and the output read. */
export interface ExecResult {
  error?: { message: string; code?: string | number; signal?: string | null; killed?: boolean; syscall?: string };
  stdout: Buffer;
  stderr: Buffer;
  /** The child closed its stdin before reading all of it (a refused call): logged, not thrown. */
  stdinError?: string;
}

/** One line each way: the request (stdin as text or base64), the answer (output in base64). */
export interface RunnerRequest extends Omit<ExecRequest, 'stdin'> {
  id: number;
  stdinText?: string;
  stdinBase64?: string;
}
export interface RunnerReply extends Omit<ExecResult, 'stdout' | 'stderr'> {
  id: number;
  stdout: string;
  stderr: string;
}

/** How Node runs the helper: its built script beside this bundle, or its source (plain JavaScript). */
export function gitRunnerEntry(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, 'git-runner.js');
  return [existsSync(built) ? built : join(here, 'git-runner.mjs')];
}

type Pending = { resolve(result: ExecResult): void; reject(err: Error): void };

/**
 * How long an idle helper is kept for the next call. git's calls come in bursts (a turn's
 * checkpoint, the Changes panel, a merge), each of dozens of calls: one start of the helper a
 * burst, where each call started a process before.
 */
export const IDLE_MS = 5_000;

/** Far above any answer: git's output is capped at 64 MB a call, base64 makes that 86. */
const MAX_REPLY_BYTES = 1 << 30;

class GitRunner {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idle: NodeJS.Timeout | undefined;

  run(request: ExecRequest): Promise<ExecResult> {
    return new Promise<ExecResult>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = this.started();
      } catch (err) {
        return reject(err instanceof Error ? err : new Error(String(err)));
      }
      const id = this.nextId++;
      clearTimeout(this.idle);
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.hold(child, true);
      const { stdin, ...rest } = request;
      const line: RunnerRequest = { ...rest, id, ...(typeof stdin === 'string' ? { stdinText: stdin } : stdin ? { stdinBase64: stdin.toString('base64') } : {}) };
      child.stdin?.write(`${JSON.stringify(line)}\n`);
    });
  }

  /** Ends the helper now (tests: a helper that died); calls in flight fail. */
  stop(): void {
    this.child?.kill('SIGKILL');
  }

  /** The helper's pid, if it runs (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private started(): ChildProcess {
    if (this.child) return this.child;
    // Node runs the script; the packaged app (RunAsNode fuse off) runs its own binary in the role.
    const launch = ownProcess('git-runner', gitRunnerEntry(), []);
    const child = spawn(launch.command, launch.args, { stdio: ['pipe', 'pipe', 'inherit'], env: helperEnv(), windowsHide: true });
    this.child = child;
    const splitter = new NdJsonSplitter(
      {
        line: (bytes, start, end) => {
          let reply: RunnerReply;
          try {
            reply = JSON.parse(bytes.toString('utf8', start, end)) as RunnerReply;
          } catch {
            // Never a throw on the host's loop: the helper is replaced, its calls fail.
            return this.gone(child, 'an answer that is not JSON');
          }
          this.answer(reply);
        },
        raw: () => this.gone(child, 'an answer too long to read'),
      },
      MAX_REPLY_BYTES,
    );
    child.stdout?.on('data', (chunk: Buffer) => splitter.push(chunk));
    // A write to a helper that died is answered by its 'exit'.
    child.stdin?.on('error', () => {});
    child.once('error', (err) => this.gone(child, err.message));
    child.once('exit', (code, signal) => this.gone(child, signal ? `signal ${signal}` : `exit ${code}`));
    this.hold(child, false);
    return child;
  }

  /** Whether the helper and its pipes keep the host's event loop up: only while calls are in flight. */
  private hold(child: ChildProcess, busy: boolean): void {
    for (const handle of [child, child.stdin, child.stdout] as ({ ref?(): void; unref?(): void } | null)[]) {
      if (busy) handle?.ref?.();
      else handle?.unref?.();
    }
  }

  /** No call in flight: the helper no longer holds the host up, and is retired if none comes. */
  private rest(child: ChildProcess): void {
    this.hold(child, false);
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.retire(child), IDLE_MS);
    this.idle.unref();
  }

  /**
   * Closes an idle helper's stdin, which ends it. It is let go first, so a call that comes
   * while it exits starts another, and its exit fails nothing (no call of its is in flight).
   */
  private retire(child: ChildProcess): void {
    if (this.child !== child || this.pending.size > 0) return;
    this.child = undefined;
    child.stdin?.end();
  }

  private answer(reply: RunnerReply): void {
    const call = this.pending.get(reply.id);
    if (!call) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0 && this.child) this.rest(this.child);
    const { id: _id, stdout, stderr, ...rest } = reply;
    call.resolve({ ...rest, stdout: Buffer.from(stdout, 'base64'), stderr: Buffer.from(stderr, 'base64') });
  }

  private gone(child: ChildProcess, why: string): void {
    if (this.child !== child) return;
    this.child = undefined;
    clearTimeout(this.idle);
    child.kill('SIGKILL');
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) call.reject(new Error(`the helper that runs git stopped (${why})`));
  }
}

const shared = new GitRunner();

/** Runs `file` with `args` to its end through the helper, as `execFile` with buffers would. */
export function execInRunner(request: ExecRequest): Promise<ExecResult> {
  return shared.run(request);
}

/** The shared helper, for tests: its pid, and a way to make it die. */
export const gitRunnerForTests = {
  pid: (): number | undefined => shared.pid,
  kill: (): void => shared.stop(),
};
