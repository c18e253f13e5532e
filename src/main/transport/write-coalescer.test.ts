import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from './write-coalescer';

/** A stream that records each hand-over to the "OS": one entry per write or writev call. */
function recorder(): { stream: Writable; calls: string[][] } {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      calls.push([chunk.toString()]);
      cb();
    },
    writev(chunks, cb) {
      calls.push(chunks.map((c) => (c.chunk as Buffer).toString()));
      cb();
    },
  });
  return { stream, calls };
}

const microtasks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('coalesceWrites', () => {
  it('hands the writes of one run to the stream in one call, in order', async () => {
    const { stream, calls } = recorder();
    const together = coalesceWrites(stream);
    for (let i = 0; i < 100; i++) {
      together();
      stream.write(`frame ${i};`);
    }
    expect(calls).toEqual([]);
    await microtasks();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual(Array.from({ length: 100 }, (_, i) => `frame ${i};`));
  });

  it('without it each write is its own call (what it saves)', async () => {
    const { stream, calls } = recorder();
    for (let i = 0; i < 100; i++) stream.write(`frame ${i};`);
    await microtasks();
    // The first write goes at once; the rest, queued behind it, leave in one writev.
    expect(calls.length).toBeGreaterThan(1);
    expect(calls[0]).toEqual(['frame 0;']);
  });

  it('leaves nothing corked once the run is over: a later run is written on its own', async () => {
    const { stream, calls } = recorder();
    const together = coalesceWrites(stream);
    together();
    stream.write('a');
    await microtasks();
    together();
    stream.write('b');
    together();
    stream.write('c');
    await microtasks();
    expect(calls).toEqual([['a'], ['b', 'c']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('keeps the nested cork and uncork of a frame (as ws does) inside the run', async () => {
    const { stream, calls } = recorder();
    const together = coalesceWrites(stream);
    for (const frame of ['one', 'two']) {
      together();
      stream.cork();
      stream.write(`${frame}-header`);
      stream.write(`${frame}-body`);
      stream.uncork();
    }
    await microtasks();
    expect(calls).toEqual([['one-header', 'one-body', 'two-header', 'two-body']]);
  });

  it('hands over what gathered once it passes the limit, and gathers the rest of the run again', async () => {
    const { stream, calls } = recorder();
    const together = coalesceWrites(stream, 10);
    for (const frame of ['aaaa', 'bbbb', 'cccc', 'dddd', 'ee']) {
      together();
      stream.write(frame);
    }
    // 'cccc' found 8 bytes waiting, 'dddd' 12: over 10, so they went before it.
    expect(calls).toEqual([['aaaa', 'bbbb', 'cccc']]);
    await microtasks();
    expect(calls).toEqual([['aaaa', 'bbbb', 'cccc'], ['dddd', 'ee']]);
    expect(stream.writableCorked).toBe(0);
  });
});
