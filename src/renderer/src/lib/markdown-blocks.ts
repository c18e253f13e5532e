/**
 * Splits a growing Markdown text into top-level blocks, so a streaming message re-parses only
 * its last, open block: every block before it is final and is parsed (and later highlighted)
 * once.
 *
 * A boundary is placed only where CommonMark + GFM guarantee that nothing after it can change
 * how the text before it parses, so rendering the blocks one by one gives the same markup as
 * rendering the whole text. Where that cannot be told cheaply (HTML blocks inside lists, a
 * fence that may sit in a list item, link reference or footnote definitions, which reach back
 * to earlier blocks) the splitter stops splitting: merging blocks is always correct, only
 * slower. Boundaries are decided from complete lines only, and the scan resumes where it left
 * off when the text grows, so splitting a streamed text gives exactly the blocks that
 * splitting it whole does.
 */

export interface BlockSplit {
  /** Final blocks, in order; each keeps its trailing blank lines. The array only grows. */
  readonly finished: readonly string[];
  /** The rest of the text (may be empty): the only block that can still change. */
  readonly open: string;
}

interface Fence {
  char: '`' | '~';
  length: number;
  indent: number;
}

/** How an HTML block ends: at a blank line (CommonMark types 6 and 7) or at a marker (1 to 5). */
type HtmlBlock = { until: 'blank' } | { until: RegExp };

