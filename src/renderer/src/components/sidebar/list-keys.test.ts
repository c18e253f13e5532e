import { describe, expect, it } from 'vitest';
import { listKeyTarget } from './list-keys';

describe('listKeyTarget', () => {
  it('moves by one and stops at the ends', () => {
    expect(listKeyTarget('ArrowDown', 0, 3)).toBe(1);
    expect(listKeyTarget('ArrowDown', 2, 3)).toBe(2);
    expect(listKeyTarget('ArrowUp', 1, 3)).toBe(0);
    expect(listKeyTarget('ArrowUp', 0, 3)).toBe(0);
  });

  it('jumps with Home and End, and enters the list from outside an entry', () => {
    expect(listKeyTarget('Home', 2, 3)).toBe(0);
    expect(listKeyTarget('End', 0, 3)).toBe(2);
    expect(listKeyTarget('ArrowDown', -1, 3)).toBe(0);
    expect(listKeyTarget('ArrowUp', -1, 3)).toBe(2);
  });

  it('ignores other keys and empty lists', () => {
    expect(listKeyTarget('Enter', 0, 3)).toBeUndefined();
    expect(listKeyTarget('ArrowDown', -1, 0)).toBeUndefined();
  });
});
