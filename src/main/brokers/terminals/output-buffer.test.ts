import { describe, expect, it } from 'vitest';
import { OutputBuffer } from './output-buffer';

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('OutputBuffer', () => {
  it('keeps everything under the limit, not truncated', () => {
    const b = new OutputBuffer(100);
    b.write(bytes('hello '));
    b.write(bytes('world'));
    expect(b.text).toBe('hello world');
    expect(b.truncated).toBe(false);
    expect(b.end).toBe(11);
  });

  it('drops from the start, moving the cut forward to a character boundary', () => {
    const b = new OutputBuffer(6);
    // 10 × "é" (2 bytes each) + "x": 21 bytes; the last 6 would start inside an "é".
    b.write(bytes(`${'é'.repeat(10)}x`));
    expect(b.text).toBe('ééx');
    expect(Buffer.byteLength(b.text)).toBeLessThanOrEqual(6);
    expect(b.truncated).toBe(true);
    expect(b.end).toBe(11);
  });

  it('never splits a four-byte character, even when it arrives in pieces', () => {
    const b = new OutputBuffer(9);
    const emoji = bytes('🙂'); // 4 bytes, 2 UTF-16 units
    const live: string[] = [];
    for (let i = 0; i < 3; i++) {
      live.push(b.write(emoji.subarray(0, 1)), b.write(emoji.subarray(1, 3)), b.write(emoji.subarray(3)));
    }
    expect(live.join('')).toBe('🙂🙂🙂');
    expect(b.text).toBe('🙂🙂');
    expect(b.truncated).toBe(true);
    expect(b.text).not.toContain('\uFFFD');
  });

  it('turns a sequence left unfinished at the end into U+FFFD rather than losing it', () => {
    const b = new OutputBuffer(100);
    b.write(bytes('ok '));
    b.write(bytes('€').subarray(0, 2));
    expect(b.text).toBe('ok ');
    expect(b.finish()).toBe('\uFFFD');
    expect(b.text).toBe('ok \uFFFD');
  });

  it('with a limit of zero keeps nothing and says it truncated', () => {
    const b = new OutputBuffer(0);
    b.write(bytes('abc'));
    expect(b.text).toBe('');
    expect(b.truncated).toBe(true);
  });
});
