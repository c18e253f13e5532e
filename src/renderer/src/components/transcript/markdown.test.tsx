import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { markdownChunks, markdownDocument, seededRandom } from '../../../../agents/demo/markdown-doc';
import { MarkdownBlockSplitter, type BlockSplit } from '../../lib/markdown-blocks';
import { estimateHeight } from '../../lib/markdown-segments';
import { TextPieces } from '../../lib/text-pieces';
import { splitMarkdown, WholeMarkdown, withoutSegments } from '../../test-support/markdown';
import { blockChildren, eagerCounts, grewWhileMounted, Markdown, newSplitState, segmentHeight, splitOf } from './markdown';
import { TRICKY_DOCS } from './markdown-docs.test-data';

const whole = (text: string) => renderToStaticMarkup(<WholeMarkdown text={text} />);
const blocks = (split: BlockSplit) => renderToStaticMarkup(<div className="markdown">{blockChildren(split)}</div>);

/**
 * Feeds `chunks` one by one to one splitter, rendering after each, as a streaming bubble does:
 * the whole text so far each time (`split`), or only each chunk (`feed`, as a row's pieces).
 */
function streamed(chunks: readonly string[], via: 'split' | 'feed' = 'split'): { final: string; frames: string[] } {
  const splitter = new MarkdownBlockSplitter();
  let text = '';
  const frames: string[] = [];
  for (const chunk of chunks) {
    text += chunk;
    frames.push(blocks(via === 'split' ? splitter.split(text) : splitter.feed(chunk)));
  }
  return { final: frames.at(-1) ?? blocks(splitter.split('')), frames };
}

/** `text` cut at `count` seeded random points (code units: surrogate pairs get split too). */
function randomCuts(text: string, seed: number, count: number): string[] {
  const rand = seededRandom(seed);
  const points = Array.from({ length: count }, () => Math.floor(rand() * text.length)).sort((a, b) => a - b);
  const chunks: string[] = [];
  let at = 0;
  for (const p of [...points, text.length]) {
    chunks.push(text.slice(at, p));
    at = p;
  }
  return chunks;
}

/** Every single character as its own chunk: every possible boundary at once. */
const perChar = (text: string) => text.split('');

describe('block-wise Markdown renders exactly as the whole text', () => {
  for (const [name, doc] of Object.entries(TRICKY_DOCS)) {
    it(`${name}: loaded whole`, () => {
      expect(withoutSegments(renderToStaticMarkup(<Markdown text={doc} />))).toBe(whole(doc));
    });

    it(`${name}: streamed one code unit at a time, then finished`, () => {
      expect(streamed(perChar(doc)).final).toBe(whole(doc));
    });

    it(`${name}: streamed line by line (a table row by row)`, () => {
      expect(streamed(doc.split(/(?<=\n)/)).final).toBe(whole(doc));
    });

    it(`${name}: fed chunk by chunk, one code unit and one line at a time`, () => {
      expect(streamed(perChar(doc), 'feed').final).toBe(whole(doc));
      expect(streamed(doc.split(/(?<=\n)/), 'feed').final).toBe(whole(doc));
    });
  }

  it('really splits agent-style text into several blocks (else the test above proves nothing)', () => {
    const doc = markdownDocument(8);
    expect(splitMarkdown(doc).finished.length).toBeGreaterThan(20);
    expect(splitMarkdown(TRICKY_DOCS['nested lists, loose lists going on after blank lines, new lists by marker'] ?? '').finished.length).toBeGreaterThan(2);
  });

  it('gives the same final markup for seeded random split points of a realistic document', () => {
    const doc = markdownDocument(12);
    const reference = whole(doc);
    for (let seed = 1; seed <= 12; seed++) {
      const splitter = new MarkdownBlockSplitter();
      let text = '';
      for (const chunk of randomCuts(doc, seed, 150)) splitter.split((text += chunk));
      expect(blocks(splitter.split(doc)), `seed ${seed}`).toBe(reference);
      const fed = new MarkdownBlockSplitter();
      for (const chunk of randomCuts(doc, seed, 150)) fed.feed(chunk);
      expect(blocks(fed.split(doc)), `seed ${seed}, fed`).toBe(reference);
    }
  });

  it('gives the same final markup for the demo agent’s own chunking', () => {
    const doc = markdownDocument(6);
    expect(streamed(markdownChunks(doc, 6)).final).toBe(whole(doc));
  });
});

