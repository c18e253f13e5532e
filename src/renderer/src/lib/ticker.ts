import { useSyncExternalStore } from 'react';

/** What the ticker needs of time; tests pass a fake clock. */
export interface TickClock {
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const browserClock: TickClock = {
  now: () => Date.now(),
  setInterval: (fn, ms) => window.setInterval(fn, ms),
  clearInterval: (handle) => window.clearInterval(handle as number),
};

/**
 * One timer for everything in the window that shows a running clock: it runs only while
 * something subscribes, and every subscriber reads the same `now` on each tick.
 */
export class Ticker {
  private readonly listeners = new Set<() => void>();
  private handle: unknown;
  private current: number;

  constructor(
    private readonly clock: TickClock,
    private readonly intervalMs = 1000,
  ) {
    this.current = clock.now();
  }

  /** The time of the last tick (stable between ticks, as `useSyncExternalStore` needs). */
  now = (): number => this.current;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.current = this.clock.now();
      this.handle = this.clock.setInterval(() => this.tick(), this.intervalMs);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.clock.clearInterval(this.handle);
    };
  };

  /** Subscribers of this ticker. */
  get size(): number {
    return this.listeners.size;
  }

  private tick(): void {
    this.current = this.clock.now();
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * Twice a second: clocks count whole seconds from a start that is not aligned with the
 * ticker's phase, so a 1 s tick could show a second up to 1 s late (or skip one).
 */
const windowTicker = new Ticker(browserClock, 500);

/** The current time, re-read on each tick while `active`; the window's one ticker drives it. */
export function useNow(active: boolean, ticker: Ticker = windowTicker): number {
  return useSyncExternalStore(active ? ticker.subscribe : noSubscribe, ticker.now, ticker.now);
}

const noSubscribe = (): (() => void) => () => {};
