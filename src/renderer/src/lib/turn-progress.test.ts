import { describe, expect, it } from 'vitest';
import { ev, view } from '../test-support/fake-api';
import { formatDuration, lastAgentEventAt, turnProgress } from './turn-progress';
import { Ticker, type TickClock } from './ticker';

/** A clock that moves only when told: ticks fire as time passes them, no sleeping. */
class FakeClock implements TickClock {
  private t = 0;
  private timers = new Map<number, { fn: () => void; ms: number; next: number }>();
  private nextId = 1;
  constructor(start: number) {
    this.t = start;
  }
  now = (): number => this.t;
  setInterval = (fn: () => void, ms: number): number => {
    const id = this.nextId++;
    this.timers.set(id, { fn, ms, next: this.t + ms });
    return id;
  };
  clearInterval = (id: unknown): void => void this.timers.delete(id as number);
  get armed(): number {
    return this.timers.size;
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers.values()].filter((x) => x.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      this.t = due.next;
      due.next += due.ms;
      due.fn();
    }
    this.t = end;
  }
}

const START = 1_000_000;

describe('turn progress', () => {
  it('counts the elapsed time from the turn start the view carries, for a window that switched in late', () => {
    const running = view({ running: true, turnStartedAt: START });
    expect(turnProgress(running, undefined, START + 12_400)?.elapsedMs).toBe(12_400);
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(65_000)).toBe('1 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
  });

  it('shows nothing for a session that is not running', () => {
    expect(turnProgress(view({ running: false, turnStartedAt: START }), undefined, START + 5_000)).toBeUndefined();
  });

  it('says the agent is silent only after the threshold, counted from its last word', () => {
    const running = view({ running: true, turnStartedAt: START, lastAgentActivityAt: START + 2_000 });
    expect(turnProgress(running, undefined, START + 11_999)?.silentMs).toBeUndefined();
    expect(turnProgress(running, undefined, START + 12_000)?.silentMs).toBe(10_000);
    // An agent event the window received after the view was pushed resets the silence.
    expect(turnProgress(running, START + 9_000, START + 12_000)?.silentMs).toBeUndefined();
    expect(turnProgress(running, START + 9_000, START + 30_000, 5_000)?.silentMs).toBe(21_000);
  });

  it('takes the newest agent event, not the prompt or the turn boundaries', () => {
    const events = [
      ev(1, 'user_message', { text: 'hi' }),
      ev(2, 'agent_message', { text: 'a' }),
      ev(3, 'turn_started', {}),
    ];
    expect(lastAgentEventAt(events)).toBe(2);
    expect(lastAgentEventAt([ev(1, 'user_message', { text: 'hi' })])).toBeUndefined();
  });

  it('ticks every subscriber from one timer, armed only while something watches', () => {
    const clock = new FakeClock(START);
    const ticker = new Ticker(clock);
    const seen: number[] = [];
    expect(clock.armed).toBe(0);
    const offA = ticker.subscribe(() => seen.push(ticker.now()));
    const offB = ticker.subscribe(() => {});
    expect(clock.armed).toBe(1);

    const running = view({ running: true, turnStartedAt: START });
    clock.advance(3_000);
    expect(seen).toEqual([START + 1_000, START + 2_000, START + 3_000]);
    expect(formatDuration(turnProgress(running, undefined, ticker.now())!.elapsedMs)).toBe('3 s');
    clock.advance(10_000);
    expect(turnProgress(running, undefined, ticker.now())?.silentMs).toBe(13_000);

    offA();
    offB();
    expect(clock.armed).toBe(0);
  });
});
