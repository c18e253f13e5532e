import { describe, expect, it } from 'vitest';
import { createIdleQueue, type IdleScheduler } from './idle-queue';

/** Idle periods on demand: `idle(ms)` runs the scheduled callback with `ms` to spend, each task taking `taskMs`. */
function fakeIdle(taskMs: number) {
  const waiting: ((timeLeft: () => number) => void)[] = [];
  let spent = 0;
  const schedule: IdleScheduler = (run) => void waiting.push(run);
  return {
    schedule,
    tick: () => (spent += taskMs),
    idle(ms: number) {
      const run = waiting.shift();
      if (!run) return false;
      spent = 0;
      run(() => ms - spent);
      return true;
    },
  };
}

describe('createIdleQueue', () => {
  it('runs nothing until the page is idle, then as many tasks as the idle period has time for, oldest first', () => {
    const idle = fakeIdle(4);
    const queue = createIdleQueue(idle.schedule);
    const ran: number[] = [];
    for (let i = 0; i < 5; i++) queue.add(() => (idle.tick(), ran.push(i)));
    expect(ran).toEqual([]);
    expect(idle.idle(10)).toBe(true);
    // 4 ms a task: after two there are 2 ms left, one more starts; then none is left.
    expect(ran).toEqual([0, 1, 2]);
    expect(idle.idle(50)).toBe(true);
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    expect(queue.size).toBe(0);
    expect(idle.idle(50)).toBe(false);
  });

  it('makes progress in a period with no time left (a timeout): one task', () => {
    const idle = fakeIdle(1);
    const queue = createIdleQueue(idle.schedule);
    const ran: string[] = [];
    queue.add(() => ran.push('a'));
    queue.add(() => ran.push('b'));
    idle.idle(0);
    expect(ran).toEqual(['a']);
    idle.idle(0);
    expect(ran).toEqual(['a', 'b']);
  });

  it('drops a task taken off the queue before it ran', () => {
    const idle = fakeIdle(1);
    const queue = createIdleQueue(idle.schedule);
    const ran: string[] = [];
    const cancel = queue.add(() => ran.push('gone'));
    queue.add(() => ran.push('kept'));
    cancel();
    idle.idle(50);
    expect(ran).toEqual(['kept']);
  });
});
