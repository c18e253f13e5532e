import { StringDecoder } from 'node:string_decoder';

/** Where a UTF-8 sequence starts: any byte that is not a continuation byte (0b10xxxxxx). */
function isCharStart(byte: number): boolean {
  return (byte & 0xc0) !== 0x80;
}

/**
 * A terminal's output, kept up to `limit` UTF-8 bytes. Bytes are decoded as they arrive (a
 * sequence split across chunks waits in the decoder), so what is kept is always whole
 * characters; when it grows past the limit, text is dropped from the start and the cut moves
 * forward to the next character start, so no UTF-8 sequence is ever split (ACP
 * `outputByteLimit`). `end` counts every UTF-16 unit ever appended: a window that read a
 * snapshot merges the live pieces after it by position.
 */
export class OutputBuffer {
  private readonly decoder = new StringDecoder('utf8');
  private pieces: { text: string; bytes: number }[] = [];
  private bytes = 0;
  private units = 0;
  private dropped = false;

  constructor(readonly limit: number) {}

  /** Appends raw bytes; returns the text they completed (what watching windows get). */
  write(chunk: Buffer): string {
    return this.add(this.decoder.write(chunk));
  }

  /** The process ended: a dangling partial sequence becomes U+FFFD rather than vanishing. */
  finish(): string {
    return this.add(this.decoder.end());
  }

  get text(): string {
    if (this.pieces.length > 1) this.pieces = [{ text: this.pieces.map((p) => p.text).join(''), bytes: this.bytes }];
    return this.pieces[0]?.text ?? '';
  }

  get truncated(): boolean {
    return this.dropped;
  }

  /** UTF-16 units appended so far (kept or dropped). */
  get end(): number {
    return this.units;
  }

  private add(text: string): string {
    if (text === '') return text;
    const bytes = Buffer.byteLength(text, 'utf8');
    this.pieces.push({ text, bytes });
    this.bytes += bytes;
    this.units += text.length;
    if (this.bytes > this.limit) this.trim();
    return text;
  }

  private trim(): void {
    this.dropped = true;
    let excess = this.bytes - this.limit;
    while (excess > 0) {
      const first = this.pieces[0];
      if (!first) break;
      if (first.bytes <= excess) {
        this.pieces.shift();
        this.bytes -= first.bytes;
        excess -= first.bytes;
        continue;
      }
      const raw = Buffer.from(first.text, 'utf8');
      let cut = excess;
      while (cut < raw.length && !isCharStart(raw[cut]!)) cut++;
      const rest = raw.subarray(cut);
      this.pieces[0] = { text: rest.toString('utf8'), bytes: rest.length };
      this.bytes -= cut;
      excess = 0;
    }
  }
}
