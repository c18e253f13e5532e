import { createContext, memo, useCallback, useContext, useLayoutEffect, useRef, useState, type ReactElement, type ReactNode, type RefObject } from 'react';
import type { Element } from 'hast';
import { MarkdownBlockSplitter, type BlockSplit } from '../../lib/markdown-blocks';
import { markdownElements, type SafeComponents } from '../../lib/markdown-pipeline';
import { BlockSegmenter, estimateHeight, SegmentPager, type Segment, type SegmentPage } from '../../lib/markdown-segments';
import type { TextPieces } from '../../lib/text-pieces';
import { CodeBlock, isClosedFence } from './code-block';
import { canWatch, scrollRootOf, watchSegment } from './segment-watch';
import { createIdleQueue } from '../../lib/idle-queue';
import { nextTask, type FrameScheduler } from '../../store/frame';

/**
 * Only absolute http(s) and mailto links are links. Anything else an agent writes
 * (`javascript:`, `data:`, `vbscript:`, a path into this very app) is shown as its text: not
 * clickable at all, rather than an empty `href` that would open the app again in a new tab.
 */
export function isSafeHref(href: string | undefined): boolean {
  if (!href) return false;
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(href).protocol);
  } catch {
    return false; // relative, or not a URL
  }
}

const NOT_OPENED = 'Link not opened: only http(s) and mailto links are';

/** The text of the block being rendered: a code block reads its own source there to tell whether it is closed. */
const BlockSource = createContext('');

function textOf(node: Element | undefined): string {
  let text = '';
  for (const child of node?.children ?? []) if (child.type === 'text') text += child.value;
  return text;
}

/** A code block: its text and language from the syntax tree, closed or not from its source. */
function Pre({ node }: { node?: Element | undefined }) {
  const source = useContext(BlockSource);
  const code = node?.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const classes = code?.properties.className;
  const language = Array.isArray(classes)
    ? classes.map(String).find((c) => c.startsWith('language-'))?.slice('language-'.length)
    : undefined;
  const start = node?.position?.start.offset;
  const end = node?.position?.end.offset;
  const closed = start !== undefined && end !== undefined && isClosedFence(source.slice(start, end));
  return <CodeBlock code={textOf(code)} language={language} closed={closed} />;
}

// Links open outside the app window (the host's navigation guard decides what is allowed).
const components: SafeComponents = {
  a: ({ node: _node, href, ...props }) =>
    isSafeHref(href) ? <a {...props} href={href} target="_blank" rel="noreferrer noopener" /> : <span className="unsafe-link" title={NOT_OPENED}>{props.children}</span>,
  // An image whose address was refused is its alt text, not an <img src=""> that loads this page again.
  img: ({ node: _node, src, alt, ...props }) =>
    typeof src === 'string' && /^https?:/i.test(src) && isSafeHref(src) ? <img {...props} src={src} alt={alt} /> : <span className="unsafe-link" title={NOT_OPENED}>{alt}</span>,
  pre: Pre,
};

/** Finished blocks rendered, by text: a segment scrolled back into view is not parsed again. */
const RENDERED_ENTRIES = 4_000;
const rendered = new Map<string, ReactElement>();

/**
 * One top-level block. Raw HTML from an agent is never rendered (see markdownElements). `final`: the block will not change, so its elements are kept (bounded, least
 * recently used first out) for the next time it mounts.
 */
function renderBlock(text: string, final: boolean): ReactElement {
  const hit = final ? rendered.get(text) : undefined;
  if (hit) {
    rendered.delete(text);
    rendered.set(text, hit);
    return hit;
  }
  const element = <BlockSource value={text}>{markdownElements(text, components)}</BlockSource>;
  if (final) {
    if (rendered.size >= RENDERED_ENTRIES) rendered.delete(rendered.keys().next().value as string);
    rendered.set(text, element);
  }
  return element;
}

/** Memoised on the text: a finished block never changes, so it is parsed once and its code blocks highlighted once. */
const Block = memo(function Block({ text, final }: { text: string; final: boolean }) {
  return renderBlock(text, final);
});

