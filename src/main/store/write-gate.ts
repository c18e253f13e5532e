import type { Schedule } from './event-log';

/**
 * Where the host's background writers wait while a WAL checkpoint catches up (ADR 0031): the
 * event log's scheduled writes, the search index's merge steps and the search backfill each
 * run their next turn through `schedule`, which holds it while the gate is held and runs it on
 * the turn after `release`. A write that must happen now (`EventLog.flush`, a command's own
 * transaction) does not pass here and is never held.
 */
export class WriteGate {
  private held = false;
  private waiting: (() => void)[] = [];

  constructor(private readonly later: Schedule = (fn) => setImmediate(fn)) {}

  /** Turns scheduled from now on wait for `release`. */
  hold(): void {
    this.held = true;
  }

  /** Runs what waited, each on a turn of its own as it would have run. */
  release(): void {
    if (!this.held) return;
    this.held = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const fn of waiting) this.later(() => this.pass(fn));
  }

  /** True while held. */
  get isHeld(): boolean {
    return this.held;
  }

  /** A `Schedule` whose turns wait at this gate while it is held. */
  schedule(next: Schedule = this.later): Schedule {
    return (fn) => next(() => this.pass(fn));
  }

  /** Resolves on the next turn the gate lets through: what an `async` writer awaits between two writes. */
  turn(): Promise<void> {
    return new Promise((resolve) => this.schedule()(resolve));
  }

  private pass(fn: () => void): void {
    if (this.held) this.waiting.push(fn);
    else fn();
  }
}
