import { memo, useState, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { MarkdownBlockSplitter, type BlockSplit } from '../../lib/markdown-blocks';

const plugins = [remarkGfm];

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

// Links open outside the app window (the host's navigation guard decides what is allowed).
const components: Components = {
  a: ({ node: _node, href, ...props }) =>
    isSafeHref(href) ? <a {...props} href={href} target="_blank" rel="noreferrer noopener" /> : <span className="unsafe-link" title={NOT_OPENED}>{props.children}</span>,
  // An image whose address was refused is its alt text, not an <img src=""> that loads this page again.
  img: ({ node: _node, src, alt, ...props }) =>
    typeof src === 'string' && /^https?:/i.test(src) && isSafeHref(src) ? <img {...props} src={src} alt={alt} /> : <span className="unsafe-link" title={NOT_OPENED}>{alt}</span>,
};

/**
 * One top-level block. No rehype-raw and `skipHtml`: raw HTML from an agent is never
 * rendered. Memoised on the text: a finished block never changes, so it is parsed once (and a
 * code highlighter added here later runs once per closed code block).
 */
const Block = memo(function Block({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={plugins} components={components} skipHtml>
      {text}
    </ReactMarkdown>
  );
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
 * The blocks of a split as children of one container. Blocks are keyed by index, which is
 * stable because finished blocks never change, and separated by the newline that
 * react-markdown puts between top-level elements, so the markup equals that of the whole text
 * rendered at once.
 */
export function blockChildren({ finished, open }: BlockSplit): ReactNode[] {
  const children: ReactNode[] = [];
  finished.forEach((block, i) => {
    if (i > 0) children.push('\n');
    children.push(<Block key={i} text={block} />);
  });
  const tail = withoutTrailingHighSurrogate(open);
  // Blank lines alone make no element, and so no separator, in the whole text either.
  if (!/^[ \t\n]*$/.test(tail)) {
    if (finished.length > 0) children.push('\n');
    children.push(<Block key={finished.length} text={tail} />);
  }
  return children;
}

/**
 * Agent text as Markdown, split into top-level blocks (see MarkdownBlockSplitter): while a
 * message streams, only its last block is parsed again.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  // One splitter per mounted message: it resumes its scan as the text grows.
  const [splitter] = useState(() => new MarkdownBlockSplitter());
  return <div className="markdown">{blockChildren(splitter.split(text))}</div>;
});

/** The whole text in one parse: the reference that block-wise rendering must equal (tests). */
export function WholeMarkdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Block text={text} />
    </div>
  );
}
