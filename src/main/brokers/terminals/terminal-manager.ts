import { randomUUID } from 'node:crypto';
import type { TerminalSnapshotT } from '../../../shared/contract';
import type { Clock, TimerHandle } from '../../util/clock';
import type { RequestScope } from '../client-handlers';
import { Terminal, type TerminalSpawn, type TerminalSpec } from './terminal';
import { acpSdk } from '../../util/acp-sdk';

/** Live output is pushed to windows at most this often per terminal. */
export const OUTPUT_PUSH_MS = 100;
/** The final output stored in the transcript keeps at most this much of the end. */
export const STORED_OUTPUT_CHARS = 256 * 1024;
/** A session may hold this many terminals at once; an agent gone wild gets an error, not a fork bomb. */
export const MAX_TERMINALS_PER_SESSION = 32;

interface Entry {
  terminal: Terminal;
  scope: RequestScope;
  /** Output not yet pushed, starting at `pendingStart`. */
  pending: string;
  pendingStart: number;
  timer: TimerHandle | undefined;
}

/**
 * The terminals one agent connection opened, by id. A terminal belongs to the ACP session that
 * created it: another session's id never reaches it. Ids stay valid until `terminal/release`.
 * Every teardown (release, the session closing or being reaped, the agent crashing or quitting)
 * kills the command's whole process group.
 */
export class TerminalManager {
  private readonly live = new Map<string, Entry>();
  /** Commands still running, released or not: what `allExited` waits for. */
  private readonly running = new Set<Terminal>();
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly spawn?: TerminalSpawn,
  ) {}

  get size(): number {
    return this.live.size;
  }

  async create(acpSessionId: string, scope: RequestScope, spec: TerminalSpec): Promise<string> {
    if (this.disposed) throw acpSdk().RequestError.internalError(undefined, 'The agent connection is closing');
    if (this.countOf(acpSessionId) >= MAX_TERMINALS_PER_SESSION) {
      throw acpSdk().RequestError.invalidRequest({ max: MAX_TERMINALS_PER_SESSION }, `This session already holds ${MAX_TERMINALS_PER_SESSION} terminals; release some first`);
    }
    const id = `term-${randomUUID()}`;
    // Output can only be pushed once the entry exists; what came before is in the buffer.
    const holder: { entry?: Entry } = {};
    let terminal: Terminal;
    try {
      terminal = await Terminal.start(id, acpSessionId, spec, (text) => holder.entry && this.queue(holder.entry, text), this.spawn);
    } catch (err) {
      throw acpSdk().RequestError.invalidParams({ command: spec.command }, `Could not run ${spec.command}: ${(err as Error).message}`);
    }
    // A teardown that ran while the command was starting must not leave it behind.
    if (this.disposed) {
      terminal.kill();
      throw acpSdk().RequestError.internalError(undefined, 'The agent connection is closing');
    }
    const entry: Entry = { terminal, scope, pending: '', pendingStart: terminal.output.end, timer: undefined };
    holder.entry = entry;
    this.live.set(id, entry);
    this.running.add(terminal);
    void terminal.exited.then((exit) => {
      this.running.delete(terminal);
      this.flush(entry);
      entry.scope.terminalOutput?.({ terminalId: id, start: entry.pendingStart, text: '', exit });
      const output = terminal.output.text;
      entry.scope.record?.({
        kind: 'terminal_output',
        payload: {
          terminalId: id,
          command: terminal.commandLine,
          output: output.length > STORED_OUTPUT_CHARS ? output.slice(output.length - STORED_OUTPUT_CHARS) : output,
          truncated: terminal.output.truncated || output.length > STORED_OUTPUT_CHARS,
          exit,
        },
      });
    });
    return id;
  }

  /** The terminal `terminalId` of that ACP session; any other id is an invalid-params error. */
  get(acpSessionId: string, terminalId: string): Terminal {
    const entry = this.live.get(terminalId);
    if (!entry || entry.terminal.acpSessionId !== acpSessionId) {
      throw acpSdk().RequestError.invalidParams({ terminalId }, `No terminal ${terminalId} in this session (never created, or released)`);
    }
    return entry.terminal;
  }

  /** What a window opening mid-run needs; undefined for an id this session does not hold. */
  snapshot(acpSessionId: string, terminalId: string): TerminalSnapshotT | undefined {
    const entry = this.live.get(terminalId);
    if (!entry || entry.terminal.acpSessionId !== acpSessionId) return undefined;
    const t = entry.terminal;
    return { terminalId, command: t.commandLine, text: t.output.text, end: t.output.end, truncated: t.output.truncated, ...(t.exit ? { exit: t.exit } : {}) };
  }

  /** `terminal/release`: the command is killed if still running and the id forgotten. */
  release(acpSessionId: string, terminalId: string): void {
    const terminal = this.get(acpSessionId, terminalId);
    this.live.delete(terminalId);
    terminal.kill();
  }

  /** The session closed (or was reaped): every terminal it opened is killed and forgotten. */
  killSession(acpSessionId: string): void {
    for (const [id, entry] of this.live) {
      if (entry.terminal.acpSessionId !== acpSessionId) continue;
      this.live.delete(id);
      entry.terminal.kill();
    }
  }

  /** The agent is gone or going (crash, quit): every terminal is killed; none starts after. */
  dispose(): void {
    this.disposed = true;
    for (const entry of this.live.values()) entry.terminal.kill();
    this.live.clear();
  }

  /** Every command started here has ended (and its end was recorded). */
  async allExited(): Promise<void> {
    await Promise.all([...this.running].map((t) => t.exited));
  }

  private countOf(acpSessionId: string): number {
    let n = 0;
    for (const entry of this.live.values()) if (entry.terminal.acpSessionId === acpSessionId) n++;
    return n;
  }

  private queue(entry: Entry, text: string): void {
    entry.pending += text;
    if (entry.timer) return;
    entry.timer = this.clock.setTimeout(() => this.flush(entry), OUTPUT_PUSH_MS);
    entry.timer.unref?.();
  }

  private flush(entry: Entry): void {
    if (entry.timer) this.clock.clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.pending === '') return;
    const text = entry.pending;
    entry.scope.terminalOutput?.({ terminalId: entry.terminal.id, start: entry.pendingStart, text });
    entry.pendingStart += text.length;
    entry.pending = '';
  }
}
