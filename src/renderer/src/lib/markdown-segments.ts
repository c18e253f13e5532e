/**
 * Groups a message's finished Markdown blocks into segments, the unit a long message is
 * virtualised by: a segment out of view is one empty box of its measured height, so neither
 * React nor the browser does any work for it, and a streaming message reconciles one element
 * per segment rather than one per block.
 *
 * Boundaries are content-defined (a block whose hash falls on a boundary ends its segment,
 * within size limits), not counted from the start: when older events are loaded in front of a
 * message that is already shown, the segments after the first boundary in the new text keep
 * their blocks and their keys, so React keeps their elements and their measured heights still
 * apply.
 */

export interface Segment {
  /** Stable for the segment's life, also while it grows and when text is loaded in front of it. */
  readonly key: string;
  readonly blocks: readonly string[];
  /** Code units in its blocks. */
  readonly chars: number;
  /** No block will be added to it any more. */
  readonly done: boolean;
}

/** A block whose hash is 0 modulo this ends its segment (once it has MIN_BLOCKS). */
const BOUNDARY_MODULUS = 16;
const MIN_BLOCKS = 4;
const MAX_BLOCKS = 48;
/** A segment this long ends whatever its hash: one segment is at most a screenful or two of work. */
const MAX_CHARS = 6_000;

/** FNV-1a over UTF-16 code units: cheap, stable, good enough to spread boundaries. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

interface Building {
  blocks: string[];
  chars: number;
  hash: number;
}

/**
 * Incremental: `update` is given the splitter's `finished` array, which only grows while the
 * text is extended (the same array), and is a new array when the splitter started again. Each
 * call costs the new blocks only, plus one element per segment for the result.
 */
export class BlockSegmenter {
  private source: readonly string[] | undefined;
  private seen = 0;
  private done: Segment[] = [];
  private open: Building | undefined;
  private openSegment: Segment | undefined;
  /** How many segments so far start with a block of this hash (keys must be unique). */
  private starts = new Map<number, number>();
  private result: readonly Segment[] = [];

  update(finished: readonly string[]): readonly Segment[] {
    if (finished !== this.source || finished.length < this.seen) this.reset(finished);
    if (finished.length === this.seen) return this.result;
    for (let i = this.seen; i < finished.length; i++) this.add(finished[i]!);
    this.seen = finished.length;
    if (this.open) this.openSegment = this.segmentOf(this.open, false);
    else this.openSegment = undefined;
    this.result = this.openSegment ? [...this.done, this.openSegment] : this.done.slice();
    return this.result;
  }

  private reset(source: readonly string[]): void {
    this.source = source;
    this.seen = 0;
    this.done = [];
    this.open = undefined;
    this.openSegment = undefined;
    this.starts = new Map();
    this.result = [];
  }

  private add(block: string): void {
    const h = hashText(block);
    if (!this.open) {
      const n = this.starts.get(h) ?? 0;
      this.starts.set(h, n + 1);
      this.open = { blocks: [], chars: 0, hash: n === 0 ? h : h + n * 0x100000000 };
    }
    const open = this.open;
    open.blocks.push(block);
    open.chars += block.length;
    const count = open.blocks.length;
    if ((count >= MIN_BLOCKS && h % BOUNDARY_MODULUS === 0) || count >= MAX_BLOCKS || open.chars >= MAX_CHARS) {
      this.done.push(this.segmentOf(open, true));
      this.open = undefined;
    }
  }

  private segmentOf(b: Building, done: boolean): Segment {
    return { key: b.hash.toString(36), blocks: done ? b.blocks : b.blocks.slice(), chars: b.chars, done };
  }
}

/**
 * A run of segments: the unit the page skips whole. Far from the view a page is one empty box,
 * so a long message is a few dozen boxes in the page rather than one per segment (about 800 for
 * a dense 1 MB answer). Layout, pre-paint, paint, the compositor's commit and the segments'
 * IntersectionObserver all walk every box at every frame: with one box a segment, each frame of a
 * streaming answer cost more the longer the answer already was (issue 21).
 */
export interface SegmentPage {
  /** Its first segment's key (stable as that segment's). */
  readonly key: string;
  readonly segments: readonly Segment[];
  /** No segment will be added to it any more. */
  readonly done: boolean;
}

/** A segment whose key hashes to 0 modulo this ends its page (once it has PAGE_MIN segments). */
const PAGE_MODULUS = 16;
const PAGE_MIN = 8;
const PAGE_MAX = 32;

/**
 * Groups the segments of `BlockSegmenter.update` into pages, incrementally and with content-defined
 * boundaries (a finished segment whose key hashes onto one ends its page), for the same reasons as
 * segments: a finished page is the same object from one call to the next, and text loaded in front
 * of the message changes its first pages only (two, for the dense answer of the tests).
 */
export class SegmentPager {
  private source: readonly Segment[] = [];
  /** Finished segments consumed into pages. */
  private seen = 0;
  private done: SegmentPage[] = [];
  private open: Segment[] = [];
  private result: readonly SegmentPage[] = [];

  update(segments: readonly Segment[]): readonly SegmentPage[] {
    if (segments === this.source) return this.result;
    // The same finished segments in front (the segmenter keeps their objects), or it started over.
    if (this.seen > segments.length || (this.seen > 0 && segments[this.seen - 1] !== this.source[this.seen - 1])) this.reset();
    this.source = segments;
    for (; this.seen < segments.length && segments[this.seen]!.done; this.seen++) this.add(segments[this.seen]!);
    const rest = segments.slice(this.seen);
    const tail = [...this.open, ...rest];
    this.result = tail.length > 0 ? [...this.done, { key: tail[0]!.key, segments: tail, done: false }] : this.done.slice();
    return this.result;
  }

  private add(segment: Segment): void {
    this.open.push(segment);
    const n = this.open.length;
    if ((n >= PAGE_MIN && hashText(segment.key) % PAGE_MODULUS === 0) || n >= PAGE_MAX) {
      this.done.push({ key: this.open[0]!.key, segments: this.open, done: true });
      this.open = [];
    }
  }

  private reset(): void {
    this.seen = 0;
    this.done = [];
    this.open = [];
  }
}

/** Pixels a line of text takes, and a block's margins, for a segment never measured yet. */
const LINE_PX = 22;
const BLOCK_PX = 12;
const CHARS_PER_LINE = 90;

/**
 * A guess at a segment's height before it was ever on screen. Once shown, its measured height
 * replaces the guess; the guess only has to be in the right range so the scrollbar is sensible.
 */
export function estimateHeight(blocks: readonly string[]): number {
  let px = 0;
  for (const block of blocks) {
    let lines = 0;
    let at = 0;
    while (at <= block.length) {
      const end = block.indexOf('\n', at);
      const len = (end < 0 ? block.length : end) - at;
      if (len > 0) lines += Math.ceil(len / CHARS_PER_LINE);
      if (end < 0) break;
      at = end + 1;
    }
    px += Math.max(1, lines) * LINE_PX + BLOCK_PX;
  }
  return px;
}
