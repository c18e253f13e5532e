import { blockChildren } from '../components/transcript/markdown';
import { MarkdownBlockSplitter, type BlockSplit } from '../lib/markdown-blocks';

/** The blocks of a whole text, split in one go: what splitting it as it streams must equal. */
export function splitMarkdown(text: string): BlockSplit {
  return new MarkdownBlockSplitter().split(text);
}

/**
 * The whole text in one parse (a single block, never split): the reference that block-wise
 * rendering must equal.
 */
export function WholeMarkdown({ text }: { text: string }) {
  return <div className="markdown">{blockChildren({ finished: [text], open: '' })}</div>;
}

/**
 * `html` without the segment and page boxes a message's blocks are grouped in (`data-segment`,
 * `data-page`, see markdown.tsx): what is left is the blocks' own markup, which must equal the
 * whole text's.
 */
export function withoutSegments(html: string): string {
  const open: boolean[] = [];
  return html.replace(/<div\b[^>]*>|<\/div>/g, (tag) => {
    if (tag === '</div>') return open.pop() ? '' : tag;
    const segment = / data-(?:segment|page)=""/.test(tag);
    open.push(segment);
    return segment ? '' : tag;
  });
}
