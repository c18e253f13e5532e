/**
 * When something goes wrong in the host anyway (issue 23). An uncaught exception or an
 * unhandled rejection would end the process, and every session and turn with it; instead the
 * host writes a crash log (`<data folder>/logs/crash-<time>.log`: what failed, the versions,
 * the last 200 protocol lines of its agents, every known secret value scrubbed), tells every
 * window (`host:problem`, with Copy details), and goes on. Errors that come faster than
 * `STORM_LIMIT` a minute mean the host is broken past going on: that last log is marked as
 * ending the run, the entry point restarts (the desktop app relaunches; `serve` exits 70 for
 * its supervisor), and the next start tells the windows it restarted and why.
 */
import { arch, release, type as osType } from 'node:os';
import type { HostProblemT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { VERSION } from '../../shared/version';
import type { HistoryLine, ProtocolHistory } from '../brokers/protocol-history';
import { markEndingCrash, readCrashLog, takeEndingCrash, writeCrashLog } from '../datadir/crash-logs';
import type { Clock } from '../util/clock';
import type { Disposable } from '../util/lifecycle';
import type { Logger } from '../util/log';

/** Uncaught errors within a minute past which the host gives up going on. */
export const STORM_LIMIT = 5;
const STORM_WINDOW_MS = 60_000;
/** Protocol lines in a crash log. */
export const CRASH_LOG_LINES = 200;
/** Problems a window is told of on connecting (`host:info`). */
const PROBLEMS_KEPT = 20;
/** Values shorter than this are not scrubbed ("1", "true" are nobody's secret, and are everywhere). */
const MIN_SECRET_LENGTH = 8;
const SECRET_NAME = /(token|secret|password|passwd|api[-_]?key|credential|auth)/i;
const REDACTED = '[redacted]';

export type UncaughtOrigin = 'uncaughtException' | 'unhandledRejection';

export interface CrashReporterOptions {
  /** `<data folder>/logs`. */
  logs: string;
  clock: Clock;
  log: Logger;
  history: ProtocolHistory;
  /** Every secret value the host knows (agents', MCP servers', its own): scrubbed from the log. */
  secrets(): readonly string[];
  /** Every window hears of it. */
  broadcast(problem: HostProblemT): void;
  /** This process's environment, whose secret-named values are scrubbed too. */
  env?: NodeJS.ProcessEnv;
}

/** The versions a crash log names: Switchboard's, Node's, Electron's where it runs, the OS's. */
export function versions(): string {
  const electron = process.versions.electron ? `, Electron ${process.versions.electron}` : '';
  return `Switchboard ${VERSION}, Node ${process.versions.node}${electron}, ${osType()} ${release()} (${process.platform} ${arch()})`;
}

function describeError(err: unknown): { message: string; detail: string } {
  if (err instanceof Error) {
    const message = `${err.name}: ${err.message}`.split('\n')[0]!;
    return { message, detail: err.stack ?? message };
  }
  let text: string;
  try {
    text = typeof err === 'string' ? err : JSON.stringify(err) ?? String(err);
  } catch {
    text = String(err);
  }
  return { message: `A value that is not an Error was thrown: ${text.split('\n')[0]!.slice(0, 200)}`, detail: text };
}

function protocolLines(lines: readonly HistoryLine[]): string {
  if (!lines.length) return '(none: no agent talked since the host started)';
  return lines
    .map((l) => `${new Date(l.at).toISOString()} ${l.agentId} ${l.broker} ${l.entry.direction === 'in' ? '<-' : '->'} ${l.entry.text}`)
    .join('\n');
}

export class CrashReporter {
  private readonly recent: number[] = [];
  private readonly kept: HostProblemT[] = [];

  constructor(private readonly o: CrashReporterOptions) {
    // The run before this one ended in an uncaught error: the windows hear that this is a restart.
    const ended = takeEndingCrash(o.logs);
    if (ended) {
      const text = readCrashLog(o.logs, ended.report) ?? '';
      const what = /^error: (.*)$/m.exec(text)?.[1] ?? 'an unexpected error';
      this.kept.push({ kind: 'restarted', at: ended.at, message: what, report: ended.report });
      o.log.warn('the last run ended in an uncaught error; restarted', { report: ended.report });
    }
  }

  /** Uncaught errors of this run, and the crash that ended the last one (oldest first). */
  get problems(): HostProblemT[] {
    return [...this.kept];
  }

  /**
   * Logs one uncaught error and tells the windows. Returns whether the host should give up
   * (too many, too fast): the caller restarts then. Never throws: a failure to write the log
   * is itself logged.
   */
  uncaught(err: unknown, origin: UncaughtOrigin): { report: string | undefined; fatal: boolean } {
    const at = this.o.clock.now();
    this.recent.push(at);
    while (this.recent.length && this.recent[0]! <= at - STORM_WINDOW_MS) this.recent.shift();
    const fatal = this.recent.length > STORM_LIMIT;
    const { message, detail } = describeError(err);
    const text = this.scrub(
      [
        'Switchboard crash log',
        `time: ${new Date(at).toISOString()}`,
        `what: ${origin === 'uncaughtException' ? 'an uncaught exception' : 'an unhandled promise rejection'}`,
        `then: ${fatal ? `the host restarts (more than ${STORM_LIMIT} errors within a minute)` : 'the host went on'}`,
        `versions: ${versions()}`,
        `process: pid ${process.pid}, up ${Math.round(process.uptime())} s`,
        `error: ${message}`,
        '',
        detail,
        '',
        `The last ${CRASH_LOG_LINES} protocol lines of the agents (secrets redacted):`,
        protocolLines(this.o.history.lines(CRASH_LOG_LINES)),
        '',
      ].join('\n'),
    );
    let report: string | undefined;
    try {
      report = writeCrashLog(this.o.logs, at, text);
      if (fatal) markEndingCrash(this.o.logs, report, at);
    } catch (writeErr) {
      this.o.log.error('the crash log could not be written', { error: String(writeErr) });
    }
    this.o.log.error(fatal ? 'uncaught error; too many, the host restarts' : 'uncaught error; the host goes on', { origin, error: this.scrub(message), report });
    if (report) {
      const problem: HostProblemT = { kind: 'error', at, message: this.scrub(message), report };
      this.kept.push(problem);
      if (this.kept.length > PROBLEMS_KEPT) this.kept.splice(0, this.kept.length - PROBLEMS_KEPT);
      this.o.broadcast(problem);
    }
    return { report, fatal };
  }

  /** `crashes:read`: a crash log's text, by the name a window was told. */
  report(name: string): { report: string; text: string } {
    const text = readCrashLog(this.o.logs, name);
    if (text === undefined) throw new AppError('not_found', `There is no crash log ${name} (only the newest are kept).`);
    return { report: name, text };
  }

  /** Every known secret value, and the values of secret-named variables, replaced. */
  private scrub(text: string): string {
    const env = this.o.env ?? process.env;
    const values = new Set<string>(this.o.secrets());
    for (const [name, value] of Object.entries(env)) if (value && SECRET_NAME.test(name)) values.add(value);
    let out = text;
    // Longest first: a secret that contains another is replaced whole.
    for (const v of [...values].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length)) out = out.split(v).join(REDACTED);
    return out;
  }
}

