import { describe, expect, it } from 'vitest';
import { diffLines } from './diff';

const render = (lines: { op: string; text: string }[]) => lines.map((l) => `${l.op}${l.text}`);

describe('diffLines', () => {
  it('shows a changed line with a little context', () => {
    const old = 'a\nb\nc\nd\ne\nf\ng\n';
    const next = 'a\nb\nc\nD\ne\nf\ng\n';
    expect(render(diffLines(old, next))).toEqual([' a', ' b', ' c', '-d', '+D', ' e', ' f', ' g']);
  });

  it('treats a missing old text as a new file', () => {
    expect(render(diffLines(undefined, 'x\ny'))).toEqual(['+x', '+y']);
  });

  it('aligns insertions inside the changed block', () => {
    expect(render(diffLines('1\n2\n3', '1\nx\n2\ny\n3'))).toEqual([' 1', '+x', ' 2', '+y', ' 3']);
  });

  it('trims far context', () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const next = old.replace('l10', 'L10');
    expect(diffLines(old, next)).toHaveLength(8);
  });
});