/**
 * A chunk boundary can fall between the two halves of a surrogate pair; hold the first half
 * back until its partner arrives rather than paint a replacement character for a frame.
 */
function withoutTrailingHighSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/**
 * The blocks of a split as children of one container, flat (no segments): the reference the
 * segmented rendering is tested against. Blocks are keyed by index, which is stable because
 * finished blocks never change, and separated by the newline that remark-rehype puts between
 * top-level elements, so the markup equals that of the whole text rendered at once.
 */
export function blockChildren({ finished, open }: BlockSplit): ReactNode[] {
  const children: ReactNode[] = [];
  finished.forEach((block, i) => {
    if (i > 0) children.push('\n');
    children.push(<Block key={i} text={block} final />);
  });
  const tail = withoutTrailingHighSurrogate(open);
  // Blank lines alone make no element, and so no separator, in the whole text either.
  if (!/^[ \t\n]*$/.test(tail)) {
    if (finished.length > 0) children.push('\n');
    children.push(<Block key={finished.length} text={tail} final={false} />);
  }
  return children;
}

/**
 * The newest segments are always rendered, near the view or not: a streaming message's end is
 * where the reader follows it, and a reopened message paints its end in the first frame. As
 * many as cover the window's height (by their measured heights, or estimated): the screen is
 * full in that first frame, and nothing above it is parsed or laid out before it paints; the
 * others come as they near the view, one a task (useNearView). A reopened 1 MB answer rendered
 * the newest two, where one covers the window: twice the Markdown parsed and laid out before its
 * first paint (issue 21, reopen_mixed_1m_ms, 147 → 102 ms). While the message grows, the one
 * before the open segment stays among them too, however tall the open one is: the reader's eye
 * was there a moment ago, and it does not leave for a box and come back while the answer streams.
 */
const eagerPx = (): number => (typeof window === 'undefined' ? 0 : window.innerHeight);
const EAGER_SHOWN = 1;
const EAGER_GROWING = 2;

/**
 * Segments that came near the view (or left it) change one per task: scrolling fast brings
 * several in a frame, and rendering them together (each up to 48 blocks of tables, lists and
 * code) made one long task; one at a time, input and frames get through between them.
 */
let oneAtATime: FrameScheduler | undefined;
const segmentShows = createIdleQueue((run) => (oneAtATime ??= nextTask())(() => run(() => 0)));

/**
 * Whether `ref`'s element is near the view (always, where nothing can watch): a change comes
 * through `segmentShows`, one per task. With `onHeight`, its height is reported as it changes
 * (a new `onHeight` watches anew).
 */
function useNearView(ref: RefObject<HTMLDivElement | null>, onHeight?: (px: number, target: globalThis.Element) => void): boolean {
  const [near, setNear] = useState(() => !canWatch());
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !canWatch()) return;
    let queued: (() => void) | undefined;
    const stop = watchSegment(el, {
      onNear: (value) => {
        queued?.();
        queued = segmentShows.add(() => setNear(value));
      },
      ...(onHeight ? { onHeight } : {}),
    });
    return () => {
      queued?.();
      stop();
    };
  }, [ref, onHeight]);
  return near;
}

/** Measured heights of a message's segments, by segment key (stable while older text is loaded in front). */
type Heights = Map<string, number>;

/**
 * A run of finished blocks. Near the view it renders them; farther away it is an empty box
 * of the height it had when last shown (or an estimate, if never shown), so a long message
 * costs the page what is near the view, not what it holds. Its height, while shown, is
 * recorded from a ResizeObserver; where a segment above the view turns from an estimate into
 * its blocks, the view is moved by the difference so what the reader looks at stays put.
 */
