import type { Clock } from '../util/clock';
import type { Disposable } from '../util/lifecycle';
import type { Schedule } from './event-log';
import type { SearchIndex } from './search-index';

/**
 * How long what was stored may wait before it is indexed without a search asking
 * (`SearchIndex.add`): a stream indexes its text about once a second as it goes, a flood of half
 * a second once, as the whole message, and the turns of many sessions a second's worth at a time.
 */
export const TAIL_MS = 1_000;

/** The host's keyed timers, as far as this needs them (`TimerQueue`). */
interface Timers {
  at(key: string, at: number, fn: () => void): void;
  cancel(key: string): void;
  has(key: string): boolean;
}

const KEY = 'search:tails';

/**
 * Indexes what waits (`SearchIndex.indexWaiting`) `TAIL_MS` after a write left some, on a turn
 * of the write gate (`schedule`), so a checkpoint that holds the writers holds this too.
 */
export class SearchTails implements Disposable {
  private disposed = false;

  constructor(
    private readonly o: {
      index: SearchIndex;
      timers: Timers;
      clock: Clock;
      schedule: Schedule;
      /** Rows were added: the index's merges follow. */
      onIndexed(): void;
      onError(err: unknown): void;
    },
  ) {}

  /** Events were written: what waits gets indexed in `TAIL_MS` unless a search or a full batch does it first. */
  noteWrite(): void {
    if (this.disposed || !this.o.index.hasWaiting || this.o.timers.has(KEY)) return;
    this.o.timers.at(KEY, this.o.clock.now() + TAIL_MS, () => this.o.schedule(() => this.run()));
  }

  dispose(): void {
    this.disposed = true;
    this.o.timers.cancel(KEY);
  }

  private run(): void {
    if (this.disposed) return;
    try {
      if (this.o.index.indexWaiting() > 0) this.o.onIndexed();
    } catch (err) {
      this.o.onError(err);
    }
  }
}