describe('a chunk boundary inside a character', () => {
  const doc = 'Ship it 🚀\n\nDone 👩‍💻 ✅';

  it('never paints half a surrogate pair, and the pair shows whole once its second half arrives', () => {
    const rocket = doc.indexOf('🚀');
    const { frames, final } = streamed([doc.slice(0, rocket + 1), doc.slice(rocket + 1)]);
    expect(frames[0]).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(frames[0]).toContain('Ship it');
    expect(final).toBe(whole(doc));
    expect(final).toContain('🚀');
  });

  it('renders the same at every split point of every character', () => {
    const reference = whole(doc);
    for (let cut = 1; cut < doc.length; cut++) {
      expect(streamed([doc.slice(0, cut), doc.slice(cut)]).final, `cut at ${cut}`).toBe(reference);
      expect(streamed([doc.slice(0, cut), doc.slice(cut)], 'feed').final, `cut at ${cut}, fed`).toBe(reference);
    }
  });
});

describe('the splitter keeps finished blocks final', () => {
  it('gives the same blocks streamed as whole, and never changes a finished block', () => {
    const doc = markdownDocument(10);
    const splitter = new MarkdownBlockSplitter();
    let text = '';
    let seen: string[] = [];
    for (const chunk of markdownChunks(doc, 10)) {
      const { finished } = splitter.split((text += chunk));
      expect(finished.slice(0, seen.length)).toEqual(seen);
      seen = [...finished];
    }
    const once = splitMarkdown(doc);
    expect(splitter.split(doc)).toEqual(once);
    expect([...once.finished, once.open].join('')).toBe(doc);
    const fed = new MarkdownBlockSplitter();
    for (const chunk of markdownChunks(doc, 10)) fed.feed(chunk);
    expect(fed.split(doc)).toEqual(once);
  });

  it('goes on by split after feed, and by feed after split, as one text', () => {
    const doc = markdownDocument(4);
    const half = Math.floor(doc.length / 2);
    const splitter = new MarkdownBlockSplitter();
    splitter.feed(doc.slice(0, half));
    expect(splitter.split(doc.slice(0, half + 10))).toEqual(splitMarkdown(doc.slice(0, half + 10)));
    expect(splitter.feed(doc.slice(half + 10))).toEqual(splitMarkdown(doc));
  });

  it('gives up splitting when a definition or a carriage return comes in a later chunk, with all the text in the open block', () => {
    for (const late of ['\n[ref]: https://example.com\n', 'a line\r\nanother\n']) {
      const splitter = new MarkdownBlockSplitter();
      const before = '# One\n\nFirst.\n\n# Two\n\nSecond.\n\n';
      expect(splitter.feed(before).finished.length).toBeGreaterThan(1);
      expect(splitter.feed(late)).toEqual({ finished: [], open: before + late });
    }
  });

  it('closes a fenced code block as soon as its closing fence line is complete', () => {
    const split = splitMarkdown('Text\n\n```ts\nlet a = 1;\n```\nmore');
    expect(split.finished).toEqual(['Text\n\n', '```ts\nlet a = 1;\n```\n']);
    expect(split.open).toBe('more');
  });

  it('starts again from scratch when the text is replaced rather than extended', () => {
    const splitter = new MarkdownBlockSplitter();
    splitter.split('# A\n\nfirst\n\n');
    expect(splitter.split('# B\n\nother')).toEqual(splitMarkdown('# B\n\nother'));
  });

  it('tells a long text replaced by another from one extended, at either end', () => {
    const long = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} of the answer.\n\n`).join('');
    const splitter = new MarkdownBlockSplitter();
    splitter.split(long);
    // Extended: resumes (same finished blocks, the new one added).
    expect(splitter.split(`${long}More.\n\nAnd more`)).toEqual(splitMarkdown(`${long}More.\n\nAnd more`));
    // Another text, longer, differing at the start or near the end of what was split before.
    const otherHead = `# Other\n\n${long.slice(9)}tail`;
    expect(splitter.split(otherHead)).toEqual(splitMarkdown(otherHead));
    const otherTail = `${long.slice(0, -20)}Changed near the end.\n\nand on`;
    expect(splitter.split(otherTail)).toEqual(splitMarkdown(otherTail));
    // Shorter: starts again.
    expect(splitter.split(long.slice(0, 100))).toEqual(splitMarkdown(long.slice(0, 100)));
  });
});