const SegmentView = memo(function SegmentView({ segment, eager, heights }: { segment: Segment; eager: boolean; heights: Heights }) {
  const ref = useRef<HTMLDivElement>(null);
  const shownRef = useRef(false);
  const segmentRef = useRef(segment);
  const key = segment.key;
  const near = useNearView(
    ref,
    useCallback(
      (px: number, target: globalThis.Element) => {
        // An empty box is as tall as we made it; 0 is a segment not laid out (a closed thought).
        if (!shownRef.current || px === 0) return;
        const before = segmentHeight(segmentRef.current, heights);
        heights.set(key, px);
        const delta = px - before;
        if (delta !== 0) keepViewInPlace(target, delta);
      },
      [heights, key],
    ),
  );
  const shown = eager || near;
  useLayoutEffect(() => {
    shownRef.current = shown;
    segmentRef.current = segment;
  });
  if (!shown) return <div ref={ref} className="markdown-segment" data-segment="" style={{ height: segmentHeight(segment, heights) }} />;
  const children: ReactNode[] = [];
  segment.blocks.forEach((block, i) => {
    if (i > 0) children.push('\n');
    children.push(<Block key={i} text={block} final />);
  });
  return (
    <div ref={ref} className="markdown-segment" data-segment="">
      {children}
    </div>
  );
});

/** Estimated heights of finished segments (their blocks never change), computed once each. */
const estimates = new WeakMap<Segment, number>();

/** A segment's height: as measured when last shown, else as estimated. */
export function segmentHeight(segment: Segment, heights: Heights): number {
  const measured = heights.get(segment.key);
  if (measured !== undefined) return measured;
  if (!segment.done) return estimateHeight(segment.blocks);
  let px = estimates.get(segment);
  if (px === undefined) estimates.set(segment, (px = estimateHeight(segment.blocks)));
  return px;
}

/**
 * How many of each page's last segments are among the message's newest (always rendered): the
 * fewest, counted back from the last page across pages, whose heights reach `coverPx`, and at
 * least `least`.
 */
export function eagerCounts(pages: readonly SegmentPage[], heightOf: (segment: Segment) => number, coverPx: number, least: number): number[] {
  const counts = pages.map(() => 0);
  let covered = 0;
  let taken = 0;
  for (let i = pages.length - 1; i >= 0; i--) {
    const segments = pages[i]!.segments;
    for (let j = segments.length - 1; j >= 0; j--) {
      if (taken >= least && covered >= coverPx) return counts;
      counts[i]!++;
      taken++;
      covered += heightOf(segments[j]!);
    }
  }
  return counts;
}

/** A page far from the view: as tall as its segments were when last shown, or as estimated. */
function pageHeight(page: SegmentPage, heights: Heights): number {
  let px = 0;
  for (const segment of page.segments) px += segmentHeight(segment, heights);
  return px;
}

/**
 * A page of segments (see SegmentPager). Near the view it holds its segments, each of which is
 * rendered or an empty box on its own; farther away it is one empty box as tall as they are, so
 * the page holds a few dozen boxes for a long message, not one a segment. `eager`: how many of
 * its last segments are among the message's newest (always rendered).
 */
const PageView = memo(function PageView({ page, eager, heights }: { page: SegmentPage; eager: number; heights: Heights }) {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearView(ref);
  if (eager === 0 && !near) return <div ref={ref} className="markdown-page" data-page="" style={{ height: pageHeight(page, heights) }} />;
  const children: ReactNode[] = [];
  const count = page.segments.length;
  page.segments.forEach((segment, i) => {
    if (i > 0) children.push('\n');
    children.push(<SegmentView key={`s${segment.key}`} segment={segment} eager={i >= count - eager} heights={heights} />);
  });
  return (
    <div ref={ref} className="markdown-page" data-page="">
      {children}
    </div>
  );
});

/** Within this of the end, the transcript follows new output itself (as TranscriptView's STICK_PX). */
const AT_END_PX = 32;

/**
 * A segment entirely above the view grew or shrank by `delta`: scroll by as much, so the
 * content in view does not move. Only where the message itself reaches into the view (a
 * message entirely above it is moved by the transcript's virtualizer as a whole), and not at
 * the end of the transcript: there the transcript keeps the end in view itself, and the
 * browser already pulled the view up when the content above it shrank.
 */
