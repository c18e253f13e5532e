import { describe, expect, it } from 'vitest';
import { trapTarget, typeaheadTarget } from './focus';

describe('the focus trap of a dialog', () => {
  it('wraps Tab from the last stop to the first and Shift+Tab from the first to the last', () => {
    expect(trapTarget(2, 3, false)).toBe(0);
    expect(trapTarget(0, 3, true)).toBe(2);
  });

  it('leaves Tab inside to the browser, and brings a focus that got outside back in', () => {
    expect(trapTarget(0, 3, false)).toBeUndefined();
    expect(trapTarget(2, 3, true)).toBeUndefined();
    expect(trapTarget(-1, 3, false)).toBe(0);
    expect(trapTarget(-1, 3, true)).toBe(2);
  });

  it('with one stop, keeps the focus on it; with none, does nothing', () => {
    expect(trapTarget(0, 1, false)).toBe(0);
    expect(trapTarget(0, 1, true)).toBe(0);
    expect(trapTarget(-1, 0, false)).toBeUndefined();
  });
});

describe('type-ahead in a menu', () => {
  const items = ['Open in new window', 'Rename', 'Archive', 'Delete…', 'Restore'];

  it('goes to the next item starting with the letter typed, wrapping', () => {
    expect(typeaheadTarget(items, 'r', 0)).toBe(1);
    expect(typeaheadTarget(items, 'R', 1)).toBe(4);
    expect(typeaheadTarget(items, 'r', 4)).toBe(1);
    expect(typeaheadTarget(items, 'd', -1)).toBe(3);
  });

  it('matches a word typed quickly from the current item on, and the same letter again cycles', () => {
    expect(typeaheadTarget(items, 're', 1)).toBe(1);
    expect(typeaheadTarget(items, 'res', 1)).toBe(4);
    expect(typeaheadTarget(items, 'rr', 1)).toBe(4);
  });

  it('finds nothing for letters no item starts with', () => {
    expect(typeaheadTarget(items, 'x', 0)).toBeUndefined();
    expect(typeaheadTarget(items, '', 0)).toBeUndefined();
  });
});
