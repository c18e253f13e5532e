/**
 * The MCP SDK's stdio client transport, but with the server in its own process group and
 * closed by signalling the whole group. MCP servers are mostly started through `npx`, `uvx`
 * or a shell, wrappers whose children outlive a signal to the wrapper alone; the SDK's own
 * transport kills only the process it started, which would leave those as orphans.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export type StdioServerLaunch = {
  command: string;
  args: readonly string[];
  /** The whole environment of the server (nothing is inherited beyond it). */
  env: Record<string, string>;
  cwd?: string;
  /** Told the pid as soon as the process runs. */
  onSpawn?(pid: number): void;
};

export type ServerExit = { code: number | null; signal: NodeJS.Signals | null };

const STDERR_TAIL_LINES = 20;
/** After the process exits, its last stderr lines get this long to arrive. */
const STDERR_DRAIN_MS = 250;
/** Between ending stdin plus SIGTERM and SIGKILL: what a server gets to exit cleanly. */
const TERM_GRACE_MS = 1_000;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private readonly stderrLines: string[] = [];
  private stderrPartial = '';
  private exitInfo: ServerExit | undefined;
  private resolveExit!: (exit: ServerExit) => void;
  /** Resolves once the server process has exited (never, if it never started). */
  readonly exited: Promise<ServerExit> = new Promise((resolve) => (this.resolveExit = resolve));
  private closing: Promise<void> | undefined;

  constructor(private readonly launch: StdioServerLaunch) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get exit(): ServerExit | undefined {
    return this.exitInfo;
  }

  /** The server's last stderr lines (a crash message, a missing key). */
  get stderrTail(): string[] {
    return [...this.stderrLines, ...(this.stderrPartial ? [this.stderrPartial] : [])].slice(-STDERR_TAIL_LINES);
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.launch.command, [...this.launch.args], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: this.launch.env,
        ...(this.launch.cwd === undefined ? {} : { cwd: this.launch.cwd }),
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      child.once('spawn', () => {
        if (child.pid !== undefined) this.launch.onSpawn?.(child.pid);
        resolve();
      });
      child.once('error', (error) => {
        // Only a failed start (ENOENT, EACCES) rejects; later errors go to onerror.
        if (child.pid === undefined) reject(error);
        else this.onerror?.(error);
      });
      let stderrEnded = false;
      child.stderr?.once('close', () => (stderrEnded = true));
      child.once('exit', (code, signal) => {
        const finish = (): void => {
          if (this.exitInfo) return;
          this.exitInfo = { code, signal };
          this.resolveExit(this.exitInfo);
          this.onclose?.();
        };
        // 'exit' can come before the last stderr lines (the reason it failed) are read; a
        // child it left holding stderr open must not delay the exit for long, though.
        if (stderrEnded || !child.stderr) return finish();
        const timer = setTimeout(finish, STDERR_DRAIN_MS);
        timer.unref();
        child.stderr.once('close', () => {
          clearTimeout(timer);
          finish();
        });
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
        } catch (error) {
          // A line over the buffer's limit: no MCP server sends one; stop this one.
          this.onerror?.(error as Error);
          void this.close();
          return;
        }
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => this.onStderr(chunk));
      // Writes to a server that died are reported by its exit, not thrown at the host.
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exitInfo) return Promise.reject(new Error('the MCP server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server and everything it started: stdin closed and SIGTERM to the group, SIGKILL after a grace. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    const pid = child?.pid;
    if (!child || pid === undefined) return;
    child.stdin?.end();
    if (!this.exitInfo) signalTree(pid, 'SIGTERM');
    // A real timer: this waits on the operating system, not on the host's clock.
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, TERM_GRACE_MS);
      timer.unref();
    });
    await Promise.race([this.exited, grace]);
    clearTimeout(timer);
    // Whether or not the leader went, its children may not have: SIGKILL the group.
    signalTree(pid, 'SIGKILL');
    await this.exited;
    this.buffer.clear();
  }

  private onStderr(chunk: Buffer): void {
    const lines = (this.stderrPartial + chunk.toString('utf8')).split('\n');
    this.stderrPartial = (lines.pop() ?? '').slice(-2_000);
    for (const line of lines) {
      this.stderrLines.push(line.slice(0, 2_000));
      if (this.stderrLines.length > STDERR_TAIL_LINES) this.stderrLines.shift();
    }
  }
}

/** The process group led by `pid` (POSIX; it was started detached), or its tree on Windows. */
function signalTree(pid: number, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    execFile('taskkill', ['/pid', String(pid), '/T', '/F'], () => {
      // Already gone, or taskkill missing: nothing else can be done from here.
    });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // No such group any more: everything in it has exited.
  }
}
