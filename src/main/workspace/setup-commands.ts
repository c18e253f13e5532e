import type { SetupSnapshotT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { SetupRun } from './setup-runner';
import type { WorkspaceCore } from './workspace-core';

/** Live output is sent at most this often per session (pieces in between are joined). */
const OUTPUT_EVERY_MS = 100;

/**
 * The repository's setup command, run in each new worktree before the session's first prompt
 * (`ready` is what the first prompt waits for). Its output goes live to the windows watching the
 * session (`didSetupOutput`, joined per 100 ms), its end into the transcript (`setup_command`)
 * and the workspace row (the view's `setup`). A failure is shown and changes nothing else: the
 * session stays usable. Only running commands are held in memory.
 */
export class SetupCommands {
  private readonly runs = new Map<string, { run: SetupRun; command: string; done: Promise<void> }>();
  private readonly pending = new Map<string, { start: number; text: string }>();

  constructor(private readonly core: WorkspaceCore) {}

  /** Starts the command in the session's new worktree; the row says `running` until it ends. */
  start(sessionId: string, command: string, cwd: string): void {
    const { o } = this.core;
    o.store.workspaces.setSetup(sessionId, command, 'running', null, this.core.now());
    const run = new SetupRun({
      command,
      cwd,
      ...(o.setupEnv ? { env: o.setupEnv } : {}),
      ...(o.watch ? { watch: o.watch } : {}),
      now: () => this.core.now(),
      onOutput: (start, text) => this.output(sessionId, start, text),
    });
    const done = run.exited.then((exit) => {
      this.runs.delete(sessionId);
      // Quit went past its budget and the store is closing: the run is over, nothing is recorded.
      if (this.core.disposed) return;
      this.flushOutput(sessionId);
      const failed = exit.message !== undefined || exit.exitCode !== 0;
      const { text, truncated } = run.snapshot();
      this.core.record(sessionId, 'setup_command', {
        command,
        output: text,
        truncated,
        exit: { exitCode: exit.exitCode, signal: exit.signal },
        durationMs: exit.durationMs,
        failed,
        ...(exit.message ? { message: exit.message } : {}),
      });
      if (o.store.workspaces.get(sessionId)) o.store.workspaces.setSetup(sessionId, command, failed ? 'failed' : 'succeeded', exit.exitCode, this.core.now());
      if (failed) o.logger.info('a setup command failed', { session: sessionId, exitCode: exit.exitCode, signal: exit.signal, message: exit.message });
      this.core.refreshSoon(sessionId, 0);
    });
    this.runs.set(sessionId, { run, command, done });
  }

  /** Resolves once the session's setup command (if one runs) has ended, however it ended. */
  ready(sessionId: string): Promise<void> {
    return this.runs.get(sessionId)?.done ?? Promise.resolve();
  }

  running(sessionId: string): boolean {
    return this.runs.has(sessionId);
  }

  /** The output so far (a window that opens while it runs), else the stored end of it. */
  snapshot(sessionId: string): SetupSnapshotT {
    const live = this.runs.get(sessionId);
    if (live) return { command: live.command, ...live.run.snapshot(), running: true };
    throw new AppError('not_found', 'No setup command runs for this session; its output is in the transcript.');
  }

  /** Stops the session's setup command (archive, delete), and waits until it ended and was recorded. */
  async stop(sessionId: string, reason: string): Promise<void> {
    const live = this.runs.get(sessionId);
    if (!live) return;
    live.run.stop(reason);
    await live.done;
  }

  /** Quit: every setup command stops, and its end is recorded. */
  async stopAll(reason: string): Promise<void> {
    await Promise.all([...this.runs.keys()].map((id) => this.stop(id, reason)));
  }

  /** Quit past its budget: every setup command is killed, nothing waited for. */
  killAll(reason: string): void {
    for (const { run } of this.runs.values()) run.stop(reason);
  }

  private output(sessionId: string, start: number, text: string): void {
    const queued = this.pending.get(sessionId);
    if (queued) {
      queued.text += text;
      return;
    }
    this.pending.set(sessionId, { start, text });
    this.core.o.timers.at(`setup-output:${sessionId}`, this.core.now() + OUTPUT_EVERY_MS, () => this.flushOutput(sessionId));
  }

  private flushOutput(sessionId: string): void {
    const queued = this.pending.get(sessionId);
    if (!queued) return;
    this.pending.delete(sessionId);
    this.core.o.timers.cancel(`setup-output:${sessionId}`);
    this.core.didSetupOutput.fire({ sessionId, ...queued });
  }
}
