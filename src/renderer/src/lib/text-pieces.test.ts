import { describe, expect, it } from 'vitest';
import { TextPieces } from './text-pieces';

describe('TextPieces', () => {
  it('maps a length that ends a piece to a count of pieces, and any other length to none', () => {
    const pieces = new TextPieces('ab');
    pieces.add('');
    pieces.add('cde');
    pieces.add('f');
    expect([0, 5, 6].map((n) => pieces.count(n))).toEqual([0, 3, 4]);
    // An empty piece ends where the one before does: either count gives the same text.
    expect(pieces.text(0, pieces.count(2)!)).toBe('ab');
    expect([1, 3, 4, 7].map((n) => pieces.count(n))).toEqual([undefined, undefined, undefined, undefined]);
    expect(pieces.text(0, 4)).toBe('abcdef');
    expect(pieces.text(2, 3)).toBe('cde');
  });

  it('tells from which length the text holds more than white space', () => {
    const pieces = new TextPieces(' \n');
    pieces.add('\t x');
    expect([2, 4, 5].map((n) => pieces.visibleIn(n))).toEqual([false, false, true]);
    expect(new TextPieces('').visibleIn(0)).toBe(false);
  });
});
