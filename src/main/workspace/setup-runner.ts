import { spawn as nodeSpawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { BROKER_ENV, processStartTime, signalProcessTree } from '../util/process-info';

/** What is kept of a setup command's output (the end of it): the transcript stores this much. */
export const SETUP_OUTPUT_CHARS = 256 * 1024;

/** How a setup command ended. */
export interface SetupExit {
  exitCode: number | null;
  signal: string | null;
  /** It could not start, or was stopped (the session went, Switchboard quit). */
  message?: string;
  durationMs: number;
}

/**
 * The processes the host's watchdog kills if the host dies (ADR 0012): a setup command is the
 * person's own program, started by us, and must not outlive us any more than an agent may.
 */
export interface ProcessWatch {
  track(p: { id: string; pid: number; startTime: string | null; pgid: number | null }): void;
  untrack(id: string): void;
}

export interface SetupSpec {
  command: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Called with each piece of output as it arrives: its UTF-16 position in all the output, and the text. */
  onOutput(start: number, text: string): void;
  watch?: ProcessWatch;
  spawn?: typeof nodeSpawn;
  now?: () => number;
}

/**
 * One run of a repository's setup command in a new worktree: through the system shell (it is
 * the person's command line, `npm ci && npm run build`), in a process group of its own so a
 * stop takes everything it started, stdout and stderr merged, the last 256 KB kept.
 */
export class SetupRun {
  /** Resolves once the command ended (never rejects). */
  readonly exited: Promise<SetupExit>;
  private text = '';
  /** Characters dropped from the start of `text`: positions stay those of all the output. */
  private dropped = 0;
  private child: ChildProcess | undefined;
  private stopReason: string | undefined;
  private done = false;

  constructor(private readonly spec: SetupSpec) {
    const now = spec.now ?? Date.now;
    const started = now();
    const watchId = `setup-${randomUUID()}`;
    this.exited = new Promise<SetupExit>((resolve) => {
      const finish = (exit: Omit<SetupExit, 'durationMs'>): void => {
        if (this.done) return;
        this.done = true;
        spec.watch?.untrack(watchId);
        resolve({ ...exit, durationMs: now() - started });
      };
      let child: ChildProcess;
      try {
        child = (spec.spawn ?? nodeSpawn)(spec.command, {
          shell: true,
          cwd: spec.cwd,
          env: { ...(spec.env ?? process.env), [BROKER_ENV]: watchId },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: process.platform !== 'win32',
          windowsHide: true,
        });
      } catch (err) {
        finish({ exitCode: null, signal: null, message: `The setup command could not start: ${(err as Error).message}` });
        return;
      }
      this.child = child;
      const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')] as const;
      child.stdout?.on('data', (chunk: Buffer) => this.take(decoders[0].write(chunk)));
      child.stderr?.on('data', (chunk: Buffer) => this.take(decoders[1].write(chunk)));
      child.once('spawn', () => {
        if (child.pid !== undefined) spec.watch?.track({ id: watchId, pid: child.pid, startTime: processStartTime(child.pid) ?? null, pgid: process.platform === 'win32' ? null : child.pid });
      });
      child.once('error', (err) => finish({ exitCode: null, signal: null, message: `The setup command could not start: ${err.message}` }));
      child.once('exit', () => {
        // Whatever it left running in its group would keep the pipes open and outlive it.
        if (child.pid !== undefined) signalProcessTree(child.pid, 'SIGKILL');
      });
      child.once('close', (code, signal) => {
        this.take(decoders[0].end() + decoders[1].end());
        finish({ exitCode: code, signal, ...(this.stopReason ? { message: this.stopReason } : {}) });
      });
    });
  }

  /** The output kept so far: it continues at `end`. */
  snapshot(): { text: string; end: number; truncated: boolean } {
    return { text: this.text, end: this.dropped + this.text.length, truncated: this.dropped > 0 };
  }

  get running(): boolean {
    return !this.done;
  }

  /** Stops it and everything it started (the session is archived or deleted, the host quits). */
  stop(reason: string): void {
    if (this.done || !this.child?.pid) return;
    this.stopReason = reason;
    signalProcessTree(this.child.pid, 'SIGKILL');
  }

  private take(piece: string): void {
    if (piece === '') return;
    const start = this.dropped + this.text.length;
    this.text += piece;
    if (this.text.length > SETUP_OUTPUT_CHARS) {
      const cut = this.text.length - SETUP_OUTPUT_CHARS;
      this.text = this.text.slice(cut);
      this.dropped += cut;
    }
    this.spec.onOutput(start, piece);
  }
}