const FENCE = /^[ \t]*(`{3,}|~{3,})([^\n]*)$/;
const CLOSING_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
const LIST_MARKER = /^[ \t]*([-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
// A link reference or footnote definition, possibly inside quotes or list items: it can give
// meaning to text in any earlier block, so a text that has one is never split.
const DEFINITION = /^[ \t>*+\-\d.)]*\[[^\]]+\]:/;
const BLANK = /^[ \t]*$/;

const HTML_WITH_END: readonly [RegExp, RegExp][] = [
  [/^<(?:script|pre|style|textarea)(?:[ \t>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<!\[CDATA\[/, /\]\]>/],
  [/^<![A-Za-z]/, />/],
];
const HTML_UNTIL_BLANK = /^<\/?[A-Za-z]/;

/** Columns of leading whitespace, tabs to the next multiple of 4 (as CommonMark counts). */
function indentOf(line: string): number {
  let col = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) col++;
    else if (c === 9) col += 4 - (col % 4);
    else break;
  }
  return col;
}

/** Which list an item marker belongs to: the same bullet, or the same ordered delimiter. */
function listKind(line: string): string | undefined {
  const m = LIST_MARKER.exec(line);
  if (!m) return undefined;
  const marker = m[1] as string;
  return /\d/.test(marker) ? `ol${marker.slice(-1)}` : marker;
}

/** Characters compared at each end of the previous text to tell an extension from another text. */
const PROBE = 64;

/**
 * Whether `text` extends a text of `length` code units that began with `head` and ended with
 * `tail` (each up to PROBE of them, so together the whole of a short text). A full prefix
 * compare costs a pass over the whole text on every call (about 1 ms a frame for a 1 MB answer,
 * measured in the dense stream profile). That is exact for how the transcript uses a splitter
 * (one per mounted message row, whose text only ever grows by chunks or is replaced by a shorter
 * or unrelated text), and catches any other text but one that matches at both ends and differs
 * only in between.
 */
function extendsText(text: string, length: number, head: string, tail: string): boolean {
  return text.length >= length && text.startsWith(head) && text.startsWith(tail, length - tail.length);
}

/**
 * `s` as a string of its own. A slice of a long string keeps all of that string alive (V8 makes
 * it a view into it), and a streamed message's text is a new string at every chunk: each finished
 * block kept as a slice kept the whole text of its moment, a few hundred copies of up to 1 MB
 * each over a 1 MB answer (the page's heap grew to 145 MB during the stream, and every full
 * garbage collection paused longer: issue 21). Concatenating forces a copy of just `s`; the
 * slice after it views that copy.
 */
export function ownCopy(s: string): string {
  return (' ' + s).slice(1);
}

/**
 * Stateful on purpose: `split` resumes the scan where the previous call stopped when the new
 * text extends the old one, and `feed` takes only what was added, so a stream costs O(new text
 * plus its open block) per call.
 *
 * Only the open block is kept as one string (`buf`); the text before it lives in the finished
 * blocks. A streamed message's text is `previous + chunk`, which V8 keeps as a rope: reading any
 * of it (a slice, a search, a regular expression) first copies the whole text into one string.
 * At 1 MB that was a copy of up to 2 MB a frame, most of what the page allocated while a dense
 * answer streamed, and what set off its long garbage collections (issue 21). `feed` never reads
 * the whole text.
 */
export class MarkdownBlockSplitter {
  /** The text so far: its length and its ends (own copies: a slice would keep the whole text). */
  private length = 0;
  private head = '';
  private tail = '';
  private finished: string[] = [];
  /** The open block: the text from `openStart` on. */
  private buf = '';
  private openStart = 0;
  /** Offset of the first line not scanned yet; always a line start. */
  private scanned = 0;
  private fence: Fence | undefined;
  private html: HtmlBlock | undefined;
  /** Kinds of list item seen in the open block since a list last surely ended. */
  private lists = new Set<string>();
  private prevBlank = false;
  private hasContent = false;
  /** Something made boundaries uncertain: no more splitting in this text. */
  private merged = false;
  /** A definition or a carriage return was seen: the whole text is one block. */
  private whole = false;

  /** The split of `text`: what it adds to the text split before is scanned; another text starts over. */
  split(text: string): BlockSplit {
    if (!extendsText(text, this.length, this.head, this.tail)) this.reset();
    return this.feed(text.slice(this.length));
  }

  /** The split once `added` is appended to the text split so far. Reads nothing but `added` and the open block. */
  feed(added: string): BlockSplit {
    if (added === '') return this.result();
    if (this.head.length < PROBE) this.head = ownCopy(this.head + added.slice(0, PROBE - this.head.length));
    this.tail = ownCopy(added.length >= PROBE ? added.slice(-PROBE) : (this.tail + added).slice(-PROBE));
    this.length += added.length;
    this.buf += added;
    if (!this.whole && added.includes('\r')) this.becomeWhole();
    while (!this.whole) {
      const from = this.scanned - this.openStart;
      const end = this.buf.indexOf('\n', from);
      if (end < 0) break;
      // A cut in scanLine moves openStart: the line's end is kept as an offset in the text.
      const lineEnd = this.openStart + end;
      this.scanLine(this.buf.slice(from, end), this.scanned);
      this.scanned = lineEnd + 1;
    }
    return this.result();
  }

  private result(): BlockSplit {
    return { finished: this.finished, open: this.buf };
  }

  /** No more splitting: the blocks so far go back into the one open block. */
  private becomeWhole(): void {
    this.whole = true;
    if (this.finished.length === 0) return;
    this.buf = this.finished.join('') + this.buf;
    this.openStart = 0;
    // A new array: whoever kept the old one sees that the blocks started over.
    this.finished = [];
  }

  private reset(): void {
    this.length = 0;
    this.head = '';
    this.tail = '';
    this.finished = [];
    this.buf = '';
    this.openStart = 0;
    this.scanned = 0;
    this.fence = undefined;
    this.html = undefined;
    this.lists = new Set();
    this.prevBlank = false;
    this.hasContent = false;
    this.merged = false;
    this.whole = false;
  }

  private scanLine(line: string, at: number): void {
    if (BLANK.test(line)) {
      if (this.html?.until === 'blank') this.html = undefined;
      this.prevBlank = true;
      return;
    }
    const indent = indentOf(line);
    const wasBlank = this.prevBlank;
    this.prevBlank = false;

    if (this.fence) {
      const close = indent <= 3 ? CLOSING_FENCE.exec(line) : null;
      const run = close?.[1];
      if (run !== undefined && run[0] === this.fence.char && run.length >= this.fence.length) {
        const topLevel = this.fence.indent === 0;
        this.fence = undefined;
        // Nothing after a closed top-level fence can change it: it is final (and can be
        // highlighted) as soon as its closing line is complete.
        if (topLevel && !this.merged) this.cut(at + line.length + 1, false);
      } else if (indent === 0 && this.fence.indent > 0 && this.lists.size > 0) {
        // Inside a list item this line would end the fence; at top level it is code. Unsure.
        this.merged = true;
      }
      return;
    }
    if (this.html) {
      if (this.html.until === 'blank') {
        // Whether a fence opens here depends on whether the HTML line began a block.
        if (FENCE.test(line) && indent <= 3) this.merged = true;
      } else if (this.html.until.test(line)) {
        this.html = undefined;
      }
      return;
    }
    if (DEFINITION.test(line)) {
      this.becomeWhole();
      return;
    }

    const kind = indent <= 3 ? listKind(line) : undefined;
    const startsAfresh = wasBlank && indent === 0;
    if (startsAfresh && this.hasContent && !this.merged && (kind === undefined || !this.lists.has(kind))) {
      this.cut(at, true);
    } else if (startsAfresh && kind === undefined) {
      // Any list before is over; a later item starts a new list.
      this.lists = new Set();
    }
    this.hasContent = true;
    if (kind !== undefined) this.lists.add(kind);
    else if (indent > 3) {
      const nested = listKind(line);
      if (nested !== undefined) this.lists.add(nested);
    }
    if (indent <= 3) this.opens(line, indent);
  }

  /** Ends the open block at `at`; `hasContent`: whether the new open block starts with content. */
  private cut(at: number, hasContent: boolean): void {
    this.finished.push(ownCopy(this.buf.slice(0, at - this.openStart)));
    this.buf = this.buf.slice(at - this.openStart);
    this.openStart = at;
    this.lists = new Set();
    this.hasContent = hasContent;
  }

  /** Notes a fence or an HTML block that this line opens. */
  private opens(line: string, indent: number): void {
    const fence = FENCE.exec(line);
    const run = fence?.[1];
    if (run !== undefined && !(run[0] === '`' && (fence?.[2] ?? '').includes('`'))) {
      this.fence = { char: run[0] === '`' ? '`' : '~', length: run.length, indent };
      return;
    }
    const trimmed = line.trimStart();
    for (const [start, end] of HTML_WITH_END) {
      if (!start.test(trimmed)) continue;
      if (end.test(trimmed.slice(2))) return;
      this.html = { until: end };
      // Inside a list item such a block ends with the item, which this scan cannot see.
      if (this.lists.size > 0) this.merged = true;
      return;
    }
    if (HTML_UNTIL_BLANK.test(trimmed)) this.html = { until: 'blank' };
  }
}