describe('a streaming message feeds the splitter its new pieces', () => {
  it('reads only the pieces added since the last render, and the same blocks come out as from the whole text', () => {
    const doc = markdownDocument(6);
    const chunks = markdownChunks(doc, 6);
    const state = newSplitState();
    const bySplit = vi.spyOn(state.splitter, 'split');
    const pieces = new TextPieces(chunks[0]!);
    let text = chunks[0]!;
    splitOf(state, text, pieces);
    expect(bySplit).toHaveBeenCalledTimes(1);
    for (const chunk of chunks.slice(1)) {
      pieces.add(chunk);
      text += chunk;
      const split = splitOf(state, text, pieces);
      // Rendered twice with the same text (React may): nothing more is fed.
      expect(splitOf(state, text, pieces)).toEqual(split);
    }
    expect(bySplit).toHaveBeenCalledTimes(1);
    expect(splitOf(state, text, pieces)).toEqual(splitMarkdown(doc));
  });

  it('goes by the text where the pieces do not fit it: another message, or a text the pieces do not end at', () => {
    const state = newSplitState();
    const pieces = new TextPieces('# A\n\n');
    pieces.add('first\n\n');
    splitOf(state, '# A\n\nfirst\n\n', pieces);
    expect(splitOf(state, '# B\n\nother', new TextPieces('# B\n\nother'))).toEqual(splitMarkdown('# B\n\nother'));
    expect(splitOf(state, '# B\n\noth', pieces)).toEqual(splitMarkdown('# B\n\noth'));
  });
});

describe('splitOf between versions of a message', () => {
  const doc = markdownDocument(3);
  const chunks = markdownChunks(doc, 3);
  const grown = (n: number) => {
    const pieces = new TextPieces(chunks[0]!);
    for (const c of chunks.slice(1, n)) pieces.add(c);
    return { pieces, text: chunks.slice(0, n).join('') };
  };

  it('goes back to an older version of the same pieces (a snapshot rendered again) by its text', () => {
    const { pieces } = grown(chunks.length);
    const state = newSplitState();
    let text = '';
    chunks.forEach((c, i) => {
      text += c;
      if (i > 0) splitOf(state, text, pieces);
      else splitOf(state, c, pieces);
    });
    const older = chunks.slice(0, 5).join('');
    expect(splitOf(state, older, pieces)).toEqual(splitMarkdown(older));
    expect(splitOf(state, doc, pieces)).toEqual(splitMarkdown(doc));
  });

  it('takes new pieces of the same text (the rows were grouped again) and goes on feeding them', () => {
    const half = Math.floor(chunks.length / 2);
    const first = grown(half);
    const state = newSplitState();
    splitOf(state, first.text, first.pieces);
    const again = grown(chunks.length);
    const bySplit = vi.spyOn(state.splitter, 'split');
    expect(splitOf(state, chunks.slice(0, half + 1).join(''), again.pieces)).toEqual(splitMarkdown(chunks.slice(0, half + 1).join('')));
    expect(bySplit).toHaveBeenCalledTimes(1);
    expect(splitOf(state, doc, again.pieces)).toEqual(splitMarkdown(doc));
    expect(bySplit).toHaveBeenCalledTimes(1);
  });

  it('gives up splitting when a definition or a carriage return arrives after several cuts, fed or split', () => {
    for (const late of ['\n[ref]: https://example.com\n', 'a line\r\nanother\n']) {
      const text = `${doc}${late}more`;
      const pieces = new TextPieces(doc);
      const state = newSplitState();
      splitOf(state, doc, pieces);
      pieces.add(late);
      pieces.add('more');
      expect(splitOf(state, text, pieces)).toEqual(splitMarkdown(text));
      expect(splitOf(state, text, pieces).finished).toEqual([]);
    }
  });
});

