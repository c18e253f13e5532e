import { describe, expect, it } from 'vitest';
import { TurnBudget } from './turn-budget';

function budget(ms: number) {
  let now = 0;
  const turns: (() => void)[] = [];
  const b = new TurnBudget(ms, { now: () => now, later: (fn) => turns.push(fn) });
  return { b, advance: (by: number) => (now += by), nextTurn: () => turns.splice(0).forEach((fn) => fn()), turns };
}

describe('TurnBudget', () => {
  it('is spent once the work of one turn has taken its ms, counted from the first piece', () => {
    const { b, advance } = budget(3);
    expect(b.spent()).toBe(false);
    b.begin();
    advance(2);
    b.begin(); // a later piece of the same turn does not restart the count
    expect(b.spent()).toBe(false);
    advance(1);
    expect(b.spent()).toBe(true);
  });

  it('starts afresh on the next turn and resumes each waiting source once', () => {
    const { b, advance, nextTurn, turns } = budget(3);
    b.begin();
    advance(5);
    const resumed: string[] = [];
    const a = () => resumed.push('a');
    b.wait(a);
    b.wait(a);
    b.wait(() => resumed.push('b'));
    expect(turns).toHaveLength(1);
    nextTurn();
    expect(resumed).toEqual(['a', 'b']);
    expect(b.spent()).toBe(false);
    b.begin();
    expect(turns).toHaveLength(1);
  });

  it('resumes every waiting source even when one throws, then throws that error', () => {
    const { b, advance, nextTurn } = budget(3);
    b.begin();
    advance(5);
    const resumed: string[] = [];
    b.wait(() => {
      throw new Error('disk full');
    });
    b.wait(() => resumed.push('b'));
    expect(() => nextTurn()).toThrow('disk full');
    expect(resumed).toEqual(['b']);
  });

  it('does not resume a source that cancelled its wait', () => {
    const { b, nextTurn } = budget(1);
    const resumed: string[] = [];
    const a = () => resumed.push('a');
    b.begin();
    b.wait(a);
    b.cancel(a);
    nextTurn();
    expect(resumed).toEqual([]);
  });
});
