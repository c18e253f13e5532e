import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { batchedOutput } from './batched-output';

const bytes = (s: string) => new TextEncoder().encode(s);

/** A manual scheduler: runs queued flushes when the test says so. */
function manual() {
  const queue: (() => void)[] = [];
  return { schedule: (fn: () => void) => queue.push(fn), run: () => queue.splice(0).forEach((fn) => fn()) };
}

describe('batchedOutput', () => {
  it('writes everything written in one turn as one write, in order', async () => {
    const writes: string[] = [];
    const out = new Writable({ write: (chunk: Buffer, _enc, cb) => (writes.push(chunk.toString()), cb()) });
    const tick = manual();
    const { stream } = batchedOutput(out, tick.schedule);
    const writer = stream.getWriter();
    for (const line of ['a\n', 'b\n', 'c\n']) await writer.write(bytes(line));
    expect(writes).toEqual([]);
    tick.run();
    await writer.write(bytes('d\n'));
    tick.run();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('flush writes what is queued at once (before an exit)', async () => {
    const out = new PassThrough();
    const tick = manual();
    const output = batchedOutput(out, tick.schedule);
    await output.stream.getWriter().write(bytes('last words\n'));
    output.flush();
    expect(String(out.read())).toBe('last words\n');
  });

  it('makes writers wait while the output is full, and lets them go on drain', async () => {
    const out = new PassThrough({ highWaterMark: 4 });
    const tick = manual();
    const { stream } = batchedOutput(out, tick.schedule);
    const writer = stream.getWriter();
    await writer.write(bytes('more than four bytes\n'));
    tick.run();
    let released = false;
    const blocked = writer.write(bytes('next\n')).then(() => (released = true));
    await new Promise<void>((r) => setImmediate(r));
    expect(released).toBe(false);
    out.read();
    await blocked;
    tick.run();
    expect(String(out.read())).toBe('next\n');
  });

  it('keeps lines queued with writeLine in order with stream writes, in one write per turn', async () => {
    const writes: string[] = [];
    const out = new Writable({ write: (chunk: Buffer, _enc, cb) => (writes.push(chunk.toString()), cb()) });
    const tick = manual();
    const output = batchedOutput(out, tick.schedule);
    const writer = output.stream.getWriter();
    await writer.write(bytes('a\n'));
    void output.writeLine('b ü\n');
    await writer.write(bytes('c\n'));
    void output.writeLine('d\n');
    expect(writes).toEqual([]);
    tick.run();
    expect(writes).toEqual(['a\nb ü\nc\nd\n']);
  });

  it('writes at once when 32 KiB are queued, without waiting for the turn to end', () => {
    const writes: string[] = [];
    const out = new Writable({ write: (chunk: Buffer, _enc, cb) => (writes.push(chunk.toString()), cb()) });
    const tick = manual();
    const output = batchedOutput(out, tick.schedule);
    const line = 'x'.repeat(1023) + '\n';
    for (let i = 0; i < 31; i++) void output.writeLine(line);
    expect(writes).toEqual([]);
    void output.writeLine(line);
    expect(writes).toEqual([line.repeat(32)]);
    void output.writeLine('tail\n');
    tick.run();
    expect(writes).toEqual([line.repeat(32), 'tail\n']);
  });
});
