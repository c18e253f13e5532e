import { closeSync, createWriteStream, fstatSync, openSync, readSync, type WriteStream } from 'node:fs';
import { AgentLogEntry, type AgentLogEntryT } from '../../shared/contract';
import type { Clock } from '../util/clock';
import { Emitter, type Event } from '../util/event';
import type { Disposable } from '../util/lifecycle';
import { LineSplitter, protocolEntry, truncate } from './protocol-tap';

/**
 * Lines Switchboard writes into an agent's log file among the agent's own stderr lines start
 * with this, followed by the entry as JSON: the file stays one chronological record that a
 * person can read and the Agent log view can read back.
 */
export const OWN_LINE_PREFIX = '## switchboard ';
/** The longest stderr line kept whole (a runaway line is cut, the file gets it cut too). */
const MAX_STDERR_LINE_CHARS = 8_000;
/** How much of one log file the protocol tap may fill: debug output must not fill the disk. */
const MAX_PROTOCOL_FILE_BYTES = 16 << 20;
/** Unknown methods of one name logged per agent process; a chatty agent repeats them every turn. */
const MAX_UNKNOWN_PER_METHOD = 50;


/**
 * One agent process's log: its stderr, and Switchboard's own lines about it (ACP messages both
 * ways while the protocol tap is on, methods the agent sent that Switchboard does not know).
 * Written to the agent's log file, one line each, and handed to listeners as they happen.
 */
export class AgentLogFeed implements Disposable {
  private readonly stream: WriteStream | undefined;
  private readonly didLog = new Emitter<readonly AgentLogEntryT[]>();
  /** New entries, as they happen. */
  readonly onDidLog: Event<readonly AgentLogEntryT[]> = this.didLog.event;
  private readonly splitters = { in: new LineSplitter(), out: new LineSplitter() };
  private readonly unknownSeen = new Map<string, number>();
  private protocolOn = false;
  private protocolBytes = 0;
  /** Writes handed to the file stream and not yet on disk. */
  private unwritten = 0;
  private readonly onWritten: (() => void)[] = [];
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    readonly file: string | undefined,
  ) {
    this.stream = file ? createWriteStream(file, { flags: 'a' }) : undefined;
    // A full disk or a removed folder must not take the agent down with it.
    this.stream?.on('error', () => {});
  }

  /** The protocol tap is on: every ACP message to and from the agent is recorded. */
  get protocol(): boolean {
    return this.protocolOn;
  }

  setProtocol(on: boolean): void {
    if (on === this.protocolOn) return;
    this.protocolOn = on;
    this.splitters.in.reset();
    this.splitters.out.reset();
    this.emit([{ kind: 'note', at: this.clock.now(), text: on ? 'Recording protocol messages' : 'Stopped recording protocol messages' }]);
  }

  /** Complete lines the agent wrote to stderr. */
  stderr(lines: readonly string[]): void {
    if (lines.length === 0 || this.disposed) return;
    const at = this.clock.now();
    const entries = lines.map((line): AgentLogEntryT => ({ kind: 'stderr', at, text: truncate(line, MAX_STDERR_LINE_CHARS) }));
    this.write(entries.map((e) => (e.kind === 'stderr' ? e.text : '') + '\n').join(''));
    this.notify(entries);
  }

  /** Bytes of the ACP stream; looked at only while the tap is on (one flag check per chunk). */
  tap(direction: 'in' | 'out', chunk: Uint8Array): void {
    if (!this.protocolOn || this.disposed) return;
    const lines = this.splitters[direction].push(chunk);
    if (lines.length === 0) return;
    const at = this.clock.now();
    this.emit(lines.map((line) => protocolEntry(direction, line, at)));
  }

  /** The agent sent a method Switchboard has no handler for; returns true the first time for that name. */
  unknownMethod(message: 'request' | 'notification', method: string): boolean {
    const seen = (this.unknownSeen.get(method) ?? 0) + 1;
    this.unknownSeen.set(method, seen);
    if (seen > MAX_UNKNOWN_PER_METHOD) return false;
    const at = this.clock.now();
    const entries: AgentLogEntryT[] = [{ kind: 'unknown_method', at, message, method: truncate(method, 200) }];
    if (seen === MAX_UNKNOWN_PER_METHOD) entries.push({ kind: 'note', at, text: `Further ${message}s named ${method} are not logged` });
    this.emit(entries);
    return seen === 1;
  }

  /** Switchboard's own line about the agent (how it exited). */
  note(text: string): void {
    this.emit([{ kind: 'note', at: this.clock.now(), text }]);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.didLog.dispose();
    this.stream?.end();
  }

  /** Switchboard's own entries: into the file (bounded) with the prefix, and to listeners. */
  private emit(entries: AgentLogEntryT[]): void {
    if (this.disposed) return;
    if (this.stream) {
      const text = entries.map((e) => OWN_LINE_PREFIX + JSON.stringify(e) + '\n').join('');
      if (this.protocolBytes < MAX_PROTOCOL_FILE_BYTES) {
        this.protocolBytes += text.length;
        this.write(text);
        if (this.protocolBytes >= MAX_PROTOCOL_FILE_BYTES) {
          const note: AgentLogEntryT = { kind: 'note', at: this.clock.now(), text: 'Protocol log limit reached: further messages are shown live but not written to this file' };
          this.write(OWN_LINE_PREFIX + JSON.stringify(note) + '\n');
          entries = [...entries, note];
        }
      }
    }
    this.notify(entries);
  }

  /**
   * Resolves when everything emitted so far is in the file. Read the file in the same
   * synchronous step as the resolution's continuation checks `flushed` (see AgentLogFollowers).
   */
  async whenFlushed(): Promise<void> {
    while (this.unwritten > 0) await new Promise<void>((resolve) => this.onWritten.push(resolve));
  }

  /** Nothing emitted is still on its way to the file. */
  get flushed(): boolean {
    return this.unwritten === 0;
  }

  private write(text: string): void {
    if (!this.stream || this.stream.destroyed) return;
    this.unwritten++;
    this.stream.write(text, () => {
      this.unwritten--;
      if (this.unwritten === 0) for (const resolve of this.onWritten.splice(0)) resolve();
    });
  }

  private notify(entries: readonly AgentLogEntryT[]): void {
    this.didLog.fire(entries);
  }
}

/**
 * The last `maxBytes` of an agent's log file as entries, oldest first (a line cut by the start
 * of the window is left out). A missing file is an empty log.
 */
export function readLogTail(file: string, maxBytes: number): { entries: AgentLogEntryT[]; truncated: boolean } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { entries: [], truncated: false };
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    const read = readSync(fd, buffer, 0, buffer.length, start);
    const lines = buffer.subarray(0, read).toString('utf8').split('\n');
    if (start > 0) lines.shift();
    if (lines.at(-1) === '') lines.pop();
    return { entries: lines.map(parseLogLine), truncated: start > 0 };
  } finally {
    closeSync(fd);
  }
}

function parseLogLine(line: string): AgentLogEntryT {
  if (line.startsWith(OWN_LINE_PREFIX)) {
    try {
      const parsed = AgentLogEntry.safeParse(JSON.parse(line.slice(OWN_LINE_PREFIX.length)));
      if (parsed.success) return parsed.data;
    } catch {
      // Not ours after all (an agent may print anything): shown as its stderr.
    }
  }
  return { kind: 'stderr', text: line };
}
