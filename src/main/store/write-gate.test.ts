import { describe, expect, it } from 'vitest';
import { WriteGate } from './write-gate';

/** A schedule the test steps turn by turn. */
function turns(): { schedule: (fn: () => void) => void; next(): void; queued(): number } {
  const queue: (() => void)[] = [];
  return {
    schedule: (fn) => void queue.push(fn),
    next: () => {
      for (const fn of queue.splice(0)) fn();
    },
    queued: () => queue.length,
  };
}

describe('WriteGate', () => {
  it('runs scheduled turns as usual while open', () => {
    const t = turns();
    const gate = new WriteGate(t.schedule);
    const ran: string[] = [];
    gate.schedule()(() => ran.push('a'));
    expect(ran).toEqual([]);
    t.next();
    expect(ran).toEqual(['a']);
  });

  it('holds turns that come due while held, and runs them on turns of their own after release, in order', () => {
    const t = turns();
    const gate = new WriteGate(t.schedule);
    const ran: string[] = [];
    gate.schedule()(() => ran.push('scheduled before'));
    gate.hold();
    expect(gate.isHeld).toBe(true);
    gate.schedule()(() => ran.push('scheduled while held'));
    t.next();
    t.next();
    expect(ran).toEqual([]);
    gate.release();
    expect(gate.isHeld).toBe(false);
    // Not inside release: each on the next turn.
    expect(ran).toEqual([]);
    expect(t.queued()).toBe(2);
    t.next();
    expect(ran).toEqual(['scheduled before', 'scheduled while held']);
  });

  it('holds again a turn released into a new hold', () => {
    const t = turns();
    const gate = new WriteGate(t.schedule);
    const ran: string[] = [];
    gate.hold();
    gate.schedule()(() => ran.push('a'));
    t.next();
    gate.release();
    gate.hold();
    t.next();
    expect(ran).toEqual([]);
    gate.release();
    gate.release(); // once is enough
    t.next();
    expect(ran).toEqual(['a']);
  });

  it('lets an async writer await its next turn, held like any other', async () => {
    const t = turns();
    const gate = new WriteGate(t.schedule);
    let passed = false;
    gate.hold();
    void gate.turn().then(() => (passed = true));
    t.next();
    await Promise.resolve();
    expect(passed).toBe(false);
    gate.release();
    t.next();
    await Promise.resolve();
    expect(passed).toBe(true);
  });
});
