/**
 * A streamed message's text as the chunks it came in, so the page can read what a chunk added
 * without reading the whole text.
 *
 * A row's `text` is `previous + chunk` at every chunk: cheap to build, but V8 keeps it as a rope,
 * and any read of it (a slice, a search, a regular expression) first copies the whole text into
 * one string. For a 1 MB answer that was a copy of up to 2 MB a frame (issue 21). The successive
 * rows of one message share one `TextPieces`, which only grows; each row's own text is the pieces
 * up to its length, which always ends a piece.
 */
export class TextPieces {
  private readonly list: string[] = [];
  /** The text's length after each piece. */
  private readonly ends: number[] = [];
  /** The shortest prefix holding something other than white space (Infinity: none yet). */
  private visibleFrom = Infinity;

  constructor(first: string) {
    this.add(first);
  }

  add(piece: string): void {
    const start = this.ends.at(-1) ?? 0;
    if (this.visibleFrom === Infinity) {
      const at = piece.search(/\S/);
      if (at >= 0) this.visibleFrom = start + at + 1;
    }
    this.list.push(piece);
    this.ends.push(start + piece.length);
  }

  /** How many pieces make the first `length` code units; undefined where no piece ends there. */
  count(length: number): number | undefined {
    if (length === 0) return 0;
    let lo = 0;
    let hi = this.ends.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const end = this.ends[mid]!;
      if (end === length) return mid + 1;
      if (end < length) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The text of pieces `from` to `to` (not included). */
  text(from: number, to: number): string {
    return this.list.slice(from, to).join('');
  }

  /** Whether the first `length` code units hold anything but white space. */
  visibleIn(length: number): boolean {
    return length >= this.visibleFrom;
  }
}
