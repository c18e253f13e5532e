import { createContext, memo, useContext, useState, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { Element } from 'hast';
import { MarkdownBlockSplitter, type BlockSplit } from '../../lib/markdown-blocks';
import { CodeBlock, isClosedFence } from './code-block';

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
const components: Components = {
  a: ({ node: _node, href, ...props }) =>
    isSafeHref(href) ? <a {...props} href={href} target="_blank" rel="noreferrer noopener" /> : <span className="unsafe-link" title={NOT_OPENED}>{props.children}</span>,
  // An image whose address was refused is its alt text, not an <img src=""> that loads this page again.
  img: ({ node: _node, src, alt, ...props }) =>
    typeof src === 'string' && /^https?:/i.test(src) && isSafeHref(src) ? <img {...props} src={src} alt={alt} /> : <span className="unsafe-link" title={NOT_OPENED}>{alt}</span>,
  pre: Pre,
};

/**
 * One top-level block. No rehype-raw and `skipHtml`: raw HTML from an agent is never
 * rendered. Memoised on the text: a finished block never changes, so it is parsed once and
 * its code blocks highlighted once.
 */
const Block = memo(function Block({ text }: { text: string }) {
  return (
    <BlockSource value={text}>
      <ReactMarkdown remarkPlugins={plugins} components={components} skipHtml>
        {text}
      </ReactMarkdown>
    </BlockSource>
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
