/**
 * Sleep and wake (issue 23). A laptop closed for hours stops the host's process with it; on
 * wake, the wall clock (`Date.now()`) has jumped by the hours slept while the monotonic clock
 * (`performance.now()`, which the OS stops during a suspend on Linux and macOS) has not. Every
 * time measured as "wall time since" then counts the sleep: a permission deadline set before
 * it has passed, every idle session looks hours idle, a turn's agent that died meanwhile is a
 * mystery.
 *
 * `SuspendWatch` tells the two clocks apart: each `check()` compares how far each moved since
 * the last; a wall clock that ran ahead by more than `toleranceMs` is a sleep of that length
 * (a time-zone change does not move `Date.now()`; a person setting the clock forward looks
 * the same, and is treated the same: deadlines keep their awake length). Where the shell knows
 * better (Electron's `powerMonitor` `suspend`/`resume`), it says so, and what the clocks did not
 * show is added.
 *
 * Parts with deadlines subscribe (`SuspendAware`): the host's one `TimerQueue` moves every task
 * by the sleep (a delay counts the time awake), the permission gate (and a question gate
 * alike) moves the deadlines it shows and says so in the transcript, the idle reaper does not
 * count the sleep as idleness.
 */
import type { Clock } from './clock';
import { Emitter, type Event } from './event';
import type { Disposable } from './lifecycle';

/** The computer slept: it woke at `at` (wall time), having slept `sleptMs`. */
export interface Resumed {
  at: number;
  sleptMs: number;
  /** How it was noticed: the two clocks parted, or the shell's power events said so. */
  via: 'clock' | 'power';
}

/** What a part with deadlines listens to, to count only the time awake. */
export interface SuspendAware {
  readonly onDidResume: Event<Resumed>;
}

/** A wall clock that runs ahead of the monotonic one by less than this is drift, not sleep. */
export const SLEEP_TOLERANCE_MS = 5_000;
/** Sleeps remembered, for `sleptBetween` (the reaper's idle times reach back this far at most). */
const KEPT = 64;

/** "8 h 12 min", "3 min", "45 s": how long a sleep lasted, in words. */
export function describeDuration(ms: number): string {
  if (ms < 59_500) return `${Math.max(1, Math.round(ms / 1000))} s`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

export class SuspendWatch implements SuspendAware, Disposable {
  private readonly didResume = new Emitter<Resumed>();
  readonly onDidResume: Event<Resumed> = this.didResume.event;
  private lastWall: number;
  private lastMono: number | undefined;
  private readonly sleeps: Resumed[] = [];
  private suspendedAt: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly toleranceMs = SLEEP_TOLERANCE_MS,
  ) {
    this.lastWall = clock.now();
    this.lastMono = clock.monotonic?.();
  }

  /**
   * Compares the clocks with the last check; a sleep found is announced (listeners run before
   * this returns) and returned. Cheap: two clock reads. Without a monotonic clock it finds none.
   */
  check(): Resumed | undefined {
    const wall = this.clock.now();
    const mono = this.clock.monotonic?.();
    const jump = mono === undefined || this.lastMono === undefined ? 0 : wall - this.lastWall - (mono - this.lastMono);
    this.lastWall = wall;
    this.lastMono = mono;
    if (jump <= this.toleranceMs) return undefined;
    return this.resumed({ at: wall, sleptMs: Math.round(jump), via: 'clock' });
  }

  /** The shell: the system is about to sleep (Electron's `powerMonitor` `suspend`). */
  powerSuspend(): void {
    this.check();
    this.suspendedAt = this.clock.now();
  }

  /**
   * The shell: the system woke (`resume`). The clocks are compared first; what they did not
   * show of the time since `suspend` (a platform whose monotonic clock runs on in sleep) is
   * announced as a sleep too.
   */
  powerResume(): Resumed | undefined {
    const byClock = this.check();
    const since = this.suspendedAt;
    this.suspendedAt = undefined;
    if (since === undefined) return byClock;
    const now = this.clock.now();
    const shown = this.sleptBetween(since, now);
    const rest = now - since - shown;
    if (rest <= this.toleranceMs) return byClock;
    return this.resumed({ at: now, sleptMs: Math.round(rest), via: 'power' });
  }

  private resumed(r: Resumed): Resumed {
    this.sleeps.push(r);
    if (this.sleeps.length > KEPT) this.sleeps.shift();
    this.didResume.fire(r);
    return r;
  }

  /** The last sleep, if the computer woke from it within `windowMs` (checked first). */
  recent(windowMs: number): Resumed | undefined {
    this.check();
    const last = this.sleeps.at(-1);
    return last && this.clock.now() - last.at <= windowMs ? last : undefined;
  }

  /** How much of the wall-clock span `from`…`to` was spent asleep. */
  sleptBetween(from: number, to: number): number {
    let slept = 0;
    for (const s of this.sleeps) {
      const start = Math.max(from, s.at - s.sleptMs);
      const end = Math.min(to, s.at);
      if (end > start) slept += end - start;
    }
    return slept;
  }

  dispose(): void {
    this.didResume.dispose();
  }
}
