/**
 * A time budget per turn of the event loop, shared by every source of bulk work that can
 * pause (each agent's stdout): once the work of this turn has used it, sources pause and are
 * resumed from the next turn's timers phase, so timers, reads of other pipes and the
 * window's WebSocket run in between. Without it one turn can read and parse megabytes from a
 * flooding agent (libuv reads a ready pipe up to 32 times in a row) and block the host's loop
 * for tens of ms (issue 21).
 */
export interface TurnBudgetClock {
  /** Monotonic ms. */
  now(): number;
  /** Runs `fn` on a later turn, after timers that are already due. */
  later(fn: () => void): void;
}

const realClock: TurnBudgetClock = {
  now: () => performance.now(),
  // A 0 ms timer runs in the next turn's timers phase, beside the timers that waited.
  later: (fn) => void setTimeout(fn, 0),
};

export class TurnBudget {
  private started: number | undefined;
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly ms: number,
    private readonly clock: TurnBudgetClock = realClock,
  ) {}

  /** Marks the start of a piece of work: the first piece of a turn starts the turn's budget. */
  begin(): void {
    if (this.started !== undefined) return;
    this.started = this.clock.now();
    this.clock.later(() => this.nextTurn());
  }

  /** Whether the turn's budget is used up (the caller should pause and `wait`). */
  spent(): boolean {
    return this.started !== undefined && this.clock.now() - this.started >= this.ms;
  }

  /** Calls `resume` when the next turn starts (once; a second `wait` with it is one call). */
  wait(resume: () => void): void {
    this.waiting.add(resume);
  }

  /** Forgets a `wait` (the source closed). */
  cancel(resume: () => void): void {
    this.waiting.delete(resume);
  }

  private nextTurn(): void {
    this.started = undefined;
    const resumes = [...this.waiting];
    this.waiting.clear();
    // Every source is resumed even if one throws (else the ones after it, no longer waiting,
    // would stay paused for good); the first error is then thrown as the source's own would be.
    let failed: { error: unknown } | undefined;
    for (const resume of resumes) {
      try {
        resume();
      } catch (error) {
        failed ??= { error };
      }
    }
    if (failed) throw failed.error;
  }
}

/** The host's budget for reading agents' output: a few ms a turn, well under the 10 ms p99 target. */
export const agentReadBudget = new TurnBudget(1.5);
