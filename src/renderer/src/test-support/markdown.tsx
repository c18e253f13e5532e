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
