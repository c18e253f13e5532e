import { describe, expect, it } from 'vitest';
import { MarkdownBlockSplitter } from './markdown-blocks';
import { BlockSegmenter, estimateHeight, SegmentPager, type Segment, type SegmentPage } from './markdown-segments';

const blocksOf = (text: string): readonly string[] => new MarkdownBlockSplitter().split(text).finished;
const segmentsOf = (blocks: readonly string[]): readonly Segment[] => new BlockSegmenter().update(blocks);

/** Many small blocks, as a dense answer has: a heading, a paragraph, a list, a fence and a table per section. */
function denseText(sections: number): string {
  const parts: string[] = [];
  for (let n = 1; n <= sections; n++) {
    parts.push(`### ${n} cache`, `It keeps \`row${n % 7}\` once.`, `- a${n % 3}\n- b`, '```ts\nrow.keep(' + n + ');\n```', `| k | v |\n| - | - |\n| x | ${n % 97} |`);
  }
  return `${parts.join('\n\n')}\n`;
}

describe('BlockSegmenter', () => {
  const doc = denseText(240);
  const blocks = blocksOf(doc);

  it('groups every finished block, in order, into segments of a bounded size', () => {
    const segments = segmentsOf(blocks);
    expect(segments.flatMap((s) => s.blocks)).toEqual(blocks);
    expect(segments.length).toBeGreaterThan(blocks.length / 48);
    expect(segments.length).toBeLessThan(blocks.length / 4);
    for (const s of segments.slice(0, -1)) {
      expect(s.done).toBe(true);
      expect(s.blocks.length).toBeLessThanOrEqual(48);
    }
    expect(new Set(segments.map((s) => s.key)).size).toBe(segments.length);
  });

  it('gives the same segments streamed block by block as all at once, keeping each finished segment object', () => {
    const segmenter = new BlockSegmenter();
    const growing: string[] = [];
    const kept = new Map<string, Segment>();
    let last: readonly Segment[] = [];
    for (const block of blocks) {
      growing.push(block);
      last = segmenter.update(growing);
      for (const s of last.filter((x) => x.done)) {
        if (kept.has(s.key)) expect(kept.get(s.key)).toBe(s);
        kept.set(s.key, s);
      }
      // The open segment keeps its key while it grows.
      expect(last.at(-1)!.key).toBe(segmentsOf(growing).at(-1)!.key);
    }
    expect(last.map((s) => [s.key, s.blocks])).toEqual(segmentsOf(blocks).map((s) => [s.key, s.blocks]));
  });

  it('keeps the segments (keys and blocks) after the first boundary when text is loaded in front', () => {
    const whole = segmentsOf(blocks);
    const later = segmentsOf(blocks.slice(37));
    // From the first boundary on in the shorter text, its segments are the whole text's.
    const tail = later.slice(1).map((s) => [s.key, s.blocks.join('')]);
    const wholeTail = whole.map((s) => [s.key, s.blocks.join('')]).slice(-tail.length);
    expect(tail.length).toBeGreaterThan(3);
    expect(tail).toEqual(wholeTail);
  });

  it('starts again when the splitter does (a new array)', () => {
    const segmenter = new BlockSegmenter();
    segmenter.update([...blocks]);
    expect(segmenter.update(['# other\n\n'])).toEqual([{ key: expect.any(String), blocks: ['# other\n\n'], chars: 9, done: false }]);
  });
});

describe('SegmentPager', () => {
  const doc = denseText(2400);
  const blocks = blocksOf(doc);
  const pagesOf = (segments: readonly Segment[]): readonly SegmentPage[] => new SegmentPager().update(segments);

  it('groups every segment, in order, into pages of a bounded size, far fewer than segments', () => {
    const segments = segmentsOf(blocks);
    const pages = pagesOf(segments);
    expect(pages.flatMap((p) => p.segments)).toEqual(segments);
    expect(segments.length).toBeGreaterThan(200);
    expect(pages.length).toBeLessThan(segments.length / 8);
    for (const p of pages.slice(0, -1)) {
      expect(p.done).toBe(true);
      expect(p.segments.length).toBeLessThanOrEqual(32);
      expect(p.key).toBe(p.segments[0]!.key);
    }
    expect(new Set(pages.map((p) => p.key)).size).toBe(pages.length);
  });

  it('gives the same pages streamed block by block as all at once, keeping each finished page object', () => {
    const segmenter = new BlockSegmenter();
    const pager = new SegmentPager();
    const growing: string[] = [];
    const kept = new Map<string, SegmentPage>();
    let last: readonly SegmentPage[] = [];
    blocks.forEach((block, i) => {
      growing.push(block);
      const segments = segmenter.update(growing);
      last = pager.update(segments);
      // Every page in order, checked now and then (each check walks them all).
      if (i % 97 === 0) expect(last.flatMap((p) => p.segments)).toEqual(segments);
      for (const p of last.filter((x) => x.done)) {
        if (kept.has(p.key)) expect(kept.get(p.key)).toBe(p);
        kept.set(p.key, p);
      }
    });
    expect(kept.size).toBeGreaterThan(5);
    const key = (pages: readonly SegmentPage[]) => pages.map((p) => [p.key, p.segments.map((s) => s.key)]);
    expect(key(last)).toEqual(key(pagesOf(segmentsOf(blocks))));
  });

  it('keeps the pages after the first few when text is loaded in front, and starts again for another text', () => {
    const key = (pages: readonly SegmentPage[]) => pages.map((p) => [p.key, p.segments.map((s) => s.key)]);
    const whole = key(pagesOf(segmentsOf(blocks)));
    const later = key(pagesOf(segmentsOf(blocks.slice(37))));
    expect(later.length).toBeGreaterThan(3);
    // The first boundaries of the shorter text can fall short of PAGE_MIN in the whole one: from the third page on they agree.
    expect(later.slice(2)).toEqual(whole.slice(-(later.length - 2)));
    const segmenter = new BlockSegmenter();
    const pager = new SegmentPager();
    pager.update(segmenter.update([...blocks]));
    // One pager that saw the whole text gives what a new one does once text is loaded in front.
    const shorter = new BlockSegmenter().update(blocks.slice(37));
    expect(key(pager.update(shorter))).toEqual(later);
    expect(pager.update(segmenter.update(['# other\n\n']))).toEqual([{ key: expect.any(String), segments: [expect.objectContaining({ blocks: ['# other\n\n'] })], done: false }]);
  });
});

describe('estimateHeight', () => {
  it('grows with the lines and blocks of a segment', () => {
    expect(estimateHeight(['one line\n\n'])).toBeGreaterThan(0);
    expect(estimateHeight(['a\nb\nc\n'])).toBeGreaterThan(estimateHeight(['a\n']));
    expect(estimateHeight(['a\n', 'b\n'])).toBeGreaterThan(estimateHeight(['a\n']));
    expect(estimateHeight(['x'.repeat(900)])).toBeGreaterThan(estimateHeight(['x'.repeat(90)]));
  });
});
