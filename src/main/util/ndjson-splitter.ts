/**
 * Splits bytes into NDJSON lines (an agent's stdout, the git runner's answers). Lines are cut
 * on the LF byte, which never occurs inside a multi-byte UTF-8 sequence, so a character split across chunks is joined
 * before it is decoded. A line longer than `maxLineBytes` is not held whole: its bytes are
 * passed on raw, as they come, so the SDK's own size limit decides what happens to it.
 */
export interface SplitterSink {
  /**
   * One complete line, without its LF: `bytes` from `start` to `end` (a range of the chunk read,
   * so no buffer is made per line; valid only during the call).
   */
  line(bytes: Buffer, start: number, end: number): void;
  /** Bytes of an over-long line, in order; the last piece ends with its LF (if it had one). */
  raw(bytes: Buffer): void;
}

const LF = 0x0a;

export class NdJsonSplitter {
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Inside an over-long line: bytes go straight to `raw` until its LF. */
  private passthrough = false;

  constructor(
    private readonly sink: SplitterSink,
    private readonly maxLineBytes: number,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? chunk.length : lf;
      if (this.passthrough) {
        this.sink.raw(chunk.subarray(start, lf === -1 ? end : end + 1));
        if (lf !== -1) this.passthrough = false;
      } else if (lf !== -1 && this.partialBytes + (end - start) <= this.maxLineBytes) {
        if (this.partialBytes === 0) this.sink.line(chunk, start, end);
        else {
          const whole = this.take(chunk.subarray(start, end));
          this.sink.line(whole, 0, whole.length);
        }
      } else if (this.partialBytes + (end - start) > this.maxLineBytes) {
        // Too long to hold: hand over what is held, then the rest of the line, unparsed.
        const held = this.take(chunk.subarray(start, lf === -1 ? end : end + 1));
        this.sink.raw(held);
        this.passthrough = lf === -1;
      } else {
        this.partial.push(chunk.subarray(start, end));
        this.partialBytes += end - start;
      }
      start = lf === -1 ? chunk.length : lf + 1;
    }
  }

  /** The unterminated last line at end of input, if any (the SDK parses it too). */
  end(): void {
    if (this.passthrough || this.partialBytes === 0) {
      this.partial = [];
      this.partialBytes = 0;
      return;
    }
    const whole = this.take(Buffer.alloc(0));
    this.sink.line(whole, 0, whole.length);
  }

  /** The held start of a line plus `tail`, as one buffer; clears what is held. */
  private take(tail: Buffer): Buffer {
    if (this.partialBytes === 0) return tail;
    this.partial.push(tail);
    const whole = Buffer.concat(this.partial, this.partialBytes + tail.length);
    this.partial = [];
    this.partialBytes = 0;
    return whole;
  }
}