/** The process's output streams, as `catchUncaught` needs them. */
type Output = Pick<NodeJS.WriteStream, 'on' | 'off'>;

/**
 * Routes the process's uncaught errors to the host's reporter; `restart` runs once when it gives
 * up. For the entry points (`serve`, the desktop app), which own the process.
 *
 * A failed write to stdout or stderr is not one of them: once the terminal or the pipe they go
 * to is closed (the terminal window closed, the parent that read them died), every write fails
 * with EPIPE, emitted on the stream. Unhandled, each was an uncaught error whose report wrote to
 * the same stream: a loop that wrote crash logs and burned a core until killed (found with an
 * orphaned `serve`). The output is gone; the log files in the data folder stay.
 */
export function catchUncaught(
  proc: Pick<NodeJS.Process, 'on' | 'off'> & { stdout?: Output; stderr?: Output },
  reporter: Pick<CrashReporter, 'uncaught'>,
  restart: () => void,
): Disposable {
  let restarting = false;
  const handle = (origin: UncaughtOrigin) => (err: unknown) => {
    const { fatal } = reporter.uncaught(err, origin);
    if (fatal && !restarting) {
      restarting = true;
      restart();
    }
  };
  const onException = handle('uncaughtException');
  const onRejection = handle('unhandledRejection');
  const onOutputError = (): void => {};
  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', onRejection);
  proc.stdout?.on('error', onOutputError);
  proc.stderr?.on('error', onOutputError);
  return {
    dispose: () => {
      proc.off('uncaughtException', onException);
      proc.off('unhandledRejection', onRejection);
      proc.stdout?.off('error', onOutputError);
      proc.stderr?.off('error', onOutputError);
    },
  };
}