function keepViewInPlace(segment: globalThis.Element, delta: number): void {
  const root = scrollRootOf(segment);
  const message = segment.closest('.markdown');
  if (!root || !message) return;
  // Following the stream: the transcript keeps its end in view; moving the view here would
  // race its own scrolling (both act on the same resize) and stop it following.
  if (root instanceof HTMLElement && root.dataset.following !== 'false') return;
  const fromEnd = root.scrollHeight - root.scrollTop - root.clientHeight;
  if (fromEnd - Math.max(0, delta) <= AT_END_PX) return;
  const top = root.getBoundingClientRect().top;
  if (segment.getBoundingClientRect().bottom > top || message.getBoundingClientRect().bottom <= top) return;
  root.scrollTop += delta;
}

export interface SplitState {
  splitter: MarkdownBlockSplitter;
  /** The pieces the splitter was last fed from, and how many of them. */
  fed: { pieces: TextPieces; count: number } | undefined;
  segmenter: BlockSegmenter;
  pager: SegmentPager;
  heights: Heights;
  /** The text's length when last rendered, and whether it has grown while mounted (it streams). */
  length: number;
  grew: boolean;
}

export const newSplitState = (): SplitState => ({ splitter: new MarkdownBlockSplitter(), fed: undefined, segmenter: new BlockSegmenter(), pager: new SegmentPager(), heights: new Map(), length: -1, grew: false });

/** Whether the message's text has grown since it was first rendered here (it streams); `length` is its length now. */
export function grewWhileMounted(state: SplitState, length: number): boolean {
  if (state.length >= 0 && length > state.length) state.grew = true;
  state.length = length;
  return state.grew;
}

/**
 * The blocks of `text`. Where it is the same message grown by a few pieces, the splitter is fed
 * just those (the whole text is never read: see TextPieces); anything else goes by the text.
 * Rendering twice with the same text feeds nothing the second time.
 */
export function splitOf(state: SplitState, text: string, pieces: TextPieces | undefined): BlockSplit {
  const count = pieces?.count(text.length);
  const fed = state.fed;
  if (pieces && count !== undefined && fed?.pieces === pieces && count >= fed.count) {
    const added = pieces.text(fed.count, count);
    fed.count = count;
    return state.splitter.feed(added);
  }
  state.fed = pieces && count !== undefined ? { pieces, count } : undefined;
  return state.splitter.split(text);
}

/**
 * Agent text as Markdown, split into top-level blocks (see MarkdownBlockSplitter), the finished
 * blocks grouped into segments (see BlockSegmenter) and the segments into pages (SegmentPager).
 * While a message streams, only its open block is parsed again, and React compares one element
 * per page, not per block; only pages and segments near the view are rendered at all.
 */
export const Markdown = memo(function Markdown({ text, pieces }: { text: string; pieces?: TextPieces | undefined }) {
  // Per mounted message: the splitter and the segmenter resume where they left off as the text grows.
  const [state] = useState(newSplitState);
  const grew = grewWhileMounted(state, text.length);
  const split = splitOf(state, text, pieces);
  const pages = state.pager.update(state.segmenter.update(split.finished));
  const children: ReactNode[] = [];
  const eager = eagerCounts(pages, (segment) => segmentHeight(segment, state.heights), eagerPx(), grew ? EAGER_GROWING : EAGER_SHOWN);
  pages.forEach((page, i) => {
    if (i > 0) children.push('\n');
    children.push(<PageView key={`p${page.key}`} page={page} eager={eager[i]!} heights={state.heights} />);
  });
  const tail = withoutTrailingHighSurrogate(split.open);
  if (!/^[ \t\n]*$/.test(tail)) {
    if (pages.length > 0) children.push('\n');
    children.push(<Block key="open" text={tail} final={false} />);
  }
  return <div className="markdown">{children}</div>;
});