describe('a long message in pages of segments', () => {
  it('renders many pages exactly as the whole text, loaded whole and streamed', () => {
    const doc = markdownDocument(200);
    const html = renderToStaticMarkup(<Markdown text={doc} />);
    expect(html.match(/data-page=""/g)?.length ?? 0).toBeGreaterThan(2);
    expect(withoutSegments(html)).toBe(whole(doc));
    const state = newSplitState();
    const pieces = new TextPieces('');
    let text = '';
    for (const chunk of markdownChunks(doc, 200)) {
      pieces.add(chunk);
      text += chunk;
      splitOf(state, text, pieces);
    }
    expect(blocks(splitOf(state, text, pieces))).toBe(whole(doc));
  });

  it('renders at once the newest segments that cover the window, counted back across pages, and at least so many', () => {
    // Each segment of page(n, px) is px tall.
    const page = (n: number, px = 100) => ({ key: `k${n}`, segments: Array.from({ length: n }, (_, i) => ({ key: `${n}-${i}`, blocks: [], chars: px, done: true })), done: true });
    const height = (segment: { chars: number }) => segment.chars;
    expect(eagerCounts([page(8), page(1)], height, 200, 1)).toEqual([1, 1]);
    expect(eagerCounts([page(8), page(5)], height, 200, 1)).toEqual([0, 2]);
    expect(eagerCounts([page(8), page(5)], height, 201, 1)).toEqual([0, 3]);
    expect(eagerCounts([page(8), page(1), page(1)], height, 300, 1)).toEqual([1, 1, 1]);
    // One tall segment covers the window alone; one is rendered however little it covers.
    expect(eagerCounts([page(8), page(2, 1_000)], height, 900, 1)).toEqual([0, 1]);
    expect(eagerCounts([page(3)], height, 0, 1)).toEqual([1]);
    expect(eagerCounts([page(1)], height, 5_000, 1)).toEqual([1]);
    expect(eagerCounts([], height, 900, 1)).toEqual([]);
    // A growing message keeps the segment before the open one, covered or not.
    expect(eagerCounts([page(8), page(2, 1_000)], height, 900, 2)).toEqual([0, 2]);
    expect(eagerCounts([page(8), page(1, 1_000)], height, 900, 2)).toEqual([1, 1]);
    expect(eagerCounts([page(8), page(3)], height, 250, 2)).toEqual([0, 3]);
  });

  it('tells a message that grows while shown (it streams) from one shown whole', () => {
    const state = newSplitState();
    expect(grewWhileMounted(state, 5_000)).toBe(false);
    expect(grewWhileMounted(state, 5_000)).toBe(false);
    expect(grewWhileMounted(state, 5_040)).toBe(true);
    // Once growing, for good: older text loaded in front or a shorter render does not undo it.
    expect(grewWhileMounted(state, 100)).toBe(true);
  });

  it("takes a segment's measured height over its estimate", () => {
    const segment = { key: 's', blocks: ['# A heading', 'A paragraph.'], chars: 23, done: true };
    expect(segmentHeight(segment, new Map())).toBe(estimateHeight(segment.blocks));
    expect(segmentHeight(segment, new Map([['s', 640]]))).toBe(640);
  });
});
