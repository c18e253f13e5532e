import { spawn as nodeSpawn, type ChildProcess } from 'node:child_process';
import type { TerminalExit } from '../../../shared/contract';
import { signalProcessTree } from '../../util/process-info';
import { OutputBuffer } from './output-buffer';

export type TerminalSpawn = typeof nodeSpawn;

export interface TerminalSpec {
  command: string;
  args: readonly string[];
  /** The whole environment of the command (ours with the agent's variables on top). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  outputByteLimit: number;
}

/**
 * One command an agent runs through `terminal/create`: its own process group (so a kill takes
 * whatever it started), stdout and stderr merged into one bounded `OutputBuffer`, and its exit.
 * No shell: the command and its arguments run as given (an agent that wants a shell names one).
 */
export class Terminal {
  readonly output: OutputBuffer;
  /** Resolves once the command ended and its output is complete. */
  readonly exited: Promise<TerminalExit>;
  private readonly child: ChildProcess;
  private exitStatus: TerminalExit | undefined;

  private constructor(
    readonly id: string,
    readonly acpSessionId: string,
    readonly spec: TerminalSpec,
    child: ChildProcess,
    onOutput: (text: string) => void,
  ) {
    this.output = new OutputBuffer(spec.outputByteLimit);
    this.child = child;
    const take = (chunk: Buffer): void => {
      const text = this.output.write(chunk);
      if (text) onOutput(text);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.exited = new Promise((resolve) => {
      child.once('exit', () => {
        // Whatever the command left running in its group would hold the pipes open (and
        // outlive the terminal): the command is over, so its group is too.
        this.signal('SIGKILL');
      });
      child.once('close', (code, signal) => {
        const rest = this.output.finish();
        if (rest) onOutput(rest);
        this.exitStatus = { exitCode: code, signal };
        resolve(this.exitStatus);
      });
    });
  }

  /** Starts `spec`; rejects (nothing left running) when the command cannot be started at all. */
  static start(
    id: string,
    acpSessionId: string,
    spec: TerminalSpec,
    onOutput: (text: string) => void,
    spawn: TerminalSpawn = nodeSpawn,
  ): Promise<Terminal> {
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => {
        child.off('error', reject);
        child.on('error', () => {
          // A failure after the start (a kill of a process already gone): the exit says enough.
        });
        resolve(new Terminal(id, acpSessionId, spec, child, onOutput));
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exit(): TerminalExit | undefined {
    return this.exitStatus;
  }

  get commandLine(): string {
    return [this.spec.command, ...this.spec.args].join(' ');
  }

  /** Kills the command and everything it started (its process group). The output stays readable. */
  kill(): void {
    if (this.exitStatus) return;
    this.signal('SIGKILL');
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid !== undefined) signalProcessTree(pid, signal);
  }
}
